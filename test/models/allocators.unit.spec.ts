import test from 'ava';

import { addressAllocator, prefixAvailableIps, rangeAddressPool } from '../../src/models/allocation/availableIps.js';
import { prefixAvailablePrefixes } from '../../src/models/allocation/availablePrefixes.js';
import { vlanGroupAvailableVlans } from '../../src/models/allocation/availableVlans.js';
import type { Allocation, AllocationEnvironment, AvailableEntry } from '../../src/models/detailEndpoints.js';
import type { LookupView } from '../../src/models/lookupView.js';
import { registry } from '../../src/models/registry.js';
import type { StoredObject } from '../../src/models/storedObject.js';
import { lookupView } from '../../src/projections/lookupView.js';
import { MemoryReadStore } from '../../src/projections/memory/MemoryReadStore.js';

type Objects = Record<string, Array<Record<string, unknown>>>;

/** A read-model view holding `objects` (ids in order), with their hidden keys derived as the projector would. */
async function viewOf(
  objects: Objects,
): Promise<{ view: LookupView; get(model: string, id: number): Promise<StoredObject> }> {
  const store = new MemoryReadStore();
  await store.open();
  let position = 0;
  for (const [model, list] of Object.entries(objects)) {
    const definition = registry.tryGet(model);
    const changes = list.map((obj, i) => {
      const stored = { id: i + 1, ...obj } as StoredObject;
      const doc = {
        ...stored,
        ...(definition?.hooks?.derive?.(stored) ?? {}),
        display: String(obj.prefix ?? obj.name ?? ''),
        _pos: ++position,
      };
      return { collection: model, id: stored.id, position, doc };
    });
    await store.apply(changes, position);
  }
  const view = lookupView(store);
  return { view, get: async (model, id) => (await view.get(model, id))! };
}

const addressesOf = (entries: AvailableEntry[]) => entries.map((e) => e.address);
const noFieldProblems: AllocationEnvironment['checkFields'] = async (inputs) => inputs.map(() => ({}));
const env = (view: LookupView, checkFields = noFieldProblems): AllocationEnvironment => ({ view, checkFields });
const ips = prefixAvailableIps.allocator;
const prefixes = prefixAvailablePrefixes.allocator;
const vlans = vlanGroupAvailableVlans.allocator;

test('available IPs: an IPv4 prefix keeps its network and broadcast addresses back, unless /31, /32 or a pool', async (t) => {
  const { view, get } = await viewOf({
    'ipam.prefix': [
      { prefix: '10.0.0.0/29', vrf: null, status: 'active' },
      { prefix: '10.0.1.0/31', vrf: null, status: 'active' },
      { prefix: '10.0.2.1/32', vrf: null, status: 'active' },
      { prefix: '10.0.3.0/30', vrf: null, status: 'active', is_pool: true },
    ],
  });
  t.deepEqual(addressesOf(await ips.available(await get('ipam.prefix', 1), view, null)), [
    '10.0.0.1/29',
    '10.0.0.2/29',
    '10.0.0.3/29',
    '10.0.0.4/29',
    '10.0.0.5/29',
    '10.0.0.6/29',
  ]);
  t.deepEqual(addressesOf(await ips.available(await get('ipam.prefix', 2), view, null)), [
    '10.0.1.0/31',
    '10.0.1.1/31',
  ]);
  t.deepEqual(addressesOf(await ips.available(await get('ipam.prefix', 3), view, null)), ['10.0.2.1/32']);
  t.deepEqual(addressesOf(await ips.available(await get('ipam.prefix', 4), view, null)), [
    '10.0.3.0/30',
    '10.0.3.1/30',
    '10.0.3.2/30',
    '10.0.3.3/30',
  ]);
});

test('available IPs: an IPv6 prefix keeps only its subnet-router anycast address back, unless /127 or longer', async (t) => {
  const { view, get } = await viewOf({
    'ipam.prefix': [
      { prefix: '2001:db8::/126', vrf: null },
      { prefix: '2001:db8::10/127', vrf: null },
    ],
  });
  const first = await ips.available(await get('ipam.prefix', 1), view, null);
  t.deepEqual(addressesOf(first), ['2001:db8::1/126', '2001:db8::2/126', '2001:db8::3/126']);
  t.is(first[0].family, 6);
  t.deepEqual(addressesOf(await ips.available(await get('ipam.prefix', 2), view, null)), [
    '2001:db8::10/127',
    '2001:db8::11/127',
  ]);
});

