import test from 'ava';

import { startService, type TestService } from '../support/startService.js';

async function post(service: TestService, path: string, body: unknown): Promise<any> {
  const response = await service.api('POST', path, body);
  if (response.status !== 201) throw new Error(`${path}: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body;
}

async function names(service: TestService, query: string): Promise<string[]> {
  const response = await service.api('GET', `/api/dcim/power-feeds/?${query}`);
  if (response.status !== 200) throw new Error(`${query}: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body.results.map((o: any) => `${o.name}@${o.power_panel.name}`);
}

/**
 * Region NL, site group Colo; DC-1 (NL, Colo) with panel RPP-1 and racks R1, R2; DC-2 with panel RPP-2 and rack R3.
 * Feeds: A and B from RPP-1 to R1, C from RPP-1 to R2 (three-phase, redundant), D from RPP-2 (DC, marked connected).
 */
async function estate(service: TestService) {
  const nl = await post(service, '/api/dcim/regions/', { name: 'NL', slug: 'nl' });
  const colo = await post(service, '/api/dcim/site-groups/', { name: 'Colo', slug: 'colo' });
  const dc1 = await post(service, '/api/dcim/sites/', { name: 'DC-1', slug: 'dc-1', region: nl.id, group: colo.id });
  const dc2 = await post(service, '/api/dcim/sites/', { name: 'DC-2', slug: 'dc-2' });
  const rpp1 = await post(service, '/api/dcim/power-panels/', { site: dc1.id, name: 'RPP-1' });
  const rpp2 = await post(service, '/api/dcim/power-panels/', { site: dc2.id, name: 'RPP-2' });
  const r1 = await post(service, '/api/dcim/racks/', { site: dc1.id, name: 'R1' });
  const r2 = await post(service, '/api/dcim/racks/', { site: dc1.id, name: 'R2' });
  const r3 = await post(service, '/api/dcim/racks/', { site: dc2.id, name: 'R3' });
  const a = await post(service, '/api/dcim/power-feeds/', {
    power_panel: rpp1.id,
    rack: r1.id,
    name: 'A',
    comments: 'via UPS-1',
  });
  const b = await post(service, '/api/dcim/power-feeds/', {
    power_panel: rpp1.id,
    rack: r1.id,
    name: 'B',
    status: 'planned',
    amperage: 32,
  });
  const c = await post(service, '/api/dcim/power-feeds/', {
    power_panel: rpp1.id,
    rack: r2.id,
    name: 'C',
    type: 'redundant',
    phase: 'three-phase',
    voltage: 400,
    max_utilization: 100,
  });
  const d = await post(service, '/api/dcim/power-feeds/', {
    power_panel: rpp2.id,
    name: 'D',
    supply: 'dc',
    voltage: -48,
    mark_connected: true,
    status: 'failed',
  });
  return { nl, colo, dc1, dc2, rpp1, rpp2, r1, r2, r3, a, b, c, d };
}

test('power feeds: representation with NetBox defaults and cable fields, no available power shown', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const e = await estate(service);
  const feed = (await service.api('GET', `/api/dcim/power-feeds/${e.a.id}/`)).body;
  t.deepEqual(Object.keys(feed), [
    'id',
    'url',
    'display',
    'power_panel',
    'rack',
    'name',
    'status',
    'type',
    'supply',
    'phase',
    'voltage',
    'amperage',
    'max_utilization',
    'mark_connected',
    'cable',
    'cable_end',
    'link_peers',
    'link_peers_type',
    'connected_endpoints',
    'connected_endpoints_type',
    'connected_endpoints_reachable',
    'description',
    'comments',
    'tags',
    'custom_fields',
    'created',
    'last_updated',
    '_occupied',
  ]);
  t.like(feed, {
    display: 'A',
    status: { value: 'active', label: 'Active' },
    type: { value: 'primary', label: 'Primary' },
    supply: { value: 'ac', label: 'AC' },
    phase: { value: 'single-phase', label: 'Single phase' },
    voltage: 120,
    amperage: 15,
    max_utilization: 80,
    mark_connected: false,
    cable: null,
    cable_end: '',
    link_peers: [],
    link_peers_type: null,
    connected_endpoints: null,
    _occupied: false,
  });
  t.deepEqual(feed.power_panel, {
    id: e.rpp1.id,
    url: `${service.url}/api/dcim/power-panels/${e.rpp1.id}/`,
    display: 'RPP-1',
    name: 'RPP-1',
  });
  t.deepEqual(feed.rack, { id: e.r1.id, url: `${service.url}/api/dcim/racks/${e.r1.id}/`, display: 'R1', name: 'R1' });
  const brief = await service.api('GET', `/api/dcim/power-feeds/${e.d.id}/?brief=1`);
  // _occupied (marked connected or cabled) comes with the cable fields; here only the brief form's shape.
  t.deepEqual(Object.keys(brief.body), ['id', 'url', 'display', 'name', 'cable', '_occupied']);
  t.like(brief.body, {
    id: e.d.id,
    url: `${service.url}/api/dcim/power-feeds/${e.d.id}/`,
    display: 'D',
    name: 'D',
    cable: null,
  });
  const phase = (await service.api('PATCH', `/api/dcim/power-feeds/${e.a.id}/`, { phase: 'three-phase' })).body;
  t.deepEqual(phase.phase, { value: 'three-phase', label: 'Three-phase' });
  t.false('available_power' in phase);
});

