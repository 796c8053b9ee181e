import test from 'ava';

import { ValidationError } from '../../src/errors/requestErrors.js';
import { create, deciderSpec, patch } from '../support/deciderSpec.js';

const internet = create('ipam.vrf', { name: 'Internet', rd: '65000:1' });
const lab = create('ipam.vrf', { name: 'Lab', enforce_unique: false });

test('prefix: the family is derived from the network and the text made canonical', async (t) => {
  await deciderSpec(t)
    .when(create('ipam.prefix', { prefix: '2001:DB8::/32' }))
    .then([
      { objectRepr: '2001:db8::/32', postchange: { prefix: '2001:db8::/32', family: 6, status: 'active', vrf: null } },
    ]);
  await deciderSpec(t)
    .when(create('ipam.prefix', { prefix: '10.0.0.0/8' }))
    .then([{ postchange: { prefix: '10.0.0.0/8', family: 4 } }]);
});

test('prefix: host bits set are refused with the network suggested', async (t) => {
  await deciderSpec(t)
    .when(create('ipam.prefix', { prefix: '10.1.2.3/8' }))
    .thenThrows(ValidationError, { prefix: ['10.1.2.3/8 is not a valid prefix. Did you mean 10.0.0.0/8?'] });
});

test('prefix: a duplicate in a VRF that enforces uniqueness is refused', async (t) => {
  await deciderSpec(t)
    .given([internet, create('ipam.prefix', { prefix: '10.0.0.0/8', vrf: 1 })])
    .when(create('ipam.prefix', { prefix: '10.0.0.0/8', vrf: 1 }))
    .thenThrows(ValidationError, { prefix: ['Duplicate prefix found in VRF Internet (65000:1): 10.0.0.0/8'] });
});

test('prefix: duplicates are allowed in a VRF without enforce_unique, and across VRFs', async (t) => {
  await deciderSpec(t)
    .given([
      internet,
      lab,
      create('ipam.prefix', { prefix: '10.0.0.0/8', vrf: 2 }),
      create('ipam.prefix', { prefix: '10.0.0.0/8', vrf: 1 }),
    ])
    .when(create('ipam.prefix', { prefix: '10.0.0.0/8', vrf: 2 }))
    .then([{ objectId: 3, postchange: { vrf: 2 } }]);
});

test('prefix: the global table allows duplicates unless ENFORCE_GLOBAL_UNIQUE is set', async (t) => {
  const given = [create('ipam.prefix', { prefix: '10.0.0.0/8' })];
  const duplicate = create('ipam.prefix', { prefix: '10.0.0.0/8', status: 'reserved' });
  await deciderSpec(t)
    .given(given)
    .when(duplicate)
    .then([{ objectId: 2 }]);
  await deciderSpec(t, { settings: { enforceGlobalUnique: true } })
    .given(given)
    .when(duplicate)
    .thenThrows(ValidationError, { prefix: ['Duplicate prefix found in global table: 10.0.0.0/8'] });
});

test('prefix: moving a prefix into a VRF that already holds it is refused', async (t) => {
  await deciderSpec(t)
    .given([
      internet,
      create('ipam.prefix', { prefix: '10.0.0.0/8', vrf: 1 }),
      create('ipam.prefix', { prefix: '10.0.0.0/8' }),
    ])
    .when(patch('ipam.prefix', 2, { vrf: 1 }))
    .thenThrows(ValidationError, { prefix: ['Duplicate prefix found in VRF Internet (65000:1): 10.0.0.0/8'] });
});

test('ip address: the family is derived and the mask kept', async (t) => {
  await deciderSpec(t)
    .when(create('ipam.ipaddress', { address: '2001:DB8::1/64' }))
    .then([{ objectRepr: '2001:db8::1/64', postchange: { address: '2001:db8::1/64', family: 6 } }]);
});

test('ip address: the same host in a unique VRF is a duplicate whatever its mask', async (t) => {
  await deciderSpec(t)
    .given([internet, create('ipam.ipaddress', { address: '10.0.0.1/24', vrf: 1 })])
    .when(create('ipam.ipaddress', { address: '10.0.0.1/16', vrf: 1 }))
    .thenThrows(ValidationError, { address: ['Duplicate IP address found in VRF Internet (65000:1): 10.0.0.1/24'] });
});

test('ip address: shared roles (VIP, anycast ...) may repeat an address in a unique VRF', async (t) => {
  await deciderSpec(t)
    .given([internet, create('ipam.ipaddress', { address: '10.0.0.1/24', vrf: 1, role: 'vip' })])
    .when(create('ipam.ipaddress', { address: '10.0.0.1/24', vrf: 1, role: 'vrrp' }))
    .then([{ objectId: 2, postchange: { role: 'vrrp' } }]);
});

test('ip address: SLAAC is for IPv6 only', async (t) => {
  await deciderSpec(t)
    .when(create('ipam.ipaddress', { address: '10.0.0.1/24', status: 'slaac' }))
    .thenThrows(ValidationError, { status: ['Only IPv6 addresses can be assigned SLAAC status'] });
});

test('ip address: an assignment names an existing object of an allowed type', async (t) => {
  await deciderSpec(t)
    .when(
      create('ipam.ipaddress', {
        address: '10.0.0.1/24',
        assigned_object_type: 'dcim.interface',
        assigned_object_id: 5,
      }),
    )
    .thenThrows(ValidationError, { assigned_object_id: ['Related object not found using the provided value: 5.'] });
});

test('aggregate: aggregates may not overlap', async (t) => {
  await deciderSpec(t)
    .given([
      create('ipam.rir', { name: 'RIPE', slug: 'ripe' }),
      create('ipam.aggregate', { prefix: '10.0.0.0/8', rir: 1 }),
    ])
    .when(create('ipam.aggregate', { prefix: '10.1.0.0/16', rir: 1 }))
    .thenThrows(ValidationError, {
      prefix: ['Aggregates cannot overlap. 10.1.0.0/16 is already covered by an existing aggregate (10.0.0.0/8).'],
    });
});
