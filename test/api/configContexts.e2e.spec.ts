import test from 'ava';

import { type ApiResponse, startService, type TestService } from '../support/startService.js';

const CONTEXTS = '/api/extras/config-contexts/';

async function must(response: Promise<ApiResponse>, status: number): Promise<any> {
  const r = await response;
  if (r.status !== status) throw new Error(`expected ${status}, got ${r.status}: ${JSON.stringify(r.body)}`);
  return r.body;
}

/** The log position that last wrote the object a write answered (its ETag). */
function positionOf(response: ApiResponse): number {
  return Number(JSON.parse(response.headers.get('etag')!));
}

/**
 * Europe > Germany > Berlin; site BER1 in Berlin (site group edge under core), site PAR1
 * without region; a tenant in a tenant group; tags gold and silver; a device in BER1.
 */
async function world(service: TestService) {
  const post = (path: string, body: unknown) => must(service.api('POST', path, body), 201);
  const europe = await post('/api/dcim/regions/', { name: 'Europe', slug: 'europe' });
  const germany = await post('/api/dcim/regions/', { name: 'Germany', slug: 'germany', parent: europe.id });
  const berlin = await post('/api/dcim/regions/', { name: 'Berlin', slug: 'berlin', parent: germany.id });
  const asia = await post('/api/dcim/regions/', { name: 'Asia', slug: 'asia' });
  const core = await post('/api/dcim/site-groups/', { name: 'Core', slug: 'core' });
  const edge = await post('/api/dcim/site-groups/', { name: 'Edge', slug: 'edge', parent: core.id });
  const ber1 = await post('/api/dcim/sites/', { name: 'BER1', slug: 'ber1', region: berlin.id, group: edge.id });
  const par1 = await post('/api/dcim/sites/', { name: 'PAR1', slug: 'par1' });
  const manufacturer = await post('/api/dcim/manufacturers/', { name: 'Juniper', slug: 'juniper' });
  const deviceType = await post('/api/dcim/device-types/', {
    manufacturer: manufacturer.id,
    model: 'MX204',
    slug: 'mx204',
  });
  const router = await post('/api/dcim/device-roles/', { name: 'Router', slug: 'router', color: 'ff0000' });
  const tenantGroup = await post('/api/tenancy/tenant-groups/', { name: 'Customers', slug: 'customers' });
  const tenant = await post('/api/tenancy/tenants/', { name: 'Acme', slug: 'acme', group: tenantGroup.id });
  const gold = await post('/api/extras/tags/', { name: 'Gold', slug: 'gold' });
  const silver = await post('/api/extras/tags/', { name: 'Silver', slug: 'silver' });
  const device = await post('/api/dcim/devices/', {
    name: 'edge1',
    device_type: deviceType.id,
    device_role: router.id,
    site: ber1.id,
  });
  return {
    europe,
    germany,
    berlin,
    asia,
    core,
    edge,
    ber1,
    par1,
    deviceType,
    router,
    tenantGroup,
    tenant,
    gold,
    silver,
    device,
  };
}

async function configContextOf(service: TestService, deviceId: number, query = ''): Promise<unknown> {
  return (await must(service.api('GET', `/api/dcim/devices/${deviceId}/${query}`), 200)).config_context;
}

