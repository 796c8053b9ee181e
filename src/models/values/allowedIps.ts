import { isIP } from 'node:net';

import IPCIDR from 'ip-cidr';

/**
 * A token's `allowed_ips`: IPv4 and IPv6 networks, parsed and matched with ip-cidr.
 * A bare address is a single host (/32 or /128), as netaddr's IPNetwork reads it.
 */
export function normalizeAllowedIps(value: unknown): { networks: string[] | null } | { error: string } {
  if (value === null || value === undefined) return { networks: value === null ? null : [] };
  if (!Array.isArray(value)) return { error: 'Expected a list of items but got type "str".' };
  const networks: string[] = [];
  for (const item of value) {
    if (typeof item !== 'string') return { error: 'Enter a valid IPv4 or IPv6 address with optional mask.' };
    const text = item.trim();
    const family = isIP(text);
    const cidr = family === 4 ? `${text}/32` : family === 6 ? `${text}/128` : text;
    if (!IPCIDR.isValidCIDR(cidr))
      return { error: `Enter a valid IPv4 or IPv6 address with optional mask: ${JSON.stringify(item)}.` };
    networks.push(cidr.toLowerCase());
  }
  return { networks };
}
