import type { Context, Next } from 'koa';

import { PastStatesBusyError } from '../../audit/PastStates.js';
import {
  ConflictError,
  NotFoundError,
  PermissionDeniedError,
  PreconditionFailedError,
  ValidationError,
  WriterUnavailableError,
} from '../../errors/requestErrors.js';
import { LogReadUnavailableError } from '../../events/LogReadUnavailableError.js';
import { ReadStoreUnavailableError } from '../../projections/ReadStoreUnavailableError.js';

/** Turns failures into NetBox's error shapes; anything unexpected is a 500 without internals. */
export function errorResponses(log: (entry: Record<string, unknown>) => void) {
  return async (ctx: Context, next: Next) => {
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined) {
        ctx.body = { detail: 'Not found.' };
        ctx.status = 404; // setting a body without an explicit status would make it 200
      }
    } catch (error) {
      if (error instanceof ValidationError) {
        ctx.status = 400;
        ctx.body = error.body;
      } else if (error instanceof NotFoundError) {
        ctx.status = 404;
        ctx.body = { detail: 'Not found.' };
      } else if (error instanceof ConflictError) {
        ctx.status = 409;
        ctx.body = { detail: error.message };
      } else if (error instanceof PreconditionFailedError) {
        ctx.status = 412;
        ctx.body = { detail: error.message };
      } else if (error instanceof PermissionDeniedError) {
        ctx.status = 403;
        ctx.body = { detail: error.message };
      } else if (error instanceof WriterUnavailableError) {
        ctx.status = 503;
        ctx.set('Retry-After', String(error.retryAfterSeconds));
        ctx.body = { detail: error.detail ?? 'The service cannot accept writes right now; retry shortly.' };
        // An event log outage is logged once per incident by the writer, not once per request.
        if (!error.logged) log({ level: 'error', requestId: ctx.state.requestId, msg: error.message });
      } else if (error instanceof PastStatesBusyError) {
        // A past view's large overlay found others queued (OverlayGate), after the request began.
        ctx.status = 503;
        ctx.set('Retry-After', String(error.retryAfterSeconds));
        ctx.body = { detail: error.message };
      } else if (error instanceof ReadStoreUnavailableError || error instanceof LogReadUnavailableError) {
        ctx.status = 503;
        ctx.set('Retry-After', String(error.retryAfterSeconds));
        ctx.body = {
          detail:
            error instanceof LogReadUnavailableError
              ? 'The event log did not answer in time (change history is read from it); retry shortly.'
              : 'The read models did not answer in time; retry shortly.',
        };
        log({ level: 'error', requestId: ctx.state.requestId, msg: error.message });
      } else if (isHttpError(error)) {
        ctx.status = error.status;
        ctx.body = { detail: error.expose ? error.message : 'Request failed.' };
      } else {
        ctx.status = 500;
        ctx.body = { detail: 'Server error.' };
        log({ level: 'error', requestId: ctx.state.requestId, msg: (error as Error)?.stack ?? String(error) });
      }
    }
  };
}

function isHttpError(error: unknown): error is { status: number; message: string; expose?: boolean } {
  const status = (error as { status?: unknown })?.status;
  return typeof status === 'number' && status >= 400 && status < 500;
}
