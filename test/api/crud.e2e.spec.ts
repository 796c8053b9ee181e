import test from 'ava';
import { seedInfrastructure } from '../support/fixtures.js';
import { startService } from '../support/startService.js';

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

/** Every model of the first set: created with realistic data, read back, patched, deleted. */
const MODELS: Array<{ key: string; path: string; patch: Record<string, unknown>; check: string }> = [
  { key: 'tenantGroup', path: '/api/tenancy/tenant-groups/', patch: { description: 'paying' }, check: 'description' },
  { key: 'tenant', path: '/api/tenancy/tenants/', patch: { description: 'big one' }, check: 'description' },
  { key: 'region', path: '/api/dcim/regions/', patch: { description: 'EU' }, check: 'description' },
  { key: 'siteGroup', path: '/api/dcim/site-groups/', patch: { description: 'core' }, check: 'description' },
  { key: 'site', path: '/api/dcim/sites/', patch: { facility: 'Equinix FR5' }, check: 'facility' },
  { key: 'location', path: '/api/dcim/locations/', patch: { description: 'ground floor' }, check: 'description' },
  { key: 'rackRole', path: '/api/dcim/rack-roles/', patch: { color: '00ff00' }, check: 'color' },
  { key: 'rack', path: '/api/dcim/racks/', patch: { serial: 'SN-R1' }, check: 'serial' },
  { key: 'manufacturer', path: '/api/dcim/manufacturers/', patch: { description: 'vendor' }, check: 'description' },
  { key: 'deviceType', path: '/api/dcim/device-types/', patch: { part_number: 'MX204-HW-BASE' }, check: 'part_number' },
  { key: 'deviceRole', path: '/api/dcim/device-roles/', patch: { color: '0000ff' }, check: 'color' },
  { key: 'platform', path: '/api/dcim/platforms/', patch: { description: 'os' }, check: 'description' },
  { key: 'device', path: '/api/dcim/devices/', patch: { serial: 'JN1234' }, check: 'serial' },
  { key: 'iface', path: '/api/dcim/interfaces/', patch: { description: 'uplink' }, check: 'description' },
  { key: 'vrf', path: '/api/ipam/vrfs/', patch: { description: 'public' }, check: 'description' },
  { key: 'rir', path: '/api/ipam/rirs/', patch: { description: 'registry' }, check: 'description' },
  { key: 'aggregate', path: '/api/ipam/aggregates/', patch: { description: 'doc range' }, check: 'description' },
  { key: 'role', path: '/api/ipam/roles/', patch: { weight: 500 }, check: 'weight' },
  { key: 'vlanGroup', path: '/api/ipam/vlan-groups/', patch: { description: 'all' }, check: 'description' },
  { key: 'vlan', path: '/api/ipam/vlans/', patch: { name: 'servers-2' }, check: 'name' },
  { key: 'prefix', path: '/api/ipam/prefixes/', patch: { description: 'lan' }, check: 'description' },
  { key: 'address', path: '/api/ipam/ip-addresses/', patch: { dns_name: 'edge1.example.net' }, check: 'dns_name' },
  { key: 'provider', path: '/api/circuits/providers/', patch: { account: 'ACC-1' }, check: 'account' },
  { key: 'circuitType', path: '/api/circuits/circuit-types/', patch: { description: 'IP transit' }, check: 'description' },
  { key: 'circuit', path: '/api/circuits/circuits/', patch: { commit_rate: 10000 }, check: 'commit_rate' },
  { key: 'tag', path: '/api/extras/tags/', patch: { description: 'prod' }, check: 'description' },
];

test('each of the 26 models is created, read, patched and deleted over HTTP', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const seeded: Record<string, any> = await seedInfrastructure(service);
  for (const model of MODELS) {
    const created = seeded[model.key];
    t.is(created.url, `${service.url}${model.path}${created.id}/`, model.path);
    t.regex(created.created, DATE, `${model.path} created is a date`);
    t.regex(created.last_updated, DATETIME, `${model.path} last_updated`);
    t.is(typeof created.display, 'string');
    const read = await service.api('GET', `${model.path}${created.id}/`);
    t.is(read.status, 200, model.path);
    t.is(read.body.id, created.id);
    const patched = await service.api('PATCH', `${model.path}${created.id}/`, model.patch);
    t.is(patched.status, 200, `${model.path} ${JSON.stringify(patched.body)}`);
    t.deepEqual(patched.body[model.check], model.patch[model.check], model.path);
    const listed = await service.api('GET', model.path);
    t.is(listed.body.count, 1, model.path);
  }
  for (const model of [...MODELS].reverse()) {
    const id = seeded[model.key].id;
    const existing = await service.api('GET', `${model.path}${id}/`);
    if (existing.status === 404) continue; // removed by a cascade already
    const deleted = await service.api('DELETE', `${model.path}${id}/`);
    t.is(deleted.status, 204, `${model.path} ${JSON.stringify(deleted.body)}`);
    t.is((await service.api('GET', `${model.path}${id}/`)).status, 404, model.path);
  }
});