test('config contexts are created, read, listed by weight then name, filtered, patched and deleted; tags are slugs', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const w = await world(service);
  const created = await must(
    service.api('POST', CONTEXTS, {
      name: 'ntp',
      weight: 200,
      regions: [w.europe.id],
      tags: ['silver', 'gold'],
      data: { ntp: ['192.0.2.1'] },
    }),
    201,
  );
  t.like(created, {
    name: 'ntp',
    display: 'ntp',
    weight: 200,
    description: '',
    is_active: true,
    data: { ntp: ['192.0.2.1'] },
  });
  t.deepEqual(created.tags, ['gold', 'silver'], 'tag slugs, ordered by tag name');
  t.deepEqual(
    created.regions.map((r: any) => [r.name, r._depth]),
    [['Europe', 0]],
  );
  t.deepEqual(created.sites, []);
  await must(service.api('POST', CONTEXTS, { name: 'b-global', data: { a: 1 } }), 201);
  await must(service.api('POST', CONTEXTS, { name: 'a-global', tags: ['silver'], data: { a: 2 } }), 201);

  const listed = await must(service.api('GET', CONTEXTS), 200);
  t.deepEqual(
    listed.results.map((c: any) => [c.name, c.weight]),
    [
      ['ntp', 200],
      ['a-global', 1000],
      ['b-global', 1000],
    ],
  );
  const names = async (query: string) =>
    (await must(service.api('GET', `${CONTEXTS}?${query}`), 200)).results.map((c: any) => c.name);
  t.deepEqual(await names(`region_id=${w.europe.id}`), ['ntp']);
  t.deepEqual(await names('region=europe'), ['ntp']);
  t.deepEqual(await names('region=germany'), [], "the region filter names the context's own regions, not descendants");
  t.deepEqual(await names('tag=gold&tag=silver'), ['ntp', 'a-global'], 'repeated tags: any of them');
  t.deepEqual(await names(`tag_id=${w.gold.id}`), ['ntp']);
  t.deepEqual(await names('q=192.0.2'), ['ntp'], 'q searches the data too');
  t.deepEqual(await names('q=%22ntp%22%3A%20%5B'), ['ntp'], 'as PostgreSQL prints the JSON');

  const unknownTag = await service.api('POST', CONTEXTS, { name: 'x', tags: ['gold', 'nope'], data: {} });
  t.is(unknownTag.status, 400);
  t.deepEqual(unknownTag.body, { tags: ['Object with slug=nope does not exist.'] });

  const patched = await must(
    service.api('PATCH', `${CONTEXTS}${created.id}/`, { tags: ['gold'], regions: [], sites: [w.ber1.id] }),
    200,
  );
  t.deepEqual(patched.tags, ['gold']);
  t.deepEqual(patched.regions, []);
  t.deepEqual(
    patched.sites.map((s: any) => s.name),
    ['BER1'],
  );
  await must(service.api('DELETE', `${CONTEXTS}${created.id}/`), 204);
  t.is((await service.api('GET', `${CONTEXTS}${created.id}/`)).status, 404);
});

test('a context\'s data must be a JSON object: 400 {"data": [...]} with NetBox\'s message', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const notObject = ['JSON data must be in object form. Example: {"foo": 123}'];
  for (const data of [[1, 2], 'text', 5, true]) {
    const response = await service.api('POST', CONTEXTS, { name: 'bad', data });
    t.is(response.status, 400, JSON.stringify(data));
    t.deepEqual(response.body, { data: notObject }, JSON.stringify(data));
  }
  t.deepEqual((await service.api('POST', CONTEXTS, { name: 'bad' })).body, { data: ['This field is required.'] });
  t.deepEqual((await service.api('POST', CONTEXTS, { name: 'bad', data: null })).body, {
    data: ['This field may not be null.'],
  });
  const created = await must(service.api('POST', CONTEXTS, { name: 'good', data: {} }), 201);
  const patched = await service.api('PATCH', `${CONTEXTS}${created.id}/`, { data: [] });
  t.deepEqual([patched.status, patched.body], [400, { data: notObject }]);
  const heavy = await service.api('POST', CONTEXTS, { name: 'heavy', weight: 32768, data: {} });
  t.is(heavy.status, 400);
  t.truthy(heavy.body.weight);
});

