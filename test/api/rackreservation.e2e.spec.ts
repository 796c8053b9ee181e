import test from 'ava';

import { ids, list, post } from '../support/expectResponses.js';
import { startService, type TestService } from '../support/startService.js';

/**
 * Region Europe > site DC-1 (group Core) with location Hall A > rack R1 (facility F-7, 10U);
 * site DC-2 with rack R2; user bob besides admin. Reservations: r1 of R1 units 1-2 by admin
 * for Acme, r2 of R1 unit 5 by bob, r3 of R2 unit 1 by bob.
 */
async function reservations(service: TestService) {
  const tenant = await post(service, '/api/tenancy/tenants/', { name: 'Acme', slug: 'acme' });
  const region = await post(service, '/api/dcim/regions/', { name: 'Europe', slug: 'europe' });
  const group = await post(service, '/api/dcim/site-groups/', { name: 'Core', slug: 'core' });
  const site = await post(service, '/api/dcim/sites/', {
    name: 'DC-1',
    slug: 'dc-1',
    region: region.id,
    group: group.id,
  });
  const otherSite = await post(service, '/api/dcim/sites/', { name: 'DC-2', slug: 'dc-2' });
  const location = await post(service, '/api/dcim/locations/', { name: 'Hall A', slug: 'hall-a', site: site.id });
  const rack = await post(service, '/api/dcim/racks/', {
    name: 'R1',
    facility_id: 'F-7',
    site: site.id,
    location: location.id,
    u_height: 10,
  });
  const otherRack = await post(service, '/api/dcim/racks/', { name: 'R2', site: otherSite.id, u_height: 10 });
  const bob = await post(service, '/api/users/users/', { username: 'bob', password: 'a long passphrase' });
  const path = '/api/dcim/rack-reservations/';
  const r1 = await post(service, path, {
    rack: rack.id,
    units: [1, 2],
    user: { username: 'admin' },
    tenant: tenant.id,
    description: 'cage',
  });
  const r2 = await post(service, path, { rack: rack.id, units: [5], user: bob.id, description: 'spare' });
  const r3 = await post(service, path, { rack: otherRack.id, units: [1], user: bob.id, description: 'lab' });
  return { tenant, region, group, site, otherSite, location, rack, otherRack, bob, r1, r2, r3 };
}

test('a reservation reads as NetBox shows it; the brief form names the user by username', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const e = await reservations(service);
  t.is(e.r1.display, 'Reservation for rack R1 (F-7)');
  t.deepEqual(e.r1.units, [1, 2]);
  t.deepEqual(Object.keys(e.r1), [
    'id',
    'url',
    'display',
    'rack',
    'units',
    'created',
    'last_updated',
    'user',
    'tenant',
    'description',
    'comments',
    'tags',
    'custom_fields',
  ]);
  t.like(e.r1.user, { username: 'admin', display: 'admin' });
  t.like(e.r1.rack, { id: e.rack.id, name: 'R1', display: 'R1 (F-7)' });
  const brief = (await service.api('GET', `/api/dcim/rack-reservations/${e.r2.id}/?brief=1`)).body;
  t.deepEqual(brief, {
    id: e.r2.id,
    url: `${service.url}/api/dcim/rack-reservations/${e.r2.id}/`,
    display: 'Reservation for rack R1 (F-7)',
    user: 'bob',
    units: [5],
  });
  t.deepEqual(
    ids(await list(service, '/api/dcim/rack-reservations/')),
    [e.r1.id, e.r2.id, e.r3.id],
    'ordered by creation',
  );
});

test('reservations filter by rack, place, user, tenant and text', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const e = await reservations(service);
  const path = '/api/dcim/rack-reservations/';
  t.deepEqual(ids(await list(service, `${path}?rack_id=${e.rack.id}`)), [e.r1.id, e.r2.id]);
  t.deepEqual(ids(await list(service, `${path}?site=dc-2`)), [e.r3.id]);
  t.deepEqual(ids(await list(service, `${path}?site_id=${e.site.id}`)), [e.r1.id, e.r2.id]);
  t.deepEqual(ids(await list(service, `${path}?region=europe`)), [e.r1.id, e.r2.id]);
  t.deepEqual(ids(await list(service, `${path}?site_group_id=${e.group.id}`)), [e.r1.id, e.r2.id]);
  t.deepEqual(ids(await list(service, `${path}?location=hall-a`)), [e.r1.id, e.r2.id]);
  t.deepEqual(ids(await list(service, `${path}?location_id=${e.location.id}`)), [e.r1.id, e.r2.id]);
  t.deepEqual(ids(await list(service, `${path}?user=bob`)), [e.r2.id, e.r3.id]);
  t.deepEqual(ids(await list(service, `${path}?user_id=${e.bob.id}&user_id=${e.r1.user.id}`)), [
    e.r1.id,
    e.r2.id,
    e.r3.id,
  ]);
  t.deepEqual(ids(await list(service, `${path}?user__n=bob`)), [e.r1.id]);
  t.deepEqual(ids(await list(service, `${path}?tenant=acme`)), [e.r1.id]);
  t.deepEqual(ids(await list(service, `${path}?description__ic=LA`)), [e.r3.id]);
  t.deepEqual(ids(await list(service, `${path}?q=f-7`)), [e.r1.id, e.r2.id], 'q finds the rack by facility id');
  t.deepEqual(ids(await list(service, `${path}?q=r2`)), [e.r3.id], 'and by name');
  t.deepEqual(ids(await list(service, `${path}?q=BOB`)), [e.r2.id, e.r3.id], 'and the user by username');
  t.deepEqual(ids(await list(service, `${path}?q=cage`)), [e.r1.id], 'and the description');
  t.is((await service.api('GET', `${path}?user=nobody`)).status, 400);
});

test("the reservation rules answer with NetBox's messages", async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const e = await reservations(service);
  const path = '/api/dcim/rack-reservations/';
  const refused = async (method: string, url: string, body: unknown) => {
    const response = await service.api(method, url, body);
    t.is(response.status, 400, `${method} ${url} ${JSON.stringify(body)}`);
    return response.body;
  };
  const base = { rack: e.rack.id, user: e.bob.id, description: 'x' };
  t.deepEqual(await refused('POST', path, { ...base, units: [9, 10, 11, 12] }), {
    units: ['Invalid unit(s) for 10U rack: 11, 12'],
  });
  t.deepEqual(await refused('POST', path, { ...base, units: [2, 3, 5] }), {
    units: ['The following units have already been reserved: 2, 5'],
  });
  t.deepEqual(await refused('POST', path, { ...base, units: [] }), { units: ['This field cannot be blank.'] });
  t.deepEqual(await refused('POST', path, { rack: e.rack.id, units: [3] }), {
    user: ['This field is required.'],
    description: ['This field is required.'],
  });
  t.is(
    (await service.api('PATCH', `${path}${e.r2.id}/`, { units: [5, 6] })).status,
    200,
    'a reservation does not collide with itself',
  );
  const moved = await refused('PATCH', `${path}${e.r3.id}/`, { rack: e.rack.id, units: [6] });
  t.deepEqual(moved, { units: ['The following units have already been reserved: 6'] });
  const userGone = await service.api('DELETE', `/api/users/users/${e.bob.id}/`);
  t.is(userGone.status, 409);
  t.is((await service.api('DELETE', `/api/dcim/racks/${e.otherRack.id}/`)).status, 204);
  t.is((await service.api('GET', `${path}${e.r3.id}/`)).status, 404, 'deleted with its rack');
});
