import test from 'ava';

import { ConflictError, ValidationError } from '../../src/errors/requestErrors.js';
import { changedFields, create, deciderSpec, patch, put, remove, type WriteCommand } from '../support/deciderSpec.js';

/**
 * Sites 1 "DC-1" and 2 "DC-2"; cluster type 1; clusters 1 "c1" at DC-1, 2 "c2" at DC-2 and
 * 3 "floating" at no site; device roles 1 "Server" (for VMs) and 2 "Router" (not for VMs);
 * VLANs 1 "global" (10, no site), 2 "dc1" (20, DC-1) and 3 "dc2" (30, DC-2).
 */
const clusters: WriteCommand[] = [
  create('dcim.site', { name: 'DC-1', slug: 'dc-1' }),
  create('dcim.site', { name: 'DC-2', slug: 'dc-2' }),
  create('virtualization.clustertype', { name: 'VMware', slug: 'vmware' }),
  create('virtualization.cluster', { name: 'c1', type: 1, site: 1 }),
  create('virtualization.cluster', { name: 'c2', type: 1, site: 2 }),
  create('virtualization.cluster', { name: 'floating', type: 1 }),
  create('dcim.devicerole', { name: 'Server', slug: 'server' }),
  create('dcim.devicerole', { name: 'Router', slug: 'router', vm_role: false }),
  create('ipam.vlan', { vid: 10, name: 'global' }),
  create('ipam.vlan', { vid: 20, name: 'dc1', site: 1 }),
  create('ipam.vlan', { vid: 30, name: 'dc2', site: 2 }),
];

function vm(name: string, fields: Record<string, unknown> = {}): WriteCommand {
  return create('virtualization.virtualmachine', { name, cluster: 1, ...fields });
}

/** VMs 1 "vm1" and 2 "vm2" in cluster c1; interfaces 1 "eth0" and 2 "eth1" on vm1, 3 "eth0" on vm2. */
const twoVms: WriteCommand[] = [
  ...clusters,
  vm('vm1'),
  vm('vm2'),
  create('virtualization.vminterface', { virtual_machine: 1, name: 'eth0' }),
  create('virtualization.vminterface', { virtual_machine: 1, name: 'eth1' }),
  create('virtualization.vminterface', { virtual_machine: 2, name: 'eth0' }),
];

/** twoVms plus addresses 1 (192.0.2.1) and 2 (2001:db8::1) on vm1's eth0, 3 (192.0.2.3) on vm2's eth0. */
const vmsWithAddresses: WriteCommand[] = [
  ...twoVms,
  create('ipam.ipaddress', {
    address: '192.0.2.1/24',
    assigned_object_type: 'virtualization.vminterface',
    assigned_object_id: 1,
  }),
  create('ipam.ipaddress', {
    address: '2001:db8::1/64',
    assigned_object_type: 'virtualization.vminterface',
    assigned_object_id: 1,
  }),
  create('ipam.ipaddress', {
    address: '192.0.2.3/24',
    assigned_object_type: 'virtualization.vminterface',
    assigned_object_id: 3,
  }),
];

/* ------------------------------------------------------------ virtual machines */

test('virtual machine: needs a site or a cluster', async (t) => {
  await deciderSpec(t)
    .given(clusters)
    .when(create('virtualization.virtualmachine', { name: 'vm1' }))
    .thenThrows(ValidationError, { cluster: ['A virtual machine must be assigned to a site and/or cluster.'] });
});

test("virtual machine: without a site it takes its cluster's site", async (t) => {
  await deciderSpec(t)
    .given(clusters)
    .when(vm('vm1', { cluster: 2 }))
    .then([
      {
        action: 'create',
        objectType: 'virtualization.virtualmachine',
        objectId: 1,
        postchange: { cluster: 2, site: 2 },
      },
    ]);
});

test('virtual machine: a site without a cluster is enough', async (t) => {
  await deciderSpec(t)
    .given(clusters)
    .when(create('virtualization.virtualmachine', { name: 'vm1', site: 1 }))
    .then([{ objectId: 1, postchange: { site: 1, cluster: null } }]);
});

