import test from 'ava';

import { ids, list, post } from '../support/expectResponses.js';
import { seedInfrastructure } from '../support/fixtures.js';
import { startService, type TestService } from '../support/startService.js';

/**
 * The seeded device edge1 (interface et-0/0/0, VRF Internet) plus interface et-0/0/1; a VM
 * vm1 with interface eth0. FHRP groups: g1 VRRPv2 10 "gw" with virtual address
 * 192.0.2.126/25 in VRF Internet, g2 HSRP 1 with 10.9.0.1/24 in the global table.
 * Assignments: et-0/0/0 → g1 (200), et-0/0/1 → g1 (100), eth0 → g2 (50).
 */
async function fhrp(service: TestService) {
  const s = await seedInfrastructure(service);
  const iface2 = await post(service, '/api/dcim/interfaces/', {
    device: s.device.id,
    name: 'et-0/0/1',
    type: '100gbase-x-qsfp28',
  });
  const clusterType = await post(service, '/api/virtualization/cluster-types/', { name: 'KVM', slug: 'kvm' });
  const cluster = await post(service, '/api/virtualization/clusters/', { name: 'c1', type: clusterType.id });
  const vm = await post(service, '/api/virtualization/virtual-machines/', { name: 'vm1', cluster: cluster.id });
  const vmIface = await post(service, '/api/virtualization/interfaces/', { virtual_machine: vm.id, name: 'eth0' });
  const g1 = await post(service, '/api/ipam/fhrp-groups/', {
    name: 'gw',
    protocol: 'vrrp2',
    group_id: 10,
    auth_type: 'md5',
    auth_key: 'secret',
    description: 'edge gateway',
  });
  const g2 = await post(service, '/api/ipam/fhrp-groups/', { protocol: 'hsrp', group_id: 1 });
  const vip1 = await post(service, '/api/ipam/ip-addresses/', {
    address: '192.0.2.126/25',
    vrf: s.vrf.id,
    assigned_object_type: 'ipam.fhrpgroup',
    assigned_object_id: g1.id,
  });
  const vip2 = await post(service, '/api/ipam/ip-addresses/', {
    address: '10.9.0.1/24',
    assigned_object_type: 'ipam.fhrpgroup',
    assigned_object_id: g2.id,
  });
  const path = '/api/ipam/fhrp-group-assignments/';
  const a1 = await post(service, path, {
    group: g1.id,
    interface_type: 'dcim.interface',
    interface_id: s.iface.id,
    priority: 200,
  });
  const a2 = await post(service, path, {
    group: g1.id,
    interface_type: 'dcim.interface',
    interface_id: iface2.id,
    priority: 100,
  });
  const a3 = await post(service, path, {
    group: g2.id,
    interface_type: 'virtualization.vminterface',
    interface_id: vmIface.id,
    priority: 50,
  });
  return { ...s, iface2, vm, vmIface, g1, g2, vip1, vip2, a1, a2, a3 };
}

