import test from 'ava';

import { iprange } from '../../src/models/ipam/iprange.js';
import {
  inetCompare,
  inetWithin,
  rangeEndsError,
  rangeSize,
  rangeSizeError,
  rangeText,
} from '../../src/models/ipam/ipRangeRules.js';
import { l2vpntermination } from '../../src/models/ipam/l2vpntermination.js';
import type { LookupView } from '../../src/models/lookupView.js';
import { registry } from '../../src/models/registry.js';
import type { StoredObject } from '../../src/models/storedObject.js';
import { type Cidr, parseCidr } from '../../src/models/values/ipNetworks.js';
import { lookupView } from '../../src/projections/lookupView.js';
import { MemoryReadStore } from '../../src/projections/memory/MemoryReadStore.js';

const ip = (text: string): Cidr => parseCidr(text)!;

/** A read-model view holding `objects` (ids from 1), with their hidden keys derived as the projector would. */
async function viewOf(objects: Record<string, Array<Record<string, unknown>>>): Promise<LookupView> {
  const store = new MemoryReadStore();
  await store.open();
  let position = 0;
  for (const [model, list] of Object.entries(objects)) {
    const definition = registry.get(model);
    const changes = list.map((obj, i) => {
      const stored = { id: i + 1, ...obj } as StoredObject;
      const doc = { ...stored, ...(definition.hooks?.derive?.(stored) ?? {}), _pos: ++position };
      return { collection: model, id: stored.id, position, doc };
    });
    await store.apply(changes, position);
  }
  return lookupView(store);
}

test('inet order: family, the bits both masks cover, the shorter mask, then the address', (t) => {
  t.true(inetCompare(ip('10.0.0.9/24'), ip('10.0.0.10/24')) < 0, 'equal masks compare as numbers');
  t.true(inetCompare(ip('255.255.255.255/32'), ip('::/0')) < 0, 'IPv4 before IPv6');
  t.true(
    inetCompare(ip('10.0.0.200/24'), ip('10.0.0.150/32')) < 0,
    'a shorter mask sorts first when the covered bits agree',
  );
  t.true(inetCompare(ip('10.0.1.0/24'), ip('10.0.0.150/32')) > 0, 'the covered bits decide first');
  t.is(inetCompare(ip('10.0.0.1/24'), ip('10.0.0.1/24')), 0);
  t.true(inetWithin(ip('10.0.0.150/24'), ip('10.0.0.100/24'), ip('10.0.0.200/24')));
  t.false(
    inetWithin(ip('10.0.0.150/32'), ip('10.0.0.100/24'), ip('10.0.0.200/24')),
    'a bare address misses a /24 range, as in NetBox',
  );
});

test('range ends: same family, same mask, end above start; the size bound; the size', (t) => {
  t.deepEqual(rangeEndsError(ip('192.0.2.1/24'), ip('2001:db8::1/24')), {
    field: 'end_address',
    message: 'Ending address version (IPv6) does not match starting address (IPv4)',
  });
  t.deepEqual(
    rangeEndsError(ip('192.0.2.1/24'), ip('192.0.2.5/23'))?.message,
    'Ending address mask (/23) does not match starting address mask (/24)',
  );
  t.deepEqual(
    rangeEndsError(ip('192.0.2.5/24'), ip('192.0.2.5/24'))?.message,
    'Ending address must be lower than the starting address (192.0.2.5/24)',
  );
  t.is(rangeEndsError(ip('192.0.2.5/24'), ip('192.0.2.6/24')), null);
  t.is(rangeSize(ip('192.0.2.5/24'), ip('192.0.2.6/24')), 2n);
  t.is(rangeSizeError(ip('2001:db8::/32'), ip('2001:db8::ffff:fffe/32')), null);
  t.is(
    rangeSizeError(ip('2001:db8::/32'), ip('2001:db8::ffff:ffff/32')),
    'Defined range exceeds maximum supported size (4294967295)',
  );
});