test("virtual machine: the cluster must be at the VM's site", async (t) => {
  await deciderSpec(t)
    .given(clusters)
    .when(vm('vm1', { cluster: 2, site: 1 }))
    .thenThrows(ValidationError, { cluster: ['The selected cluster (c2) is not assigned to this site (DC-1).'] });
  await deciderSpec(t)
    .given(clusters)
    .when(vm('vm1', { cluster: 3, site: 1 }))
    .thenThrows(ValidationError, { cluster: ['The selected cluster (floating) is not assigned to this site (DC-1).'] });
  await deciderSpec(t)
    .given([...clusters, vm('vm1')])
    .when(patch('virtualization.virtualmachine', 1, { cluster: 2 }))
    .thenThrows(ValidationError, { cluster: ['The selected cluster (c2) is not assigned to this site (DC-1).'] });
});

test("virtual machine: a host device needs a cluster, and must be one of the cluster's devices", async (t) => {
  const withDevices: WriteCommand[] = [
    ...clusters,
    create('dcim.manufacturer', { name: 'Dell', slug: 'dell' }),
    create('dcim.devicetype', { manufacturer: 1, model: 'R640', slug: 'r640' }),
    create('dcim.device', { name: 'host1', device_type: 1, device_role: 1, site: 1, cluster: 1 }),
    create('dcim.device', { name: 'host2', device_type: 1, device_role: 1, site: 1 }),
  ];
  await deciderSpec(t)
    .given(withDevices)
    .when(create('virtualization.virtualmachine', { name: 'vm1', site: 1, device: 1 }))
    .thenThrows(ValidationError, { device: ['Must specify a cluster when assigning a host device.'] });
  await deciderSpec(t)
    .given(withDevices)
    .when(vm('vm1', { device: 2 }))
    .thenThrows(ValidationError, { device: ['The selected device (host2) is not assigned to this cluster (c1).'] });
  await deciderSpec(t)
    .given(withDevices)
    .when(vm('vm1', { device: 1 }))
    .then([{ objectId: 1, postchange: { device: 1, cluster: 1, site: 1 } }]);
});

test('virtual machine: a device hosting VMs cannot be deleted', async (t) => {
  await deciderSpec(t)
    .given([
      ...clusters,
      create('dcim.manufacturer', { name: 'Dell', slug: 'dell' }),
      create('dcim.devicetype', { manufacturer: 1, model: 'R640', slug: 'r640' }),
      create('dcim.device', { name: 'host1', device_type: 1, device_role: 1, site: 1, cluster: 1 }),
      vm('vm1', { device: 1 }),
    ])
    .when(remove('dcim.device', 1))
    .thenThrows(ConflictError, 'Unable to delete object. 1 dependent objects were found: vm1 (1)');
});

test('virtual machine: the role must be one for virtual machines', async (t) => {
  await deciderSpec(t)
    .given(clusters)
    .when(vm('vm1', { role: 2 }))
    .thenThrows(ValidationError, { role: ['device role instance with id 2 does not exist.'] });
  await deciderSpec(t)
    .given(clusters)
    .when(create('virtualization.virtualmachine', { name: 'vm1', role: 2 }))
    .thenThrows(ValidationError, {
      role: ['device role instance with id 2 does not exist.'],
      cluster: ['A virtual machine must be assigned to a site and/or cluster.'],
    });
});

test('virtual machine: local context data must be a JSON object', async (t) => {
  await deciderSpec(t)
    .given(clusters)
    .when(vm('vm1', { local_context_data: [1, 2] }))
    .thenThrows(ValidationError, { local_context_data: ['JSON data must be in object form. Example: {"foo": 123}'] });
});

test('virtual machine: names are unique per cluster, case-insensitively', async (t) => {
  await deciderSpec(t)
    .given([...clusters, vm('web')])
    .when(vm('WEB'))
    .thenThrows(ValidationError, { __all__: ['Virtual machine name must be unique per cluster.'] });
  await deciderSpec(t)
    .given([...clusters, vm('web')])
    .when(vm('web', { cluster: 2 }))
    .then([{ objectId: 2, postchange: { name: 'web', cluster: 2 } }]);
});

