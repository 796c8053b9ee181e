/**
 * Free host addresses of an object that holds addresses (a prefix, an IP range),
 * listed lowest first and handed out lowest first to new IP addresses, which take the
 * object's mask length and VRF.
 */
import { isPlainObject, type Allocator, type DetailAction } from './DetailAction.js';
import type { LookupView, StoredObject } from '../types.js';
import { AddressSet, type Interval } from './addressSet.js';
import { addressSortKey, formatAddress, lastAddress, networkAddress, parseCidr, sortKeyValue, type Cidr } from '../values/ipNetworks.js';

/** The addresses an object hands out, and how a new address is written there. */
export interface AddressPool {
  free: AddressSet;
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
      for (const value of pool.free.addresses()) {
        if (limit !== null && entries.length >= limit) break;
        entries.push({
          family: pool.free.family,
          address: `${formatAddress(pool.free.family, value)}/${pool.maskLength}`,
          vrf: { nested: 'ipam.vrf', id: pool.vrf },
        });
      }
      return entries;
    },
    async allocate(parent, requests, { view }) {
      const pool = await poolOf(parent, view);
      const size = pool?.free.size ?? 0n;
      if (!pool || size < BigInt(requests.length)) {
        const label = pool?.label ?? String(parent.display ?? '');
        return { conflict: `An insufficient number of IP addresses are available within ${label} (${requests.length} requested, ${size} available)` };
      }
      const { free } = pool;
      const addresses = free.addresses();
      const inputs = requests.map((request) => {
        const value = addresses.next().value as bigint;
        // Anything but an object is left for the created model's checks to refuse.
        if (!isPlainObject(request)) return request;
        return { ...request, address: `${formatAddress(free.family, value)}/${pool.maskLength}`, vrf: pool.vrf };
      });
      return { inputs };
    },
  };
}

/** Host addresses (mask ignored) of the IP addresses lying in `first`..`last`. */
async function usedAddresses(view: LookupView, family: 4 | 6, first: bigint, last: bigint, inVrf: (vrf: number | null) => boolean): Promise<Interval[]> {
  // Ranged on the address order alone: a VRF term would send the look-up through the VRF index.
  const ips = await view.find('ipam.ipaddress', { _address: { $gte: addressSortKey(family, first), $lte: addressSortKey(family, last) } });
  const used: Interval[] = [];
  for (const ip of ips) {
    if (!inVrf(vrfOf(ip))) continue;
    const value = hostValue(ip, family);
    if (value !== null) used.push({ first: value, last: value });
  }
  return used;
}

/** The host address of an IP address, from its hidden sort key where the document has one. */
function hostValue(ip: StoredObject, family: 4 | 6): bigint | null {
  if (typeof ip._address === 'string') return sortKeyValue(ip._address, family);
  const host = parseCidr(String(ip.address));
  return host && host.family === family ? host.value : null;
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
  const vrf = vrfOf(prefix);
  const label = String(prefix.display ?? prefix.prefix);
  if (prefix.mark_utilized === true) return { free: AddressSet.empty(cidr.family), maskLength: cidr.prefixlen, vrf, label };
  const first = networkAddress(cidr);
  const last = lastAddress(cidr);
  const anyVrf = vrf === null && prefix.status === 'container';
  const used = await usedAddresses(view, cidr.family, first, last, (ipVrf) => anyVrf || ipVrf === vrf);
  const ranges = await rangesInside(view, cidr, vrf);
  const reserved: Interval[] = [];
  const whole = prefix.is_pool === true || (cidr.family === 4 ? cidr.prefixlen >= 31 : cidr.prefixlen >= 127);
  if (!whole) {
    reserved.push({ first, last: first });
    if (cidr.family === 4) reserved.push({ first: last, last });
  }
  const free = AddressSet.span(cidr.family, first, last).without([...used, ...ranges, ...reserved]);
  return { free, maskLength: cidr.prefixlen, vrf, label };
};

/**
 * An IP range's free addresses: every address from start to end (both included, no
 * network or broadcast rule) but the hosts of its VRF's IP addresses. Addresses take the
 * start address's mask length. For the IP range model's `available-ips`:
 * `{ path: 'available-ips', creates: 'ipam.ipaddress', allocator: addressAllocator(rangeAddressPool) }`.
 */
export const rangeAddressPool: AddressPoolOf = async (range, view) => {
  const start = parseCidr(String(range.start_address));
  const end = parseCidr(String(range.end_address));
  if (!start || !end || start.family !== end.family) return null;
  const vrf = vrfOf(range);
  const used = await usedAddresses(view, start.family, start.value, end.value, (ipVrf) => ipVrf === vrf);
  const free = AddressSet.span(start.family, start.value, end.value).without(used);
  return { free, maskLength: start.prefixlen, vrf, label: String(range.display ?? '') };
};

/** A prefix's `available-ips`. */
export const prefixAvailableIps: DetailAction = {
  path: 'available-ips',
  creates: 'ipam.ipaddress',
  allocator: addressAllocator(prefixAddressPool),
};
