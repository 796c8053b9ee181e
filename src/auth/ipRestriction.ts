import { isIP } from 'node:net';

import IPCIDR from 'ip-cidr';

// Parsing a token's allowed_ips is a fact of the token model; matching addresses against them is auth's.
export { normalizeAllowedIps } from '../models/values/allowedIps.js';

/** The client address in canonical form: IPv4-mapped IPv6 (::ffff:a.b.c.d) becomes IPv4; null when not an address. */
export function canonicalAddress(raw: string | undefined | null): string | null {
  if (!raw) return null;
  let text = raw.trim();
  if (text.startsWith('[') && text.endsWith(']')) text = text.slice(1, -1);
  const zone = text.indexOf('%');
  if (zone >= 0) text = text.slice(0, zone);
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(text);
  if (mapped) text = mapped[1];
  return isIP(text) ? text.toLowerCase() : null;
}

/** At most this many (address → verdict) answers are remembered per token. */
const VERDICT_CACHE = 64;

/**
 * The networks of one token, compiled once. A verdict per client address is remembered,
 * so the ip-cidr match (tens of µs) runs once per address rather than on every request.
 */
export class AllowedNetworks {
  private readonly networks: Array<{ family: 4 | 6; cidr: IPCIDR }> = [];
  private readonly verdicts = new Map<string, boolean>();

  constructor(list: readonly string[]) {
    for (const item of list) {
      try {
        const family = isIP(item.split('/')[0]) as 0 | 4 | 6;
        if (family !== 0) this.networks.push({ family, cidr: new IPCIDR(item) });
      } catch {
        // a network that does not parse admits nobody
      }
    }
  }

  /** `address` must be canonical (see canonicalAddress). */
  permits(address: string): boolean {
    const known = this.verdicts.get(address);
    if (known !== undefined) return known;
    const family = isIP(address);
    const verdict = family !== 0 && this.networks.some((n) => n.family === family && n.cidr.contains(address));
    if (this.verdicts.size >= VERDICT_CACHE) this.verdicts.delete(this.verdicts.keys().next().value!);
    this.verdicts.set(address, verdict);
    return verdict;
  }
}