test('an FHRP group shows its virtual addresses; protocol and auth type are bare values', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const e = await fhrp(service);
  const g1 = (await service.api('GET', `/api/ipam/fhrp-groups/${e.g1.id}/`)).body;
  // NetBox's serializer lists name between id and url
  t.deepEqual(Object.keys(g1), [
    'id',
    'name',
    'url',
    'display',
    'protocol',
    'group_id',
    'auth_type',
    'auth_key',
    'description',
    'comments',
    'tags',
    'custom_fields',
    'created',
    'last_updated',
    'ip_addresses',
  ]);
  t.is(g1.protocol, 'vrrp2');
  t.is(g1.auth_type, 'md5');
  t.is(g1.auth_key, 'secret');
  const changes = await service.api(
    'GET',
    `/api/extras/object-changes/?changed_object_type=ipam.fhrpgroup&changed_object_id=${e.g1.id}`,
  );
  t.true(changes.body.count >= 1);
  t.false(JSON.stringify(changes.body).includes('"secret"'), 'the key is sealed in the change log');
  t.is(e.g1.display, 'gw VRRPv2: 10', 'no address yet when it was created');
  t.deepEqual(g1.ip_addresses, [
    {
      id: e.vip1.id,
      url: `${service.url}/api/ipam/ip-addresses/${e.vip1.id}/`,
      display: '192.0.2.126/25',
      family: 4,
      address: '192.0.2.126/25',
    },
  ]);
  const brief = (await service.api('GET', `/api/ipam/fhrp-groups/${e.g2.id}/?brief=1`)).body;
  t.deepEqual(
    brief,
    {
      id: e.g2.id,
      url: `${service.url}/api/ipam/fhrp-groups/${e.g2.id}/`,
      display: 'HSRP: 1 (10.9.0.1/24)',
      protocol: 'hsrp',
      group_id: 1,
    },
    'its first address as soon as it has one',
  );
  // the address names the group as its assigned object
  const vip = (await service.api('GET', `/api/ipam/ip-addresses/${e.vip1.id}/`)).body;
  t.is(vip.assigned_object_type, 'ipam.fhrpgroup');
  t.like(vip.assigned_object, { id: e.g1.id, protocol: 'vrrp2', group_id: 10 });
  t.deepEqual(ids(await list(service, `/api/ipam/ip-addresses/?fhrpgroup_id=${e.g2.id}`)), [e.vip2.id]);
  t.deepEqual(ids(await list(service, `/api/ipam/ip-addresses/?fhrpgroup_id__n=${e.g2.id}`)), [
    e.address.id,
    e.vip1.id,
  ]);
  t.is((await service.api('GET', '/api/ipam/ip-addresses/?fhrpgroup_id=9999')).status, 400);
  t.deepEqual((await service.api('POST', '/api/ipam/fhrp-groups/', { protocol: 'vrrp9', group_id: 32768 })).body, {
    protocol: ['"vrrp9" is not a valid choice.'],
    group_id: ['Ensure this value is less than or equal to 32767.'],
  });
  t.deepEqual(
    ids(await list(service, '/api/ipam/fhrp-groups/')),
    [e.g2.id, e.g1.id],
    'ordered by protocol, then group id',
  );
});

test('FHRP groups filter by protocol, group id, auth and related address', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const e = await fhrp(service);
  const path = '/api/ipam/fhrp-groups/';
  t.deepEqual(ids(await list(service, `${path}?protocol=vrrp2`)), [e.g1.id]);
  t.deepEqual(ids(await list(service, `${path}?group_id__lt=5`)), [e.g2.id]);
  t.deepEqual(ids(await list(service, `${path}?auth_type=md5`)), [e.g1.id]);
  t.deepEqual(ids(await list(service, `${path}?q=GATEWAY`)), [e.g1.id]);
  // the interface address 192.0.2.1/25 shares its network and VRF with g1's virtual address
  t.deepEqual(ids(await list(service, `${path}?related_ip=${e.address.id}`)), [e.g1.id]);
  const global = await post(service, '/api/ipam/ip-addresses/', { address: '192.0.2.7/25' });
  t.deepEqual(
    ids(await list(service, `${path}?related_ip=${global.id}`)),
    [],
    'the same network in another VRF is not related',
  );
  t.deepEqual(ids(await list(service, `${path}?related_ip=${e.vip2.id}&related_ip=${e.address.id}`)), [
    e.g2.id,
    e.g1.id,
  ]);
  t.is((await service.api('GET', `${path}?related_ip=9999`)).status, 400);
});