test('a device renders every active context that applies, by weight then name, with region ancestors, tags and its local data last', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const w = await world(service);
  const add = (body: Record<string, unknown>) => must(service.api('POST', CONTEXTS, body), 201);
  await add({
    name: 'global',
    weight: 1000,
    data: { ntp: { servers: ['global'], prefer: 'global' }, dns: 'global', order: 'global' },
  });
  await add({ name: 'europe', weight: 500, regions: [w.europe.id], data: { dns: 'europe', order: 'europe' } });
  await add({ name: 'asia', weight: 2000, regions: [w.asia.id], data: { dns: 'asia' } });
  await add({ name: 'b-core', weight: 3000, site_groups: [w.core.id], data: { order: 'b-core' } });
  await add({ name: 'a-core', weight: 3000, site_groups: [w.core.id], data: { order: 'a-core', group: 'core' } });
  await add({ name: 'gold', weight: 4000, tags: ['gold', 'silver'], data: { ntp: { servers: ['gold'] } } });
  await add({ name: 'router in ber1', weight: 5000, roles: [w.router.id], sites: [w.ber1.id], data: { router: true } });
  await add({
    name: 'router in par1',
    weight: 5000,
    roles: [w.router.id],
    sites: [w.par1.id],
    data: { router: 'par1' },
  });
  await add({ name: 'customers', weight: 6000, tenant_groups: [w.tenantGroup.id], data: { customer: true } });
  await add({ name: 'inactive', weight: 9000, is_active: false, data: { dns: 'inactive' } });

  t.deepEqual(await configContextOf(service, w.device.id), {
    ntp: { servers: ['global'], prefer: 'global' },
    dns: 'global',
    order: 'b-core',
    group: 'core',
    router: true,
  });

  const tagged = await must(
    service.api('PATCH', `/api/dcim/devices/${w.device.id}/`, {
      tags: [w.silver.id],
      tenant: w.tenant.id,
      local_context_data: { dns: 'local', ntp: { prefer: 'local' } },
    }),
    200,
  );
  const expected = {
    ntp: { servers: ['gold'], prefer: 'local' },
    dns: 'local',
    order: 'b-core',
    group: 'core',
    router: true,
    customer: true,
  };
  t.deepEqual(tagged.config_context, expected, 'the write answers with the rendered context');
  t.deepEqual(await configContextOf(service, w.device.id), expected);
  const listed = await must(service.api('GET', `/api/dcim/devices/?id=${w.device.id}`), 200);
  t.deepEqual(listed.results[0].config_context, expected, 'lists render it the same way');
  t.deepEqual(listed.results[0].local_context_data, { dns: 'local', ntp: { prefer: 'local' } });
});

test('a change to a context, its criteria or activity, or to the device shows on the next read', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const w = await world(service);
  const ctx = await must(service.api('POST', CONTEXTS, { name: 'c', sites: [w.ber1.id], data: { v: 1 } }), 201);
  const path = `${CONTEXTS}${ctx.id}/`;
  t.deepEqual(await configContextOf(service, w.device.id), { v: 1 });

  await must(service.api('PATCH', path, { data: { v: 2 } }), 200);
  t.deepEqual(await configContextOf(service, w.device.id), { v: 2 }, 'new data');
  await must(service.api('PATCH', path, { is_active: false }), 200);
  t.deepEqual(await configContextOf(service, w.device.id), {}, 'deactivated');
  await must(service.api('PATCH', path, { is_active: true, sites: [w.par1.id] }), 200);
  t.deepEqual(await configContextOf(service, w.device.id), {}, 'scoped to another site');
  const moved = await must(service.api('PATCH', `/api/dcim/devices/${w.device.id}/`, { site: w.par1.id }), 200);
  t.deepEqual(moved.config_context, { v: 2 }, 'the device moved into the scope');
  await must(service.api('PATCH', path, { sites: [], regions: [w.germany.id] }), 200);
  t.deepEqual(await configContextOf(service, w.device.id), {}, 'PAR1 has no region');
  await must(service.api('PATCH', `/api/dcim/sites/${w.par1.id}/`, { region: w.berlin.id }), 200);
  t.deepEqual(await configContextOf(service, w.device.id), { v: 2 }, 'its site moved under Germany');
  await must(service.api('PATCH', path, { regions: [], tags: ['gold'] }), 200);
  t.deepEqual(await configContextOf(service, w.device.id), {});
  await must(service.api('PATCH', `/api/dcim/devices/${w.device.id}/`, { tags: [w.gold.id] }), 200);
  t.deepEqual(await configContextOf(service, w.device.id), { v: 2 }, 'tagged');
  await must(service.api('DELETE', `/api/extras/tags/${w.gold.id}/`), 204);
  t.deepEqual((await must(service.api('GET', path), 200)).tags, [], 'a deleted tag leaves the criteria');
  t.deepEqual(
    await configContextOf(service, w.device.id),
    { v: 2 },
    'no tag criterion left: it applies to every device',
  );
  await must(service.api('DELETE', path), 204);
  t.deepEqual(await configContextOf(service, w.device.id), {});
});

test('?exclude=config_context leaves it out of lists and details; the brief form has none', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const w = await world(service);
  await must(service.api('POST', CONTEXTS, { name: 'c', data: { v: 1 } }), 201);
  const detail = await must(service.api('GET', `/api/dcim/devices/${w.device.id}/?exclude=config_context`), 200);
  t.false('config_context' in detail);
  t.is(detail.name, 'edge1');
  const list = await must(service.api('GET', '/api/dcim/devices/?exclude=config_context'), 200);
  t.false('config_context' in list.results[0]);
  t.deepEqual((await must(service.api('GET', '/api/dcim/devices/'), 200)).results[0].config_context, { v: 1 });
  const brief = await must(service.api('GET', '/api/dcim/devices/?brief=1'), 200);
  t.false('config_context' in brief.results[0]);
});