test('available IPs: addresses of the same VRF are used, whatever their mask; other VRFs do not count', async (t) => {
  const { view, get } = await viewOf({
    'ipam.prefix': [{ prefix: '10.0.0.0/29', vrf: 1, status: 'active' }],
    'ipam.ipaddress': [
      { address: '10.0.0.1/24', vrf: 1 },
      { address: '10.0.0.3/32', vrf: 1 },
      { address: '10.0.0.2/29', vrf: 2 },
      { address: '10.0.0.4/29', vrf: null },
      { address: '10.0.0.9/29', vrf: 1 },
    ],
  });
  const entries = await ips.available(await get('ipam.prefix', 1), view, null);
  t.deepEqual(addressesOf(entries), ['10.0.0.2/29', '10.0.0.4/29', '10.0.0.5/29', '10.0.0.6/29']);
  t.deepEqual(entries[0].vrf, { nested: 'ipam.vrf', id: 1 }, 'the entries carry the prefix VRF');
});

test('available IPs: a container in the global table counts addresses of every VRF', async (t) => {
  const { view, get } = await viewOf({
    'ipam.prefix': [
      { prefix: '10.0.0.0/29', vrf: null, status: 'container' },
      { prefix: '10.0.0.0/29', vrf: null, status: 'active' },
    ],
    'ipam.ipaddress': [
      { address: '10.0.0.1/29', vrf: 7 },
      { address: '10.0.0.2/29', vrf: null },
    ],
  });
  t.deepEqual(addressesOf(await ips.available(await get('ipam.prefix', 1), view, null)), [
    '10.0.0.3/29',
    '10.0.0.4/29',
    '10.0.0.5/29',
    '10.0.0.6/29',
  ]);
  t.deepEqual(addressesOf(await ips.available(await get('ipam.prefix', 2), view, null)), [
    '10.0.0.1/29',
    '10.0.0.3/29',
    '10.0.0.4/29',
    '10.0.0.5/29',
    '10.0.0.6/29',
  ]);
});

test('available IPs: IP ranges of the VRF lying wholly inside the prefix are used', async (t) => {
  const { view, get } = await viewOf({
    'ipam.prefix': [{ prefix: '10.0.0.0/28', vrf: null, status: 'active' }],
    'ipam.iprange': [
      { start_address: '10.0.0.2/28', end_address: '10.0.0.5/28', vrf: null },
      { start_address: '10.0.0.8/28', end_address: '10.0.0.9/28', vrf: 3 },
      { start_address: '10.0.0.12/24', end_address: '10.0.1.5/24', vrf: null },
    ],
  });
  t.deepEqual(addressesOf(await ips.available(await get('ipam.prefix', 1), view, null)), [
    '10.0.0.1/28',
    '10.0.0.6/28',
    '10.0.0.7/28',
    '10.0.0.8/28',
    '10.0.0.9/28',
    '10.0.0.10/28',
    '10.0.0.11/28',
    '10.0.0.12/28',
    '10.0.0.13/28',
    '10.0.0.14/28',
  ]);
});

test('available IPs: a prefix marked utilized has none; the listing honours its limit', async (t) => {
  const { view, get } = await viewOf({
    'ipam.prefix': [
      { prefix: '10.0.0.0/24', vrf: null, mark_utilized: true },
      { prefix: '10.9.0.0/8', vrf: null },
    ],
  });
  t.deepEqual(await ips.available(await get('ipam.prefix', 1), view, 50), []);
  t.deepEqual(addressesOf(await ips.available(await get('ipam.prefix', 2), view, 3)), [
    '10.0.0.1/8',
    '10.0.0.2/8',
    '10.0.0.3/8',
  ]);
});

test("available IPs of a /16 holding 20,000 addresses: the read store's index answers, no address is read; a view without one scans to the same answer", async (t) => {
  const used = Array.from({ length: 20_000 }, (_, i) => i + 1).filter((i) => i !== 777);
  const { view, get } = await viewOf({
    'ipam.prefix': [{ prefix: '10.2.0.0/16', vrf: null, status: 'active' }],
    'ipam.ipaddress': used.map((i) => ({ address: `10.2.${i >> 8}.${i & 255}/16`, vrf: null })),
  });
  let read = 0;
  const counting: LookupView = {
    ...view,
    async find(model, query, limit) {
      const found = await view.find(model, query, limit);
      if (model === 'ipam.ipaddress') read += found.length;
      return found;
    },
  };
  const prefix = await get('ipam.prefix', 1);
  const listed = addressesOf(await ips.available(prefix, counting, 3));
  t.deepEqual(listed, ['10.2.3.9/16', '10.2.78.33/16', '10.2.78.34/16']);
  t.deepEqual(await ips.allocate(prefix, [{}, {}], env(counting)), {
    inputs: [
      { address: '10.2.3.9/16', vrf: null },
      { address: '10.2.78.33/16', vrf: null },
    ],
  });
  t.is(read, 0);
  const { freeAddresses: _index, ...withoutIndex } = counting;
  t.deepEqual(addressesOf(await ips.available(prefix, withoutIndex, 3)), listed);
  t.is(read, 20_000 - 1, 'the scan reads every address of the prefix');
});

