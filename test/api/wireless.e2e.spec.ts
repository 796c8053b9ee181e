import test from 'ava';

import { startService } from '../support/startService.js';

type Service = Awaited<ReturnType<typeof startService>>;

/** A site with two devices, a VLAN and a tenant; helpers to post and to list ids. */
async function seed(service: Service) {
  const post = async (path: string, body: unknown) => {
    const response = await service.api('POST', path, body);
    if (response.status !== 201) throw new Error(`${path}: ${response.status} ${JSON.stringify(response.body)}`);
    return response.body;
  };
  const ids = async (path: string) => {
    const response = await service.api('GET', path);
    if (response.status !== 200) throw new Error(`${path}: ${response.status} ${JSON.stringify(response.body)}`);
    return response.body.results.map((x: any) => x.id);
  };
  const site = await post('/api/dcim/sites/', { name: 'DC-1', slug: 'dc-1' });
  const manufacturer = await post('/api/dcim/manufacturers/', { name: 'Acme', slug: 'acme' });
  const role = await post('/api/dcim/device-roles/', { name: 'AP', slug: 'ap' });
  const type = await post('/api/dcim/device-types/', { manufacturer: manufacturer.id, model: 'W', slug: 'w' });
  const device = (name: string) =>
    post('/api/dcim/devices/', { name, device_type: type.id, device_role: role.id, site: site.id });
  const iface = (dev: { id: number }, name: string, kind = 'ieee802.11ac') =>
    post('/api/dcim/interfaces/', { device: dev.id, name, type: kind });
  const vlan = await post('/api/ipam/vlans/', { vid: 10, name: 'guests' });
  const tenant = await post('/api/tenancy/tenants/', { name: 'Cafe', slug: 'cafe' });
  return { post, ids, device, iface, vlan, tenant };
}

test('wireless LAN groups form a tree: counts include the LANs of descendants, group_id filters include them', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const { post, ids } = await seed(service);
  const campus = await post('/api/wireless/wireless-lan-groups/', { name: 'Campus', slug: 'campus' });
  const building = await post('/api/wireless/wireless-lan-groups/', {
    name: 'Building 1',
    slug: 'b1',
    parent: campus.id,
  });
  const other = await post('/api/wireless/wireless-lan-groups/', { name: 'Other', slug: 'other' });
  // the count is an annotation of lists and details, not of the create response
  t.false('wirelesslan_count' in campus);
  const read = (await service.api('GET', `/api/wireless/wireless-lan-groups/${campus.id}/`)).body;
  t.deepEqual(Object.keys(read), [
    'id',
    'url',
    'display',
    'name',
    'slug',
    'parent',
    'description',
    'tags',
    'custom_fields',
    'created',
    'last_updated',
    'wirelesslan_count',
    '_depth',
  ]);
  t.is(campus.url, `${service.url}/api/wireless/wireless-lan-groups/${campus.id}/`);
  t.is(building._depth, 1);
  t.is(building.parent.slug, 'campus');

  const staff = await post('/api/wireless/wireless-lans/', { ssid: 'staff', group: campus.id });
  const lab = await post('/api/wireless/wireless-lans/', { ssid: 'lab', group: building.id });
  await post('/api/wireless/wireless-lans/', { ssid: 'loose' });
  // a LAN's group is nested without the count (NetBox's annotation is absent there)
  t.deepEqual(Object.keys(lab.group), ['id', 'url', 'display', 'name', 'slug', '_depth']);

  const counts = (await service.api('GET', '/api/wireless/wireless-lan-groups/')).body.results.map((g: any) => [
    g.name,
    g.wirelesslan_count,
  ]);
  t.deepEqual(counts, [
    ['Building 1', 1],
    ['Campus', 2],
    ['Other', 0],
  ]);
  const brief = (await service.api('GET', `/api/wireless/wireless-lan-groups/?brief=1&id=${campus.id}`)).body
    .results[0];
  t.deepEqual(brief, {
    id: campus.id,
    url: campus.url,
    display: 'Campus',
    name: 'Campus',
    slug: 'campus',
    wirelesslan_count: 2,
    _depth: 0,
  });

  t.deepEqual(await ids(`/api/wireless/wireless-lans/?group_id=${campus.id}`), [lab.id, staff.id]);
  t.deepEqual(await ids('/api/wireless/wireless-lans/?group=b1'), [lab.id]);
  t.deepEqual(await ids(`/api/wireless/wireless-lans/?group_id=${other.id}`), []);
  t.deepEqual(await ids(`/api/wireless/wireless-lan-groups/?parent_id=${campus.id}`), [building.id]);
  t.deepEqual(await ids('/api/wireless/wireless-lan-groups/?q=build'), [building.id]);

  const loop = await service.api('PATCH', `/api/wireless/wireless-lan-groups/${campus.id}/`, { parent: building.id });
  t.is(loop.status, 400);
  t.deepEqual(loop.body, { parent: ['Cannot assign self or child Wireless LAN Group as parent.'] });
  const duplicate = await service.api('POST', '/api/wireless/wireless-lan-groups/', {
    name: 'Campus',
    slug: 'campus-2',
  });
  t.is(duplicate.status, 400);
  t.deepEqual(Object.keys(duplicate.body), ['name']);

  // deleting a group leaves its LANs ungrouped; its subtree goes with it
  t.is((await service.api('DELETE', `/api/wireless/wireless-lan-groups/${campus.id}/`)).status, 204);
  t.is((await service.api('GET', `/api/wireless/wireless-lans/${lab.id}/`)).body.group, null);
  t.is((await service.api('GET', `/api/wireless/wireless-lan-groups/${building.id}/`)).status, 404);
});

