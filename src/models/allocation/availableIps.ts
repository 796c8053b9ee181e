/**
 * Free host addresses of an object that holds addresses (a prefix, an IP range),
 * listed lowest first and handed out lowest first to new IP addresses, which take the
 * object's mask length and VRF.
 */
import type { Allocator, DetailAction } from '../detailEndpoints.js';
import type { FreeAddressQuery, LookupView } from '../lookupView.js';
import type { StoredObject } from '../storedObject.js';
import { type Cidr, type Family, formatAddress, lastAddress, networkAddress, parseCidr } from '../values/ipNetworks.js';
import { AddressSet, type Interval } from './addressSet.js';
import { freeAddressesOf } from './freeAddresses.js';
import { isPlainObject } from './plainObject.js';

/** The addresses an object hands out, and how a new address is written there. */
export interface AddressPool {
  family: Family;
  /** Its lowest `limit` free addresses (Infinity: all), lowest first. */
  free(limit: number): Promise<AddressSet>;
  /** Mask length of the addresses handed out. */
  maskLength: number;
  /** VRF of the addresses handed out (null: the global table). */
  vrf: number | null;
  /** The object as messages name it, e.g. '10.0.0.0/24'. */
  label: string;
}

/** The pool of an object; null when the object holds no parsable address space. */
export type AddressPoolOf = (parent: StoredObject, view: LookupView) => Promise<AddressPool | null>;

/** An allocator of host addresses out of whatever pool `poolOf` describes. */
export function addressAllocator(poolOf: AddressPoolOf): Allocator {
  return {
    shape: {
      entry: { family: 'integer', address: 'string', vrf: { nested: 'ipam.vrf', nullable: true } },
      limited: true,
      assigned: ['address', 'vrf'],
    },
    async available(parent, view, limit) {
      const pool = await poolOf(parent, view);
      if (!pool) return [];
      const entries = [];
      for (const value of (await pool.free(limit ?? Infinity)).addresses()) {
        entries.push({
          family: pool.family,
          address: `${formatAddress(pool.family, value)}/${pool.maskLength}`,
          vrf: { nested: 'ipam.vrf', id: pool.vrf },
        });
      }
      return entries;
    },
    async allocate(parent, requests, { view }) {
      const pool = await poolOf(parent, view);
      // Fewer than asked is every free address there is.
      const free = pool ? await pool.free(requests.length) : null;
      const size = free?.size ?? 0n;
      if (!pool || !free || size < BigInt(requests.length)) {
        const label = pool?.label ?? String(parent.display ?? '');
        return {
          conflict: `An insufficient number of IP addresses are available within ${label} (${requests.length} requested, ${size} available)`,
        };
      }
      const addresses = free.addresses();
      const inputs = requests.map((request) => {
        const value = addresses.next().value as bigint;
        // Anything but an object is left for the created model's checks to refuse.
        if (!isPlainObject(request)) return request;
        return { ...request, address: `${formatAddress(pool.family, value)}/${pool.maskLength}`, vrf: pool.vrf };
      });
      return { inputs };
    },
  };
}

/** Where the IP addresses are that use up an address space. */
function ipAddressQuery(
  family: Family,
  first: bigint,
  last: bigint,
  vrf: number | null | 'any',
  taken: Interval[],
  limit: number,
): FreeAddressQuery {
  return {
    collection: 'ipam.ipaddress',
    field: '_address',
    family,
    first,
    last,
    ...(vrf === 'any' ? {} : { scope: { field: 'vrf', value: vrf } }),
    taken,
    limit,
  };
}

/** The addresses of IP ranges of the VRF lying wholly inside `cidr`. */
async function rangesInside(view: LookupView, cidr: Cidr, vrf: number | null): Promise<Interval[]> {
  const first = networkAddress(cidr);
  const last = lastAddress(cidr);
  const inside = (text: unknown) => {
    const host = typeof text === 'string' ? parseCidr(text) : null;
    return host && host.family === cidr.family && host.value >= first && host.value <= last ? host.value : null;
  };
  const ranges = await view.find('ipam.iprange', { vrf });
  const out: Interval[] = [];
  for (const range of ranges) {
    const start = inside(range.start_address);
    const end = inside(range.end_address);
    if (start !== null && end !== null && start <= end) out.push({ first: start, last: end });
  }
  return out;
}

function vrfOf(obj: StoredObject): number | null {
  return typeof obj.vrf === 'number' ? obj.vrf : null;
}

/**
 * A prefix's free addresses: every address of it but the hosts of its IP addresses (of
 * its VRF; of any VRF for a container in the global table) and the IP ranges of its VRF
 * inside it. Unless it is a pool, an IPv4 prefix longer than /31 keeps its network and
 * broadcast addresses back, and an IPv6 prefix longer than /127 its subnet-router anycast
 * address. A prefix marked utilized has nothing free.
 */
export const prefixAddressPool: AddressPoolOf = async (prefix, view) => {
  const cidr = parseCidr(String(prefix.prefix));
  if (!cidr) return null;
  const family = cidr.family;
  const vrf = vrfOf(prefix);
  const label = String(prefix.display ?? prefix.prefix);
  const maskLength = cidr.prefixlen;
  if (prefix.mark_utilized === true)
    return { family, free: async () => AddressSet.empty(family), maskLength, vrf, label };
  const first = networkAddress(cidr);
  const last = lastAddress(cidr);
  const scope = vrf === null && prefix.status === 'container' ? 'any' : vrf;
  const whole = prefix.is_pool === true || (family === 4 ? cidr.prefixlen >= 31 : cidr.prefixlen >= 127);
  const reserved: Interval[] = [];
  if (!whole) {
    reserved.push({ first, last: first });
    if (family === 4) reserved.push({ first: last, last });
  }
  return {
    family,
    async free(limit) {
      const taken = [...(await rangesInside(view, cidr, vrf)), ...reserved];
      return freeAddressesOf(view, ipAddressQuery(family, first, last, scope, taken, limit));
    },
    maskLength,
    vrf,
    label,
  };
};

/**
 * An IP range's free addresses: every address from start to end (both included, no
 * network or broadcast rule) but the hosts of its VRF's IP addresses. Addresses take the
 * start address's mask length. An IP address of the VRF counts as used whatever its mask
 * (NetBox compares in inet order, where an address with another mask may fall outside the
 * range and be handed out twice).
 */
export const rangeAddressPool: AddressPoolOf = async (range, view) => {
  const start = parseCidr(String(range.start_address));
  const end = parseCidr(String(range.end_address));
  if (!start || !end || start.family !== end.family) return null;
  const vrf = vrfOf(range);
  return {
    family: start.family,
    free: (limit) => freeAddressesOf(view, ipAddressQuery(start.family, start.value, end.value, vrf, [], limit)),
    maskLength: start.prefixlen,
    vrf,
    label: String(range.display ?? ''),
  };
};

/** A prefix's `available-ips`. */
export const prefixAvailableIps: DetailAction = {
  path: 'available-ips',
  creates: 'ipam.ipaddress',
  allocator: addressAllocator(prefixAddressPool),
};

/** An IP range's `available-ips`: the same allocator over the range's bounds. */
export const rangeAvailableIps: DetailAction = {
  path: 'available-ips',
  creates: 'ipam.ipaddress',
  allocator: addressAllocator(rangeAddressPool),
};
