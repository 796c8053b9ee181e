import test from 'ava';

import { ids, list, post } from '../support/expectResponses.js';
import { startService, type TestService } from '../support/startService.js';

/** A tenant, two sites, a cluster at the first, a VM in it with one interface and two addresses. */
async function virtualEstate(service: TestService) {
  const tenant = await post(service, '/api/tenancy/tenants/', { name: 'Acme', slug: 'acme' });
  const site = await post(service, '/api/dcim/sites/', { name: 'DC-1', slug: 'dc-1' });
  const otherSite = await post(service, '/api/dcim/sites/', { name: 'DC-2', slug: 'dc-2' });
  const clusterType = await post(service, '/api/virtualization/cluster-types/', { name: 'KVM', slug: 'kvm' });
  const cluster = await post(service, '/api/virtualization/clusters/', {
    name: 'kvm1',
    type: clusterType.id,
    site: site.id,
  });
  const vm = await post(service, '/api/virtualization/virtual-machines/', {
    name: 'web1',
    cluster: cluster.id,
    tenant: tenant.id,
    vcpus: 2.5,
    memory: 4096,
  });
  const eth0 = await post(service, '/api/virtualization/interfaces/', {
    virtual_machine: vm.id,
    name: 'eth0',
    mac_address: '00:1a:2b:3c:4d:5e',
  });
  const v4 = await post(service, '/api/ipam/ip-addresses/', {
    address: '192.0.2.10/24',
    assigned_object_type: 'virtualization.vminterface',
    assigned_object_id: eth0.id,
  });
  const v6 = await post(service, '/api/ipam/ip-addresses/', {
    address: '2001:db8::10/64',
    assigned_object_type: 'virtualization.vminterface',
    assigned_object_id: eth0.id,
  });
  return { tenant, site, otherSite, clusterType, cluster, vm, eth0, v4, v6 };
}

test("a VM in a cluster gets the cluster's site, interfaces, addresses and a primary IP", async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const e = await virtualEstate(service);
  t.like(e.vm, {
    name: 'web1',
    display: 'web1',
    status: { value: 'active', label: 'Active' },
    vcpus: 2.5,
    memory: 4096,
    config_context: {},
  });
  t.deepEqual(e.vm.site, {
    id: e.site.id,
    url: `${service.url}/api/dcim/sites/${e.site.id}/`,
    display: 'DC-1',
    name: 'DC-1',
    slug: 'dc-1',
  });
  t.deepEqual(e.vm.cluster, {
    id: e.cluster.id,
    url: `${service.url}/api/virtualization/clusters/${e.cluster.id}/`,
    display: 'kvm1',
    name: 'kvm1',
  });
  t.is(e.eth0.mac_address, '00:1A:2B:3C:4D:5E');
  t.is(e.eth0.mode, null, 'a blank mode reads as null');
  t.deepEqual(e.eth0.virtual_machine, {
    id: e.vm.id,
    url: `${service.url}/api/virtualization/virtual-machines/${e.vm.id}/`,
    display: 'web1',
    name: 'web1',
  });

  t.deepEqual(e.v4.assigned_object, {
    id: e.eth0.id,
    url: `${service.url}/api/virtualization/interfaces/${e.eth0.id}/`,
    display: 'eth0',
    virtual_machine: e.eth0.virtual_machine,
    name: 'eth0',
  });
  const iface = (await service.api('GET', `/api/virtualization/interfaces/${e.eth0.id}/`)).body;
  t.like(iface, { count_ipaddresses: 2, count_fhrp_groups: 0, l2vpn_termination: null });

  const primary = await service.api('PATCH', `/api/virtualization/virtual-machines/${e.vm.id}/`, {
    primary_ip4: e.v4.id,
  });
  t.is(primary.status, 200, JSON.stringify(primary.body));
  t.is(primary.body.primary_ip4.address, '192.0.2.10/24');
  t.is(primary.body.primary_ip.id, e.v4.id, 'primary_ip is the IPv4 one while there is no IPv6 primary');
  const both = await service.api('PATCH', `/api/virtualization/virtual-machines/${e.vm.id}/`, { primary_ip6: e.v6.id });
  t.is(both.body.primary_ip.id, e.v6.id, 'the IPv6 primary wins');

  const brief = (await service.api('GET', `/api/virtualization/virtual-machines/${e.vm.id}/?brief=1`)).body;
  t.deepEqual(Object.keys(brief), ['id', 'url', 'display', 'name']);
  const withoutContext = (
    await service.api('GET', `/api/virtualization/virtual-machines/${e.vm.id}/?exclude=config_context`)
  ).body;
  t.false('config_context' in withoutContext);
});

