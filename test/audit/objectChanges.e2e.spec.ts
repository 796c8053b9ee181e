import anyTest, { type TestFn } from 'ava';

import { changesOf, makeDevice, must, requestIdOf, unique } from '../support/auditRequests.js';
import { startService, type TestService } from '../support/startService.js';

const test = anyTest as TestFn<{ service: TestService }>;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

test.before(async (t) => {
  t.context.service = await startService();
});
test.after.always(async (t) => {
  await t.context.service?.close();
});

test('a single request shows exactly its one change, in NetBox fields', async (t) => {
  const { service } = t.context;
  const name = unique('site');
  const created = await must(service.api('POST', '/api/dcim/sites/', { name, slug: name, description: 'first' }), 201);
  const requestId = requestIdOf(created);
  const list = await must(service.api('GET', `/api/extras/object-changes/?request_id=${requestId}`), 200);
  t.is(list.body.count, 1);
  t.is(list.body.next, null);
  const [change] = list.body.results;
  t.deepEqual(Object.keys(change), [
    'id',
    'url',
    'display',
    'time',
    'user',
    'user_name',
    'request_id',
    'action',
    'changed_object_type',
    'changed_object_id',
    'changed_object',
    'related_object_type',
    'related_object_id',
    'related_object',
    'object_repr',
    'prechange_data',
    'postchange_data',
    'revert_of',
  ]);
  t.is(change.url, `${service.url}/api/extras/object-changes/${change.id}/`);
  t.is(change.display, `dcim | site ${name} created by admin`);
  t.regex(change.time, TIME);
  t.deepEqual(change.user, { id: 1, url: `${service.url}/api/users/users/1/`, display: 'admin', username: 'admin' });
  t.is(change.user_name, 'admin');
  t.is(change.request_id, requestId);
  t.regex(change.request_id, UUID);
  t.deepEqual(change.action, { value: 'create', label: 'Created' });
  t.is(change.changed_object_type, 'dcim.site');
  t.is(change.changed_object_id, created.body.id);
  t.deepEqual(change.changed_object, { id: created.body.id, url: created.body.url, display: name, name, slug: name });
  t.is(change.object_repr, name);
  t.is(change.prechange_data, null);
  t.is(change.postchange_data.name, name);
  t.is(change.postchange_data.description, 'first');
  t.false('id' in change.postchange_data);
  t.is(change.revert_of, null);

  const detail = await must(service.api('GET', `/api/extras/object-changes/${change.id}/`), 200);
  t.deepEqual(detail.body, change);
});

test('a bulk request shows one change per object under its one request id', async (t) => {
  const { service } = t.context;
  const names = [unique('bulk'), unique('bulk'), unique('bulk')];
  const created = await must(
    service.api(
      'POST',
      '/api/dcim/sites/',
      names.map((name) => ({ name, slug: name })),
    ),
    201,
  );
  const changes = await changesOf(service, requestIdOf(created));
  t.is(changes.length, 3);
  t.deepEqual(
    changes.map((c) => c.action.value),
    ['create', 'create', 'create'],
  );
  t.deepEqual(
    changes.map((c) => c.changed_object_id),
    created.body.map((s: any) => s.id),
  );
  t.deepEqual(
    changes.map((c) => c.object_repr),
    names,
  );

  const updated = await must(
    service.api(
      'PATCH',
      '/api/dcim/sites/',
      created.body.slice(0, 2).map((s: any) => ({ id: s.id, description: 'bulk-updated' })),
    ),
    200,
  );
  const updates = await changesOf(service, requestIdOf(updated));
  t.is(updates.length, 2);
  for (const change of updates) {
    t.is(change.action.value, 'update');
    t.is(change.prechange_data.description, '');
    t.is(change.postchange_data.description, 'bulk-updated');
  }
});

