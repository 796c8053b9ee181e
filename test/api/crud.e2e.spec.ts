import test from 'ava';

import { registry } from '../../src/models/registry.js';
import { seedInfrastructure } from '../support/fixtures.js';
import { startService } from '../support/startService.js';

test('related objects are nested in their brief form, choices as {value, label}', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const s = await seedInfrastructure(service);
  const device = (await service.api('GET', `/api/dcim/devices/${s.device.id}/`)).body;
  t.deepEqual(device.site, {
    id: s.site.id,
    url: `${service.url}/api/dcim/sites/${s.site.id}/`,
    display: 'DC-1',
    name: 'DC-1',
    slug: 'dc-1',
  });
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
  t.deepEqual(
    after.results.map((d: any) => d.name),
    before.results.map((d: any) => d.name),
  );
  const withoutUrl = ({ url: _url, ...rest }: any) => rest;
  t.deepEqual(withoutUrl(after.results[0].site), withoutUrl(before.results[0].site));
  const created = await second.api('POST', '/api/dcim/manufacturers/', { name: 'Arista', slug: 'arista' });
  t.is(created.status, 201);
  t.true(created.body.id > before.results[0].device_type.manufacturer.id, 'ids continue after a restart');
});

test('every registered model is listed in its app root, described by OPTIONS and in the OpenAPI document', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const schema = (await service.api('GET', '/api/schema/?format=json')).body;
  for (const [app, definitions] of registry.apps()) {
    const root = (await service.api('GET', `/api/${app}/`)).body;
    for (const definition of definitions) {
      const path = `/api/${app}/${definition.path}/`;
      t.is(root[definition.path], `${service.url}${path}`, definition.key);
      const options = await service.api('OPTIONS', path);
      t.is(options.status, 200, path);
      t.is(typeof options.body.name, 'string', path);
      t.truthy(schema.paths[path]?.get, `${path} in OpenAPI`);
      if (definition.readOnly) {
        t.is(options.body.actions, undefined, `${path}: read-only`);
        t.truthy(schema.paths[`${path}{id}/`]?.get, `${path}{id}/ in OpenAPI`);
        continue;
      }
      t.truthy(options.body.actions?.POST?.id, path);
      t.truthy(schema.paths[`${path}{id}/`]?.patch, `${path}{id}/ in OpenAPI`);
    }
  }
  t.is(registry.get('tenancy.contactrole').path, 'contact-roles');
});