test("the VM rules answer with NetBox's messages", async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const e = await virtualEstate(service);
  const vms = '/api/virtualization/virtual-machines/';
  const refused = async (method: string, path: string, body: unknown) => {
    const response = await service.api(method, path, body);
    t.is(response.status, 400, `${method} ${path} ${JSON.stringify(body)}`);
    return response.body;
  };
  t.deepEqual(await refused('POST', vms, { name: 'lost' }), {
    cluster: ['A virtual machine must be assigned to a site and/or cluster.'],
  });
  t.deepEqual(await refused('POST', vms, { name: 'x', cluster: e.cluster.id, site: e.otherSite.id }), {
    cluster: ['The selected cluster (kvm1) is not assigned to this site (DC-2).'],
  });
  t.deepEqual(await refused('POST', vms, { name: 'WEB1', cluster: e.cluster.id, tenant: e.tenant.id }), {
    __all__: ['Constraint “virtualization_virtualmachine_unique_name_cluster_tenant” is violated.'],
  });
  await post(service, vms, { name: 'db1', cluster: e.cluster.id });
  t.deepEqual(await refused('POST', vms, { name: 'DB1', cluster: e.cluster.id }), {
    __all__: ['Virtual machine name must be unique per cluster.'],
  });

  const stray = await post(service, '/api/ipam/ip-addresses/', { address: '198.51.100.7/24' });
  t.deepEqual(await refused('PATCH', `${vms}${e.vm.id}/`, { primary_ip4: stray.id }), {
    primary_ip4: ['The specified IP address (198.51.100.7/24) is not assigned to this VM.'],
  });
  t.deepEqual(await refused('PATCH', `${vms}${e.vm.id}/`, { primary_ip4: e.v6.id }), {
    primary_ip4: ['Must be an IPv4 address. (2001:db8::10/64 is an IPv6 address.)'],
  });
  t.is((await service.api('PATCH', `${vms}${e.vm.id}/`, { primary_ip4: e.v4.id })).status, 200);
  t.deepEqual(
    await refused('PATCH', `/api/ipam/ip-addresses/${e.v4.id}/`, {
      assigned_object_type: null,
      assigned_object_id: null,
    }),
    {
      vminterface: ['IP address is primary for virtual machine web1 but not assigned to it!'],
    },
  );

  const interfaces = '/api/virtualization/interfaces/';
  const dc2Vlan = await post(service, '/api/ipam/vlans/', { vid: 30, name: 'dc2', site: e.otherSite.id });
  t.deepEqual(await refused('PATCH', `${interfaces}${e.eth0.id}/`, { mode: 'access', untagged_vlan: dc2Vlan.id }), {
    untagged_vlan: [
      "The untagged VLAN (dc2 (30)) must belong to the same site as the interface's parent virtual machine, or it must be global.",
    ],
  });
  t.deepEqual(await refused('PATCH', `${interfaces}${e.eth0.id}/`, { mode: 'tagged', tagged_vlans: [dc2Vlan.id] }), {
    tagged_vlans: [
      "VLAN dc2 (30) must belong to the same site as the interface's parent virtual machine, or it must be global.",
    ],
  });
  t.deepEqual(await refused('PATCH', `${interfaces}${e.eth0.id}/`, { mtu: 65537 }), {
    mtu: ['Ensure this value is less than or equal to 65536.'],
  });
  t.deepEqual(await refused('PATCH', `${interfaces}${e.eth0.id}/`, { mac_address: 'zz:zz' }), {
    mac_address: ['Invalid MAC address format: zz:zz'],
  });
  t.deepEqual(await refused('POST', interfaces, { virtual_machine: e.vm.id, name: 'eth0' }), {
    __all__: ['Interface with this Virtual machine and Name already exists.'],
  });

  const device = await service.api('POST', '/api/dcim/devices/', {
    name: 'host9',
    device_type: (
      await post(service, '/api/dcim/device-types/', {
        manufacturer: (await post(service, '/api/dcim/manufacturers/', { name: 'Dell', slug: 'dell' })).id,
        model: 'R640',
        slug: 'r640',
      })
    ).id,
    device_role: (await post(service, '/api/dcim/device-roles/', { name: 'Host', slug: 'host' })).id,
    site: e.otherSite.id,
    cluster: e.cluster.id,
  });
  t.is(device.status, 400);
  t.deepEqual(device.body, { cluster: ['The assigned cluster belongs to a different site (DC-1)'] });
});