test("power feeds: a rack's powerfeed_count counts the feeds into it", async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const e = await estate(service);
  const counts = async () =>
    (await service.api('GET', '/api/dcim/racks/')).body.results.map((r: any) => [r.name, r.powerfeed_count]);
  t.deepEqual(await counts(), [
    ['R1', 2],
    ['R2', 1],
    ['R3', 0],
  ]);
  t.is((await service.api('GET', `/api/dcim/racks/${e.r1.id}/`)).body.powerfeed_count, 2);
  await service.api('PATCH', `/api/dcim/power-feeds/${e.b.id}/`, { rack: e.r2.id });
  t.deepEqual(await counts(), [
    ['R1', 1],
    ['R2', 2],
    ['R3', 0],
  ]);
  t.is((await service.api('DELETE', `/api/dcim/power-feeds/${e.c.id}/`)).status, 204);
  t.deepEqual(await counts(), [
    ['R1', 1],
    ['R2', 1],
    ['R3', 0],
  ]);
  const protectedRack = await service.api('DELETE', `/api/dcim/racks/${e.r1.id}/`);
  t.is(protectedRack.status, 409);
});

test('power feeds: filters as NetBox names them', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const e = await estate(service);
  t.deepEqual(await names(service, ''), ['A@RPP-1', 'B@RPP-1', 'C@RPP-1', 'D@RPP-2']);
  t.deepEqual(await names(service, 'status=planned&status=failed'), ['B@RPP-1', 'D@RPP-2']);
  t.deepEqual(await names(service, 'status__n=active'), ['B@RPP-1', 'D@RPP-2']);
  t.deepEqual(await names(service, 'type=redundant'), ['C@RPP-1']);
  t.deepEqual(
    await names(service, 'type=redundant&type=primary'),
    ['A@RPP-1', 'B@RPP-1', 'D@RPP-2'],
    'type takes one value: the last',
  );
  t.deepEqual(await names(service, 'type__n=primary'), ['C@RPP-1']);
  t.deepEqual(await names(service, 'supply=dc'), ['D@RPP-2']);
  t.deepEqual(await names(service, 'phase=three-phase'), ['C@RPP-1']);
  t.deepEqual(await names(service, 'voltage__lt=0'), ['D@RPP-2']);
  t.deepEqual(await names(service, 'voltage=400'), ['C@RPP-1']);
  t.deepEqual(await names(service, 'amperage__gte=20'), ['B@RPP-1']);
  t.deepEqual(await names(service, 'max_utilization=100'), ['C@RPP-1']);
  t.deepEqual(await names(service, `power_panel_id=${e.rpp2.id}`), ['D@RPP-2']);
  t.deepEqual(await names(service, `rack_id=${e.r2.id}`), ['C@RPP-1']);
  t.deepEqual(await names(service, 'rack_id=null'), ['D@RPP-2']);
  t.deepEqual(await names(service, 'site=dc-2'), ['D@RPP-2']);
  t.deepEqual(await names(service, `site_id=${e.dc1.id}`), ['A@RPP-1', 'B@RPP-1', 'C@RPP-1']);
  t.deepEqual(await names(service, 'region=nl'), ['A@RPP-1', 'B@RPP-1', 'C@RPP-1']);
  t.deepEqual(await names(service, `region_id=${e.nl.id}`), ['A@RPP-1', 'B@RPP-1', 'C@RPP-1']);
  t.deepEqual(await names(service, 'site_group=colo'), ['A@RPP-1', 'B@RPP-1', 'C@RPP-1']);
  t.deepEqual(await names(service, `site_group_id=${e.colo.id}`), ['A@RPP-1', 'B@RPP-1', 'C@RPP-1']);
  t.deepEqual(await names(service, 'q=ups'), ['A@RPP-1'], 'search covers comments');
  t.deepEqual(await names(service, 'name=D'), ['D@RPP-2']);
  t.deepEqual(await names(service, 'occupied=true'), ['D@RPP-2'], 'marked connected');
  t.deepEqual(await names(service, 'occupied=false'), ['A@RPP-1', 'B@RPP-1', 'C@RPP-1']);
  t.deepEqual(await names(service, 'cabled=false'), ['A@RPP-1', 'B@RPP-1', 'C@RPP-1', 'D@RPP-2']);

  const badType = await service.api('GET', '/api/dcim/power-feeds/?type=tertiary');
  t.is(badType.status, 400);
  t.deepEqual(badType.body, { type: ['Select a valid choice. tertiary is not one of the available choices.'] });
});

test('power feeds: rules answer 400 with NetBox messages', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const e = await estate(service);
  const write = async (method: string, path: string, body: unknown) => {
    const response = await service.api(method, path, body);
    t.is(response.status, 400, JSON.stringify(response.body));
    return response.body;
  };
  t.deepEqual(await write('POST', '/api/dcim/power-feeds/', { power_panel: e.rpp1.id, rack: e.r3.id, name: 'E' }), {
    __all__: ['Rack R3 (DC-2) and power panel RPP-1 (DC-1) are in different sites'],
  });
  t.deepEqual(await write('POST', '/api/dcim/power-feeds/', { power_panel: e.rpp1.id, name: 'E', voltage: 0 }), {
    voltage: ['This value may not be [0].'],
  });
  t.deepEqual(await write('PATCH', `/api/dcim/power-feeds/${e.d.id}/`, { supply: 'ac' }), {
    voltage: ['Voltage cannot be negative for AC supply'],
  });
  t.deepEqual(await write('POST', '/api/dcim/power-feeds/', { power_panel: e.rpp1.id, name: 'A' }), {
    __all__: ['Power feed with this Power panel and Name already exists.'],
  });
  t.deepEqual(await write('POST', '/api/dcim/power-feeds/', { name: 'E' }), {
    power_panel: ['This field is required.'],
  });
});
