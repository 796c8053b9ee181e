import test from 'ava';

import { seedInfrastructure } from '../support/fixtures.js';
import { startService } from '../support/startService.js';

test('PUT needs every mandatory field; PATCH changes only what it sends', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const site = (
    await service.api('POST', '/api/dcim/sites/', { name: 'S1', slug: 's1', facility: 'F1', status: 'planned' })
  ).body;
  const put = await service.api('PUT', `/api/dcim/sites/${site.id}/`, { name: 'S1b' });
  t.is(put.status, 400);
  t.deepEqual(put.body, { slug: ['This field is required.'] });
  const patched = await service.api('PATCH', `/api/dcim/sites/${site.id}/`, { name: 'S1c' });
  t.is(patched.status, 200);
  t.is(patched.body.facility, 'F1');
  t.is(patched.body.status.value, 'planned');
  const full = await service.api('PUT', `/api/dcim/sites/${site.id}/`, {
    name: 'S1d',
    slug: 's1d',
    id: 999,
    created: 'x',
    display: 'y',
  });
  t.is(full.status, 200);
  t.is(full.body.id, site.id);
  t.is(full.body.facility, 'F1', 'a PUT keeps optional fields it omits');
});

test('a related object may be written as a dictionary of attributes, nested', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const s = await seedInfrastructure(service);
  const site2 = (await service.api('POST', '/api/dcim/sites/', { name: 'DC-2', slug: 'dc-2' })).body;
  await service.api('POST', '/api/dcim/racks/', { name: 'R1', site: site2.id });
  const byAttributes = await service.api('POST', '/api/dcim/devices/', {
    name: 'edge2',
    device_type: { slug: 'mx204' },
    device_role: { name: 'Router' },
    site: { slug: 'dc-1' },
    rack: { name: 'R1', site: { name: 'DC-1' } },
  });
  t.is(byAttributes.status, 201, JSON.stringify(byAttributes.body));
  t.is(byAttributes.body.rack.id, s.rack.id);
  const ambiguous = await service.api('POST', '/api/dcim/devices/', {
    name: 'edge3',
    device_type: s.deviceType.id,
    device_role: s.deviceRole.id,
    site: s.site.id,
    rack: { name: 'R1' },
  });
  t.is(ambiguous.status, 400);
  t.deepEqual(ambiguous.body.rack, ["Multiple objects match the provided attributes: {'name': 'R1'}"]);
  const missing = await service.api('POST', '/api/dcim/devices/', {
    name: 'edge4',
    device_type: s.deviceType.id,
    device_role: s.deviceRole.id,
    site: s.site.id,
    rack: { name: 'R9', site: { name: 'DC-1' } },
  });
  t.deepEqual(missing.body.rack, [
    "Related object not found using the provided attributes: {'name': 'R9', 'site': {'name': 'DC-1'}}",
  ]);
  const unknownField = await service.api('POST', '/api/dcim/racks/', { name: 'R2', site: { nmae: 'DC-1' } });
  t.is(unknownField.status, 400);
  t.regex(unknownField.body.site[0], /^Cannot resolve keyword 'nmae' into field/);
  const operator = await service.api('POST', '/api/dcim/racks/', { name: 'R2', site: { name: { $ne: null } } });
  t.is(operator.status, 400, 'an operator document is never a query');
  const unknownId = await service.api('POST', '/api/dcim/racks/', { name: 'R2', site: 4242 });
  t.deepEqual(unknownId.body, { site: ['Related object not found using the provided numeric ID: 4242'] });
  const weird = await service.api('POST', '/api/dcim/racks/', { name: 'R2', site: true });
  t.deepEqual(weird.body, {
    site: [
      'Related objects must be referenced by numeric ID or by dictionary of attributes. Received an unrecognized value: True',
    ],
  });
});

test('a generic relation is a (type, id) pair that must name an existing object', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const s = await seedInfrastructure(service);
  const badType = await service.api('POST', '/api/ipam/ip-addresses/', {
    address: '10.0.0.1/24',
    assigned_object_type: 'dcim.site',
    assigned_object_id: s.site.id,
  });
  t.is(badType.status, 400);
  t.truthy(badType.body.assigned_object_type);
  const badId = await service.api('POST', '/api/ipam/ip-addresses/', {
    address: '10.0.0.1/24',
    assigned_object_type: 'dcim.interface',
    assigned_object_id: 9999,
  });
  t.is(badId.status, 400);
  t.deepEqual(badId.body, { assigned_object_id: ['Related object not found using the provided value: 9999.'] });
  const half = await service.api('POST', '/api/ipam/ip-addresses/', {
    address: '10.0.0.1/24',
    assigned_object_type: 'dcim.interface',
  });
  t.is(half.status, 400);
  const moved = await service.api('PATCH', `/api/ipam/ip-addresses/${s.address.id}/`, {
    assigned_object_type: null,
    assigned_object_id: null,
  });
  t.is(moved.status, 200);
  t.is(moved.body.assigned_object, null);
});

