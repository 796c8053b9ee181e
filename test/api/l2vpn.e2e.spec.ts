/**
 * L2VPNs and their terminations on interfaces, VM interfaces and VLANs: NetBox 3.4's
 * fields, rules and messages, the filters on both sides, and `l2vpn_termination` on the
 * terminating objects.
 */
import test from 'ava';

import { ok } from '../support/callers.js';
import { seedInfrastructure } from '../support/fixtures.js';
import { startService, type TestService } from '../support/startService.js';

const L2VPNS = '/api/ipam/l2vpns/';
const TERMINATIONS = '/api/ipam/l2vpn-terminations/';

/** The seeded registry plus a VM with an interface at the same site. */
async function estate(service: TestService) {
  const seeded = await seedInfrastructure(service);
  const clusterType = await ok(service.api('POST', '/api/virtualization/cluster-types/', { name: 'KVM', slug: 'kvm' }));
  const cluster = await ok(
    service.api('POST', '/api/virtualization/clusters/', { name: 'kvm1', type: clusterType.id, site: seeded.site.id }),
  );
  const vm = await ok(
    service.api('POST', '/api/virtualization/virtual-machines/', { name: 'web1', cluster: cluster.id }),
  );
  const vmIface = await ok(
    service.api('POST', '/api/virtualization/interfaces/', { virtual_machine: vm.id, name: 'eth0' }),
  );
  const iface2 = await ok(
    service.api('POST', '/api/dcim/interfaces/', {
      device: seeded.device.id,
      name: 'et-0/0/1',
      type: '100gbase-x-qsfp28',
    }),
  );
  return { ...seeded, vm, vmIface, iface2 };
}

test('an L2VPN: type required by the model, route targets as the VRF has them, display with its identifier', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const [rt1, rt2] = await ok(
    service.api('POST', '/api/ipam/route-targets/', [{ name: '65000:1' }, { name: '65000:2' }]),
  );
  const vpn = await ok(
    service.api('POST', L2VPNS, {
      name: 'Metro',
      slug: 'metro',
      type: 'vxlan',
      identifier: 10100,
      import_targets: [rt1.id],
      export_targets: [rt1.id, rt2.id],
    }),
  );
  t.is(vpn.display, 'Metro (10100)');
  t.deepEqual(vpn.type, { value: 'vxlan', label: 'VXLAN' });
  t.deepEqual(
    vpn.import_targets.map((rt: any) => rt.name),
    ['65000:1'],
  );
  t.deepEqual(Object.keys(vpn.export_targets[0]), ['id', 'url', 'display', 'name']);
  const brief = await service.api('GET', `${L2VPNS}${vpn.id}/?brief=1`);
  t.deepEqual(brief.body, {
    id: vpn.id,
    url: vpn.url,
    display: 'Metro (10100)',
    identifier: 10100,
    name: 'Metro',
    slug: 'metro',
    type: 'vxlan',
  });
  const plain = await ok(
    service.api('POST', L2VPNS, { name: 'Backhaul', slug: 'backhaul', type: 'vpws', identifier: 0 }),
  );
  t.is(plain.display, 'Backhaul', 'an identifier of 0 is not shown');
  const untyped = await service.api('POST', L2VPNS, { name: 'X', slug: 'x' });
  t.deepEqual(untyped.body, { type: ['This field cannot be blank.'] });
  const badType = await service.api('POST', L2VPNS, { name: 'X', slug: 'x', type: 'frame-relay' });
  t.is(badType.status, 400);
  t.truthy(badType.body.type);
  const taken = await service.api('POST', L2VPNS, { name: 'Metro', slug: 'metro-2', type: 'vpls' });
  t.is(taken.status, 400);
  t.truthy(taken.body.name);
  const ids = async (query: string) =>
    (await service.api('GET', `${L2VPNS}?${query}`)).body.results.map((r: any) => r.id);
  t.deepEqual(await ids(''), [plain.id, vpn.id], 'by name');
  t.deepEqual(await ids('import_target=65000:1'), [vpn.id]);
  t.deepEqual(await ids(`export_target_id=${rt2.id}`), [vpn.id]);
  t.deepEqual(await ids('q=10100'), [vpn.id], 'q matches the identifier as a number');
  t.deepEqual(await ids('q=back'), [plain.id]);
  t.deepEqual(await ids('type=vpws'), [plain.id]);
  t.deepEqual(await ids('identifier__gte=100'), [vpn.id]);
});

