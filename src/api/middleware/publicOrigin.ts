import { isIP } from 'node:net';
import type { Context } from 'koa';

/** Django's own check of a host name with an optional port (`validate_host`'s syntax). */
const HOST_SYNTAX = /^([a-z0-9.-]+|\[[a-f0-9]*:[a-f0-9.:]+\])(:[0-9]+)?$/i;

/**
 * The origin the client addressed, which every absolute link (`url`, `next`, the schema's
 * server) is built on.
 *
 * Like NetBox (USE_X_FORWARDED_HOST, SECURE_PROXY_SSL_HEADER), a TLS-terminating proxy's
 * `X-Forwarded-Host` and `X-Forwarded-Proto: https` are taken, so links behind it do not
 * come out as the proxy's plain-HTTP upstream address; but only from a peer in
 * TRUSTED_PROXIES (`fromTrustedProxy`). NetBox takes them from anyone and relies on
 * ALLOWED_HOSTS; without that list, a client's own X-Forwarded-Host passed through a proxy
 * that keeps it would put the client's host into the links (and `next`, which pynetbox
 * follows with its token) of pages a shared cache may keep.
 *
 * A host that is not a host name (a forwarded one, or a malformed or missing Host) is
 * never echoed into links: a forwarded one is ignored, and without a usable Host the
 * address the request reached stands in, as Django falls back to SERVER_NAME.
 */
export function publicOrigin(ctx: Context, fromTrustedProxy: boolean): string {
  const forwardedProto = fromTrustedProxy ? nearestValue(ctx.get('X-Forwarded-Proto')).toLowerCase() : '';
  const scheme = forwardedProto === 'https' ? 'https' : ctx.protocol;
  const forwardedHost = fromTrustedProxy ? nearestValue(ctx.get('X-Forwarded-Host')) : '';
  const host = HOST_SYNTAX.test(forwardedHost) ? forwardedHost : HOST_SYNTAX.test(ctx.host) ? ctx.host : localAddress(ctx);
  return `${scheme}://${host}`;
}

/**
 * A proxy that appends puts its value last, after whatever the client sent: the value of
 * the trusted peer is the last one.
 */
function nearestValue(header: string): string {
  return header.split(',').at(-1)!.trim();
}

function localAddress(ctx: Context): string {
  const { localAddress: address = '127.0.0.1', localPort } = ctx.req.socket;
  const host = isIP(address) === 6 ? `[${address}]` : address;
  return localPort ? `${host}:${localPort}` : host;
}
