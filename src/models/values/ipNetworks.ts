/**
 * IP arithmetic for the IPAM models: parsing and canonical text of networks and host
 * addresses, and the hidden read-model keys used for network ordering and containment.
 *
 * Sort keys are `<family digit><32 lower-case hex digits>` so that plain bytewise string
 * comparison (MongoDB's) orders IPv4 before IPv6 and addresses numerically.
 */
import { isIP } from 'node:net';

import type { FieldErrors } from '../../errors/fieldErrors.js';

export type Family = 4 | 6;

export interface IpValue {
  family: Family;
  value: bigint;
}

export interface Cidr extends IpValue {
  prefixlen: number;
}

const BITS: Record<Family, number> = { 4: 32, 6: 128 };

function allOnes(family: Family): bigint {
  return (1n << BigInt(BITS[family])) - 1n;
}

function parseIPv4(text: string): bigint | null {
  if (isIP(text) !== 4) return null;
  // isIP has checked the four decimal octets: their number is built in plain arithmetic, one BigInt at the end.
  let value = 0;
  let octet = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 46) {
      value = value * 256 + octet;
      octet = 0;
    } else octet = octet * 10 + (code - 48);
  }
  return BigInt(value * 256 + octet);
}

function parseIPv6(text: string): bigint | null {
  if (text.includes('%') || isIP(text) !== 6) return null;
  let body = text;
  // An embedded dotted IPv4 tail becomes two hex groups.
  const lastColon = body.lastIndexOf(':');
  const tail = body.slice(lastColon + 1);
  if (tail.includes('.')) {
    const v4 = parseIPv4(tail);
    if (v4 === null) return null;
    body = `${body.slice(0, lastColon + 1)}${(v4 >> 16n).toString(16)}:${(v4 & 0xffffn).toString(16)}`;
  }
  const [head, rest] = body.split('::') as [string, string | undefined];
  const headGroups = head === '' ? [] : head.split(':');
  const tailGroups = rest === undefined || rest === '' ? [] : rest.split(':');
  const fill = rest === undefined ? 0 : 8 - headGroups.length - tailGroups.length;
  const groups = [...headGroups, ...Array<string>(fill).fill('0'), ...tailGroups];
  if (groups.length !== 8) return null;
  return groups.reduce((acc, g) => (acc << 16n) | BigInt(parseInt(g, 16)), 0n);
}

/** A bare IPv4 or IPv6 address (no mask, no zone), or null. */
export function parseAddress(text: string): IpValue | null {
  const v4 = parseIPv4(text);
  if (v4 !== null) return { family: 4, value: v4 };
  const v6 = parseIPv6(text);
  if (v6 !== null) return { family: 6, value: v6 };
  return null;
}

/**
 * 'address[/len]' (IPv4 also 'address/255.255.255.0'); without a length the address is
 * a host network (/32 or /128). Host bits are kept. Null when unparseable.
 */
export function parseCidr(input: string): Cidr | null {
  const text = input.trim();
  const slash = text.indexOf('/');
  const address = parseAddress(slash < 0 ? text : text.slice(0, slash));
  if (!address) return null;
  const bits = BITS[address.family];
  if (slash < 0) return { ...address, prefixlen: bits };
  const lenText = text.slice(slash + 1);
  if (/^\d{1,3}$/.test(lenText)) {
    const prefixlen = Number(lenText);
    return prefixlen <= bits ? { ...address, prefixlen } : null;
  }
  if (address.family === 4) {
    const mask = parseIPv4(lenText);
    if (mask === null) return null;
    const binary = mask.toString(2).padStart(32, '0');
    if (!/^1*0*$/.test(binary)) return null;
    return { ...address, prefixlen: binary.indexOf('0') < 0 ? 32 : binary.indexOf('0') };
  }
  return null;
}

export function formatAddress(family: Family, value: bigint): string {
  if (family === 4) {
    // One conversion to a plain number: 32 bits fit, and BigInt shifts per octet cost more.
    const n = Number(value);
    return `${(n >>> 24) & 255}.${(n >>> 16) & 255}.${(n >>> 8) & 255}.${n & 255}`;
  }
  if (value >> 32n === 0xffffn) {
    return `::ffff:${formatAddress(4, value & 0xffffffffn)}`;
  }
  const groups: number[] = [];
  for (let shift = 112n; shift >= 0n; shift -= 16n) groups.push(Number((value >> shift) & 0xffffn));
  // Compress the longest run (leftmost on ties) of two or more zero groups (RFC 5952).
  let bestStart = -1;
  let bestLen = 0;
  for (let i = 0; i < 8;) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLen) {
      bestStart = i;
      bestLen = j - i;
    }
    i = j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (bestLen < 2) return hex.join(':');
  return `${hex.slice(0, bestStart).join(':')}::${hex.slice(bestStart + bestLen).join(':')}`;
}

export function formatCidr(cidr: Cidr): string {
  return `${formatAddress(cidr.family, cidr.value)}/${cidr.prefixlen}`;
}

export function netmask(family: Family, prefixlen: number): bigint {
  const hostBits = BigInt(BITS[family] - prefixlen);
  return allOnes(family) ^ ((1n << hostBits) - 1n);
}

/** The network address (host bits cleared). */
export function networkAddress(cidr: Cidr): bigint {
  return cidr.value & netmask(cidr.family, cidr.prefixlen);
}