test('addresses, VLANs and counts filter and count by virtual machine', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const e = await virtualEstate(service);
  const other = await post(service, '/api/virtualization/virtual-machines/', { name: 'web2', site: e.otherSite.id });
  const otherEth = await post(service, '/api/virtualization/interfaces/', { virtual_machine: other.id, name: 'eth0' });
  const otherIp = await post(service, '/api/ipam/ip-addresses/', {
    address: '203.0.113.5/24',
    assigned_object_type: 'virtualization.vminterface',
    assigned_object_id: otherEth.id,
  });

  t.deepEqual(ids(await list(service, `/api/ipam/ip-addresses/?virtual_machine_id=${e.vm.id}`)), [e.v4.id, e.v6.id]);
  t.deepEqual(ids(await list(service, '/api/ipam/ip-addresses/?virtual_machine=web2')), [otherIp.id]);
  t.deepEqual(ids(await list(service, '/api/ipam/ip-addresses/?virtual_machine=nobody')), []);
  t.deepEqual(ids(await list(service, `/api/ipam/ip-addresses/?vminterface_id=${otherEth.id}`)), [otherIp.id]);
  t.deepEqual(ids(await list(service, `/api/ipam/ip-addresses/?vminterface_id__n=${otherEth.id}`)), [e.v4.id, e.v6.id]);
  t.deepEqual(ids(await list(service, '/api/ipam/ip-addresses/?vminterface=eth0')), [e.v4.id, otherIp.id, e.v6.id]);
  t.is((await service.api('GET', '/api/ipam/ip-addresses/?vminterface_id=999')).status, 400);

  t.deepEqual(ids(await list(service, `/api/virtualization/interfaces/?virtual_machine_id=${other.id}`)), [
    otherEth.id,
  ]);
  t.deepEqual(ids(await list(service, `/api/virtualization/interfaces/?cluster_id=${e.cluster.id}`)), [e.eth0.id]);
  t.deepEqual(ids(await list(service, '/api/virtualization/interfaces/?mac_address=00-1a-2b-3c-4d-5e')), [e.eth0.id]);
  t.deepEqual(ids(await list(service, '/api/virtualization/virtual-machines/?mac_address__ic=4d:5e')), [e.vm.id]);
  t.deepEqual(ids(await list(service, '/api/virtualization/virtual-machines/?mac_address__n=00:1A:2B:3C:4D:5E')), [
    other.id,
  ]);
  t.deepEqual(ids(await list(service, '/api/virtualization/virtual-machines/?cluster_type=kvm')), [e.vm.id]);
  t.deepEqual(ids(await list(service, '/api/virtualization/virtual-machines/?site=dc-2')), [other.id]);
  t.deepEqual(ids(await list(service, '/api/virtualization/virtual-machines/?name=WEB1')), [e.vm.id]);
  await service.api('PATCH', `/api/virtualization/virtual-machines/${e.vm.id}/`, { primary_ip4: e.v4.id });
  t.deepEqual(ids(await list(service, '/api/virtualization/virtual-machines/?has_primary_ip=true')), [e.vm.id]);
  t.deepEqual(ids(await list(service, '/api/virtualization/virtual-machines/?q=192.0.2')), [e.vm.id]);

  // VLANs usable on the VM: global ones, its site's, and those of groups scoped to its cluster or site
  const global = await post(service, '/api/ipam/vlans/', { vid: 10, name: 'global' });
  const atSite = await post(service, '/api/ipam/vlans/', { vid: 20, name: 'dc1', site: e.site.id });
  await post(service, '/api/ipam/vlans/', { vid: 30, name: 'dc2', site: e.otherSite.id });
  const clusterGroup = await post(service, '/api/ipam/vlan-groups/', {
    name: 'kvm1 VLANs',
    slug: 'kvm1-vlans',
    scope_type: 'virtualization.cluster',
    scope_id: e.cluster.id,
  });
  const inClusterGroup = await post(service, '/api/ipam/vlans/', { vid: 40, name: 'cluster', group: clusterGroup.id });
  t.deepEqual(ids(await list(service, `/api/ipam/vlans/?available_on_virtualmachine=${e.vm.id}&ordering=vid`)), [
    global.id,
    atSite.id,
    inClusterGroup.id,
  ]);
  t.deepEqual((await service.api('GET', '/api/ipam/vlans/?available_on_virtualmachine=999')).body, {
    available_on_virtualmachine: ['Select a valid choice. That choice is not one of the available choices.'],
  });

  const role = await post(service, '/api/dcim/device-roles/', { name: 'Web server', slug: 'web-server' });
  const platform = await post(service, '/api/dcim/platforms/', { name: 'Debian', slug: 'debian' });
  await service.api('PATCH', `/api/virtualization/virtual-machines/${e.vm.id}/`, {
    role: role.id,
    platform: platform.id,
  });
  t.like((await service.api('GET', `/api/dcim/device-roles/${role.id}/`)).body, {
    device_count: 0,
    virtualmachine_count: 1,
  });
  t.like((await service.api('GET', `/api/dcim/platforms/${platform.id}/`)).body, {
    device_count: 0,
    virtualmachine_count: 1,
  });
  const tenant = (await service.api('GET', `/api/tenancy/tenants/${e.tenant.id}/`)).body;
  t.is(tenant.virtualmachine_count, 1);
  const cluster = (await service.api('GET', `/api/virtualization/clusters/${e.cluster.id}/`)).body;
  t.is(cluster.virtualmachine_count, 1);
  const sites = await list(service, '/api/dcim/sites/?ordering=name');
  t.deepEqual(
    sites.map((s) => s.virtualmachine_count),
    [1, 0],
    "counted by the cluster's site: web2 has a site but no cluster",
  );
});

