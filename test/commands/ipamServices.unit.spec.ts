import test from 'ava';

import { ValidationError } from '../../src/errors/requestErrors.js';
import { asnDisplay } from '../../src/models/ipam/asn.js';
import { portList, portsSortKey } from '../../src/models/ipam/serviceFields.js';
import { create, deciderSpec, patch, remove, type WriteCommand } from '../support/deciderSpec.js';

/** RIR 1; site 1 "DC-1"; device 1 "edge1" with interface 1 "et-0"; cluster 1 with VM 1 "vm1" and its interface 1 "eth0". */
const estate: WriteCommand[] = [
  create('ipam.rir', { name: 'RIPE', slug: 'ripe' }),
  create('dcim.site', { name: 'DC-1', slug: 'dc-1' }),
  create('dcim.manufacturer', { name: 'Juniper', slug: 'juniper' }),
  create('dcim.devicetype', { manufacturer: 1, model: 'MX204', slug: 'mx204' }),
  create('dcim.devicerole', { name: 'Router', slug: 'router', color: 'ff0000' }),
  create('dcim.device', { name: 'edge1', device_type: 1, device_role: 1, site: 1 }),
  create('dcim.interface', { device: 1, name: 'et-0', type: '10gbase-x-sfpp' }),
  create('virtualization.clustertype', { name: 'KVM', slug: 'kvm' }),
  create('virtualization.cluster', { name: 'c1', type: 1 }),
  create('virtualization.virtualmachine', { name: 'vm1', cluster: 1 }),
  create('virtualization.vminterface', { virtual_machine: 1, name: 'eth0' }),
];

test('ASN display: asplain, with the asdot form past 16 bits', (t) => {
  t.is(asnDisplay({ id: 1, asn: 65000 }), 'AS65000');
  t.is(asnDisplay({ id: 1, asn: 65535 }), 'AS65535');
  t.is(asnDisplay({ id: 1, asn: 65536 }), 'AS65536 (1.0)');
  t.is(asnDisplay({ id: 1, asn: 4200000000 }), 'AS4200000000 (64086.59904)');
});

test('ASN: the number lies in 1..4294967295 and is unique', async (t) => {
  await deciderSpec(t)
    .given(estate)
    .when(create('ipam.asn', { asn: 0, rir: 1 }))
    .thenThrows(ValidationError, { asn: ['Ensure this value is greater than or equal to 1.'] });
  await deciderSpec(t)
    .given(estate)
    .when(create('ipam.asn', { asn: 4294967296, rir: 1 }))
    .thenThrows(ValidationError, { asn: ['Ensure this value is less than or equal to 4294967295.'] });
  await deciderSpec(t)
    .given([...estate, create('ipam.asn', { asn: 4294967295, rir: 1 })])
    .when(create('ipam.asn', { asn: 4294967295, rir: 1 }))
    .thenThrows(ValidationError, { asn: ['ASN with this ASN already exists.'] });
  await deciderSpec(t)
    .given(estate)
    .when(create('ipam.asn', { asn: 65000 }))
    .thenThrows(ValidationError, { rir: ['This field is required.'] });
});

test('ASN: deleting it takes it off the sites that list it', async (t) => {
  await deciderSpec(t)
    .given([...estate, create('ipam.asn', { asn: 65000, rir: 1 }), patch('dcim.site', 1, { asns: [1] })])
    .when(remove('ipam.asn', 1))
    .then([
      { action: 'update', objectType: 'dcim.site', objectId: 1, postchange: { asns: [] } },
      { action: 'delete', objectType: 'ipam.asn', objectId: 1 },
    ]);
});

test('service ports: runs collapsed in the display, arrays ordered as PostgreSQL compares them', (t) => {
  t.is(portList([443, 81, 80]), '80-81, 443');
  t.is(portList([22]), '22');
  t.is(portList([1, 2, 3, 5, 7, 8]), '1-3, 5, 7-8');
  t.true(portsSortKey([80]) < portsSortKey([80, 443]), 'a list before its extensions');
  t.true(portsSortKey([80, 443]) < portsSortKey([443]));
  t.true(portsSortKey([9]) < portsSortKey([10]), 'numerically');
});

test('service: exactly one parent, a device or a virtual machine', async (t) => {
  const base = { name: 'ssh', protocol: 'tcp', ports: [22] };
  await deciderSpec(t)
    .given(estate)
    .when(create('ipam.service', { ...base, device: 1, virtual_machine: 1 }))
    .thenThrows(ValidationError, {
      __all__: ['A service cannot be associated with both a device and a virtual machine.'],
    });
  await deciderSpec(t)
    .given(estate)
    .when(create('ipam.service', base))
    .thenThrows(ValidationError, {
      __all__: ['A service must be associated with either a device or a virtual machine.'],
    });
  await deciderSpec(t)
    .given(estate)
    .when(create('ipam.service', { ...base, virtual_machine: 1 }))
    .then([
      {
        action: 'create',
        objectType: 'ipam.service',
        objectId: 1,
        objectRepr: 'ssh (TCP/22)',
        postchange: { device: null, virtual_machine: 1, ports: [22] },
      },
    ]);
});

test('service: protocol and ports may not be blank; each port within 1..65535', async (t) => {
  await deciderSpec(t)
    .given(estate)
    .when(create('ipam.service', { device: 1, name: 'x', ports: [] }))
    .thenThrows(ValidationError, { protocol: ['This field cannot be blank.'], ports: ['This field cannot be blank.'] });
  await deciderSpec(t)
    .given(estate)
    .when(create('ipam.service', { device: 1, name: 'x', protocol: 'udp', ports: [53, 65536] }))
    .thenThrows(ValidationError, { ports: ['Ensure this value is less than or equal to 65535.'] });
  await deciderSpec(t)
    .given(estate)
    .when(create('ipam.servicetemplate', { name: 'x', protocol: 'udp', ports: [0] }))
    .thenThrows(ValidationError, { ports: ['Ensure this value is greater than or equal to 1.'] });
  await deciderSpec(t)
    .given(estate)
    .when(create('ipam.servicetemplate', { name: 'x', protocol: 'icmp', ports: [1] }))
    .thenThrows(ValidationError, { protocol: ['icmp is not a valid choice.'] });
});