test('related objects are nested in their brief form, choices as {value, label}', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const s = await seedInfrastructure(service);
  const device = (await service.api('GET', `/api/dcim/devices/${s.device.id}/`)).body;
  t.deepEqual(device.site, { id: s.site.id, url: `${service.url}/api/dcim/sites/${s.site.id}/`, display: 'DC-1', name: 'DC-1', slug: 'dc-1' });
  t.deepEqual(device.status, { value: 'active', label: 'Active' });
  t.is(device.rack.name, 'R1');
  t.is(device.device_type.manufacturer.name, 'Juniper');
  const prefix = (await service.api('GET', `/api/ipam/prefixes/${s.prefix.id}/`)).body;
  t.deepEqual(prefix.status, { value: 'active', label: 'Active' });
  t.deepEqual(prefix.family, { value: 4, label: 'IPv4' });
  t.is(prefix.vlan.vid, 100);
  const site = (await service.api('GET', `/api/dcim/sites/${s.site.id}/`)).body;
  t.is(site.device_count, 1);
  t.is(site.rack_count, 1);
  t.is(site.prefix_count, 1);
});

test('an IP address assigned to an interface shows the interface in assigned_object', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const s = await seedInfrastructure(service);
  const address = (await service.api('GET', `/api/ipam/ip-addresses/${s.address.id}/`)).body;
  t.is(address.assigned_object_type, 'dcim.interface');
  t.is(address.assigned_object_id, s.iface.id);
  t.is(address.assigned_object.id, s.iface.id);
  t.is(address.assigned_object.url, `${service.url}/api/dcim/interfaces/${s.iface.id}/`);
  t.is(address.assigned_object.name, 'et-0/0/0');
  t.is(address.assigned_object.device.name, 'edge1');
  t.true('cable' in address.assigned_object);
  t.deepEqual(address.family, { value: 4, label: 'IPv4' });
});

test('brief=1 answers the brief form on lists and details', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const s = await seedInfrastructure(service);
  const brief = (await service.api('GET', `/api/ipam/prefixes/${s.prefix.id}/?brief=1`)).body;
  t.is(brief.family, 4);
  t.is(brief.prefix, '192.0.2.0/25');
  t.false('status' in brief);
  const list = (await service.api('GET', '/api/dcim/sites/?brief=1')).body;
  t.deepEqual(Object.keys(list.results[0]).sort(), ['display', 'id', 'name', 'slug', 'url']);
});

test('deleting a referenced object is refused with 409 naming the dependants', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const s = await seedInfrastructure(service);
  const head = service.services.log.head();
  const refused = await service.api('DELETE', `/api/dcim/sites/${s.site.id}/`);
  t.is(refused.status, 409);
  t.regex(refused.body.detail, /^Unable to delete object\. \d+ dependent objects were found: /);
  t.regex(refused.body.detail, /R1 \(\d+\)/);
  t.is(service.services.log.head(), head, 'nothing was written');
  t.is((await service.api('GET', `/api/dcim/sites/${s.site.id}/`)).status, 200);
});

test('deleting a device cascades to its interfaces and their IP addresses, one event each', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const s = await seedInfrastructure(service);
  const head = service.services.log.head();
  const response = await service.api('DELETE', `/api/dcim/devices/${s.device.id}/`);
  t.is(response.status, 204);
  t.is((await service.api('GET', `/api/dcim/interfaces/${s.iface.id}/`)).status, 404);
  t.is((await service.api('GET', `/api/ipam/ip-addresses/${s.address.id}/`)).status, 404);
  const events = [];
  for await (const batch of service.services.log.read(head + 1)) events.push(...batch);
  t.deepEqual(
    events.map((e) => `${e.action} ${e.objectType}`),
    ['delete ipam.ipaddress', 'delete dcim.interface', 'delete dcim.device'],
  );
  t.true(events.every((e) => e.requestId === response.headers.get('x-request-id')));
});

test('deleting a platform sets the devices using it to null (SET_NULL), logged as updates', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const s = await seedInfrastructure(service);
  t.is((await service.api('DELETE', `/api/dcim/platforms/${s.platform.id}/`)).status, 204);
  const device = (await service.api('GET', `/api/dcim/devices/${s.device.id}/`)).body;
  t.is(device.platform, null);
});

test('writes survive a restart: the read models are rebuilt from the log', async (t) => {
  const first = await startService();
  const dataDir = first.dataDir;
  await seedInfrastructure(first);
  const before = (await first.api('GET', '/api/dcim/devices/')).body;
  await first.stop();
  const second = await startService({}, dataDir);
  t.teardown(() => second.close());
  const after = (await second.api('GET', '/api/dcim/devices/')).body;
  t.deepEqual(after.results.map((d: any) => d.name), before.results.map((d: any) => d.name));
  const withoutUrl = ({ url: _url, ...rest }: any) => rest;
  t.deepEqual(withoutUrl(after.results[0].site), withoutUrl(before.results[0].site));
  const created = await second.api('POST', '/api/dcim/manufacturers/', { name: 'Arista', slug: 'arista' });
  t.is(created.status, 201);
  t.true(created.body.id > before.results[0].device_type.manufacturer.id, 'ids continue after a restart');
});