test('virtual machine: with a tenant, names are unique per cluster and tenant', async (t) => {
  const tenants: WriteCommand[] = [...clusters, create('tenancy.tenant', { name: 'Acme', slug: 'acme' })];
  await deciderSpec(t)
    .given([...tenants, vm('web', { tenant: 1 })])
    .when(vm('Web', { tenant: 1 }))
    .thenThrows(ValidationError, {
      __all__: ['Constraint “virtualization_virtualmachine_unique_name_cluster_tenant” is violated.'],
    });
  await deciderSpec(t)
    .given([...tenants, vm('web', { tenant: 1 })])
    .when(vm('web'))
    .then([{ objectId: 2, postchange: { name: 'web', tenant: null } }]);
});

test('virtual machine: VMs without a cluster never collide by name', async (t) => {
  await deciderSpec(t)
    .given([...clusters, create('virtualization.virtualmachine', { name: 'web', site: 1 })])
    .when(create('virtualization.virtualmachine', { name: 'web', site: 1 }))
    .then([{ objectId: 2, postchange: { name: 'web', cluster: null } }]);
});

/* ------------------------------------------------------------ primary IPs */

test("primary ip: an address on one of the VM's interfaces is accepted", async (t) => {
  await deciderSpec(t)
    .given(vmsWithAddresses)
    .when(patch('virtualization.virtualmachine', 1, { primary_ip4: 1, primary_ip6: 2 }))
    .then([{ action: 'update', objectId: 1, postchange: { primary_ip4: 1, primary_ip6: 2 } }]);
});

test('primary ip: an address of another VM is refused', async (t) => {
  await deciderSpec(t)
    .given(vmsWithAddresses)
    .when(patch('virtualization.virtualmachine', 1, { primary_ip4: 3 }))
    .thenThrows(ValidationError, {
      primary_ip4: ['The specified IP address (192.0.2.3/24) is not assigned to this VM.'],
    });
});

test("primary ip: the address must be of the field's family", async (t) => {
  await deciderSpec(t)
    .given(vmsWithAddresses)
    .when(patch('virtualization.virtualmachine', 1, { primary_ip4: 2 }))
    .thenThrows(ValidationError, { primary_ip4: ['Must be an IPv4 address. (2001:db8::1/64 is an IPv6 address.)'] });
});

test('primary ip: a new VM has no interfaces, so no primary IP yet', async (t) => {
  await deciderSpec(t)
    .given(vmsWithAddresses)
    .when(vm('vm3', { primary_ip4: 1 }))
    .thenThrows(ValidationError, {
      primary_ip4: ['The specified IP address (192.0.2.1/24) is not assigned to this VM.'],
    });
});

test("primary ip: the NAT outside address of one of the VM's addresses is accepted", async (t) => {
  await deciderSpec(t)
    .given([...vmsWithAddresses, create('ipam.ipaddress', { address: '198.51.100.1/24', nat_inside: 1 })])
    .when(patch('virtualization.virtualmachine', 1, { primary_ip4: 4 }))
    .then([{ action: 'update', objectId: 1, postchange: { primary_ip4: 4 } }]);
});

test("primary ip: an address that is a VM's primary IP cannot be moved off the VM", async (t) => {
  await deciderSpec(t)
    .given([...vmsWithAddresses, patch('virtualization.virtualmachine', 1, { primary_ip4: 1 })])
    .when(patch('ipam.ipaddress', 1, { assigned_object_type: 'virtualization.vminterface', assigned_object_id: 3 }))
    .thenThrows(ValidationError, {
      vminterface: ['IP address is primary for virtual machine vm1 but not assigned to it!'],
    });
  await deciderSpec(t)
    .given([...vmsWithAddresses, patch('virtualization.virtualmachine', 1, { primary_ip4: 1 })])
    .when(patch('ipam.ipaddress', 1, { assigned_object_type: 'virtualization.vminterface', assigned_object_id: 2 }))
    .then([{ action: 'update', objectType: 'ipam.ipaddress', objectId: 1, postchange: { assigned_object_id: 2 } }]);
});

