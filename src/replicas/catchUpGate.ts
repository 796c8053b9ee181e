import type { Context, Next } from 'koa';

import type { Readiness } from './Readiness.js';

/** What a replica answers while it catches up: its health checks, nothing that reads the registry. */
const ALWAYS = /^\/(healthz|readyz|livez|metrics)\/?$/;

/**
 * A read replica starts serving before its read models have caught up with the log, so
 * that its /readyz can say so; until then every other request is answered 503 with
 * Retry-After rather than from half-built read models.
 */
export function catchUpGate(readiness: Readiness) {
  return async (ctx: Context, next: Next) => {
    if (readiness.isCaughtUp) return next();
    if (ALWAYS.test(ctx.path)) {
      // They need no credentials, and a token looked up in half-built read models could
      // be cached as it was before a later change the cache would then never hear of.
      delete ctx.request.headers.authorization;
      delete ctx.request.headers.cookie;
      return next();
    }
    const { position, head } = readiness.report();
    ctx.status = 503;
    ctx.set('Retry-After', '1');
    ctx.set('Cache-Control', 'no-store');
    ctx.body = {
      detail: `This replica is catching up with the change log (position ${position} of ${head}); retry shortly.`,
    };
  };
}