test('terminations: on an interface, a VM interface and a VLAN, shown as l2vpn_termination on each', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const e = await estate(service);
  const vpn = await ok(service.api('POST', L2VPNS, { name: 'Metro', slug: 'metro', type: 'vpls', identifier: 7 }));
  const onIface = await ok(
    service.api('POST', TERMINATIONS, {
      l2vpn: vpn.id,
      assigned_object_type: 'dcim.interface',
      assigned_object_id: e.iface.id,
    }),
  );
  const onVm = await ok(
    service.api('POST', TERMINATIONS, {
      l2vpn: vpn.id,
      assigned_object_type: 'virtualization.vminterface',
      assigned_object_id: e.vmIface.id,
    }),
  );
  const onVlan = await ok(
    service.api('POST', TERMINATIONS, {
      l2vpn: vpn.id,
      assigned_object_type: 'ipam.vlan',
      assigned_object_id: e.vlan.id,
    }),
  );
  t.is(onIface.display, 'et-0/0/0 <> Metro (7)');
  t.is(onVm.display, 'eth0 <> Metro (7)');
  t.like(onVlan.assigned_object, {
    id: e.vlan.id,
    url: `${service.url}/api/ipam/vlans/${e.vlan.id}/`,
    display: e.vlan.display,
    vid: 100,
    name: 'servers',
  });
  const nestedVpn = {
    id: vpn.id,
    url: `${service.url}${L2VPNS}${vpn.id}/`,
    display: 'Metro (7)',
    identifier: 7,
    name: 'Metro',
    slug: 'metro',
    type: 'vpls',
  };
  t.deepEqual(onIface.l2vpn, nestedVpn);
  const nested = (term: any) => ({
    id: term.id,
    url: `${service.url}${TERMINATIONS}${term.id}/`,
    display: term.display,
    l2vpn: nestedVpn,
  });
  t.deepEqual(
    (await service.api('GET', `/api/dcim/interfaces/${e.iface.id}/`)).body.l2vpn_termination,
    nested(onIface),
  );
  t.deepEqual(
    (await service.api('GET', `/api/virtualization/interfaces/${e.vmIface.id}/`)).body.l2vpn_termination,
    nested(onVm),
  );
  t.deepEqual((await service.api('GET', `/api/ipam/vlans/${e.vlan.id}/`)).body.l2vpn_termination, nested(onVlan));
  t.is((await service.api('GET', `/api/dcim/interfaces/${e.iface2.id}/`)).body.l2vpn_termination, null);
  const listed = (await service.api('GET', `/api/dcim/interfaces/?device_id=${e.device.id}`)).body.results;
  t.deepEqual(
    listed.map((i: any) => i.l2vpn_termination?.id ?? null),
    [onIface.id, null],
  );
  // deleting the interface deletes its termination; deleting the L2VPN deletes the rest
  t.is((await service.api('DELETE', `/api/dcim/interfaces/${e.iface.id}/`)).status, 204);
  t.is((await service.api('GET', `${TERMINATIONS}${onIface.id}/`)).status, 404);
  t.is((await service.api('DELETE', `${L2VPNS}${vpn.id}/`)).status, 204);
  t.is((await service.api('GET', TERMINATIONS)).body.count, 0);
  t.is((await service.api('GET', `/api/ipam/vlans/${e.vlan.id}/`)).body.l2vpn_termination, null);
});

test('one termination per object; a point-to-point L2VPN takes two at most, a multipoint one more', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const e = await estate(service);
  const p2p = await ok(service.api('POST', L2VPNS, { name: 'Wire', slug: 'wire', type: 'epl' }));
  const lan = await ok(service.api('POST', L2VPNS, { name: 'LAN', slug: 'lan', type: 'evp-lan' }));
  const terminate = (vpn: number, type: string, id: number) =>
    service.api('POST', TERMINATIONS, { l2vpn: vpn, assigned_object_type: type, assigned_object_id: id });
  const first = await ok(terminate(p2p.id, 'dcim.interface', e.iface.id));
  const again = await terminate(lan.id, 'dcim.interface', e.iface.id);
  t.is(again.status, 400);
  t.deepEqual(again.body, { __all__: ['L2VPN Termination already assigned (et-0/0/0)'] });
  await ok(terminate(p2p.id, 'dcim.interface', e.iface2.id));
  const third = await terminate(p2p.id, 'ipam.vlan', e.vlan.id);
  t.deepEqual(third.body, { __all__: ['EPL L2VPNs cannot have more than two terminations; found 2 already defined.'] });
  // an existing termination re-saved is not counted against itself
  await ok(service.api('PATCH', `${TERMINATIONS}${first.id}/`, { tags: [] }), 200);
  await ok(terminate(lan.id, 'ipam.vlan', e.vlan.id));
  await ok(terminate(lan.id, 'virtualization.vminterface', e.vmIface.id));
  const moved = await service.api('PATCH', `${TERMINATIONS}${first.id}/`, { l2vpn: lan.id });
  t.is(moved.status, 200, 'a multipoint L2VPN takes a third');
  const wrongType = await terminate(lan.id, 'dcim.site', e.site.id);
  t.is(wrongType.status, 400);
  t.truthy(wrongType.body.assigned_object_type);
  const missing = await terminate(lan.id, 'ipam.vlan', 99999);
  t.is(missing.status, 400);
});