test('wireless LANs: NetBox fields and choices, the PSK as NetBox shows it, filters, errors in NetBox shape', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const { post, ids, device, iface, vlan, tenant } = await seed(service);
  const guests = await post('/api/wireless/wireless-lans/', {
    ssid: 'guests',
    vlan: vlan.id,
    tenant: tenant.id,
    auth_type: 'wpa-personal',
    auth_cipher: 'aes',
    auth_psk: 'correct horse',
    description: 'visitors',
  });
  t.deepEqual(Object.keys(guests), [
    'id',
    'url',
    'display',
    'ssid',
    'description',
    'group',
    'status',
    'vlan',
    'tenant',
    'auth_type',
    'auth_cipher',
    'auth_psk',
    'comments',
    'tags',
    'custom_fields',
    'created',
    'last_updated',
  ]);
  t.is(guests.display, 'guests');
  t.deepEqual(guests.status, { value: 'active', label: 'Active' });
  t.deepEqual(guests.auth_type, { value: 'wpa-personal', label: 'WPA Personal (PSK)' });
  t.deepEqual(guests.auth_cipher, { value: 'aes', label: 'AES' });
  t.is(guests.auth_psk, 'correct horse');
  t.is(guests.vlan.vid, 10);
  t.is(guests.tenant.slug, 'cafe');
  const open = await post('/api/wireless/wireless-lans/', { ssid: 'open', status: 'reserved', auth_type: 'open' });
  t.is(open.auth_cipher, null);
  t.is(open.auth_psk, '');

  t.deepEqual(await ids(`/api/wireless/wireless-lans/?vlan_id=${vlan.id}`), [guests.id]);
  t.deepEqual(await ids('/api/wireless/wireless-lans/?auth_type=open&auth_type=wpa-personal'), [guests.id, open.id]);
  t.deepEqual(await ids('/api/wireless/wireless-lans/?auth_cipher=aes'), [guests.id]);
  t.deepEqual(await ids('/api/wireless/wireless-lans/?status=reserved'), [open.id]);
  t.deepEqual(await ids('/api/wireless/wireless-lans/?tenant=cafe'), [guests.id]);
  t.deepEqual(await ids('/api/wireless/wireless-lans/?q=VISIT'), [guests.id]);
  t.deepEqual(await ids('/api/wireless/wireless-lans/?ssid__isw=gu'), [guests.id]);
  // the key is sealed in events: the change log never shows it in clear (nor can it be matched by a filter)
  const changes = await service.api(
    'GET',
    `/api/extras/object-changes/?changed_object_type=wireless.wirelesslan&changed_object_id=${guests.id}`,
  );
  t.is(changes.body.count, 1);
  t.false(JSON.stringify(changes.body).includes('correct horse'));

  // an interface carries LANs: written as ids, read nested; both directions filter
  const ap = await device('ap1');
  const radio = await iface(ap, 'wlan0');
  const carried = await service.api('PATCH', `/api/dcim/interfaces/${radio.id}/`, {
    wireless_lans: [guests.id, open.id],
  });
  t.is(carried.status, 200);
  t.deepEqual(
    carried.body.wireless_lans.map((l: any) => Object.keys(l)),
    [
      ['id', 'url', 'display', 'ssid'],
      ['id', 'url', 'display', 'ssid'],
    ],
  );
  t.deepEqual(carried.body.wireless_lans.map((l: any) => l.ssid).sort(), ['guests', 'open']);
  t.deepEqual(await ids(`/api/dcim/interfaces/?wireless_lans_id=${open.id}`), [radio.id]);
  t.deepEqual(await ids(`/api/wireless/wireless-lans/?interface_id=${radio.id}`), [guests.id, open.id]);

  const bad = await service.api('POST', '/api/wireless/wireless-lans/', {
    ssid: 'x'.repeat(33),
    status: 'broken',
    auth_type: 'psk',
  });
  t.is(bad.status, 400);
  t.deepEqual(bad.body, {
    ssid: ['Ensure this field has no more than 32 characters.'],
    status: ['broken is not a valid choice.'],
    auth_type: ['psk is not a valid choice.'],
  });
  const missing = await service.api('POST', '/api/wireless/wireless-lans/', {});
  t.deepEqual(missing.body, { ssid: ['This field is required.'] });
  const unknownInterface = await service.api('GET', '/api/wireless/wireless-lans/?interface_id=999');
  t.is(unknownInterface.status, 400);
  t.deepEqual(Object.keys(unknownInterface.body), ['interface_id']);

  // a VLAN in use by a LAN is protected; deleting a LAN takes it off the interfaces
  t.is((await service.api('DELETE', `/api/ipam/vlans/${vlan.id}/`)).status, 409);
  t.is((await service.api('DELETE', `/api/wireless/wireless-lans/${open.id}/`)).status, 204);
  t.deepEqual(
    (await service.api('GET', `/api/dcim/interfaces/${radio.id}/`)).body.wireless_lans.map((l: any) => l.id),
    [guests.id],
  );
});