test('allocating IPs: lowest first, with the prefix mask and VRF over whatever the request said', async (t) => {
  const { view, get } = await viewOf({
    'ipam.prefix': [{ prefix: '10.0.0.0/29', vrf: 4, status: 'active' }],
    'ipam.ipaddress': [{ address: '10.0.0.1/29', vrf: 4 }],
  });
  const allocation = await ips.allocate(
    await get('ipam.prefix', 1),
    [{ description: 'a', address: '1.1.1.1/32', vrf: 9 }, {}, 'junk'],
    env(view),
  );
  t.deepEqual(allocation, {
    inputs: [{ description: 'a', address: '10.0.0.2/29', vrf: 4 }, { address: '10.0.0.3/29', vrf: 4 }, 'junk'],
  });
});

test('allocating IPs: more requests than free addresses is a conflict naming both numbers, also when marked utilized', async (t) => {
  const { view, get } = await viewOf({
    'ipam.prefix': [
      { prefix: '10.0.0.0/30', vrf: null },
      { prefix: '10.0.1.0/24', vrf: null, mark_utilized: true },
    ],
  });
  t.deepEqual(await ips.allocate(await get('ipam.prefix', 1), [{}, {}, {}], env(view)), {
    conflict: 'An insufficient number of IP addresses are available within 10.0.0.0/30 (3 requested, 2 available)',
  });
  t.deepEqual(await ips.allocate(await get('ipam.prefix', 2), [{}], env(view)), {
    conflict: 'An insufficient number of IP addresses are available within 10.0.1.0/24 (1 requested, 0 available)',
  });
});

test('available prefixes: the parent less the prefixes of its VRF strictly inside it, as the fewest blocks', async (t) => {
  const { view, get } = await viewOf({
    'ipam.prefix': [
      { prefix: '10.0.0.0/24', vrf: null },
      { prefix: '10.0.0.0/24', vrf: null }, // a duplicate of the parent is not inside it
      { prefix: '10.0.0.64/26', vrf: null },
      { prefix: '10.0.0.72/29', vrf: null }, // inside another child
      { prefix: '10.0.0.0/25', vrf: 5 }, // another VRF
      { prefix: '10.0.1.0/25', vrf: null }, // outside
    ],
  });
  const entries = await prefixes.available(await get('ipam.prefix', 1), view, 1);
  t.deepEqual(
    entries.map((e) => e.prefix),
    ['10.0.0.0/26', '10.0.0.128/25'],
    'never limited',
  );
  t.deepEqual(entries[0], { family: 4, prefix: '10.0.0.0/26', vrf: { nested: 'ipam.vrf', id: null } });
});

test('allocating prefixes: in request order, each from the lowest block large enough, with the parent VRF', async (t) => {
  const { view, get } = await viewOf({
    'ipam.prefix': [
      { prefix: '10.0.0.0/24', vrf: 2 },
      { prefix: '10.0.0.0/26', vrf: 2 },
    ],
  });
  const allocation = await prefixes.allocate(
    await get('ipam.prefix', 1),
    [
      { prefix_length: 25, status: 'reserved' },
      { prefix_length: 27, prefix: '1.0.0.0/8', vrf: null },
      { prefix_length: 27 },
    ],
    env(view),
  );
  t.deepEqual(allocation, {
    inputs: [
      { prefix_length: 25, status: 'reserved', prefix: '10.0.0.128/25', vrf: 2 },
      { prefix_length: 27, prefix: '10.0.0.64/27', vrf: 2 },
      { prefix_length: 27, prefix: '10.0.0.96/27', vrf: 2 },
    ],
  });
  t.deepEqual(
    await prefixes.allocate(
      await get('ipam.prefix', 1),
      [{ prefix_length: 26 }, { prefix_length: 26 }, { prefix_length: 26 }, { prefix_length: 26 }],
      env(view),
    ),
    {
      conflict: 'Insufficient space is available to accommodate the requested prefix size(s)',
    },
  );
  t.deepEqual(await prefixes.allocate(await get('ipam.prefix', 1), [{ prefix_length: 23 }], env(view)), {
    conflict: 'Insufficient space is available to accommodate the requested prefix size(s)',
  });
});