test('tags are written by id or attributes, replaced on write and cleared by []', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const [red, blue] = (
    await service.api('POST', '/api/extras/tags/', [
      { name: 'Red', slug: 'red', color: 'f44336' },
      { name: 'Blue', slug: 'blue', color: '2196f3' },
    ])
  ).body;
  const site = await service.api('POST', '/api/dcim/sites/', {
    name: 'S',
    slug: 's',
    tags: [red.id, { slug: 'blue' }],
  });
  t.is(site.status, 201);
  t.deepEqual(site.body.tags.map((tag: any) => tag.name).sort(), ['Blue', 'Red']);
  t.deepEqual(Object.keys(site.body.tags[0]).sort(), ['color', 'display', 'id', 'name', 'slug', 'url']);
  const replaced = await service.api('PATCH', `/api/dcim/sites/${site.body.id}/`, { tags: [{ name: 'Blue' }] });
  t.deepEqual(
    replaced.body.tags.map((tag: any) => tag.id),
    [blue.id],
  );
  const kept = await service.api('PATCH', `/api/dcim/sites/${site.body.id}/`, { description: 'x' });
  t.deepEqual(
    kept.body.tags.map((tag: any) => tag.id),
    [blue.id],
  );
  const cleared = await service.api('PATCH', `/api/dcim/sites/${site.body.id}/`, { tags: [] });
  t.deepEqual(cleared.body.tags, []);
  const bad = await service.api('PATCH', `/api/dcim/sites/${site.body.id}/`, { tags: [red.id, { slug: 'nope' }] });
  t.is(bad.status, 400);
  t.deepEqual(bad.body, { tags: [{}, ["Related object not found using the provided attributes: {'slug': 'nope'}"]] });
  const bare = await service.api('PATCH', `/api/dcim/sites/${site.body.id}/`, { tags: ['red'] });
  t.is(bare.status, 400);
});

test('choices are written as values, read as {value, label}; defaults apply', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const prefix = await service.api('POST', '/api/ipam/prefixes/', { prefix: '10.0.0.0/8' });
  t.deepEqual(prefix.body.status, { value: 'active', label: 'Active' });
  const bad = await service.api('POST', '/api/ipam/prefixes/', { prefix: '10.0.0.0/8', status: 'gone' });
  t.deepEqual(bad.body, { status: ['gone is not a valid choice.'] });
  const dict = await service.api('POST', '/api/ipam/prefixes/', { prefix: '10.0.0.0/8', status: { value: 'active' } });
  t.deepEqual(dict.body, {
    status: ['Value must be passed directly (e.g. "foo": 123); do not use a dictionary or list.'],
  });
});

test('model rules: CIDR is validated and normalised, family derived, VLAN id range', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const host = await service.api('POST', '/api/ipam/ip-addresses/', { address: '2001:DB8::0001' });
  t.is(host.status, 201);
  t.is(host.body.address, '2001:db8::1/128');
  t.deepEqual(host.body.family, { value: 6, label: 'IPv6' });
  const hostBits = await service.api('POST', '/api/ipam/prefixes/', { prefix: '10.1.1.1/24' });
  t.is(hostBits.status, 400);
  t.truthy(hostBits.body.prefix);
  const garbage = await service.api('POST', '/api/ipam/prefixes/', { prefix: 'not-a-network' });
  t.is(garbage.status, 400);
  const vlan = await service.api('POST', '/api/ipam/vlans/', { vid: 4095, name: 'x' });
  t.is(vlan.status, 400);
  t.truthy(vlan.body.vid);
});

test('ETag and If-Match: a stale version is refused with 412 and nothing changes', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const created = await service.api('POST', '/api/extras/tags/', { name: 'A', slug: 'a' });
  const etag = created.headers.get('etag')!;
  t.regex(etag, /^"\d+"$/);
  const read = await service.api('GET', `/api/extras/tags/${created.body.id}/`);
  t.is(read.headers.get('etag'), etag);
  const first = await service.api(
    'PATCH',
    `/api/extras/tags/${created.body.id}/`,
    { description: 'one' },
    { 'If-Match': etag },
  );
  t.is(first.status, 200);
  t.not(first.headers.get('etag'), etag);
  const head = service.services.log.head();
  const stale = await service.api(
    'PATCH',
    `/api/extras/tags/${created.body.id}/`,
    { description: 'two' },
    { 'If-Match': etag },
  );
  t.is(stale.status, 412);
  const staleDelete = await service.api('DELETE', `/api/extras/tags/${created.body.id}/`, undefined, {
    'If-Match': etag,
  });
  t.is(staleDelete.status, 412);
  t.is(service.services.log.head(), head);
  const fresh = await service.api('DELETE', `/api/extras/tags/${created.body.id}/`, undefined, {
    'If-Match': first.headers.get('etag')!,
  });
  t.is(fresh.status, 204);
});

