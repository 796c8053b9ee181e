import type { FieldErrors } from './fieldErrors.js';

/** A write the client got wrong: 400 with NetBox's `{field: [messages]}` (or a list for bulk). */
export class ValidationError extends Error {
  constructor(readonly body: FieldErrors | Array<FieldErrors>) {
    super('validation failed');
  }
}

/** 404 {"detail": "Not found."} */
export class NotFoundError extends Error {
  constructor() {
    super('Not found.');
  }
}

/** 409: a delete refused because protecting relations still point at the object. */
export class ConflictError extends Error {}

/** 403 {"detail": ...} */
export class PermissionDeniedError extends Error {
  constructor(message = 'You do not have permission to perform this action.') {
    super(message);
  }
}

/** 412: If-Match named a version of an object that is no longer current; nothing was written. */
export class PreconditionFailedError extends Error {
  /** `objects`: how to name the stale objects of a bulk request (a detail URL names its own). */
  constructor(readonly objects?: string[]) {
    super(
      objects
        ? `${objects.length === 1 ? '1 object has' : `${objects.length} objects have`} changed since the version named in If-Match: ${objects.join(', ')}`
        : 'The object has changed since the version named in If-Match.',
    );
  }
}

/**
 * 503: the writer cannot make writes durable right now (the event log's storage is full
 * or failing, or the writer stopped); clients should retry after `retryAfterSeconds`.
 */
export class WriterUnavailableError extends Error {
  constructor(
    message: string,
    readonly retryAfterSeconds = 60,
    /** The cause was already logged (once per incident, by the writer): do not log it per request. */
    readonly logged = false,
    /** What the client is told, when it is more than "retry shortly" (e.g. that the write IS committed). */
    readonly detail?: string,
  ) {
    super(message);
  }
}

export function hasErrors(errors: FieldErrors): boolean {
  return Object.keys(errors).length > 0;
}

export function addError(errors: FieldErrors, field: string, message: string): void {
  (errors[field] ??= []).push(message);
}
