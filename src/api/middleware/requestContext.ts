import { randomUUID } from 'node:crypto';

import type { Context, Next } from 'koa';

import { LEAN_REQUEST_ID } from '../answerCache/plainRead.js';
import { type ForwardedTrust, publicOrigin } from './publicOrigin.js';

/**
 * Every request gets a UUID, returned as X-Request-ID and stamped on every event it
 * causes, and every response names the API version. The origin links are built on is
 * worked out once (`ctx.state.baseUrl`); a proxy's forwarding headers count only as far as
 * `forwarded` trusts them (see publicOrigin). No answer may be sniffed into another type
 * (NetBox's Django does the same, SECURE_CONTENT_TYPE_NOSNIFF): most of them carry what
 * clients stored, an uploaded image's bytes or an export's text among them.
 */
export function requestContext(
  apiVersion: string,
  forwarded: (ctx: Context) => ForwardedTrust = () => ({ proto: false, host: false }),
) {
  return async (ctx: Context, next: Next) => {
    // A plain read the answer cache could not answer keeps the id its token check used.
    const requestId = (ctx.req as { [LEAN_REQUEST_ID]?: string })[LEAN_REQUEST_ID] ?? randomUUID();
    ctx.state.requestId = requestId;
    ctx.state.baseUrl = publicOrigin(ctx, forwarded(ctx));
    ctx.set('X-Request-ID', requestId);
    ctx.set('API-Version', apiVersion);
    ctx.set('Vary', 'Accept');
    ctx.set('X-Content-Type-Options', 'nosniff');
    await next();
  };
}

/** NetBox's schema files, whose names end in their format rather than a slash. */
const SLASHLESS = new Set(['/api/swagger.json', '/api/swagger.yaml']);

/** A path without its trailing slash answers 302 to the slashed one, query kept. */
export async function appendSlash(ctx: Context, next: Next) {
  if (ctx.path.startsWith('/api') && !ctx.path.endsWith('/') && !SLASHLESS.has(ctx.path)) {
    ctx.status = 302;
    ctx.redirect(ctx.path + '/' + (ctx.querystring ? `?${ctx.querystring}` : ''));
    ctx.status = 302;
    return;
  }
  await next();
}