test('a wireless link sets each interface wireless_link, link peers and connected endpoints, and /trace/ goes through it; deleting it clears them', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const { post, ids, device, iface, tenant } = await seed(service);
  const ap = await device('ap1');
  const station = await device('sta1');
  const a = await iface(ap, 'wlan0');
  const b = await iface(station, 'wlan0');
  const link = await post('/api/wireless/wireless-links/', {
    interface_a: a.id,
    interface_b: b.id,
    ssid: 'backhaul',
    tenant: tenant.id,
    auth_type: 'wpa-personal',
    auth_psk: 'p@ss',
  });
  t.deepEqual(Object.keys(link), [
    'id',
    'url',
    'display',
    'interface_a',
    'interface_b',
    'ssid',
    'status',
    'tenant',
    'auth_type',
    'auth_cipher',
    'auth_psk',
    'description',
    'comments',
    'tags',
    'custom_fields',
    'created',
    'last_updated',
  ]);
  t.is(link.url, `${service.url}/api/wireless/wireless-links/${link.id}/`);
  t.is(link.display, 'backhaul');
  t.deepEqual(link.status, { value: 'connected', label: 'Connected' });
  t.is(link.interface_a.name, 'wlan0');
  t.is(link.interface_a.device.name, 'ap1');
  t.is(link.interface_b.device.name, 'sta1');
  t.is(link.auth_psk, 'p@ss');

  const nestedLink = { id: link.id, url: link.url, display: 'backhaul', ssid: 'backhaul' };
  for (const [mine, peer, peerDevice] of [
    [a, b, 'sta1'],
    [b, a, 'ap1'],
  ] as const) {
    const read = (await service.api('GET', `/api/dcim/interfaces/${mine.id}/`)).body;
    t.deepEqual(read.wireless_link, nestedLink);
    t.is(read.cable, null);
    t.is(read.link_peers_type, 'dcim.interface');
    t.deepEqual(
      read.link_peers.map((p: any) => [p.id, p.device.name]),
      [[peer.id, peerDevice]],
    );
    t.is(read.connected_endpoints_type, 'dcim.interface');
    t.deepEqual(
      read.connected_endpoints.map((p: any) => p.id),
      [peer.id],
    );
    t.true(read.connected_endpoints_reachable);
    t.true(read._occupied);
    t.deepEqual(read.connection_status, { value: true, label: 'Connected' });
  }

  const trace = (await service.api('GET', `/api/dcim/interfaces/${a.id}/trace/`)).body;
  t.is(trace.length, 1);
  const [near, hop, far] = trace[0];
  t.deepEqual(
    near.map((x: any) => x.id),
    [a.id],
  );
  t.deepEqual(hop, { id: link.id, url: link.url, status: 'connected', description: '' });
  t.deepEqual(
    far.map((x: any) => [x.id, x.device.name]),
    [[b.id, 'sta1']],
  );

  t.deepEqual(await ids(`/api/wireless/wireless-links/?interface_a_id=${a.id}`), [link.id]);
  t.deepEqual(await ids(`/api/wireless/wireless-links/?interface_b_id=${a.id}`), []);
  t.deepEqual(await ids('/api/wireless/wireless-links/?q=back'), [link.id]);
  t.deepEqual(await ids('/api/wireless/wireless-links/?tenant=cafe&status=connected'), [link.id]);
  t.deepEqual(await ids(`/api/dcim/interfaces/?wireless_link_id=${link.id}`), [a.id, b.id]);
  t.deepEqual(await ids(`/api/dcim/interfaces/?device_id=${ap.id}&connected=true`), [a.id]);

  // a planned link is not an active path
  t.is((await service.api('PATCH', `/api/wireless/wireless-links/${link.id}/`, { status: 'planned' })).status, 200);
  const planned = (await service.api('GET', `/api/dcim/interfaces/${b.id}/`)).body;
  t.false(planned.connected_endpoints_reachable);
  t.deepEqual(planned.connection_status, { value: false, label: 'Not Connected' });
  t.deepEqual(await ids(`/api/dcim/interfaces/?device_id=${ap.id}&connected=true`), []);

  // an interface on a link is protected by it
  const protectedDelete = await service.api('DELETE', `/api/dcim/interfaces/${a.id}/`);
  t.is(protectedDelete.status, 409);
  t.regex(protectedDelete.body.detail, /backhaul/);

  t.is((await service.api('DELETE', `/api/wireless/wireless-links/${link.id}/`)).status, 204);
  for (const mine of [a, b]) {
    const read = (await service.api('GET', `/api/dcim/interfaces/${mine.id}/`)).body;
    t.is(read.wireless_link, null);
    t.deepEqual(read.link_peers, []);
    t.is(read.link_peers_type, null);
    t.is(read.connected_endpoints, null);
    t.is(read.connected_endpoints_reachable, null);
    t.false(read._occupied);
  }
  t.deepEqual((await service.api('GET', `/api/dcim/interfaces/${a.id}/trace/`)).body, []);
});

