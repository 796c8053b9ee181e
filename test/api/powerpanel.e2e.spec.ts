import test from 'ava';

import { startService, type TestService } from '../support/startService.js';

async function post(service: TestService, path: string, body: unknown): Promise<any> {
  const response = await service.api('POST', path, body);
  if (response.status !== 201) throw new Error(`${path}: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body;
}

async function names(service: TestService, query: string): Promise<string[]> {
  const response = await service.api('GET', `/api/dcim/power-panels/?${query}`);
  if (response.status !== 200) throw new Error(`${query}: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body.results.map((o: any) => o.name);
}

/**
 * Region Europe > NL; site group Colo; DC-1 (NL, Colo) with location Hall A > Room 1; DC-2 nowhere.
 * Panels: RPP-1 (DC-1, Room 1), RPP-2 (DC-1, Hall A), RPP-3 (DC-1), RPP-4 (DC-2, tagged).
 */
async function estate(service: TestService) {
  const europe = await post(service, '/api/dcim/regions/', { name: 'Europe', slug: 'europe' });
  const nl = await post(service, '/api/dcim/regions/', { name: 'NL', slug: 'nl', parent: europe.id });
  const colo = await post(service, '/api/dcim/site-groups/', { name: 'Colo', slug: 'colo' });
  const dc1 = await post(service, '/api/dcim/sites/', { name: 'DC-1', slug: 'dc-1', region: nl.id, group: colo.id });
  const dc2 = await post(service, '/api/dcim/sites/', { name: 'DC-2', slug: 'dc-2' });
  const hall = await post(service, '/api/dcim/locations/', { name: 'Hall A', slug: 'hall-a', site: dc1.id });
  const room = await post(service, '/api/dcim/locations/', {
    name: 'Room 1',
    slug: 'room-1',
    site: dc1.id,
    parent: hall.id,
  });
  await post(service, '/api/extras/tags/', { name: 'Backup', slug: 'backup' });
  const rpp1 = await post(service, '/api/dcim/power-panels/', {
    site: dc1.id,
    location: room.id,
    name: 'RPP-1',
    description: 'north',
  });
  const rpp2 = await post(service, '/api/dcim/power-panels/', { site: dc1.id, location: hall.id, name: 'RPP-2' });
  const rpp3 = await post(service, '/api/dcim/power-panels/', { site: dc1.id, name: 'RPP-3' });
  const rpp4 = await post(service, '/api/dcim/power-panels/', {
    site: dc2.id,
    name: 'RPP-4',
    tags: [{ slug: 'backup' }],
    comments: 'UPS room',
  });
  return { europe, nl, colo, dc1, dc2, hall, room, rpp1, rpp2, rpp3, rpp4 };
}

test('power panels: representation, brief form, powerfeed_count, filters and the location rule over HTTP', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const e = await estate(service);
  const url = (id: number) => `${service.url}/api/dcim/power-panels/${id}/`;

  const detail = (await service.api('GET', `/api/dcim/power-panels/${e.rpp1.id}/`)).body;
  t.deepEqual(Object.keys(detail), [
    'id',
    'url',
    'display',
    'site',
    'location',
    'name',
    'description',
    'comments',
    'tags',
    'custom_fields',
    'powerfeed_count',
    'created',
    'last_updated',
  ]);
  t.like(detail, {
    id: e.rpp1.id,
    url: url(e.rpp1.id),
    display: 'RPP-1',
    name: 'RPP-1',
    description: 'north',
    comments: '',
    tags: [],
    powerfeed_count: 0,
  });
  t.deepEqual(detail.site, {
    id: e.dc1.id,
    url: `${service.url}/api/dcim/sites/${e.dc1.id}/`,
    display: 'DC-1',
    name: 'DC-1',
    slug: 'dc-1',
  });
  t.like(detail.location, { id: e.room.id, display: 'Room 1', name: 'Room 1', slug: 'room-1', _depth: 1 });

  // Feeds are counted per panel, in the panel's list, detail and brief forms alike.
  for (const name of ['Feed A', 'Feed B'])
    await post(service, '/api/dcim/power-feeds/', { power_panel: e.rpp1.id, name });
  await post(service, '/api/dcim/power-feeds/', { power_panel: e.rpp3.id, name: 'Feed A' });
  const counts = (await service.api('GET', '/api/dcim/power-panels/')).body.results.map((p: any) => [
    p.name,
    p.powerfeed_count,
  ]);
  t.deepEqual(counts, [
    ['RPP-1', 2],
    ['RPP-2', 0],
    ['RPP-3', 1],
    ['RPP-4', 0],
  ]);
  const brief = await service.api('GET', `/api/dcim/power-panels/${e.rpp1.id}/?brief=1`);
  t.deepEqual(brief.body, { id: e.rpp1.id, url: url(e.rpp1.id), display: 'RPP-1', name: 'RPP-1', powerfeed_count: 2 });

  t.deepEqual(await names(service, 'region=europe'), ['RPP-1', 'RPP-2', 'RPP-3'], 'a region includes its children');
  t.deepEqual(await names(service, `region_id=${e.nl.id}`), ['RPP-1', 'RPP-2', 'RPP-3']);
  t.deepEqual(await names(service, 'region_id=null'), ['RPP-4']);
  t.deepEqual(await names(service, 'site_group=colo'), ['RPP-1', 'RPP-2', 'RPP-3']);
  t.deepEqual(await names(service, `site_group_id=${e.colo.id}`), ['RPP-1', 'RPP-2', 'RPP-3']);
  t.deepEqual(await names(service, 'site=dc-2'), ['RPP-4']);
  t.deepEqual(await names(service, `site_id=${e.dc1.id}&site_id=${e.dc2.id}`), ['RPP-1', 'RPP-2', 'RPP-3', 'RPP-4']);
  t.deepEqual(await names(service, 'site__n=dc-1'), ['RPP-4']);
  t.deepEqual(await names(service, `location_id=${e.hall.id}`), ['RPP-1', 'RPP-2'], 'a location includes its children');
  t.deepEqual(await names(service, `location_id=${e.room.id}`), ['RPP-1']);
  t.deepEqual(await names(service, 'location_id=null'), ['RPP-3', 'RPP-4']);
  t.deepEqual(await names(service, 'tag=backup'), ['RPP-4']);
  t.deepEqual(await names(service, 'q=rpp-4'), ['RPP-4']);
  t.deepEqual(await names(service, 'q=UPS'), [], 'search is by name only');
  t.deepEqual(await names(service, 'name__ic=pp-2'), ['RPP-2']);
  t.deepEqual(await names(service, 'ordering=-name&limit=2'), ['RPP-4', 'RPP-3']);

  const unknownSite = await service.api('GET', '/api/dcim/power-panels/?site=nowhere');
  t.is(unknownSite.status, 400);
  t.deepEqual(unknownSite.body, { site: ['Select a valid choice. nowhere is not one of the available choices.'] });

  const misplaced = await service.api('POST', '/api/dcim/power-panels/', {
    site: e.dc2.id,
    location: e.hall.id,
    name: 'RPP-5',
  });
  t.is(misplaced.status, 400);
  t.deepEqual(misplaced.body, { __all__: ['Location Hall A (DC-1) is in a different site than DC-2'] });
  const duplicate = await service.api('POST', '/api/dcim/power-panels/', { site: e.dc1.id, name: 'RPP-1' });
  t.is(duplicate.status, 400);
  t.deepEqual(duplicate.body, { __all__: ['Power panel with this Site and Name already exists.'] });
  const protectedPanel = await service.api('DELETE', `/api/dcim/power-panels/${e.rpp1.id}/`);
  t.is(protectedPanel.status, 409);
});