test('filters of terminations and the l2vpn filters of interfaces, VM interfaces and VLANs', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const e = await estate(service);
  const metro = await ok(service.api('POST', L2VPNS, { name: 'Metro', slug: 'metro', type: 'vpls', identifier: 7 }));
  const wire = await ok(service.api('POST', L2VPNS, { name: 'Wire', slug: 'wire', type: 'vpws', identifier: 8 }));
  const terminate = (vpn: number, type: string, id: number) =>
    ok(service.api('POST', TERMINATIONS, { l2vpn: vpn, assigned_object_type: type, assigned_object_id: id }));
  const onIface = await terminate(metro.id, 'dcim.interface', e.iface.id);
  const onVm = await terminate(metro.id, 'virtualization.vminterface', e.vmIface.id);
  const onVlan = await terminate(wire.id, 'ipam.vlan', e.vlan.id);
  const ids = async (query: string) => {
    const response = await service.api('GET', `${TERMINATIONS}?${query}`);
    t.is(response.status, 200, `${query}: ${JSON.stringify(response.body)}`);
    return response.body.results.map((r: any) => r.id).sort((a: number, b: number) => a - b);
  };
  t.deepEqual(await ids('l2vpn=metro'), [onIface.id, onVm.id]);
  t.deepEqual(await ids(`l2vpn_id=${wire.id}`), [onVlan.id]);
  t.deepEqual(await ids('device=edge1'), [onIface.id]);
  t.deepEqual(await ids(`device_id=${e.device.id}`), [onIface.id]);
  t.deepEqual(await ids(`device_id__n=${e.device.id}`), [onVm.id, onVlan.id]);
  t.deepEqual(await ids('virtual_machine=web1'), [onVm.id]);
  t.deepEqual(await ids(`vminterface_id=${e.vmIface.id}`), [onVm.id]);
  t.deepEqual(await ids('interface=et-0/0/0'), [onIface.id]);
  t.deepEqual(await ids('vlan=servers'), [onVlan.id]);
  t.deepEqual(await ids('vlan_vid=100'), [onVlan.id]);
  t.deepEqual(await ids('vlan_vid__gt=100'), []);
  t.deepEqual(await ids('assigned_object_type=ipam.vlan'), [onVlan.id]);
  t.deepEqual(await ids('site=dc-1'), [onIface.id, onVm.id], 'the VLAN has no site');
  t.deepEqual(await ids(`region_id=${e.region.id}`), [onIface.id, onVm.id]);
  t.deepEqual(await ids('q=wir'), [onVlan.id], "q: the L2VPN's name");
  t.is((await service.api('GET', `${TERMINATIONS}?device=nowhere`)).status, 400, 'an unknown device is refused');
  const listIds = async (path: string) => (await service.api('GET', path)).body.results.map((r: any) => r.id);
  t.deepEqual(await listIds(`/api/dcim/interfaces/?l2vpn_id=${metro.id}`), [e.iface.id]);
  t.deepEqual(await listIds('/api/dcim/interfaces/?l2vpn=7'), [e.iface.id], 'l2vpn is the numeric identifier');
  t.deepEqual(await listIds(`/api/dcim/interfaces/?device_id=${e.device.id}&l2vpn_id__n=${metro.id}`), [e.iface2.id]);
  t.deepEqual(await listIds(`/api/virtualization/interfaces/?l2vpn_id=${metro.id}`), [e.vmIface.id]);
  t.deepEqual(await listIds('/api/ipam/vlans/?l2vpn=8'), [e.vlan.id]);
  t.deepEqual(await listIds('/api/ipam/vlans/?l2vpn=7'), []);
});
