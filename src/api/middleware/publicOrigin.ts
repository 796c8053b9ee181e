import { isIP } from 'node:net';

import type { Context } from 'koa';

/** Django's own check of a host name with an optional port (`validate_host`'s syntax). */
const HOST_SYNTAX = /^([a-z0-9.-]+|\[[a-f0-9]*:[a-f0-9.:]+\])(:[0-9]+)?$/i;

/** Which forwarding headers of this request count. */
export interface ForwardedTrust {
  /** X-Forwarded-Proto: the peer is a trusted proxy (TRUSTED_PROXIES). */
  proto: boolean;
  /** X-Forwarded-Host: that, and USE_X_FORWARDED_HOST is on. */
  host: boolean;
}

/**
 * The origin the client addressed, which every absolute link (`url`, `next`, the schema's
 * server) is built on.
 *
 * Like NetBox (SECURE_PROXY_SSL_HEADER, USE_X_FORWARDED_HOST), a TLS-terminating proxy's
 * `X-Forwarded-Proto: https` and `X-Forwarded-Host` can be taken, so links behind it do
 * not come out as the proxy's plain-HTTP upstream address; but only from a peer in
 * TRUSTED_PROXIES, and the host only when USE_X_FORWARDED_HOST says the proxy sets it.
 * NetBox takes both from anyone and relies on ALLOWED_HOSTS; without that list, a
 * client's own X-Forwarded-Host passed through a proxy that does not set the header
 * (nginx passes it on unless told otherwise) would put the client's host into the links
 * (and `next`, which pynetbox follows with its token) of pages a shared cache may keep.
 * Most proxies keep the client's Host, which needs no forwarded host at all.
 *
 * A host that is not a host name (a forwarded one, or a malformed or missing Host) is
 * never echoed into links: a forwarded one is ignored, and without a usable Host the
 * address the request reached stands in, as Django falls back to SERVER_NAME.
 */
export function publicOrigin(ctx: Context, trust: ForwardedTrust): string {
  const forwardedProto = trust.proto ? nearestValue(ctx.get('X-Forwarded-Proto')).toLowerCase() : '';
  const scheme = forwardedProto === 'https' ? 'https' : ctx.protocol;
  const forwardedHost = trust.host ? nearestValue(ctx.get('X-Forwarded-Host')) : '';
  const host = HOST_SYNTAX.test(forwardedHost)
    ? forwardedHost
    : HOST_SYNTAX.test(ctx.host)
      ? ctx.host
      : localAddress(ctx);
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