/** The last address of the network (host bits set). */
export function lastAddress(cidr: Cidr): bigint {
  return networkAddress(cidr) | (allOnes(cidr.family) ^ netmask(cidr.family, cidr.prefixlen));
}

/** Fixed-width key '<family><32 hex digits>' that sorts bytewise like the address. */
export function addressSortKey(family: Family, value: bigint): string {
  return `${family}${value.toString(16).padStart(32, '0')}`;
}

/** The address a sort key holds, if it is a key of that family (reading it is cheaper than parsing the text). */
export function sortKeyValue(key: unknown, family: Family): bigint | null {
  return typeof key === 'string' && key.length === 33 && key[0] === String(family) ? BigInt(`0x${key.slice(1)}`) : null;
}

export type NetworkKeys = {
  _family: Family;
  /** Sort key of the network address. */
  _network: string;
  /** Sort key of the last address in the network (for containment queries). */
  _last: string;
  _prefixlen: number;
};

/** Hidden keys of a network ('10.0.0.0/8'); null when unparseable. */
export function networkKeys(text: unknown): NetworkKeys | null {
  if (typeof text !== 'string') return null;
  const cidr = parseCidr(text);
  if (!cidr) return null;
  return {
    _family: cidr.family,
    _network: addressSortKey(cidr.family, networkAddress(cidr)),
    _last: addressSortKey(cidr.family, lastAddress(cidr)),
    _prefixlen: cidr.prefixlen,
  };
}

export type HostKeys = {
  _family: Family;
  /** Sort key of the host address (mask ignored). */
  _address: string;
  _prefixlen: number;
};

/**
 * Host keys of recently seen addresses, by text: an address is parsed when its write is
 * decided (normalised), then derived when the writer stages it and again when the
 * projector applies its event; in a bulk create that parsing was most of the IP work.
 * Bounded: emptied when full. The keys are frozen, as they are shared.
 */
const recentHostKeys = new Map<string, Readonly<HostKeys>>();
const RECENT_HOST_KEYS = 4096;

function rememberHostKeys(text: string, cidr: Cidr): Readonly<HostKeys> {
  const keys = Object.freeze({
    _family: cidr.family,
    _address: addressSortKey(cidr.family, cidr.value),
    _prefixlen: cidr.prefixlen,
  });
  if (recentHostKeys.size >= RECENT_HOST_KEYS) recentHostKeys.clear();
  recentHostKeys.set(text, keys);
  return keys;
}

/** Hidden keys of a host address with mask ('10.0.0.1/24'); null when unparseable. Shared: do not mutate. */
export function hostKeys(text: unknown): Readonly<HostKeys> | null {
  if (typeof text !== 'string') return null;
  const known = recentHostKeys.get(text);
  if (known) return known;
  const cidr = parseCidr(text);
  return cidr ? rememberHostKeys(text, cidr) : null;
}

export type Normalized = { ok: true; text: string; cidr: Cidr } | { ok: false; message: string };

/** A network: canonical 'network/len'; host bits set is an error naming the network meant. */
export function normalizeNetwork(input: unknown): Normalized {
  const cidr = typeof input === 'string' ? parseCidr(input) : null;
  if (!cidr) return { ok: false, message: `Invalid IP address format: ${String(input)}` };
  const network = networkAddress(cidr);
  if (network !== cidr.value) {
    const meant = formatCidr({ ...cidr, value: network });
    return { ok: false, message: `${formatCidr(cidr)} is not a valid prefix. Did you mean ${meant}?` };
  }
  return { ok: true, text: formatCidr(cidr), cidr };
}

/** A host address with mask: canonical 'address/len' (host bits allowed). */
export function normalizeHost(input: unknown): Normalized {
  const cidr = typeof input === 'string' ? parseCidr(input) : null;
  if (!cidr) return { ok: false, message: `Invalid IP address format: ${String(input)}` };
  return { ok: true, text: formatCidr(cidr), cidr };
}

function normalizeField(
  obj: Record<string, unknown>,
  field: string,
  noun: string,
  normalize: (input: unknown) => Normalized,
): FieldErrors | undefined {
  const value = obj[field];
  if (value === null || value === undefined || value === '') return undefined; // left to the required check
  const result = normalize(value);
  if (!result.ok) return { [field]: [result.message] };
  if (result.cidr.prefixlen === 0) return { [field]: [`Cannot create ${noun} with /0 mask.`] };
  obj[field] = result.text;
  obj.family = result.cidr.family;
  return undefined;
}

/** normalize hook of a network field (prefix, aggregate): canonical text, `family`; /0 is refused. */
export function normalizeNetworkField(
  obj: Record<string, unknown>,
  field: string,
  noun: string,
): FieldErrors | undefined {
  return normalizeField(obj, field, noun, normalizeNetwork);
}

/**
 * normalize hook of a host address field (IP address): canonical text, `family`; /0 is refused.
 * The canonical text's host keys are remembered, so deriving them later does not parse it again.
 */
export function normalizeHostField(obj: Record<string, unknown>, field: string, noun: string): FieldErrors | undefined {
  return normalizeField(obj, field, noun, (input) => {
    const result = normalizeHost(input);
    if (result.ok && !recentHostKeys.has(result.text)) rememberHostKeys(result.text, result.cidr);
    return result;
  });
}