test("primary ip: deleting the address clears the VM's primary IP", async (t) => {
  await deciderSpec(t)
    .given([...vmsWithAddresses, patch('virtualization.virtualmachine', 1, { primary_ip4: 1 })])
    .when(remove('ipam.ipaddress', 1))
    .then([
      {
        action: 'update',
        objectType: 'virtualization.virtualmachine',
        objectId: 1,
        prechange: { primary_ip4: 1 },
        postchange: { primary_ip4: null },
      },
      { action: 'delete', objectType: 'ipam.ipaddress', objectId: 1 },
    ]);
});

test('delete: a VM takes its interfaces and their addresses with it', async (t) => {
  await deciderSpec(t)
    .given([...vmsWithAddresses, patch('virtualization.virtualmachine', 1, { primary_ip4: 1 })])
    .when(remove('virtualization.virtualmachine', 1))
    .then((events) => {
      t.deepEqual(
        events.map((e) => `${e.action} ${e.objectType} ${e.objectId}`),
        [
          'delete ipam.ipaddress 2',
          'delete ipam.ipaddress 1',
          'delete virtualization.vminterface 2',
          'delete virtualization.vminterface 1',
          'delete virtualization.virtualmachine 1',
        ],
      );
      t.deepEqual(
        events[2].related,
        { type: 'virtualization.virtualmachine', id: 1 },
        "an interface's changes name its VM",
      );
    });
});

test('delete: a cluster with VMs cannot be deleted', async (t) => {
  await deciderSpec(t)
    .given(twoVms)
    .when(remove('virtualization.cluster', 1))
    .thenThrows(ConflictError, /^Unable to delete object\. 2 dependent objects were found: vm1 \(1\), vm2 \(2\)$/);
});

/* ------------------------------------------------------------ VM interfaces */

test('vm interface: the parent must be another interface of the same VM', async (t) => {
  await deciderSpec(t)
    .given(twoVms)
    .when(patch('virtualization.vminterface', 1, { parent: 1 }))
    .thenThrows(ValidationError, { parent: ['An interface cannot be its own parent.'] });
  await deciderSpec(t)
    .given(twoVms)
    .when(create('virtualization.vminterface', { virtual_machine: 1, name: 'eth0.10', parent: 3 }))
    .thenThrows(ValidationError, {
      parent: ['The selected parent interface (eth0) belongs to a different virtual machine (vm2).'],
    });
  await deciderSpec(t)
    .given(twoVms)
    .when(create('virtualization.vminterface', { virtual_machine: 1, name: 'eth0.10', parent: 1 }))
    .then([{ objectId: 4, postchange: { parent: 1 } }]);
});

test('vm interface: the bridge must be another interface of the same VM', async (t) => {
  await deciderSpec(t)
    .given(twoVms)
    .when(patch('virtualization.vminterface', 2, { bridge: 2 }))
    .thenThrows(ValidationError, { bridge: ['An interface cannot be bridged to itself.'] });
  await deciderSpec(t)
    .given(twoVms)
    .when(patch('virtualization.vminterface', 2, { bridge: 3 }))
    .thenThrows(ValidationError, {
      bridge: ['The selected bridge interface (eth0) belongs to a different virtual machine (vm2).'],
    });
});

test("vm interface: the untagged VLAN must be global or at the VM's site", async (t) => {
  await deciderSpec(t)
    .given(twoVms)
    .when(patch('virtualization.vminterface', 1, { mode: 'access', untagged_vlan: 3 }))
    .thenThrows(ValidationError, {
      untagged_vlan: [
        "The untagged VLAN (dc2 (30)) must belong to the same site as the interface's parent virtual machine, or it must be global.",
      ],
    });
  for (const vlan of [1, 2]) {
    await deciderSpec(t)
      .given(twoVms)
      .when(patch('virtualization.vminterface', 1, { mode: 'access', untagged_vlan: vlan }))
      .then([{ objectId: 1, postchange: { mode: 'access', untagged_vlan: vlan } }]);
  }
});

