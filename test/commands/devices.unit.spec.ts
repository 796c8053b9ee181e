import test from 'ava';

import { ValidationError } from '../../src/errors/requestErrors.js';
import { create, createMany, deciderSpec, patch, patchMany, type WriteCommand } from '../support/deciderSpec.js';

/** Site 1 "DC-1" with rack 1 "R1" (10U); manufacturer 1; device types 1 (MX204, 1U, full depth) and 2 (Patch, 2U, half depth); role 1. */
const datacenter: WriteCommand[] = [
  create('dcim.site', { name: 'DC-1', slug: 'dc-1' }),
  create('dcim.rack', { name: 'R1', site: 1, u_height: 10 }),
  create('dcim.manufacturer', { name: 'Juniper', slug: 'juniper' }),
  create('dcim.devicetype', { manufacturer: 1, model: 'MX204', slug: 'mx204' }),
  create('dcim.devicetype', { manufacturer: 1, model: 'Patch', slug: 'patch', u_height: 2, is_full_depth: false }),
  create('dcim.devicerole', { name: 'Router', slug: 'router', color: 'ff0000' }),
];

function device(name: string, fields: Record<string, unknown> = {}): Record<string, unknown> {
  return { name, device_type: 1, device_role: 1, site: 1, ...fields };
}

test('rack: a device may not take units another device occupies', async (t) => {
  await deciderSpec(t)
    .given([...datacenter, create('dcim.device', device('a', { rack: 1, position: 3, face: 'front', device_type: 2 }))])
    .when(create('dcim.device', device('b', { rack: 1, position: 4, face: 'front' })))
    .thenThrows(ValidationError, {
      position: [
        'U4 is already occupied or does not have sufficient space to accommodate this device type: MX204 (1U)',
      ],
    });
});

test('rack: a full-depth device takes both faces', async (t) => {
  await deciderSpec(t)
    .given([...datacenter, create('dcim.device', device('a', { rack: 1, position: 1, face: 'front' }))])
    .when(create('dcim.device', device('b', { rack: 1, position: 1, face: 'rear', device_type: 2 })))
    .thenThrows(ValidationError, {
      position: [
        'U1 is already occupied or does not have sufficient space to accommodate this device type: Patch (2U)',
      ],
    });
});

test('rack: half-depth devices share a unit from opposite faces', async (t) => {
  await deciderSpec(t)
    .given([...datacenter, create('dcim.device', device('a', { rack: 1, position: 1, face: 'front', device_type: 2 }))])
    .when(create('dcim.device', device('b', { rack: 1, position: 1, face: 'rear', device_type: 2 })))
    .then([{ objectType: 'dcim.device', objectId: 2, postchange: { rack: 1, position: 1, face: 'rear' } }]);
});

test('rack: a device must fit below the top of the rack', async (t) => {
  await deciderSpec(t)
    .given(datacenter)
    .when(create('dcim.device', device('a', { rack: 1, position: 10, face: 'front', device_type: 2 })))
    .thenThrows(ValidationError, {
      position: [
        'U10 is already occupied or does not have sufficient space to accommodate this device type: Patch (2U)',
      ],
    });
});

test('rack: a device moved within its own units does not collide with itself', async (t) => {
  await deciderSpec(t)
    .given([...datacenter, create('dcim.device', device('a', { rack: 1, position: 3, face: 'front', device_type: 2 }))])
    .when(patch('dcim.device', 1, { position: 4 }))
    .then([{ action: 'update', prechange: { position: 3 }, postchange: { position: 4 } }]);
});

test("rack: the rack must stand in the device's site", async (t) => {
  await deciderSpec(t)
    .given([...datacenter, create('dcim.site', { name: 'DC-2', slug: 'dc-2' })])
    .when(create('dcim.device', device('a', { site: 2, rack: 1 })))
    .thenThrows(ValidationError, { rack: ['Rack R1 does not belong to site DC-2.'] });
});

test('rack: a position needs a face', async (t) => {
  await deciderSpec(t)
    .given(datacenter)
    .when(create('dcim.device', device('a', { rack: 1, position: 2 })))
    .thenThrows(ValidationError, { face: ['Must specify rack face when defining rack position.'] });
});

