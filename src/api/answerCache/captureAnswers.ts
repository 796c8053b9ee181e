import type { Context, Next } from 'koa';

import type { AnswerCache } from './AnswerCache.js';
import { callerKey, plainReadKey } from './plainRead.js';

/** Headers that belong to one response, not to the answer: made afresh for each. */
const PER_RESPONSE = new Set([
  'x-request-id',
  'date',
  'content-length',
  'connection',
  'keep-alive',
  'transfer-encoding',
]);

/**
 * The outermost middleware: keeps a plain read's finished answer (status 200, a body of
 * bytes) for the answer cache, when the view said it came from the live read models
 * (`ctx.state.answerCacheable`), they held every committed change and did not move while
 * it was made.
 */
export function captureAnswers(
  cache: AnswerCache,
  position: () => number,
  head: () => number,
  route: (ctx: Context) => string,
) {
  return async (ctx: Context, next: Next) => {
    const request = cache.enabled ? plainReadKey(ctx.req) : null;
    if (request === null) return next();
    const before = position();
    await next();
    if (ctx.status !== 200 || ctx.state.answerCacheable !== true) return;
    // Made from read models that had every committed change, and did not move meanwhile.
    if (position() !== before || head() !== before) return;
    const body = typeof ctx.body === 'string' ? Buffer.from(ctx.body) : Buffer.isBuffer(ctx.body) ? ctx.body : null;
    if (!body) return;
    const headers: Array<[string, string]> = [];
    for (const [name, value] of Object.entries(ctx.response.headers)) {
      if (PER_RESPONSE.has(name)) continue;
      // A cookie is one caller's, whatever the key says: such an answer is not kept.
      if (name === 'set-cookie' || value === undefined) return;
      headers.push([name, Array.isArray(value) ? value.join(', ') : String(value)]);
    }
    cache.set(request, callerKey(ctx.state.principal?.token), {
      position: before,
      headers,
      body,
      route: route(ctx),
      user: ctx.state.eventUser?.username ?? null,
    });
  };
}
