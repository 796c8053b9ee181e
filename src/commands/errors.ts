import type { FieldErrors } from '../models/types.js';

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

/** The writer can no longer guarantee durability (the log failed); the process must restart. */
export class WriterUnavailableError extends Error {}

export function hasErrors(errors: FieldErrors): boolean {
  return Object.keys(errors).length > 0;
}

export function addError(errors: FieldErrors, field: string, message: string): void {
  (errors[field] ??= []).push(message);
}