test('Idempotency-Key: a retry gets the first response and writes nothing', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const key = { 'Idempotency-Key': 'retry-123' };
  const first = await service.api('POST', '/api/extras/tags/', { name: 'A', slug: 'a' }, key);
  t.is(first.status, 201);
  const head = service.services.log.head();
  const retry = await service.api('POST', '/api/extras/tags/', { name: 'A', slug: 'a' }, key);
  t.is(retry.status, 201);
  t.deepEqual(retry.body, first.body);
  t.is(retry.headers.get('idempotent-replayed'), 'true');
  t.is(service.services.log.head(), head);
  const other = await service.api('POST', '/api/extras/tags/', { name: 'B', slug: 'b' }, key);
  t.is(other.status, 422);
  t.is((await service.api('GET', '/api/extras/tags/')).body.count, 1);
});

test('a failed request leaves no trace, whatever the body', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const head = service.services.log.head();
  for (const body of ['"just a string"', '42', 'null', '[1, 2]', '{"name": null, "slug": []}']) {
    const response = await service.api('POST', '/api/extras/tags/', body);
    t.true(response.status >= 400 && response.status < 500, body);
  }
  t.is(service.services.log.head(), head);
});

test('a primary IP must belong to the device, and then cannot be moved away from it', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const s = await seedInfrastructure(service);
  const stray = (await service.api('POST', '/api/ipam/ip-addresses/', { address: '198.51.100.7/24' })).body;
  const refused = await service.api('PATCH', `/api/dcim/devices/${s.device.id}/`, { primary_ip4: stray.id });
  t.deepEqual(refused.body, {
    primary_ip4: ['The specified IP address (198.51.100.7/24) is not assigned to this device.'],
  });
  const v6 = await service.api('PATCH', `/api/dcim/devices/${s.device.id}/`, { primary_ip6: s.address.id });
  t.deepEqual(v6.body, { primary_ip6: ['192.0.2.1/25 is not an IPv6 address.'] });
  const ok = await service.api('PATCH', `/api/dcim/devices/${s.device.id}/`, { primary_ip4: s.address.id });
  t.is(ok.status, 200);
  t.is(ok.body.primary_ip.address, '192.0.2.1/25');
  t.is(ok.body.primary_ip4.id, s.address.id);
  const unassign = await service.api('PATCH', `/api/ipam/ip-addresses/${s.address.id}/`, {
    assigned_object_type: null,
    assigned_object_id: null,
  });
  t.is(unassign.status, 400);
  t.deepEqual(unassign.body, { interface: ['IP address is primary for device edge1 but not assigned to it!'] });
});

test('a racked device must fit in the rack and not overlap another', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const s = await seedInfrastructure(service);
  const base = {
    device_type: s.deviceType.id,
    device_role: s.deviceRole.id,
    site: s.site.id,
    rack: s.rack.id,
    face: 'front',
  };
  const first = await service.api('POST', '/api/dcim/devices/', { ...base, name: 'a', position: 10 });
  t.is(first.status, 201, JSON.stringify(first.body));
  const overlap = await service.api('POST', '/api/dcim/devices/', { ...base, name: 'b', position: 10 });
  t.is(overlap.status, 400);
  t.regex(overlap.body.position[0], /^U10 is already occupied/);
  const outside = await service.api('POST', '/api/dcim/devices/', { ...base, name: 'c', position: 99 });
  t.is(outside.status, 400);
  const fine = await service.api('POST', '/api/dcim/devices/', { ...base, name: 'd', position: 11 });
  t.is(fine.status, 201);
});

