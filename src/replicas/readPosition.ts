import type { Context, Next } from 'koa';

import { canonicalUuid } from '../audit/changeQuery.js';

/** The header that carries a log position between a client and the replicas it talks to. */
export const POSITION_HEADER = 'X-Netledger-Position';
/** The same, by the X-Request-ID of the write to be seen: the audit index knows its position. */
export const AFTER_REQUEST_HEADER = 'X-Netledger-After-Request';

export interface PositionSources {
  /** The last position applied to the read models. */
  position(): number;
  /** Resolves once the read models and the audit indexes hold every event up to `position`; stops waiting (drops its waiters) on `signal`. */
  waitFor(position: number, signal: AbortSignal): Promise<void>;
  /** Resolves with the last position of a request's events once they are indexed here (never, for a request that changed nothing); stops waiting on `signal`. */
  positionOfRequest(requestId: string, signal: AbortSignal): Promise<number>;
  /** How long a read waits for a position before it is answered 503. */
  waitMs: number;
}

const TIMED_OUT = Symbol('timed out');

/**
 * Read-your-writes across replicas. Every response says, in X-Netledger-Position, the
 * log position its read models had reached when it was answered: for a write, a
 * position at or after its own last event (a write is answered only once projected).
 * A read (GET, HEAD) that carries the header is answered only once this process has
 * applied that position, waiting at most `waitMs`; then it is answered 503 with
 * Retry-After, saying how far this replica is. A client that echoes the position of its
 * last write (or read) never reads older state from any replica. X-Netledger-After-Request
 * names a write by its X-Request-ID instead (a write that changed nothing is never found:
 * 503 once the wait is over).
 *
 * A response that already names a position (a write the writer answered, forwarded by
 * a replica) keeps the writer's.
 */
export function readPosition(sources: PositionSources) {
  return async (ctx: Context, next: Next) => {
    const position = ctx.get(POSITION_HEADER).trim();
    const request = ctx.get(AFTER_REQUEST_HEADER).trim();
    if ((position !== '' || request !== '') && (ctx.method === 'GET' || ctx.method === 'HEAD')) {
      const errors: Record<string, string[]> = {};
      if (position !== '' && !/^\d{1,15}$/.test(position))
        errors[POSITION_HEADER] = ['Enter a log position (a non-negative integer).'];
      const requestId = request === '' ? null : canonicalUuid(request);
      if (request !== '' && requestId === null) errors[AFTER_REQUEST_HEADER] = ['Enter a valid UUID.'];
      if (Object.keys(errors).length > 0) {
        ctx.status = 400;
        ctx.body = errors;
        return;
      }
      const missing = await reach(sources, position === '' ? 0 : Number(position), requestId);
      if (missing !== null) {
        ctx.status = 503;
        ctx.set('Retry-After', '1');
        ctx.set('Cache-Control', 'no-store');
        ctx.set(POSITION_HEADER, String(sources.position()));
        ctx.body = {
          detail: `This replica has applied the change log up to position ${sources.position()}; ${missing} has not reached it yet. Retry shortly.`,
        };
        return;
      }
    }
    await next();
    if (!ctx.response.get(POSITION_HEADER)) ctx.set(POSITION_HEADER, String(sources.position()));
  };
}

/** Waits (within the bound) for the position and the request; null once both are here, else what is missing, in words. */
async function reach(sources: PositionSources, position: number, requestId: string | null): Promise<string | null> {
  const abort = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<typeof TIMED_OUT>(
    (resolve) => (timer = setTimeout(() => resolve(TIMED_OUT), sources.waitMs)),
  );
  try {
    let wanted = position;
    if (requestId !== null) {
      const found = await Promise.race([sources.positionOfRequest(requestId, abort.signal), timeout]);
      if (found === TIMED_OUT) return `request ${requestId}`;
      wanted = Math.max(wanted, found);
    }
    const done = await Promise.race([sources.waitFor(wanted, abort.signal), timeout]);
    return done === TIMED_OUT ? `position ${wanted}` : null;
  } finally {
    clearTimeout(timer);
    abort.abort();
  }
}