test('FHRP group assignments: forms, uniqueness, priority, order and filters', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const e = await fhrp(service);
  const path = '/api/ipam/fhrp-group-assignments/';
  t.deepEqual(Object.keys(e.a1), [
    'id',
    'url',
    'display',
    'group',
    'interface_type',
    'interface_id',
    'interface',
    'priority',
    'created',
    'last_updated',
  ]);
  t.is(e.a1.display, 'et-0/0/0: gw VRRPv2: 10 (192.0.2.126/25) (200)');
  t.like(e.a1.interface, { id: e.iface.id, name: 'et-0/0/0', device: { id: e.device.id, name: 'edge1' } });
  t.like(e.a3.interface, { id: e.vmIface.id, name: 'eth0', virtual_machine: { id: e.vm.id, name: 'vm1' } });
  t.like(e.a1.group, { id: e.g1.id, protocol: 'vrrp2', group_id: 10 });
  const brief = (await service.api('GET', `${path}${e.a1.id}/?brief=1`)).body;
  t.deepEqual(Object.keys(brief), ['id', 'url', 'display', 'interface_type', 'interface_id', 'group_id', 'priority']);
  t.is(brief.group_id, e.g1.id, 'the group by its object id');
  t.deepEqual(ids(await list(service, path)), [e.a1.id, e.a2.id, e.a3.id], 'priority descending');
  const again = await service.api('POST', path, {
    group: e.g1.id,
    interface_type: 'dcim.interface',
    interface_id: e.iface.id,
    priority: 1,
  });
  t.deepEqual(again.body, {
    __all__: ['FHRP group assignment with this Interface type, Interface id and Group already exists.'],
  });
  t.deepEqual((await service.api('PATCH', `${path}${e.a2.id}/`, { priority: 256 })).body, {
    priority: ['Ensure this value is less than or equal to 255.'],
  });
  t.is((await service.api('PATCH', `${path}${e.a2.id}/`, { priority: 255 })).status, 200);
  t.deepEqual(ids(await list(service, path)), [e.a2.id, e.a1.id, e.a3.id]);
  t.is(
    (
      await service.api('POST', path, {
        group: e.g2.id,
        interface_type: 'dcim.site',
        interface_id: e.site.id,
        priority: 1,
      })
    ).status,
    400,
  );
  t.deepEqual(ids(await list(service, `${path}?group_id=${e.g2.id}`)), [e.a3.id]);
  t.deepEqual(ids(await list(service, `${path}?device=edge1`)), [e.a2.id, e.a1.id]);
  t.deepEqual(ids(await list(service, `${path}?device_id=${e.device.id}`)), [e.a2.id, e.a1.id]);
  t.deepEqual(ids(await list(service, `${path}?device=nothing`)), []);
  t.deepEqual(ids(await list(service, `${path}?virtual_machine=vm1`)), [e.a3.id]);
  t.deepEqual(ids(await list(service, `${path}?virtual_machine_id=${e.vm.id}`)), [e.a3.id]);
  t.deepEqual(ids(await list(service, `${path}?interface_type=virtualization.vminterface`)), [e.a3.id]);
  t.deepEqual(ids(await list(service, `${path}?priority__lt=100`)), [e.a3.id]);
});

test('interfaces count their FHRP groups; deleting an interface deletes its assignments', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const e = await fhrp(service);
  t.is((await service.api('GET', `/api/dcim/interfaces/${e.iface.id}/`)).body.count_fhrp_groups, 1);
  t.is((await service.api('GET', `/api/virtualization/interfaces/${e.vmIface.id}/`)).body.count_fhrp_groups, 1);
  const created = await service.api('POST', '/api/dcim/interfaces/', {
    device: e.device.id,
    name: 'et-0/0/2',
    type: '100gbase-x-qsfp28',
  });
  t.is(created.body.count_fhrp_groups, 0, 'always present, even on create');
  const response = await service.api('DELETE', `/api/dcim/interfaces/${e.iface.id}/`);
  t.is(response.status, 204);
  t.is((await service.api('GET', `/api/ipam/fhrp-group-assignments/${e.a1.id}/`)).status, 404);
  t.deepEqual(ids(await list(service, '/api/ipam/fhrp-group-assignments/')), [e.a2.id, e.a3.id]);
  t.is((await service.api('DELETE', `/api/virtualization/interfaces/${e.vmIface.id}/`)).status, 204);
  t.deepEqual(ids(await list(service, '/api/ipam/fhrp-group-assignments/')), [e.a2.id]);
  // deleting the group deletes its assignments and its virtual addresses
  t.is((await service.api('DELETE', `/api/ipam/fhrp-groups/${e.g1.id}/`)).status, 204);
  t.deepEqual(ids(await list(service, '/api/ipam/fhrp-group-assignments/')), []);
  t.is((await service.api('GET', `/api/ipam/ip-addresses/${e.vip1.id}/`)).status, 404);
});
