import type { Context, Next } from 'koa';

import { ValidationError } from '../../errors/requestErrors.js';
import { type BodyLimits, readRequestBody, refuseBody } from './readRequestBody.js';
import { BODY_NOT_UTF8, decodeUtf8, hasLoneSurrogate } from './strictUtf8.js';

const MAX_DEPTH = 32;

export interface JsonBodyLimits extends BodyLimits {
  /** Most elements a top-level list (a bulk request's items) may hold; 0 or absent: no cap. */
  maxItems?: number;
}

/**
 * Request bodies are JSON only: another media type is 415, a body over the limit 413,
 * one not sent in time 408, bytes that are not UTF-8 or malformed JSON 400, and
 * absurdly deep nesting 400 before anything looks at it. So is a list of more items
 * than a bulk request may hold: the writer is single, and 100,000 small items (well
 * under the byte limit) held it, and every read, for 20 s.
 */
export function readJsonBody(limits: JsonBodyLimits) {
  return async (ctx: Context, next: Next) => {
    if (!['POST', 'PUT', 'PATCH', 'DELETE'].includes(ctx.method)) return next();
    const length = Number(ctx.get('Content-Length') || 0);
    const chunked = ctx.get('Transfer-Encoding') !== '';
    if (length === 0 && !chunked) {
      ctx.state.body = undefined;
      return next();
    }
    const type = ctx.get('Content-Type');
    if (!ctx.is('application/json')) {
      ctx.status = 415;
      ctx.body = { detail: `Unsupported media type "${type.split(';')[0]}" in request.` };
      return;
    }
    if (length > limits.maxBytes) {
      refuseBody(ctx, { outcome: 'tooLarge' }, limits);
      return;
    }
    const read = await readRequestBody(ctx.req, limits);
    if (read.outcome !== 'complete') {
      refuseBody(ctx, read, limits);
      return;
    }
    const text = decodeUtf8(read.bytes);
    if (text === null) {
      ctx.status = 400;
      ctx.body = { detail: BODY_NOT_UTF8 };
      return;
    }
    if (text.trim() === '') {
      ctx.state.body = undefined;
      return next();
    }
    try {
      ctx.state.body = JSON.parse(text);
    } catch (error) {
      ctx.status = 400;
      ctx.body = { detail: `JSON parse error - ${(error as Error).message}` };
      return;
    }
    const items = Array.isArray(ctx.state.body) ? ctx.state.body.length : 0;
    if (limits.maxItems && items > limits.maxItems) {
      throw new ValidationError({
        non_field_errors: [`A request may hold at most ${limits.maxItems} items; this one holds ${items}.`],
      });
    }
    if (depthOf(ctx.state.body) > MAX_DEPTH)
      throw new ValidationError({ non_field_errors: ['JSON nested too deeply.'] });
    if (hasLoneSurrogate(ctx.state.body)) {
      ctx.status = 400;
      ctx.body = {
        detail: 'JSON parse error - a string holds a lone surrogate (\\ud800-\\udfff), which is no character.',
      };
      return;
    }
    return next();
  };
}

function depthOf(value: unknown, depth = 0): number {
  if (depth > MAX_DEPTH || value === null || typeof value !== 'object') return depth;
  let max = depth;
  for (const child of Object.values(value as Record<string, unknown>)) max = Math.max(max, depthOf(child, depth + 1));
  return max;
}