test('compact range text: equal groups at the same positions once, then the rest of each end', (t) => {
  t.is(rangeText(ip('192.0.2.10/24'), ip('192.0.2.20/24')), '192.0.2.10-20/24');
  t.is(
    rangeText(ip('10.0.0.1/8'), ip('10.1.0.1/8')),
    '10.0.1.1-1/8',
    'NetBox counts three equal groups, so only the last is left',
  );
  t.is(rangeText(ip('2001:db8::1/64'), ip('2001:db8::ff/64')), '2001:db8::1-ff/64');
  t.is(
    rangeText(ip('1.2.3.4/8'), ip('5.6.7.8/8')),
    '.1.2.3.4-5.6.7.8/8',
    'nothing in common: the separator still leads',
  );
});

test('a range overlapping another of its VRF is refused with the first one in range order; another VRF is free', async (t) => {
  const view = await viewOf({
    'ipam.vrf': [{ name: 'Blue', display: 'Blue' }],
    'ipam.iprange': [
      { start_address: '10.0.0.50/24', end_address: '10.0.0.60/24', vrf: null, display: '10.0.0.50-60/24' },
      { start_address: '10.0.0.10/24', end_address: '10.0.0.20/24', vrf: null, display: '10.0.0.10-20/24' },
      { start_address: '10.0.0.10/24', end_address: '10.0.0.90/24', vrf: 1, display: '10.0.0.10-90/24' },
    ],
  });
  const validate = (obj: Record<string, unknown>) =>
    iprange.hooks!.validate!({ id: 99, ...obj } as StoredObject, view, null);
  t.deepEqual(await validate({ start_address: '10.0.0.1/24', end_address: '10.0.0.99/24', vrf: null }), {
    __all__: ['Defined addresses overlap with range 10.0.0.10-20/24 in VRF None'],
  });
  t.deepEqual(await validate({ start_address: '10.0.0.55/24', end_address: '10.0.0.56/24', vrf: 1 }), {
    __all__: ['Defined addresses overlap with range 10.0.0.10-90/24 in VRF Blue'],
  });
  t.falsy(await validate({ start_address: '10.0.0.21/24', end_address: '10.0.0.49/24', vrf: null }));
  t.falsy(await validate({ start_address: '10.0.0.91/24', end_address: '10.0.0.99/24', vrf: 1 }));
  t.falsy(
    await iprange.hooks!.validate!(
      { id: 2, start_address: '10.0.0.10/24', end_address: '10.0.0.21/24', vrf: null },
      view,
      null,
    ),
    'not against itself',
  );
});

test('a termination: one per object, two per point-to-point L2VPN', async (t) => {
  const view = await viewOf({
    'ipam.vlan': [
      { vid: 10, name: 'a', display: 'a (10)' },
      { vid: 20, name: 'b', display: 'b (20)' },
      { vid: 30, name: 'c', display: 'c (30)' },
    ],
    'ipam.l2vpn': [
      { name: 'Wire', slug: 'wire', type: 'vpws' },
      { name: 'Cloud', slug: 'cloud', type: 'vxlan' },
    ],
    'ipam.l2vpntermination': [
      { l2vpn: 1, assigned_object_type: 'ipam.vlan', assigned_object_id: 1 },
      { l2vpn: 1, assigned_object_type: 'ipam.vlan', assigned_object_id: 2 },
    ],
  });
  const validate = (obj: Record<string, unknown>) =>
    l2vpntermination.hooks!.validate!({ id: 99, ...obj } as StoredObject, view, null);
  t.deepEqual(await validate({ l2vpn: 2, assigned_object_type: 'ipam.vlan', assigned_object_id: 1 }), {
    __all__: ['L2VPN Termination already assigned (a (10))'],
  });
  t.deepEqual(await validate({ l2vpn: 1, assigned_object_type: 'ipam.vlan', assigned_object_id: 3 }), {
    __all__: ['VPWS L2VPNs cannot have more than two terminations; found 2 already defined.'],
  });
  t.falsy(await validate({ l2vpn: 2, assigned_object_type: 'ipam.vlan', assigned_object_id: 3 }));
  t.falsy(
    await l2vpntermination.hooks!.validate!(
      { id: 2, l2vpn: 1, assigned_object_type: 'ipam.vlan', assigned_object_id: 2 },
      view,
      null,
    ),
    'a saved one counts not against itself',
  );
});