test('allocating prefixes: prefix_length problems are answered for every request before any space is looked at', async (t) => {
  const { view, get } = await viewOf({
    'ipam.prefix': [
      { prefix: '10.0.0.0/30', vrf: null },
      { prefix: '2001:db8::/64', vrf: null },
    ],
  });
  const checkFields: AllocationEnvironment['checkFields'] = async (inputs) =>
    inputs.map(() => ({ non_field_errors: ['Invalid data. Expected a dictionary, but got str.'] }));
  const four = await prefixes.allocate(
    await get('ipam.prefix', 1),
    [{ prefix_length: 31 }, {}, { prefix_length: '30' }, { prefix_length: 33 }, 'x'],
    env(view, checkFields),
  );
  t.deepEqual(four, {
    invalid: [
      {},
      { prefix_length: 'this field can not be missing' },
      { prefix_length: 'this field must be int type' },
      { prefix_length: 'Invalid prefix length (33) for IPv4' },
      { non_field_errors: ['Invalid data. Expected a dictionary, but got str.'] },
    ],
  });
  t.deepEqual(await prefixes.allocate(await get('ipam.prefix', 2), [{ prefix_length: 129 }], env(view)), {
    invalid: [{ prefix_length: 'Invalid prefix length (129) for IPv6' }],
  });
});

test('available VLANs: the group range less the VIDs its VLANs use, limited', async (t) => {
  const { view, get } = await viewOf({
    'ipam.vlangroup': [{ name: 'g', min_vid: 100, max_vid: 105 }],
    'ipam.vlan': [
      { vid: 101, group: 1 },
      { vid: 103, group: 1 },
      { vid: 102, group: null },
    ],
  });
  const group = await get('ipam.vlangroup', 1);
  const entries = await vlans.available(group, view, 50);
  t.deepEqual(
    entries.map((e) => e.vid),
    [100, 102, 104, 105],
  );
  t.deepEqual(entries[0].group, { nested: 'ipam.vlangroup', id: 1 });
  t.deepEqual(
    (await vlans.available(group, view, 2)).map((e) => e.vid),
    [100, 102],
  );
});

test('allocating VLANs: request fields are checked first, then VIDs handed out lowest first; other fields are dropped', async (t) => {
  const { view, get } = await viewOf({
    'ipam.vlangroup': [{ name: 'g', min_vid: 10, max_vid: 12 }],
    'ipam.vlan': [{ vid: 11, group: 1 }],
  });
  const group = await get('ipam.vlangroup', 1);
  const checked: unknown[] = [];
  const recording: AllocationEnvironment['checkFields'] = async (inputs) => {
    checked.push(...inputs);
    return inputs.map(() => ({}));
  };
  const allocation = await vlans.allocate(
    group,
    [{ name: 'a', vid: 4000, comments: 'dropped', status: 'reserved' }, { name: 'b' }],
    env(view, recording),
  );
  t.deepEqual(allocation, {
    inputs: [
      { name: 'a', status: 'reserved', vid: 10, group: 1 },
      { name: 'b', vid: 12, group: 1 },
    ],
  });
  t.deepEqual(checked, [
    { name: 'a', status: 'reserved', vid: 10, group: 1 },
    { name: 'b', vid: 10, group: 1 },
  ]);
  t.deepEqual(await vlans.allocate(group, [{ name: 'a' }, { name: 'b' }, { name: 'c' }], env(view)), {
    conflict: 'The requested number of VLANs is not available',
  });
  const refusing: AllocationEnvironment['checkFields'] = async (inputs) =>
    inputs.map((_, i) => (i === 1 ? { name: ['This field is required.'] } : {}));
  const invalid: Allocation = await vlans.allocate(group, [{ name: 'a' }, {}, { name: 'c' }], env(view, refusing));
  t.deepEqual(
    invalid,
    { invalid: [{}, { name: ['This field is required.'] }, {}] },
    'a bad request is reported before the shortage',
  );
});

test('available IPs of an IP range: start to end, no network or broadcast rule, the start mask; ready for the range model', async (t) => {
  const { view } = await viewOf({
    'ipam.ipaddress': [
      { address: '10.0.0.11/24', vrf: 2 },
      { address: '10.0.0.12/24', vrf: null },
    ],
  });
  const range = {
    id: 1,
    start_address: '10.0.0.10/24',
    end_address: '10.0.0.13/24',
    vrf: 2,
    display: '10.0.0.10-13/24',
  } as StoredObject;
  const allocator = addressAllocator(rangeAddressPool);
  t.deepEqual(addressesOf(await allocator.available(range, view, null)), [
    '10.0.0.10/24',
    '10.0.0.12/24',
    '10.0.0.13/24',
  ]);
  t.deepEqual(await allocator.allocate(range, [{}, {}, {}, {}], env(view)), {
    conflict: 'An insufficient number of IP addresses are available within 10.0.0.10-13/24 (4 requested, 3 available)',
  });
  t.deepEqual(await allocator.allocate(range, [{}], env(view)), { inputs: [{ address: '10.0.0.10/24', vrf: 2 }] });
});
