import type { Context } from 'koa';

/** Django's own check of a host name with an optional port (`validate_host`'s syntax). */
const HOST_SYNTAX = /^([a-z0-9.-]+|\[[a-f0-9]*:[a-f0-9.:]+\])(:[0-9]+)?$/i;

/**
 * The origin the client addressed, which every absolute link (`url`, `next`, the schema's
 * server) is built on. Like NetBox (USE_X_FORWARDED_HOST, SECURE_PROXY_SSL_HEADER), a
 * TLS-terminating proxy's `X-Forwarded-Host` and `X-Forwarded-Proto: https` are taken, so
 * links behind it do not come out as the proxy's plain-HTTP upstream address. A forwarded
 * host that is not a host name is ignored rather than echoed into links.
 */
export function publicOrigin(ctx: Context): string {
  const scheme = firstValue(ctx.get('X-Forwarded-Proto')).toLowerCase() === 'https' ? 'https' : ctx.protocol;
  const forwardedHost = firstValue(ctx.get('X-Forwarded-Host'));
  const host = HOST_SYNTAX.test(forwardedHost) ? forwardedHost : ctx.host;
  return `${scheme}://${host}`;
}

/** A proxy chain appends its values: the first was set by the proxy the client reached. */
function firstValue(header: string): string {
  return header.split(',')[0]!.trim();
}
