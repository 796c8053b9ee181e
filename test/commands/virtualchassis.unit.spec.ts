import test from 'ava';

import { ConflictError, ValidationError } from '../../src/errors/requestErrors.js';
import { create, deciderSpec, patch, remove, type WriteCommand } from '../support/deciderSpec.js';

/** Site 1, device type 1, role 1; devices 1 "sw1", 2 "sw2", 3 "sw3". */
const switches: WriteCommand[] = [
  create('dcim.site', { name: 'DC-1', slug: 'dc-1' }),
  create('dcim.manufacturer', { name: 'Juniper', slug: 'juniper' }),
  create('dcim.devicetype', { manufacturer: 1, model: 'EX4300', slug: 'ex4300' }),
  create('dcim.devicerole', { name: 'Switch', slug: 'switch', color: '00ff00' }),
  create('dcim.device', { name: 'sw1', device_type: 1, device_role: 1, site: 1 }),
  create('dcim.device', { name: 'sw2', device_type: 1, device_role: 1, site: 1 }),
  create('dcim.device', { name: 'sw3', device_type: 1, device_role: 1, site: 1 }),
];

/** switches plus chassis 1 "stack" mastered by sw1 (position 1), sw2 a member in position 2 with priority 10. */
const stack: WriteCommand[] = [
  ...switches,
  create('dcim.virtualchassis', { name: 'stack', master: 1 }),
  patch('dcim.device', 2, { virtual_chassis: 1, vc_position: 2, vc_priority: 10 }),
];

test('virtual chassis: a new chassis takes its master in as member 1', async (t) => {
  await deciderSpec(t)
    .given(switches)
    .when(create('dcim.virtualchassis', { name: 'stack', master: 2 }))
    .then([
      { action: 'create', objectType: 'dcim.virtualchassis', objectId: 1, postchange: { name: 'stack', master: 2 } },
      {
        action: 'update',
        objectType: 'dcim.device',
        objectId: 2,
        prechange: { virtual_chassis: null },
        postchange: { virtual_chassis: 1, vc_position: 1 },
      },
    ]);
});

test('virtual chassis: a chassis created without a master changes no device', async (t) => {
  await deciderSpec(t)
    .given(switches)
    .when(create('dcim.virtualchassis', { name: 'stack' }))
    .then([{ action: 'create', objectType: 'dcim.virtualchassis', objectId: 1, postchange: { master: null } }]);
});

test('virtual chassis: once it exists, its master must be one of its members', async (t) => {
  await deciderSpec(t)
    .given(stack)
    .when(patch('dcim.virtualchassis', 1, { master: 3 }))
    .thenThrows(ValidationError, { master: ['The selected master (sw3) is not assigned to this virtual chassis.'] });
});

test('virtual chassis: another member may become the master', async (t) => {
  await deciderSpec(t)
    .given(stack)
    .when(patch('dcim.virtualchassis', 1, { master: 2 }))
    .then([
      {
        action: 'update',
        objectType: 'dcim.virtualchassis',
        objectId: 1,
        prechange: { master: 1 },
        postchange: { master: 2 },
      },
    ]);
});

test('virtual chassis: a device is master of one chassis at most', async (t) => {
  await deciderSpec(t)
    .given(stack)
    .when(create('dcim.virtualchassis', { name: 'other', master: 1 }))
    .thenThrows(ValidationError, { master: ['virtual chassis with this master already exists.'] });
});

test("virtual chassis: deleting it clears its members' chassis, position and priority", async (t) => {
  await deciderSpec(t)
    .given(stack)
    .when(remove('dcim.virtualchassis', 1))
    .then([
      {
        action: 'update',
        objectType: 'dcim.device',
        objectId: 1,
        postchange: { virtual_chassis: null, vc_position: null, vc_priority: null },
      },
      {
        action: 'update',
        objectType: 'dcim.device',
        objectId: 2,
        prechange: { vc_position: 2, vc_priority: 10 },
        postchange: { virtual_chassis: null, vc_position: null, vc_priority: null },
      },
      { action: 'delete', objectType: 'dcim.virtualchassis', objectId: 1 },
    ]);
});

test('virtual chassis: its master cannot be deleted', async (t) => {
  await deciderSpec(t)
    .given(stack)
    .when(remove('dcim.device', 1))
    .thenThrows(ConflictError, 'Unable to delete object. 1 dependent objects were found: stack (1)');
});