test('as_of renders the contexts as they were then (by log position and by time)', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const w = await world(service);
  const first = await service.api('POST', CONTEXTS, { name: 'c', sites: [w.ber1.id], data: { v: 1 } });
  t.is(first.status, 201);
  const second = await service.api('PATCH', `${CONTEXTS}${first.body.id}/`, { data: { v: 2 } });
  const later = await service.api('POST', CONTEXTS, { name: 'later', weight: 1, data: { later: true } });
  t.is(later.status, 201);
  await must(service.api('PATCH', `${CONTEXTS}${first.body.id}/`, { is_active: false }), 200);

  t.deepEqual(await configContextOf(service, w.device.id), { later: true });
  t.deepEqual(await configContextOf(service, w.device.id, `?as_of=${positionOf(first)}`), { v: 1 });
  t.deepEqual(await configContextOf(service, w.device.id, `?as_of=${positionOf(second)}`), { v: 2 });
  t.deepEqual(await configContextOf(service, w.device.id, `?as_of=${positionOf(later)}`), { later: true, v: 2 });
  t.deepEqual(await configContextOf(service, w.device.id, `?as_of=${encodeURIComponent(first.body.last_updated)}`), {
    v: 1,
  });
  t.deepEqual(await configContextOf(service, w.device.id, `?as_of=${encodeURIComponent(second.body.last_updated)}`), {
    v: 2,
  });
  const pastList = await must(service.api('GET', `/api/dcim/devices/?as_of=${positionOf(second)}`), 200);
  t.deepEqual(pastList.results[0].config_context, { v: 2 });
});

test("a virtual machine renders the contexts of its cluster's site, its cluster, role and tenant, its own data last", async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const w = await world(service);
  const post = (path: string, body: unknown) => must(service.api('POST', path, body), 201);
  const type = await post('/api/virtualization/cluster-types/', { name: 'VMware', slug: 'vmware' });
  const group = await post('/api/virtualization/cluster-groups/', { name: 'Prod', slug: 'prod' });
  const cluster = await post('/api/virtualization/clusters/', {
    name: 'c1',
    type: type.id,
    group: group.id,
    site: w.ber1.id,
  });
  const role = await post('/api/dcim/device-roles/', { name: 'App', slug: 'app', color: '00ff00', vm_role: true });
  const vm = await post('/api/virtualization/virtual-machines/', {
    name: 'vm1',
    cluster: cluster.id,
    role: role.id,
    tenant: w.tenant.id,
    local_context_data: { own: true, level: 'vm' },
  });
  const loose = await post('/api/virtualization/virtual-machines/', { name: 'vm2', site: w.par1.id });
  await post(CONTEXTS, {
    name: 'europe',
    weight: 100,
    regions: [w.europe.id],
    data: { level: 'region', dns: ['192.0.2.53'] },
  });
  await post(CONTEXTS, {
    name: 'cluster-type',
    weight: 200,
    cluster_types: [type.id],
    data: { level: 'cluster-type' },
  });
  await post(CONTEXTS, {
    name: 'role-tenant',
    weight: 300,
    roles: [role.id],
    tenant_groups: [w.tenantGroup.id],
    data: { app: true },
  });
  await post(CONTEXTS, {
    name: 'device-types',
    device_types: [w.deviceType.id],
    data: { never: 'a VM has no device type' },
  });
  await post(CONTEXTS, { name: 'par1', sites: [w.par1.id], data: { par1: true } });

  const rendered = (await must(service.api('GET', `/api/virtualization/virtual-machines/${vm.id}/`), 200))
    .config_context;
  t.deepEqual(rendered, { level: 'vm', dns: ['192.0.2.53'], app: true, own: true });
  const listed = await must(service.api('GET', `/api/virtualization/virtual-machines/?id=${loose.id}`), 200);
  t.deepEqual(
    listed.results[0].config_context,
    {},
    'a VM without a cluster meets no site-limited context, as in NetBox 3.4',
  );
  const excluded = await must(
    service.api('GET', `/api/virtualization/virtual-machines/${vm.id}/?exclude=config_context`),
    200,
  );
  t.false('config_context' in excluded);
});