test('service: addresses of another parent are accepted, as NetBox 3.4 does not check them', async (t) => {
  await deciderSpec(t)
    .given([
      ...estate,
      create('ipam.ipaddress', {
        address: '192.0.2.1/24',
        assigned_object_type: 'virtualization.vminterface',
        assigned_object_id: 1,
      }),
    ])
    .when(create('ipam.service', { device: 1, name: 'dns', protocol: 'udp', ports: [53], ipaddresses: [1] }))
    .then([{ action: 'create', objectType: 'ipam.service', postchange: { device: 1, ipaddresses: [1] } }]);
});

test('service: deleted with its device', async (t) => {
  await deciderSpec(t)
    .given([...estate, create('ipam.service', { device: 1, name: 'ssh', protocol: 'tcp', ports: [22] })])
    .when(remove('dcim.device', 1))
    .then((events, _reply) => {
      t.true(events.some((e) => e.action === 'delete' && e.objectType === 'ipam.service' && e.objectId === 1));
    });
});

test('FHRP assignment: one per interface and group; priority 0..255', async (t) => {
  const given = [...estate, create('ipam.fhrpgroup', { protocol: 'vrrp2', group_id: 10 })];
  const assignment = { group: 1, interface_type: 'dcim.interface', interface_id: 1, priority: 100 };
  await deciderSpec(t)
    .given([...given, create('ipam.fhrpgroupassignment', assignment)])
    .when(create('ipam.fhrpgroupassignment', { ...assignment, priority: 50 }))
    .thenThrows(ValidationError, {
      __all__: ['FHRP group assignment with this Interface type, Interface id and Group already exists.'],
    });
  await deciderSpec(t)
    .given(given)
    .when(create('ipam.fhrpgroupassignment', { ...assignment, priority: 256 }))
    .thenThrows(ValidationError, { priority: ['Ensure this value is less than or equal to 255.'] });
  await deciderSpec(t)
    .given([...given, create('ipam.fhrpgroupassignment', assignment)])
    .when(create('ipam.fhrpgroupassignment', { ...assignment, interface_type: 'virtualization.vminterface' }))
    .then([
      { action: 'create', objectType: 'ipam.fhrpgroupassignment', objectId: 2, objectRepr: 'eth0: VRRPv2: 10 (100)' },
    ]);
});

test('FHRP assignment: deleting the interface deletes its assignments; deleting the group its addresses', async (t) => {
  const given = [
    ...estate,
    create('ipam.fhrpgroup', { protocol: 'hsrp', group_id: 1 }),
    create('ipam.fhrpgroupassignment', { group: 1, interface_type: 'dcim.interface', interface_id: 1, priority: 10 }),
    create('ipam.ipaddress', {
      address: '192.0.2.254/24',
      assigned_object_type: 'ipam.fhrpgroup',
      assigned_object_id: 1,
    }),
  ];
  await deciderSpec(t)
    .given(given)
    .when(remove('dcim.interface', 1))
    .then([
      { action: 'delete', objectType: 'ipam.fhrpgroupassignment', objectId: 1 },
      { action: 'delete', objectType: 'dcim.interface', objectId: 1 },
    ]);
  await deciderSpec(t)
    .given(given)
    .when(remove('ipam.fhrpgroup', 1))
    .then((events) => {
      t.deepEqual(events.map((e) => `${e.action} ${e.objectType}`).sort(), [
        'delete ipam.fhrpgroup',
        'delete ipam.fhrpgroupassignment',
        'delete ipam.ipaddress',
      ]);
    });
});

test('FHRP group: its display names its first address once it has one', async (t) => {
  await deciderSpec(t)
    .given([
      ...estate,
      create('ipam.fhrpgroup', { name: 'gw', protocol: 'vrrp3', group_id: 7 }),
      create('ipam.ipaddress', {
        address: '192.0.2.9/24',
        assigned_object_type: 'ipam.fhrpgroup',
        assigned_object_id: 1,
      }),
      create('ipam.ipaddress', {
        address: '192.0.2.3/24',
        assigned_object_type: 'ipam.fhrpgroup',
        assigned_object_id: 1,
      }),
    ])
    .when(patch('ipam.fhrpgroup', 1, { description: 'gateway' }))
    .then([{ action: 'update', objectType: 'ipam.fhrpgroup', objectId: 1, objectRepr: 'gw VRRPv3: 7 (192.0.2.3/24)' }]);
});

test('route targets: a VRF lists them by id; deleting one takes it off the VRFs', async (t) => {
  await deciderSpec(t)
    .given([
      create('ipam.routetarget', { name: '65000:1' }),
      create('ipam.vrf', { name: 'A', import_targets: [1], export_targets: [1] }),
    ])
    .when(remove('ipam.routetarget', 1))
    .then([
      { action: 'update', objectType: 'ipam.vrf', objectId: 1, postchange: { import_targets: [], export_targets: [] } },
      { action: 'delete', objectType: 'ipam.routetarget', objectId: 1 },
    ]);
  await deciderSpec(t)
    .given([create('ipam.routetarget', { name: '65000:1' })])
    .when(create('ipam.routetarget', { name: '65000:1' }))
    .thenThrows(ValidationError, { name: ['route target with this name already exists.'] });
});