test('virtual chassis: a chassis whose members form a cross-chassis LAG cannot be deleted', async (t) => {
  await deciderSpec(t)
    .given([
      ...stack,
      create('dcim.interface', { device: 1, name: 'ae0', type: 'lag' }),
      create('dcim.interface', { device: 2, name: 'xe-1/0/0', type: '10gbase-x-sfpp', lag: 1 }),
    ])
    .when(remove('dcim.virtualchassis', 1))
    .thenThrows(ConflictError, 'Unable to delete object. 1 dependent objects were found: xe-1/0/0 (2)');
});

test('virtual chassis: a LAG within one member does not hold the chassis', async (t) => {
  await deciderSpec(t)
    .given([
      ...stack,
      create('dcim.interface', { device: 2, name: 'ae0', type: 'lag' }),
      create('dcim.interface', { device: 2, name: 'xe-1/0/0', type: '10gbase-x-sfpp', lag: 1 }),
    ])
    .when(remove('dcim.virtualchassis', 1))
    .then((events) => {
      t.deepEqual(
        events.map((e) => `${e.action} ${e.objectType}`),
        ['update dcim.device', 'update dcim.device', 'delete dcim.virtualchassis'],
      );
    });
});

test('virtual chassis: a member keeps needing a position', async (t) => {
  await deciderSpec(t)
    .given(stack)
    .when(patch('dcim.device', 3, { virtual_chassis: 1 }))
    .thenThrows(ValidationError, {
      vc_position: ['A device assigned to a virtual chassis must have its position defined.'],
    });
});

test('virtual chassis: a LAG on another chassis member is accepted, on a device outside the chassis refused', async (t) => {
  const lagOnMaster: WriteCommand[] = [...stack, create('dcim.interface', { device: 1, name: 'ae0', type: 'lag' })];
  await deciderSpec(t)
    .given(lagOnMaster)
    .when(create('dcim.interface', { device: 2, name: 'xe-1/0/0', type: '10gbase-x-sfpp', lag: 1 }))
    .then([{ action: 'create', objectType: 'dcim.interface', postchange: { device: 2, lag: 1 } }]);
  await deciderSpec(t)
    .given([...lagOnMaster, create('dcim.virtualchassis', { name: 'other', master: 3 })])
    .when(create('dcim.interface', { device: 3, name: 'xe-1/0/0', type: '10gbase-x-sfpp', lag: 1 }))
    .thenThrows(ValidationError, {
      lag: ['The selected LAG interface (ae0) belongs to sw1, which is not part of virtual chassis other.'],
    });
});

test("virtual chassis: a member's primary IP may sit on another member's interface, not a management one", async (t) => {
  const addresses: WriteCommand[] = [
    ...stack,
    create('dcim.interface', { device: 2, name: 'xe-1/0/0', type: '10gbase-x-sfpp' }),
    create('dcim.interface', { device: 2, name: 'em0', type: '1000base-t', mgmt_only: true }),
    create('ipam.ipaddress', {
      address: '192.0.2.1/24',
      assigned_object_type: 'dcim.interface',
      assigned_object_id: 1,
    }),
    create('ipam.ipaddress', {
      address: '192.0.2.2/24',
      assigned_object_type: 'dcim.interface',
      assigned_object_id: 2,
    }),
  ];
  await deciderSpec(t)
    .given(addresses)
    .when(patch('dcim.device', 1, { primary_ip4: 1 }))
    .then([{ action: 'update', objectType: 'dcim.device', objectId: 1, postchange: { primary_ip4: 1 } }]);
  await deciderSpec(t)
    .given(addresses)
    .when(patch('dcim.device', 1, { primary_ip4: 2 }))
    .thenThrows(ValidationError, {
      primary_ip4: ['The specified IP address (192.0.2.2/24) is not assigned to this device.'],
    });
});

test('virtual chassis: two members cannot share a position', async (t) => {
  await deciderSpec(t)
    .given(stack)
    .when(patch('dcim.device', 3, { virtual_chassis: 1, vc_position: 2 }))
    .thenThrows(ValidationError, { __all__: ['Device with this Virtual chassis and Vc position already exists.'] });
});