test('Idempotency-Key: a retry after a restart is recognised from the log and writes nothing', async (t) => {
  const first = await startService();
  const key = { 'Idempotency-Key': 'after-crash-1' };
  const created = await first.api(
    'POST',
    '/api/extras/tags/',
    [
      { name: 'A', slug: 'a' },
      { name: 'B', slug: 'b' },
    ],
    key,
  );
  t.is(created.status, 201);
  const deleted = await first.api('DELETE', `/api/extras/tags/${created.body[0].id}/`, undefined, {
    'Idempotency-Key': 'delete-1',
  });
  t.is(deleted.status, 204);
  await first.stop();
  const second = await startService({}, first.dataDir);
  t.teardown(() => second.close());
  const head = second.services.log.head();
  const retry = await second.api(
    'POST',
    '/api/extras/tags/',
    [
      { name: 'A', slug: 'a' },
      { name: 'B', slug: 'b' },
    ],
    key,
  );
  t.is(retry.status, 201);
  t.is(retry.headers.get('idempotent-replayed'), 'true');
  t.deepEqual(
    retry.body.map((o: any) => o.id),
    [created.body[1].id],
    'answers with the objects as they are now (A was deleted since)',
  );
  const retryDelete = await second.api('DELETE', `/api/extras/tags/${created.body[0].id}/`, undefined, {
    'Idempotency-Key': 'delete-1',
  });
  t.is(retryDelete.status, 204);
  t.is(second.services.log.head(), head, 'nothing written');
  const misuse = await second.api('POST', '/api/extras/tags/', { name: 'C', slug: 'c' }, key);
  t.is(misuse.status, 422);
});

test('IPAM uniqueness: duplicates refused in a VRF that enforces it; aggregates never overlap', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const strict = (await service.api('POST', '/api/ipam/vrfs/', { name: 'Strict', rd: '65000:9', enforce_unique: true }))
    .body;
  const loose = (await service.api('POST', '/api/ipam/vrfs/', { name: 'Loose', enforce_unique: false })).body;
  t.is((await service.api('POST', '/api/ipam/prefixes/', { prefix: '10.0.0.0/24', vrf: strict.id })).status, 201);
  const dup = await service.api('POST', '/api/ipam/prefixes/', { prefix: '10.0.0.0/24', vrf: strict.id });
  t.deepEqual(dup.body, { prefix: ['Duplicate prefix found in VRF Strict (65000:9): 10.0.0.0/24'] });
  t.is((await service.api('POST', '/api/ipam/prefixes/', { prefix: '10.0.0.0/24', vrf: loose.id })).status, 201);
  t.is(
    (await service.api('POST', '/api/ipam/prefixes/', { prefix: '10.0.0.0/24' })).status,
    201,
    'the global table allows duplicates by default',
  );
  t.is((await service.api('POST', '/api/ipam/ip-addresses/', { address: '10.0.0.1/24', vrf: strict.id })).status, 201);
  const dupIp = await service.api('POST', '/api/ipam/ip-addresses/', { address: '10.0.0.1/32', vrf: strict.id });
  t.deepEqual(dupIp.body, { address: ['Duplicate IP address found in VRF Strict (65000:9): 10.0.0.1/24'] });
  const vip = await service.api('POST', '/api/ipam/ip-addresses/', [
    { address: '10.0.0.9/24', vrf: strict.id, role: 'vip' },
    { address: '10.0.0.9/24', vrf: strict.id, role: 'vrrp' },
  ]);
  t.is(vip.status, 201, 'shared roles may repeat an address');
  const rir = (await service.api('POST', '/api/ipam/rirs/', { name: 'RFC1918', slug: 'rfc1918' })).body;
  t.is((await service.api('POST', '/api/ipam/aggregates/', { prefix: '10.0.0.0/8', rir: rir.id })).status, 201);
  const inside = await service.api('POST', '/api/ipam/aggregates/', { prefix: '10.1.0.0/16', rir: rir.id });
  t.deepEqual(inside.body, {
    prefix: ['Aggregates cannot overlap. 10.1.0.0/16 is already covered by an existing aggregate (10.0.0.0/8).'],
  });
  const around = await service.api('POST', '/api/ipam/aggregates/', { prefix: '10.0.0.0/7', rir: rir.id });
  t.deepEqual(around.body, {
    prefix: ['Aggregates cannot overlap. 10.0.0.0/7 covers an existing aggregate (10.0.0.0/8).'],
  });
});

test('ENFORCE_GLOBAL_UNIQUE refuses duplicates in the global table', async (t) => {
  const service = await startService({ ENFORCE_GLOBAL_UNIQUE: 'true' });
  t.teardown(() => service.close());
  t.is((await service.api('POST', '/api/ipam/prefixes/', { prefix: '192.0.2.0/24' })).status, 201);
  const dup = await service.api('POST', '/api/ipam/prefixes/', { prefix: '192.0.2.0/24' });
  t.deepEqual(dup.body, { prefix: ['Duplicate prefix found in global table: 192.0.2.0/24'] });
});
