/**
 * A prefix's free networks: its address space less the prefixes of its VRF inside it,
 * listed as the fewest CIDR blocks, and handed out to new prefixes by requested length.
 */
import type { DetailAction } from '../detailEndpoints.js';
import type { LookupView } from '../lookupView.js';
import type { StoredObject } from '../storedObject.js';
import {
  addressSortKey,
  type Cidr,
  formatCidr,
  lastAddress,
  networkAddress,
  parseCidr,
  sortKeyValue,
} from '../values/ipNetworks.js';
import { AddressSet, type Interval } from './addressSet.js';
import { isPlainObject } from './plainObject.js';

const INSUFFICIENT = 'Insufficient space is available to accommodate the requested prefix size(s)';

/** The address space of `prefix` not covered by a prefix of the same VRF strictly inside it. */
export async function freeNetworks(
  prefix: StoredObject,
  view: LookupView,
): Promise<{ cidr: Cidr; free: AddressSet } | null> {
  const cidr = parseCidr(String(prefix.prefix));
  if (!cidr) return null;
  const first = networkAddress(cidr);
  const last = lastAddress(cidr);
  const vrf = typeof prefix.vrf === 'number' ? prefix.vrf : null;
  // Ranged on the network order alone: a VRF term would send the look-up through the VRF index.
  const candidates = await view.find('ipam.prefix', {
    _network: { $gte: addressSortKey(cidr.family, first), $lte: addressSortKey(cidr.family, last) },
    _prefixlen: { $gt: cidr.prefixlen },
  });
  const taken: Interval[] = [];
  for (const child of candidates) {
    if ((typeof child.vrf === 'number' ? child.vrf : null) !== vrf) continue;
    const childFirst = sortKeyValue(child._network, cidr.family);
    const childLast = sortKeyValue(child._last, cidr.family);
    if (childFirst !== null && childLast !== null) taken.push({ first: childFirst, last: childLast });
  }
  return { cidr, free: AddressSet.of(cidr).without(taken) };
}

/** A request's prefix_length problem, in NetBox's words (its messages are bare strings, not lists). */
function lengthProblem(request: Record<string, unknown>, family: 4 | 6): Record<string, unknown> | null {
  const length = request.prefix_length;
  if (length === undefined || length === null) return { prefix_length: 'this field can not be missing' };
  if (typeof length !== 'number' || !Number.isInteger(length)) return { prefix_length: 'this field must be int type' };
  if (length > (family === 4 ? 32 : 128))
    return { prefix_length: `Invalid prefix length (${length}) for IPv${family}` };
  return null;
}

/** A prefix's `available-prefixes`. */
export const prefixAvailablePrefixes: DetailAction = {
  path: 'available-prefixes',
  creates: 'ipam.prefix',
  allocator: {
    shape: {
      entry: { family: 'integer', prefix: 'string', vrf: { nested: 'ipam.vrf', nullable: true } },
      limited: false,
      assigned: ['prefix', 'vrf'],
      extra: [
        {
          name: 'prefix_length',
          type: 'integer',
          required: true,
          min: 0,
          max: 128,
          help: 'Length of the prefix to create (at most 32 for IPv4).',
        },
      ],
    },
    async available(prefix, view) {
      const space = await freeNetworks(prefix, view);
      if (!space) return [];
      const vrf = { nested: 'ipam.vrf', id: typeof prefix.vrf === 'number' ? prefix.vrf : null };
      return [...space.free.blocks()].map((block) => ({ family: block.family, prefix: formatCidr(block), vrf }));
    },
    /**
     * Requests are served in order, each from the lowest free block at least as large as
     * it asks, and take the parent's VRF; a request that cannot be served fails them all.
     */
    async allocate(prefix, requests, { view, checkFields }) {
      const space = await freeNetworks(prefix, view);
      if (!space) return { conflict: INSUFFICIENT };
      const problems = await Promise.all(
        requests.map(async (request) =>
          isPlainObject(request) ? lengthProblem(request, space.cidr.family) : (await checkFields([request]))[0],
        ),
      );
      if (problems.some((p) => p !== null && Object.keys(p).length > 0))
        return { invalid: problems.map((p) => p ?? {}) };
      let free = space.free;
      const inputs = [];
      for (const request of requests as Array<Record<string, unknown>>) {
        const network = free.firstNetworkOf(request.prefix_length as number);
        if (!network) return { conflict: INSUFFICIENT };
        free = free.withoutNetwork(network);
        inputs.push({
          ...request,
          prefix: formatCidr(network),
          vrf: typeof prefix.vrf === 'number' ? prefix.vrf : null,
        });
      }
      return { inputs };
    },
  },
};