test("vm interface: tagged VLANs sent must be global or at the VM's site", async (t) => {
  await deciderSpec(t)
    .given(twoVms)
    .when(patch('virtualization.vminterface', 1, { mode: 'tagged', tagged_vlans: [1, 3] }))
    .thenThrows(ValidationError, {
      tagged_vlans: [
        "VLAN dc2 (30) must belong to the same site as the interface's parent virtual machine, or it must be global.",
      ],
    });
  await deciderSpec(t)
    .given(twoVms)
    .when(patch('virtualization.vminterface', 1, { mode: 'tagged', tagged_vlans: [1, 2] }))
    .then([{ objectId: 1, postchange: { mode: 'tagged', tagged_vlans: [1, 2] } }]);
});

test('vm interface: without a mode the untagged VLAN is dropped on save', async (t) => {
  await deciderSpec(t)
    .given(twoVms)
    .when(create('virtualization.vminterface', { virtual_machine: 1, name: 'eth2', untagged_vlan: 1 }))
    .then([{ objectId: 4, postchange: { mode: '', untagged_vlan: null } }]);
});

test('vm interface: leaving tagged mode clears the tagged VLANs, unless the request sends new ones', async (t) => {
  const tagged = [...twoVms, patch('virtualization.vminterface', 1, { mode: 'tagged', tagged_vlans: [1, 2] })];
  await deciderSpec(t)
    .given(tagged)
    .when(patch('virtualization.vminterface', 1, { mode: 'access' }))
    .then([{ objectId: 1, prechange: { tagged_vlans: [1, 2] }, postchange: { mode: 'access', tagged_vlans: [] } }]);
  await deciderSpec(t)
    .given(tagged)
    .when(patch('virtualization.vminterface', 1, { mode: 'tagged-all', tagged_vlans: [2] }))
    .then([{ objectId: 1, postchange: { mode: 'tagged-all', tagged_vlans: [2] } }]);
  await deciderSpec(t)
    .given(tagged)
    .when(patch('virtualization.vminterface', 1, { description: 'uplink' }))
    .then(([event]) => {
      t.deepEqual(changedFields(event), ['description', 'last_updated'], 'a tagged interface keeps its VLANs');
    });
});

test('vm interface: the MTU is 1 to 65536', async (t) => {
  await deciderSpec(t)
    .given(twoVms)
    .when(patch('virtualization.vminterface', 1, { mtu: 0 }))
    .thenThrows(ValidationError, { mtu: ['Ensure this value is greater than or equal to 1.'] });
  await deciderSpec(t)
    .given(twoVms)
    .when(patch('virtualization.vminterface', 1, { mtu: 65537 }))
    .thenThrows(ValidationError, { mtu: ['Ensure this value is less than or equal to 65536.'] });
});

test('vm interface: MAC addresses are stored in canonical form; anything else is refused', async (t) => {
  await deciderSpec(t)
    .given(twoVms)
    .when(patch('virtualization.vminterface', 1, { mac_address: '00-1a-2b-3c-4d-5e' }))
    .then([{ objectId: 1, postchange: { mac_address: '00:1A:2B:3C:4D:5E' } }]);
  await deciderSpec(t)
    .given(twoVms)
    .when(patch('virtualization.vminterface', 1, { mac_address: 'not-a-mac' }))
    .thenThrows(ValidationError, { mac_address: ['Invalid MAC address format: not-a-mac'] });
});

test('vm interface: names are unique per VM', async (t) => {
  await deciderSpec(t)
    .given(twoVms)
    .when(create('virtualization.vminterface', { virtual_machine: 1, name: 'eth0' }))
    .thenThrows(ValidationError, { __all__: ['Interface with this Virtual machine and Name already exists.'] });
});

test('vm interface: a PUT without tagged VLANs on an access interface leaves none', async (t) => {
  await deciderSpec(t)
    .given([...twoVms, patch('virtualization.vminterface', 1, { mode: 'tagged', tagged_vlans: [1] })])
    .when(put('virtualization.vminterface', 1, { virtual_machine: 1, name: 'eth0', mode: 'access' }))
    .then([{ objectId: 1, postchange: { mode: 'access', tagged_vlans: [] } }]);
});
