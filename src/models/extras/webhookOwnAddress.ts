import net from 'node:net';
import os from 'node:os';

/** Where the service listens (HOST, PORT): a webhook must not deliver to it. */
export interface ListenAddress {
  host: string;
  port: number;
}

/** The URL's port, or its scheme's default. */
function urlPort(url: URL): number {
  return Number(url.port || (url.protocol === 'https:' ? 443 : 80));
}

function isLoopback(address: string): boolean {
  const v4 = address.replace(/^::ffff:/i, '');
  return address === '::1' || (net.isIPv4(v4) && v4.startsWith('127.'));
}

function isUnspecified(address: string): boolean {
  return address === '0.0.0.0' || address === '::' || address === '::ffff:0.0.0.0';
}

/**
 * The addresses the service answers on: the loopback ones (a connection to 0.0.0.0 lands
 * there too), the listening host itself, and every interface's when it listens on all.
 */
function ownAddresses(listen: ListenAddress): (address: string) => boolean {
  const wildcard = listen.host === '' || isUnspecified(listen.host);
  const local = wildcard
    ? new Set(Object.values(os.networkInterfaces()).flatMap((list) => (list ?? []).map((i) => i.address.toLowerCase())))
    : new Set<string>();
  const host = listen.host.toLowerCase();
  return (address) => {
    const a = address.toLowerCase().replace(/^::ffff:(?=\d+\.)/, '');
    return isLoopback(a) || isUnspecified(a) || a === host || local.has(a);
  };
}

/**
 * At delivery time: why an address (the URL's, or one its name resolved to) must not be
 * called, or null. A webhook delivering to the service itself could make a change whose
 * webhooks deliver to it again, without end.
 */
export function ownAddressGuard(listen: ListenAddress): (address: string, port: number) => string | null {
  const own = ownAddresses(listen);
  return (address, port) => {
    if (port !== listen.port || !own(address)) return null;
    return `payload URL refused: ${address}:${port} is this service's own address`;
  };
}

/**
 * At write time: a literal payload URL naming the service's own listening address (a
 * loopback host, `localhost`, or HOST, with PORT), as a message, or null. A URL built by
 * a template, or a name that only resolves there, is left to the delivery-time check.
 */
export function ownPayloadUrl(payloadUrl: string, listen: ListenAddress | undefined): string | null {
  if (!listen || listen.port === 0 || /\{[{%#]/.test(payloadUrl)) return null;
  let url: URL;
  try {
    url = new URL(payloadUrl);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  const host = url.hostname
    .replace(/^\[(.*)\]$/, '$1')
    .toLowerCase()
    .replace(/\.$/, '');
  const named = host === 'localhost' || host.endsWith('.localhost') || host === listen.host.toLowerCase();
  const own = named || (net.isIP(host) !== 0 && ownAddresses(listen)(host));
  if (!own || urlPort(url) !== listen.port) return null;
  return "A webhook cannot deliver to this service's own address: its deliveries could trigger webhooks without end.";
}