test('deleting a VM deletes its interfaces and their addresses; deleting an address clears the primary IP', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const e = await virtualEstate(service);
  await service.api('PATCH', `/api/virtualization/virtual-machines/${e.vm.id}/`, {
    primary_ip4: e.v4.id,
    primary_ip6: e.v6.id,
  });
  t.is((await service.api('DELETE', `/api/ipam/ip-addresses/${e.v6.id}/`)).status, 204);
  const vm = (await service.api('GET', `/api/virtualization/virtual-machines/${e.vm.id}/`)).body;
  t.is(vm.primary_ip6, null);
  t.is(vm.primary_ip.id, e.v4.id);

  const deleteCluster = await service.api('DELETE', `/api/virtualization/clusters/${e.cluster.id}/`);
  t.is(deleteCluster.status, 409);
  t.is((await service.api('DELETE', `/api/virtualization/virtual-machines/${e.vm.id}/`)).status, 204);
  t.is((await service.api('GET', `/api/virtualization/interfaces/${e.eth0.id}/`)).status, 404);
  t.is((await service.api('GET', `/api/ipam/ip-addresses/${e.v4.id}/`)).status, 404);
  t.is((await service.api('DELETE', `/api/virtualization/clusters/${e.cluster.id}/`)).status, 204);
});
