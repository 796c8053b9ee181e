import { createHash } from 'node:crypto';

import type { Context, Next } from 'koa';

interface Remembered {
  fingerprint: string;
  expires: number;
  response: { status: number; body: unknown; location: string | null; etag: string | null } | null; // null while in flight
}

const DAY_MS = 24 * 60 * 60 * 1000;
const MAX_KEYS = 100_000;

/**
 * `Idempotency-Key` on a write: a retry with the same key (same caller, same
 * request) within 24 hours gets the first successful response back instead of
 * writing again. The same key on a different request is 422; a retry while the
 * first is still running is 409. First responses are kept in memory; the keys also
 * travel in the events, so after a restart a retry is recognised from the log and
 * answered from the request's events.
 */
/** An earlier request with this key found in the event log (after a restart): its id and fingerprint. */
export type LoggedRequestLookup = (
  userId: number | null,
  key: string,
) => Promise<{ requestId: string; fingerprint: string } | null>;

export function idempotency(fromLog: LoggedRequestLookup | null = null, now: () => number = Date.now) {
  const remembered = new Map<string, Remembered>();
  return async (ctx: Context, next: Next) => {
    const key = ctx.get('Idempotency-Key');
    if (!key || !['POST', 'PUT', 'PATCH', 'DELETE'].includes(ctx.method)) return next();
    if (key.length > 255) {
      ctx.status = 400;
      ctx.body = { detail: 'Idempotency-Key must be at most 255 characters.' };
      return;
    }
    const caller = ctx.state.principal?.user?.id ?? 'anonymous';
    const slot = `${caller}\0${key}`;
    const fingerprint = createHash('sha256')
      .update(`${ctx.method} ${ctx.path}?${ctx.querystring}\0${JSON.stringify(ctx.state.body ?? null)}`)
      .digest('hex');
    const time = now();
    const previous = remembered.get(slot);
    if (previous && previous.expires > time) {
      if (previous.fingerprint !== fingerprint) {
        ctx.status = 422;
        ctx.body = { detail: 'This Idempotency-Key was already used for a different request.' };
        return;
      }
      if (!previous.response) {
        ctx.status = 409;
        ctx.body = { detail: 'A request with this Idempotency-Key is still being processed.' };
        return;
      }
      ctx.status = previous.response.status;
      ctx.body = previous.response.body;
      if (previous.response.location) ctx.set('Location', previous.response.location);
      if (previous.response.etag) ctx.set('ETag', previous.response.etag);
      ctx.set('Idempotent-Replayed', 'true');
      return;
    }
    ctx.state.idempotency = { key, fingerprint };
    const logged = fromLog ? await fromLog(typeof caller === 'number' ? caller : null, key) : null;
    if (logged) {
      if (logged.fingerprint !== fingerprint) {
        ctx.status = 422;
        ctx.body = { detail: 'This Idempotency-Key was already used for a different request.' };
        return;
      }
      // The first response is gone with the process that sent it: the write views
      // answer from that request's events instead of writing again.
      ctx.state.replayOf = logged.requestId;
      ctx.set('Idempotent-Replayed', 'true');
      return next();
    }
    const entry: Remembered = { fingerprint, expires: time + DAY_MS, response: null };
    remembered.set(slot, entry);
    prune(remembered, time);
    try {
      await next();
    } finally {
      if (ctx.status >= 200 && ctx.status < 300) {
        entry.response = {
          status: ctx.status,
          body: ctx.body,
          location: ctx.response.get('Location') || null,
          etag: ctx.response.get('ETag') || null,
        };
      } else {
        remembered.delete(slot); // nothing was written: the client may retry for real
      }
    }
  };
}

function prune(remembered: Map<string, Remembered>, time: number): void {
  if (remembered.size <= MAX_KEYS) return;
  for (const [slot, entry] of remembered) {
    if (remembered.size <= MAX_KEYS * 0.9) break;
    if (entry.expires <= time || entry.response) remembered.delete(slot);
  }
}