test('a cascading delete shows every removed object, with the parent as related object', async (t) => {
  const { service } = t.context;
  const { device, interfaces } = await makeDevice(service, 2);
  const deleted = await must(service.api('DELETE', `/api/dcim/devices/${device.id}/`), 204);
  const changes = await changesOf(service, requestIdOf(deleted));
  t.is(changes.length, 3, JSON.stringify(changes.map((c) => c.display)));
  t.true(changes.every((c) => c.action.value === 'delete'));
  t.true(changes.every((c) => c.changed_object === null && c.postchange_data === null));
  const ifaceChanges = changes.filter((c) => c.changed_object_type === 'dcim.interface');
  t.deepEqual(ifaceChanges.map((c) => c.changed_object_id).sort(), interfaces.map((i: any) => i.id).sort());
  for (const change of ifaceChanges) {
    t.is(change.related_object_type, 'dcim.device');
    t.is(change.related_object_id, device.id);
    t.is(change.related_object, null); // deleted too
    t.is(change.prechange_data.device, device.id);
  }
  const deviceChange = changes.find((c) => c.changed_object_type === 'dcim.device');
  t.is(deviceChange.prechange_data.name, device.name);
  t.true(changes.indexOf(deviceChange) > changes.indexOf(ifaceChanges[0]), 'dependants are logged before the parent');
});

test('an interface change names its device as related object while the device exists', async (t) => {
  const { service } = t.context;
  const { device, interfaces } = await makeDevice(service, 1);
  const patched = await must(
    service.api('PATCH', `/api/dcim/interfaces/${interfaces[0].id}/`, { description: 'uplink' }),
    200,
  );
  const [change] = await changesOf(service, requestIdOf(patched));
  t.is(change.related_object_type, 'dcim.device');
  t.is(change.related_object_id, device.id);
  t.is(change.related_object.id, device.id);
  t.is(change.related_object.url, device.url);
  t.is(change.changed_object.id, interfaces[0].id);
});

test('prechange and postchange are the snapshots around each change; tags by name', async (t) => {
  const { service } = t.context;
  const tagName = unique('Tag');
  const tag = (
    await must(
      service.api('POST', '/api/extras/tags/', { name: tagName, slug: tagName.toLowerCase(), color: 'ff0000' }),
      201,
    )
  ).body;
  const name = unique('snap');
  const site = await must(
    service.api('POST', '/api/dcim/sites/', { name, slug: name, facility: 'F1', tags: [tag.id] }),
    201,
  );
  const update = await must(
    service.api('PATCH', `/api/dcim/sites/${site.body.id}/`, { facility: 'F2', status: 'planned' }),
    200,
  );
  const [change] = await changesOf(service, requestIdOf(update));
  t.is(change.prechange_data.facility, 'F1');
  t.is(change.prechange_data.status, 'active');
  t.is(change.postchange_data.facility, 'F2');
  t.is(change.postchange_data.status, 'planned');
  t.deepEqual(change.prechange_data.tags, [tagName]);
  t.deepEqual(change.postchange_data.tags, [tagName]);
  t.is(change.prechange_data.created, change.postchange_data.created);
  t.not(change.prechange_data.last_updated, change.postchange_data.last_updated);

  // A renamed tag keeps its old name in older snapshots.
  await must(service.api('PATCH', `/api/extras/tags/${tag.id}/`, { name: `${tagName}-renamed` }), 200);
  const again = await must(service.api('GET', `/api/extras/object-changes/${change.id}/`), 200);
  t.deepEqual(again.body.postchange_data.tags, [tagName]);

  const removed = await must(service.api('DELETE', `/api/dcim/sites/${site.body.id}/`), 204);
  const [deletion] = await changesOf(service, requestIdOf(removed));
  t.is(deletion.postchange_data, null);
  t.is(deletion.prechange_data.facility, 'F2');
  t.deepEqual(deletion.prechange_data.tags, [`${tagName}-renamed`]);
});

