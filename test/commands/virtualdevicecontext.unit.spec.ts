import test from 'ava';

import { ConflictError, ValidationError } from '../../src/errors/requestErrors.js';
import { create, deciderSpec, patch, remove, type WriteCommand } from '../support/deciderSpec.js';

/**
 * Devices 1 "n7k-1" and 2 "n7k-2"; interface 1 on device 1, interface 2 on device 2;
 * address 1 (IPv4) and 3 (IPv6) on interface 1, address 2 on interface 2; VDC 1 "admin" on device 1.
 */
const nexus: WriteCommand[] = [
  create('dcim.site', { name: 'DC-1', slug: 'dc-1' }),
  create('dcim.manufacturer', { name: 'Cisco', slug: 'cisco' }),
  create('dcim.devicetype', { manufacturer: 1, model: 'N7K', slug: 'n7k' }),
  create('dcim.devicerole', { name: 'Core', slug: 'core', color: 'ff0000' }),
  create('dcim.device', { name: 'n7k-1', device_type: 1, device_role: 1, site: 1 }),
  create('dcim.device', { name: 'n7k-2', device_type: 1, device_role: 1, site: 1 }),
  create('dcim.interface', { device: 1, name: 'Eth1/1', type: '10gbase-x-sfpp' }),
  create('dcim.interface', { device: 2, name: 'Eth1/1', type: '10gbase-x-sfpp' }),
  create('ipam.ipaddress', { address: '192.0.2.1/24', assigned_object_type: 'dcim.interface', assigned_object_id: 1 }),
  create('ipam.ipaddress', { address: '192.0.2.2/24', assigned_object_type: 'dcim.interface', assigned_object_id: 2 }),
  create('ipam.ipaddress', {
    address: '2001:db8::1/64',
    assigned_object_type: 'dcim.interface',
    assigned_object_id: 1,
  }),
  create('dcim.virtualdevicecontext', { device: 1, name: 'admin', identifier: 1, status: 'active' }),
];

test('vdc: status is required and has no default', async (t) => {
  await deciderSpec(t)
    .given(nexus)
    .when(create('dcim.virtualdevicecontext', { device: 1, name: 'prod' }))
    .thenThrows(ValidationError, { status: ['This field is required.'] });
});

test('vdc: a primary IP on an interface of its device is accepted', async (t) => {
  await deciderSpec(t)
    .given(nexus)
    .when(patch('dcim.virtualdevicecontext', 1, { primary_ip4: 1, primary_ip6: 3 }))
    .then([
      {
        action: 'update',
        objectType: 'dcim.virtualdevicecontext',
        objectId: 1,
        postchange: { primary_ip4: 1, primary_ip6: 3 },
      },
    ]);
});

test('vdc: a primary IP on another device is refused', async (t) => {
  await deciderSpec(t)
    .given(nexus)
    .when(patch('dcim.virtualdevicecontext', 1, { primary_ip4: 2 }))
    .thenThrows(ValidationError, {
      primary_ip4: ['Primary IP address must belong to an interface on the assigned device.'],
    });
});

test("vdc: a primary IP must be of its field's family", async (t) => {
  await deciderSpec(t)
    .given(nexus)
    .when(patch('dcim.virtualdevicecontext', 1, { primary_ip6: 1 }))
    .thenThrows(ValidationError, { primary_ip6: ['192.0.2.1/24 is not an IPv6 address.'] });
});

test('vdc: an unassigned address cannot be a primary IP', async (t) => {
  await deciderSpec(t)
    .given([...nexus, create('ipam.ipaddress', { address: '198.51.100.1/24' })])
    .when(patch('dcim.virtualdevicecontext', 1, { primary_ip4: 4 }))
    .thenThrows(ValidationError, {
      primary_ip4: ['Primary IP address must belong to an interface on the assigned device.'],
    });
});

test('vdc: name and identifier are unique per device', async (t) => {
  await deciderSpec(t)
    .given(nexus)
    .when(create('dcim.virtualdevicecontext', { device: 1, name: 'admin', status: 'active' }))
    .thenThrows(ValidationError, { __all__: ['Virtual device context with this Device and Name already exists.'] });
  await deciderSpec(t)
    .given(nexus)
    .when(create('dcim.virtualdevicecontext', { device: 1, name: 'prod', identifier: 1, status: 'active' }))
    .thenThrows(ValidationError, {
      __all__: ['Virtual device context with this Device and Identifier already exists.'],
    });
});

test('vdc: the same name and identifier on another device, and VDCs without identifier, are accepted', async (t) => {
  await deciderSpec(t)
    .given([...nexus, create('dcim.virtualdevicecontext', { device: 1, name: 'spare', status: 'planned' })])
    .when(create('dcim.virtualdevicecontext', { device: 2, name: 'admin', identifier: 1, status: 'offline' }))
    .then([
      {
        action: 'create',
        objectType: 'dcim.virtualdevicecontext',
        objectId: 3,
        postchange: { device: 2, name: 'admin', identifier: 1, status: 'offline' },
      },
    ]);
  await deciderSpec(t)
    .given([...nexus, create('dcim.virtualdevicecontext', { device: 1, name: 'spare', status: 'planned' })])
    .when(create('dcim.virtualdevicecontext', { device: 1, name: 'spare2', status: 'planned' }))
    .then([{ action: 'create', objectType: 'dcim.virtualdevicecontext', postchange: { identifier: null } }]);
});

test('vdc: a device with VDCs cannot be deleted', async (t) => {
  await deciderSpec(t)
    .given(nexus)
    .when(remove('dcim.device', 1))
    .thenThrows(ConflictError, 'Unable to delete object. 1 dependent objects were found: admin (1)');
});

test('vdc: deleting a VDC takes it off its interfaces', async (t) => {
  await deciderSpec(t)
    .given([...nexus, patch('dcim.interface', 1, { vdcs: [1] })])
    .when(remove('dcim.virtualdevicecontext', 1))
    .then([
      {
        action: 'update',
        objectType: 'dcim.interface',
        objectId: 1,
        prechange: { vdcs: [1] },
        postchange: { vdcs: [] },
      },
      { action: 'delete', objectType: 'dcim.virtualdevicecontext', objectId: 1 },
    ]);
});