test('a wireless link between interfaces that are not radios is refused as NetBox refuses it; moving an end moves wireless_link', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const { post, device, iface } = await seed(service);
  const ap = await device('ap1');
  const radio = await iface(ap, 'wlan0');
  const other = await iface(ap, 'wlan1');
  const spare = await iface(ap, 'wlan2');
  const wired = await iface(ap, 'eth0', '1000base-t');

  const first = await service.api('POST', '/api/wireless/wireless-links/', {
    interface_a: wired.id,
    interface_b: radio.id,
  });
  t.is(first.status, 400);
  t.deepEqual(first.body, { interface_a: ['1000BASE-T (1GE) is not a wireless interface.'] });
  // NetBox 3.4 names interface_a for a wrong interface_b too
  const second = await service.api('POST', '/api/wireless/wireless-links/', {
    interface_a: radio.id,
    interface_b: wired.id,
  });
  t.deepEqual(second.body, { interface_a: ['1000BASE-T (1GE) is not a wireless interface.'] });
  const required = await service.api('POST', '/api/wireless/wireless-links/', { ssid: 'x' });
  t.deepEqual(required.body, { interface_a: ['This field is required.'], interface_b: ['This field is required.'] });
  const badStatus = await service.api('POST', '/api/wireless/wireless-links/', {
    interface_a: radio.id,
    interface_b: other.id,
    status: 'active',
  });
  t.deepEqual(badStatus.body, { status: ['active is not a valid choice.'] });
  t.is((await service.api('GET', `/api/dcim/interfaces/${wired.id}/`)).body.wireless_link, null);

  const link = await post('/api/wireless/wireless-links/', { interface_a: radio.id, interface_b: other.id });
  t.is(link.display, `#${link.id}`);
  const again = await service.api('POST', '/api/wireless/wireless-links/', {
    interface_a: radio.id,
    interface_b: other.id,
  });
  t.is(again.status, 400);
  t.deepEqual(again.body, { __all__: ['Wireless link with this Interface A and Interface B already exists.'] });

  const moved = await service.api('PATCH', `/api/wireless/wireless-links/${link.id}/`, { interface_b: spare.id });
  t.is(moved.status, 200);
  t.is((await service.api('GET', `/api/dcim/interfaces/${other.id}/`)).body.wireless_link, null);
  t.is((await service.api('GET', `/api/dcim/interfaces/${spare.id}/`)).body.wireless_link.id, link.id);
  t.deepEqual(
    (await service.api('GET', `/api/dcim/interfaces/${radio.id}/`)).body.link_peers.map((p: any) => p.id),
    [spare.id],
  );
});