/** Devices 1 "a" and 2 "b"; interface 1 on a, interface 2 on b; address 1 on interface 1, address 2 on interface 2, address 3 (IPv6) on interface 1. */
const twoDevicesWithAddresses: WriteCommand[] = [
  ...datacenter,
  create('dcim.device', device('a')),
  create('dcim.device', device('b')),
  create('dcim.interface', { device: 1, name: 'eth0', type: '1000base-t' }),
  create('dcim.interface', { device: 2, name: 'eth0', type: '1000base-t' }),
  create('ipam.ipaddress', { address: '192.0.2.1/24', assigned_object_type: 'dcim.interface', assigned_object_id: 1 }),
  create('ipam.ipaddress', { address: '192.0.2.2/24', assigned_object_type: 'dcim.interface', assigned_object_id: 2 }),
  create('ipam.ipaddress', {
    address: '2001:db8::1/64',
    assigned_object_type: 'dcim.interface',
    assigned_object_id: 1,
  }),
];

test("primary ip: an address on one of the device's interfaces is accepted", async (t) => {
  await deciderSpec(t)
    .given(twoDevicesWithAddresses)
    .when(patch('dcim.device', 1, { primary_ip4: 1, primary_ip6: 3 }))
    .then([
      { action: 'update', objectType: 'dcim.device', objectId: 1, postchange: { primary_ip4: 1, primary_ip6: 3 } },
    ]);
});

test('primary ip: an address of another device is refused', async (t) => {
  await deciderSpec(t)
    .given(twoDevicesWithAddresses)
    .when(patch('dcim.device', 1, { primary_ip4: 2 }))
    .thenThrows(ValidationError, {
      primary_ip4: ['The specified IP address (192.0.2.2/24) is not assigned to this device.'],
    });
});

test("primary ip: the address must be of the field's family", async (t) => {
  await deciderSpec(t)
    .given(twoDevicesWithAddresses)
    .when(patch('dcim.device', 1, { primary_ip4: 3 }))
    .thenThrows(ValidationError, { primary_ip4: ['2001:db8::1/64 is not an IPv4 address.'] });
});

test('primary ip: an address that is a primary IP cannot be moved off its device', async (t) => {
  await deciderSpec(t)
    .given([...twoDevicesWithAddresses, patch('dcim.device', 1, { primary_ip4: 1 })])
    .when(patch('ipam.ipaddress', 1, { assigned_object_type: 'dcim.interface', assigned_object_id: 2 }))
    .thenThrows(ValidationError, { interface: ['IP address is primary for device a but not assigned to it!'] });
});

test("primary ip: the NAT outside address of one of the device's addresses is accepted", async (t) => {
  await deciderSpec(t)
    .given([...twoDevicesWithAddresses, create('ipam.ipaddress', { address: '198.51.100.1/24', nat_inside: 1 })])
    .when(patch('dcim.device', 1, { primary_ip4: 4 }))
    .then([{ action: 'update', objectId: 1, postchange: { primary_ip4: 4 } }]);
  await deciderSpec(t)
    .given([...twoDevicesWithAddresses, create('ipam.ipaddress', { address: '198.51.100.1/24', nat_inside: 1 })])
    .when(patch('dcim.device', 2, { primary_ip4: 4 }))
    .thenThrows(ValidationError, {
      primary_ip4: ['The specified IP address (198.51.100.1/24) is not assigned to this device.'],
    });
});

/** datacenter plus site 2 "DC-2", cluster type 1, clusters 1 "c1" at DC-1, 2 "c2" at DC-2, 3 "floating" at no site. */
const withClusters: WriteCommand[] = [
  ...datacenter,
  create('dcim.site', { name: 'DC-2', slug: 'dc-2' }),
  create('virtualization.clustertype', { name: 'VMware', slug: 'vmware' }),
  create('virtualization.cluster', { name: 'c1', type: 1, site: 1 }),
  create('virtualization.cluster', { name: 'c2', type: 1, site: 2 }),
  create('virtualization.cluster', { name: 'floating', type: 1 }),
];

test("cluster: a device's cluster must be at the device's site, or at none", async (t) => {
  await deciderSpec(t)
    .given(withClusters)
    .when(create('dcim.device', device('a', { cluster: 2 })))
    .thenThrows(ValidationError, { cluster: ['The assigned cluster belongs to a different site (DC-2)'] });
  for (const cluster of [1, 3]) {
    await deciderSpec(t)
      .given(withClusters)
      .when(create('dcim.device', device('a', { cluster })))
      .then([{ objectType: 'dcim.device', objectId: 1, postchange: { cluster } }]);
  }
});