test('users and tokens are not change-logged (NetBox); their history never shows a secret', async (t) => {
  const { service } = t.context;
  const username = unique('user');
  const user = await must(
    service.api('POST', '/api/users/users/', { username, password: 'correct horse battery staple' }),
    201,
  );
  const token = await must(service.api('POST', '/api/users/tokens/', { user: user.body.id, description: 'ci' }), 201);
  t.deepEqual(await changesOf(service, requestIdOf(user)), []);
  t.deepEqual(await changesOf(service, requestIdOf(token)), []);
  const request = await must(service.api('GET', `/api/extras/requests/${requestIdOf(token)}/`), 200);
  t.is(request.body.changes, 1, 'the event is in the log all the same');

  const userHistory = await must(service.api('GET', `/api/users/users/${user.body.id}/history/`), 200);
  const tokenHistory = await must(service.api('GET', `/api/users/tokens/${token.body.id}/history/`), 200);
  t.is(userHistory.body.count, 1);
  t.is(tokenHistory.body.count, 1);
  t.is(tokenHistory.body.results[0].changed_object.id, token.body.id);
  t.is((await service.api('GET', `/api/extras/object-changes/${tokenHistory.body.results[0].id}/`)).status, 404);
  const text = JSON.stringify([userHistory.body, tokenHistory.body]);
  for (const secret of ['password', 'key_digest', 'key_cipher', 'key_last6', 'pbkdf2', 'scrypt'])
    t.false(text.includes(secret), secret);
  t.false(text.includes(token.body.key), 'the clear key');
  t.is(tokenHistory.body.results[0].postchange_data.description, 'ci');
});

test('filters: action, type, object id, user, user_name, object_repr, q, id and time bounds', async (t) => {
  const { service } = t.context;
  const name = unique('filter');
  const created = await must(service.api('POST', '/api/dcim/sites/', { name, slug: name }), 201);
  const id = created.body.id;
  await must(service.api('PATCH', `/api/dcim/sites/${id}/`, { description: 'x' }), 200);
  await must(service.api('PATCH', `/api/dcim/sites/${id}/`, { description: 'y' }), 200);
  const base = `/api/extras/object-changes/?changed_object_type=dcim.site&changed_object_id=${id}`;
  const all = await must(service.api('GET', base), 200);
  t.is(all.body.count, 3);
  t.deepEqual(
    all.body.results.map((c: any) => c.action.value),
    ['update', 'update', 'create'],
    'newest first',
  );
  t.true(all.body.results[0].id > all.body.results[2].id);

  t.is((await service.api('GET', `${base}&action=update`)).body.count, 2);
  t.is((await service.api('GET', `${base}&action__n=update`)).body.count, 1);
  t.is((await service.api('GET', `${base}&user=admin`)).body.count, 3);
  t.is((await service.api('GET', `${base}&user_id=1`)).body.count, 3);
  t.is((await service.api('GET', `${base}&user_name__ie=ADMIN`)).body.count, 3);
  t.is((await service.api('GET', `${base}&user_name__n=admin`)).body.count, 0);
  t.is((await service.api('GET', `/api/extras/object-changes/?object_repr=${name}`)).body.count, 3);
  t.is(
    (await service.api('GET', `/api/extras/object-changes/?object_repr__ic=${name.toUpperCase().slice(0, -2)}`)).body
      .count,
    3,
  );
  t.is((await service.api('GET', `/api/extras/object-changes/?q=${name}`)).body.count, 3);
  const oldest = all.body.results[2];
  t.is((await service.api('GET', `${base}&id__gt=${oldest.id}`)).body.count, 2);
  t.is((await service.api('GET', `${base}&id=${oldest.id}`)).body.count, 1);
  t.is((await service.api('GET', `${base}&time_after=${encodeURIComponent(all.body.results[0].time)}`)).body.count, 1);
  t.is((await service.api('GET', `${base}&time_before=${encodeURIComponent(oldest.time)}`)).body.count, 1);
  t.is((await service.api('GET', `${base}&ordering=id`)).body.results[0].id, oldest.id);
  t.is(
    (
      await service.api(
        'GET',
        `/api/extras/object-changes/?changed_object_type=dcim.site&changed_object_id=${id}&changed_object_id=999999`,
      )
    ).body.count,
    3,
  );
  t.is((await service.api('GET', '/api/extras/object-changes/?changed_object_type=nodot')).body.count, 0);
  t.is((await service.api('GET', '/api/extras/object-changes/?changed_object_type=foo.bar')).body.count, 0);
  t.is(
    (await service.api('GET', `${base}&changed_object_type__n=dcim.site`)).body.count,
    3,
    '__n does not negate (NetBox)',
  );
});