test('deleting a device deletes the wireless links of its interfaces and clears the far ends', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const { post, device, iface } = await seed(service);
  const ap = await device('ap1');
  const station = await device('sta1');
  const a = await iface(ap, 'wlan0');
  const b = await iface(station, 'wlan0');
  const link = await post('/api/wireless/wireless-links/', { interface_a: a.id, interface_b: b.id });
  t.is((await service.api('DELETE', `/api/dcim/devices/${ap.id}/`)).status, 204);
  t.is((await service.api('GET', `/api/wireless/wireless-links/${link.id}/`)).status, 404);
  const far = (await service.api('GET', `/api/dcim/interfaces/${b.id}/`)).body;
  t.is(far.wireless_link, null);
  t.deepEqual(far.link_peers, []);
});

test('the wireless app is in the API root, its own root, and the OpenAPI document', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const root = (await service.api('GET', '/api/')).body;
  t.is(root.wireless, `${service.url}/api/wireless/`);
  const app = (await service.api('GET', '/api/wireless/')).body;
  t.deepEqual(app, {
    'wireless-lan-groups': `${service.url}/api/wireless/wireless-lan-groups/`,
    'wireless-lans': `${service.url}/api/wireless/wireless-lans/`,
    'wireless-links': `${service.url}/api/wireless/wireless-links/`,
  });
  const schema = (await service.api('GET', '/api/schema/?format=json')).body;
  for (const path of [
    '/api/wireless/wireless-lan-groups/',
    '/api/wireless/wireless-lans/{id}/',
    '/api/wireless/wireless-links/',
  ])
    t.truthy(schema.paths[path], path);
  const options = await service.api('OPTIONS', '/api/wireless/');
  t.is(options.status, 200);
  t.is(options.body.name, 'Wireless');
});