/** datacenter plus site 2, device 1 "a" at DC-1 with interface 1 "xe-0/0/0"; VLANs 1 (global), 2 (DC-1), 3 (DC-2). */
const deviceWithVlans: WriteCommand[] = [
  ...datacenter,
  create('dcim.site', { name: 'DC-2', slug: 'dc-2' }),
  create('dcim.device', device('a')),
  create('dcim.interface', { device: 1, name: 'xe-0/0/0', type: '10gbase-x-sfpp' }),
  create('ipam.vlan', { vid: 10, name: 'global' }),
  create('ipam.vlan', { vid: 20, name: 'dc1', site: 1 }),
  create('ipam.vlan', { vid: 30, name: 'dc2', site: 2 }),
];

test("interface vlans: tagged VLANs sent must be global or at the device's site", async (t) => {
  await deciderSpec(t)
    .given(deviceWithVlans)
    .when(patch('dcim.interface', 1, { mode: 'tagged', tagged_vlans: [3] }))
    .thenThrows(ValidationError, {
      tagged_vlans: [
        "VLAN dc2 (30) must belong to the same site as the interface's parent device, or it must be global.",
      ],
    });
  await deciderSpec(t)
    .given(deviceWithVlans)
    .when(patch('dcim.interface', 1, { mode: 'tagged', tagged_vlans: [1, 2] }))
    .then([{ objectId: 1, postchange: { mode: 'tagged', tagged_vlans: [1, 2] } }]);
});

test('interface vlans: the mode decides which VLANs are kept on save', async (t) => {
  const tagged = [
    ...deviceWithVlans,
    patch('dcim.interface', 1, { mode: 'tagged', untagged_vlan: 2, tagged_vlans: [1] }),
  ];
  await deciderSpec(t)
    .given(tagged)
    .when(patch('dcim.interface', 1, { mode: 'access' }))
    .then([{ objectId: 1, postchange: { mode: 'access', untagged_vlan: 2, tagged_vlans: [] } }]);
  await deciderSpec(t)
    .given(tagged)
    .when(patch('dcim.interface', 1, { mode: '' }))
    .then([{ objectId: 1, postchange: { mode: '', untagged_vlan: null, tagged_vlans: [] } }]);
});

test('name: unique per site whatever the letter case, against stored devices and items of the same bulk request', async (t) => {
  await deciderSpec(t)
    .given([...datacenter, create('dcim.device', device('Core'))])
    .when(createMany('dcim.device', [device('edge'), device('CORE'), device('\u212aelvin'), device('kelvin')]))
    .thenThrows(ValidationError, [
      {},
      { __all__: ['Device name must be unique per site.'] },
      {},
      { __all__: ['Device name must be unique per site.'] },
    ]);
});

test("name: unique per site and tenant whatever the letter case, in Django's words for a constraint over lower(name) (its name), another tenant's alike allowed", async (t) => {
  const tenants: WriteCommand[] = [
    ...datacenter,
    create('tenancy.tenant', { name: 'Acme', slug: 'acme' }),
    create('tenancy.tenant', { name: 'Beta', slug: 'beta' }),
    create('dcim.device', device('Core', { tenant: 1 })),
  ];
  await deciderSpec(t)
    .given(tenants)
    .when(create('dcim.device', device('CORE', { tenant: 1 })))
    .thenThrows(ValidationError, { __all__: ['Constraint “dcim_device_unique_name_site_tenant” is violated.'] });
  await deciderSpec(t)
    .given(tenants)
    .when(create('dcim.device', device('core', { tenant: 2 })))
    .then([{ action: 'create', objectType: 'dcim.device', postchange: { name: 'core', tenant: 2 } }]);
});

test('name: a bulk PATCH that swaps names through a third name is refused where two would meet', async (t) => {
  await deciderSpec(t)
    .given([...datacenter, createMany('dcim.device', [device('a'), device('b')])])
    .when(
      patchMany('dcim.device', [
        { id: 1, name: 'B' },
        { id: 2, name: 'c' },
      ]),
    )
    .thenThrows(ValidationError, [{ __all__: ['Device name must be unique per site.'] }, {}]);
});