test('pagination works like the other lists', async (t) => {
  const { service } = t.context;
  const names = Array.from({ length: 5 }, () => unique('page'));
  const created = await must(
    service.api(
      'POST',
      '/api/dcim/sites/',
      names.map((name) => ({ name, slug: name })),
    ),
    201,
  );
  const requestId = requestIdOf(created);
  const first = await must(service.api('GET', `/api/extras/object-changes/?request_id=${requestId}&limit=2`), 200);
  t.is(first.body.count, 5);
  t.is(first.body.results.length, 2);
  t.is(first.body.previous, null);
  t.is(first.body.next, `${service.url}/api/extras/object-changes/?limit=2&offset=2&request_id=${requestId}`);
  const second = await must(service.api('GET', first.body.next.slice(service.url.length)), 200);
  t.is(second.body.previous, `${service.url}/api/extras/object-changes/?limit=2&offset=0&request_id=${requestId}`);
  const third = await must(service.api('GET', second.body.next.slice(service.url.length)), 200);
  t.is(third.body.next, null);
  const ids = [...first.body.results, ...second.body.results, ...third.body.results].map((c: any) => c.id);
  t.deepEqual(
    ids,
    [...ids].sort((a, b) => b - a),
  );
  t.is(new Set(ids).size, 5);

  // Unfiltered: the whole log, newest first.
  const everything = await must(service.api('GET', '/api/extras/object-changes/?limit=3'), 200);
  t.true(everything.body.count >= 5);
  t.is(everything.body.results.length, 3);
  t.true(everything.body.results[0].id > everything.body.results[1].id);
});

test('bad input is a NetBox-shaped 400, never a 500', async (t) => {
  const { service } = t.context;
  const cases: Array<[string, string, string]> = [
    ['request_id=not-a-uuid', 'request_id', 'Enter a valid UUID.'],
    ['action=explode', 'action', 'Select a valid choice. explode is not one of the available choices.'],
    ['id=abc', 'id', 'Enter a whole number.'],
    ['changed_object_id__gt=1.5', 'changed_object_id__gt', 'Enter a whole number.'],
    ['time_after=yesterday', 'time_after', 'Enter a valid date/time.'],
    ['time_before=2024-02-30', 'time_before', 'Enter a valid date/time.'],
    ['user=nobody-like-this', 'user', 'Select a valid choice. nobody-like-this is not one of the available choices.'],
    ['user_id=424242', 'user_id', 'Select a valid choice. 424242 is not one of the available choices.'],
    ['user_name__empty=maybe', 'user_name__empty', 'Enter a valid boolean (true or false).'],
  ];
  for (const [query, key, message] of cases) {
    const r = await service.api('GET', `/api/extras/object-changes/?${query}`);
    t.is(r.status, 400, query);
    t.deepEqual(r.body, { [key]: [message] }, query);
  }
  t.is(
    (await service.api('GET', '/api/extras/object-changes/?nonsense=1&request_id=')).status,
    200,
    'unknown and empty parameters are ignored',
  );
  t.is((await service.api('GET', '/api/extras/object-changes/?ordering=prechange_data,bogus')).status, 200);
  t.is((await service.api('GET', '/api/extras/object-changes/99999999/')).status, 404);
  t.is((await service.api('GET', '/api/extras/object-changes/abc/')).status, 404);
  t.is((await service.api('GET', '/api/extras/object-changes/0/')).status, 404);
  t.is((await service.api('GET', '/api/extras/requests/not-a-uuid/')).status, 404);
  t.is((await service.api('GET', '/api/extras/requests/00000000-0000-4000-8000-000000000000/')).status, 404);
});

test('object changes are read-only: writes are 405', async (t) => {
  const { service } = t.context;
  for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
    const list = await service.api(method, '/api/extras/object-changes/', method === 'DELETE' ? undefined : {});
    t.is(list.status, 405, method);
    t.deepEqual(list.body, { detail: `Method "${method}" not allowed.` });
    t.is(list.headers.get('allow'), 'GET, HEAD, OPTIONS');
    const detail = await service.api(method, '/api/extras/object-changes/1/', method === 'DELETE' ? undefined : {});
    t.is(detail.status, 405, method);
  }
  const anonymous = await fetch(`${service.url}/api/extras/object-changes/`, { method: 'DELETE' });
  t.is(anonymous.status, 403, 'the permission check comes before 405, as in NetBox');
});

