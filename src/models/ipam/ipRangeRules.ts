/**
 * The decisions about an IP range that need no stored state: how its two addresses must
 * relate, its size, its compact text, and how addresses compare the way NetBox's
 * database (PostgreSQL's inet ordering) compares them for ranges.
 */
import { type Cidr, formatAddress } from '../values/ipNetworks.js';

/** NetBox keeps a range's size in a 32-bit column: a range holds at most this many addresses. */
export const MAX_RANGE_SIZE = 2n ** 32n - 1n;

const BITS = { 4: 32, 6: 128 } as const;

/**
 * PostgreSQL's inet order: family first (IPv4 before IPv6), then the leading bits both
 * masks cover, then the mask length (shorter first), then the whole address. Only
 * addresses with equal masks compare as plain numbers; NetBox's range queries inherit
 * the rest (an address with a shorter mask sorts before every address of a range).
 */
export function inetCompare(a: Cidr, b: Cidr): number {
  if (a.family !== b.family) return a.family - b.family;
  const width = BigInt(BITS[a.family]);
  const common = BigInt(Math.min(a.prefixlen, b.prefixlen));
  const aHead = a.value >> (width - common);
  const bHead = b.value >> (width - common);
  if (aHead !== bHead) return aHead < bHead ? -1 : 1;
  if (a.prefixlen !== b.prefixlen) return a.prefixlen - b.prefixlen;
  return a.value === b.value ? 0 : a.value < b.value ? -1 : 1;
}

/** Is `value` between the range's ends (both included) in inet order? */
export function inetWithin(value: Cidr, start: Cidr, end: Cidr): boolean {
  return inetCompare(start, value) <= 0 && inetCompare(value, end) <= 0;
}

/** What is wrong with a range's two ends on their own, by field; null when they fit together. */
export function rangeEndsError(start: Cidr, end: Cidr): { field: 'end_address' | '__all__'; message: string } | null {
  if (start.family !== end.family) {
    return {
      field: 'end_address',
      message: `Ending address version (IPv${end.family}) does not match starting address (IPv${start.family})`,
    };
  }
  if (start.prefixlen !== end.prefixlen) {
    return {
      field: 'end_address',
      message: `Ending address mask (/${end.prefixlen}) does not match starting address mask (/${start.prefixlen})`,
    };
  }
  // NetBox's wording says "lower" although it requires the end to be higher.
  if (inetCompare(end, start) <= 0) {
    return {
      field: 'end_address',
      message: `Ending address must be lower than the starting address (${formatAddress(start.family, start.value)}/${start.prefixlen})`,
    };
  }
  return null;
}

/** The refusal of a range larger than NetBox can hold, or null. */
export function rangeSizeError(start: Cidr, end: Cidr): string | null {
  return rangeSize(start, end) > MAX_RANGE_SIZE
    ? `Defined range exceeds maximum supported size (${MAX_RANGE_SIZE})`
    : null;
}

/** Number of addresses from start to end, both included. */
export function rangeSize(start: Cidr, end: Cidr): bigint {
  return end.value - start.value + 1n;
}

/**
 * NetBox's compact text of a range, e.g. '192.0.2.10-20/24': the groups equal at the
 * same position in both addresses (anywhere, not only leading ones, as NetBox counts
 * them) are written once, then the start's remaining groups, '-', the end's.
 */
export function rangeText(start: Cidr, end: Cidr): string {
  const separator = start.family === 6 ? ':' : '.';
  const startGroups = formatAddress(start.family, start.value).split(separator);
  const endGroups = formatAddress(end.family, end.value).split(separator);
  const base: string[] = [];
  for (let i = 0; i < Math.min(startGroups.length, endGroups.length); i++)
    if (startGroups[i] === endGroups[i]) base.push(startGroups[i]);
  const rest = (groups: string[]) => groups.slice(base.length).join(separator);
  return `${base.join(separator)}${separator}${rest(startGroups)}-${rest(endGroups)}/${start.prefixlen}`;
}