test('reading object changes needs a token (403 without)', async (t) => {
  const { service } = t.context;
  const r = await fetch(`${service.url}/api/extras/object-changes/`);
  t.is(r.status, 403);
  t.deepEqual(await r.json(), { detail: 'Authentication credentials were not provided.' });
});

test('created_by_request lists the objects a request created or updated, on every list', async (t) => {
  const { service } = t.context;
  const names = [unique('cbr'), unique('cbr')];
  const created = await must(
    service.api(
      'POST',
      '/api/dcim/sites/',
      names.map((name) => ({ name, slug: name })),
    ),
    201,
  );
  const createId = requestIdOf(created);
  const other = unique('cbr-other');
  const otherSite = await must(service.api('POST', '/api/dcim/sites/', { name: other, slug: other }), 201);
  const updated = await must(
    service.api('PATCH', `/api/dcim/sites/${otherSite.body.id}/`, { description: 'touched' }),
    200,
  );
  const updateId = requestIdOf(updated);

  const byCreate = await must(service.api('GET', `/api/dcim/sites/?created_by_request=${createId}`), 200);
  t.deepEqual(byCreate.body.results.map((s: any) => s.name).sort(), [...names].sort());
  t.is(byCreate.body.count, 2);
  const byUpdate = await must(service.api('GET', `/api/dcim/sites/?created_by_request=${updateId}`), 200);
  t.deepEqual(
    byUpdate.body.results.map((s: any) => s.id),
    [otherSite.body.id],
  );
  const both = await must(
    service.api('GET', `/api/dcim/sites/?created_by_request=${createId}&created_by_request=${updateId}`),
    200,
  );
  t.is(both.body.count, 3);
  const combined = await must(
    service.api('GET', `/api/dcim/sites/?created_by_request=${createId}&name=${names[0]}`),
    200,
  );
  t.is(combined.body.count, 1);
  t.is((await must(service.api('GET', `/api/dcim/racks/?created_by_request=${createId}`), 200)).body.count, 0);
  t.is(
    (await must(service.api('GET', '/api/dcim/sites/?created_by_request=00000000-0000-4000-8000-000000000000'), 200))
      .body.count,
    0,
  );
  const bad = await service.api('GET', '/api/dcim/sites/?created_by_request=nope');
  t.is(bad.status, 400);
  t.deepEqual(bad.body, { created_by_request: ['Enter a valid UUID.'] });
});

test('an object history lists its versions, newest first', async (t) => {
  const { service } = t.context;
  const name = unique('hist');
  const site = await must(service.api('POST', '/api/dcim/sites/', { name, slug: name }), 201);
  await must(service.api('PATCH', `/api/dcim/sites/${site.body.id}/`, { description: 'v2' }), 200);
  await must(service.api('PATCH', `/api/dcim/sites/${site.body.id}/`, { description: 'v3' }), 200);
  const history = await must(service.api('GET', `/api/dcim/sites/${site.body.id}/history/`), 200);
  t.is(history.body.count, 3);
  t.deepEqual(
    history.body.results.map((c: any) => c.postchange_data.description),
    ['v3', 'v2', ''],
  );
  t.true(history.body.results.every((c: any) => c.changed_object_id === site.body.id));
  const paged = await must(service.api('GET', `/api/dcim/sites/${site.body.id}/history/?limit=1&offset=1`), 200);
  t.is(paged.body.results[0].postchange_data.description, 'v2');
  await must(service.api('DELETE', `/api/dcim/sites/${site.body.id}/`), 204);
  const afterDelete = await must(service.api('GET', `/api/dcim/sites/${site.body.id}/history/`), 200);
  t.is(afterDelete.body.count, 4, 'the history outlives the object');
  t.is((await service.api('GET', '/api/dcim/sites/987654/history/')).status, 404);
  t.is((await service.api('POST', `/api/dcim/sites/${site.body.id}/history/`, {})).status, 405);
});

test('the event envelope schema is served at /api/schema/events/', async (t) => {
  const { service } = t.context;
  const r = await must(service.api('GET', '/api/schema/events/'), 200);
  t.is(r.body.title, 'netledger change event');
  t.truthy(r.body.properties.revertOf);
  t.true(r.body.required.includes('requestId'));
});
