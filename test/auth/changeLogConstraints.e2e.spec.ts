import anyTest, { type TestFn } from 'ava';

import { as, grant, ok, userWithToken } from '../support/callers.js';
import { ADMIN_TOKEN, startService, type TestService } from '../support/startService.js';

/**
 * Constraints on extras.view_objectchange narrow every door to change records alike:
 * the list and its count, the request summaries, the live feed, `?created_by_request=`
 * (beyond NetBox 3.4, whose list shows every change to any holder of the permission).
 * An unconstrained permission still shows everything. Serial: the tests count the changes
 * of one shared log, and some add to it.
 */
interface Context {
  service: TestService;
  /** Request ids: a site created, then updated; a tenant created; a site with a location deleted (cascade). */
  siteCreate: string;
  siteUpdate: string;
  tenantCreate: string;
  cascadeDelete: string;
  site: any;
}
const test = anyTest as TestFn<Context>;

const CHANGES = 'extras.objectchange';
const LIST = '/api/extras/object-changes/';

test.before(async (t) => {
  const service = await startService();
  t.context.service = service;
  const requestOf = (r: { headers: Headers }) => r.headers.get('x-request-id')!;
  const created = await service.api('POST', '/api/dcim/sites/', { name: 'hq', slug: 'hq' });
  t.context.site = created.body;
  t.context.siteCreate = requestOf(created);
  const updated = await service.api('PATCH', `/api/dcim/sites/${created.body.id}/`, { description: 'x' });
  t.context.siteUpdate = requestOf(updated);
  t.context.tenantCreate = requestOf(await service.api('POST', '/api/tenancy/tenants/', { name: 't1', slug: 't1' }));
  const doomed = await ok(service.api('POST', '/api/dcim/sites/', { name: 'old', slug: 'old' }));
  await ok(service.api('POST', '/api/dcim/locations/', { name: 'l1', slug: 'l1', site: doomed.id }));
  const deleted = await service.api('DELETE', `/api/dcim/sites/${doomed.id}/`);
  t.is(deleted.status, 204);
  t.context.cascadeDelete = requestOf(deleted);
});
test.after.always(async (t) => {
  await t.context.service?.close();
});

/** A user holding extras.view_objectchange with these constraints (and dcim.site view). */
async function reader(service: TestService, name: string, constraints: unknown) {
  const user = await userWithToken(service, name);
  await grant(service, { object_types: ['dcim.site'], actions: ['view'], users: [user.user.id] });
  await grant(service, { object_types: [CHANGES], actions: ['view'], users: [user.user.id], constraints });
  return as(service, user.key);
}

/** Every object change (as the superuser lists them), newest first. */
async function everything(service: TestService): Promise<any[]> {
  return (await ok(service.api('GET', '/api/extras/object-changes/?limit=1000'), 200)).results;
}

test.serial('a type constraint narrows the list, its count and its pages', async (t) => {
  const { service } = t.context;
  const call = await reader(service, 'site-changes', { changed_object_type: 'dcim.site' });
  const expected = (await everything(service)).filter((r) => r.changed_object_type === 'dcim.site').map((r) => r.id);
  t.true(expected.length >= 4 && expected.length < (await everything(service)).length);

  const list = await ok(call('GET', '/api/extras/object-changes/'), 200);
  t.is(list.count, expected.length);
  t.deepEqual(
    list.results.map((r: any) => r.id),
    expected,
  );

  // Pages: count and next follow the narrowed set.
  const first = await ok(call('GET', '/api/extras/object-changes/?limit=2'), 200);
  t.is(first.count, expected.length);
  t.deepEqual(
    first.results.map((r: any) => r.id),
    expected.slice(0, 2),
  );
  t.truthy(first.next);
  const last = await ok(call('GET', `/api/extras/object-changes/?limit=2&offset=${expected.length - 1}`), 200);
  t.deepEqual(
    last.results.map((r: any) => r.id),
    expected.slice(-1),
  );
  t.is(last.next, null);

  // The list's filters combine with the constraints; one outside them finds nothing.
  t.is((await ok(call('GET', '/api/extras/object-changes/?changed_object_type=tenancy.tenant'), 200)).count, 0);
  const tenants = await ok(call('GET', `/api/extras/object-changes/?request_id=${t.context.tenantCreate}`), 200);
  t.deepEqual(tenants, { count: 0, next: null, previous: null, results: [] });
  const sorted = await ok(call('GET', '/api/extras/object-changes/?ordering=action'), 200);
  t.is(sorted.count, expected.length);
  t.true(sorted.results.every((r: any) => r.changed_object_type === 'dcim.site'));
  // ?created_by_request= is no filter of this list: the constraints still apply.
  const byRequest = await ok(call('GET', `${LIST}?created_by_request=${t.context.tenantCreate}`), 200);
  t.is(byRequest.count, expected.length);
});

test.serial('an action constraint: list and count, and requests with none of its changes are not found', async (t) => {
  const { service, siteCreate, siteUpdate, cascadeDelete } = t.context;
  const call = await reader(service, 'creations', { action: 'create' });
  const expected = (await everything(service)).filter((r) => r.action.value === 'create');
  const list = await ok(call('GET', '/api/extras/object-changes/?limit=1000'), 200);
  t.is(list.count, expected.length);
  t.true(list.results.every((r: any) => r.action.value === 'create'));

  t.is((await ok(call('GET', `/api/extras/requests/${siteCreate}/`), 200)).changes, 1);
  for (const requestId of [siteUpdate, cascadeDelete]) {
    t.is((await call('GET', `/api/extras/requests/${requestId}/`)).status, 404, requestId);
  }
});

test.serial('the request view counts only the changes within the constraints', async (t) => {
  const { service, cascadeDelete } = t.context;
  const admin = await ok(service.api('GET', `/api/extras/requests/${cascadeDelete}/`), 200);
  t.is(admin.changes, 2, 'the location and the site');

  const call = await reader(service, 'site-requests', { changed_object_type: 'dcim.site' });
  const summary = await ok(call('GET', `/api/extras/requests/${cascadeDelete}/`), 200);
  t.is(summary.changes, 1);
  t.deepEqual(summary.actions, { create: 0, update: 0, delete: 1 });
  const sitePart = `${LIST}?request_id=${cascadeDelete}&changed_object_type=dcim.site`;
  const [siteChange] = (await ok(service.api('GET', sitePart), 200)).results;
  t.is(summary.first_position, siteChange.id);
  t.is(summary.last_position, siteChange.id);

  const locations = await reader(service, 'location-requests', { changed_object_type: 'dcim.location' });
  const other = await ok(locations('GET', `/api/extras/requests/${cascadeDelete}/`), 200);
  t.is(other.changes, 1);
  t.not(other.first_position, siteChange.id);
});

test.serial('reverted_by names only reverts the caller may read a change of', async (t) => {
  const { service } = t.context;
  const created = await service.api('POST', '/api/dcim/sites/', { name: 'tmp', slug: 'tmp' });
  const original = created.headers.get('x-request-id')!;
  const revert = await ok(service.api('POST', `/api/extras/requests/${original}/revert/`), 200);
  const summary = `/api/extras/requests/${original}/`;
  t.deepEqual((await ok(service.api('GET', summary), 200)).reverted_by, [revert.request_id]);

  const creations = await reader(service, 'creations-reverts', { action: 'create' });
  t.deepEqual((await ok(creations('GET', summary), 200)).reverted_by, [], 'the revert only deletes');
  t.is((await creations('GET', `/api/extras/requests/${revert.request_id}/`)).status, 404);
  const sites = await reader(service, 'sites-reverts', { changed_object_type: 'dcim.site' });
  t.deepEqual((await ok(sites('GET', summary), 200)).reverted_by, [revert.request_id]);
});

test.serial('?created_by_request= on a model list tells only what the readable changes tell', async (t) => {
  const { service, siteCreate, siteUpdate, site } = t.context;
  const path = (request: string) => `/api/dcim/sites/?created_by_request=${request}`;
  t.deepEqual(
    (await ok(service.api('GET', path(siteUpdate)), 200)).results.map((r: any) => r.id),
    [site.id],
  );

  const creations = await reader(service, 'creations-lists', { action: 'create' });
  t.is((await ok(creations('GET', path(siteUpdate)), 200)).count, 0, 'the update is outside the constraints');
  t.is((await ok(creations('GET', path(siteCreate)), 200)).count, 1);

  // Without extras.view_objectchange it filters the list as before (the model's permission governs).
  const plain = await userWithToken(service, 'site-only');
  await grant(service, { object_types: ['dcim.site'], actions: ['view'], users: [plain.user.id] });
  t.is((await ok(as(service, plain.key)('GET', path(siteUpdate)), 200)).count, 1);
});

test.serial('constraints through a relation (user__username) and $user narrow the list', async (t) => {
  const { service } = t.context;
  const byName = await reader(service, 'admins-changes', { user__username: 'admin' });
  const all = await everything(service);
  const byAdmin = all.filter((r) => r.user_name === 'admin').length;
  t.is((await ok(byName('GET', LIST), 200)).count, byAdmin);
  const own = await reader(service, 'own-list', { user: '$user' });
  t.is((await ok(own('GET', '/api/extras/object-changes/'), 200)).count, 0, 'the admin made every change');
  // Constraints that cannot be evaluated select nothing (permissions fail closed).
  const broken = await reader(service, 'broken-list', { no_such_field: 1 });
  t.deepEqual(await ok(broken('GET', LIST), 200), { count: 0, next: null, previous: null, results: [] });
});

test.serial('an unconstrained permission shows every change, as in NetBox', async (t) => {
  const { service, cascadeDelete } = t.context;
  const call = await reader(service, 'all-changes', null);
  const all = await everything(service);
  const list = await ok(call('GET', '/api/extras/object-changes/?limit=1000'), 200);
  t.is(list.count, all.length);
  t.deepEqual(
    list.results.map((r: any) => r.id),
    all.map((r) => r.id),
  );
  const summary = `/api/extras/requests/${cascadeDelete}/`;
  t.deepEqual(await ok(call('GET', summary), 200), await ok(service.api('GET', summary), 200));
  // Several grants: one without constraints opens everything.
  const mixed = await reader(service, 'mixed-changes', { action: 'create' });
  const user = (await ok(service.api('GET', '/api/users/users/?username=mixed-changes'), 200)).results[0];
  await grant(service, { object_types: ['extras.objectchange'], actions: ['view'], users: [user.id] });
  t.is((await ok(mixed('GET', '/api/extras/object-changes/'), 200)).count, all.length);
});

/**
 * Reads the feed from `after` until the change `until` arrives (the feed is in log order,
 * so everything before it has been judged by then); returns the ids delivered.
 */
async function feed(service: TestService, key: string, after: number, until: number): Promise<number[]> {
  const abort = new AbortController();
  const response = await fetch(`${service.url}/api/extras/object-changes/stream/`, {
    headers: { Authorization: `Token ${key}`, 'Last-Event-ID': String(after) },
    signal: abort.signal,
  });
  if (response.status !== 200) throw new Error(`stream answered ${response.status}`);
  const ids: number[] = [];
  let text = '';
  const decoder = new TextDecoder();
  try {
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      text += decoder.decode(chunk, { stream: true });
      for (const match of text.matchAll(/^id: (\d+)$/gm)) ids.push(Number(match[1]));
      text = text.slice(text.lastIndexOf('\n\n') + 2);
      if (ids.includes(until)) break;
    }
  } finally {
    abort.abort();
  }
  return ids;
}

test.serial('the live feed delivers only the changes within the constraints', async (t) => {
  const { service } = t.context;
  const user = await userWithToken(service, 'site-feed');
  const constraints = { changed_object_type: 'dcim.site' };
  await grant(service, { object_types: [CHANGES], actions: ['view'], users: [user.user.id], constraints });
  const [newest] = await everything(service);
  const tenant = await service.api('POST', '/api/tenancy/tenants/', { name: 'feed-t', slug: 'feed-t' });
  const site = await service.api('POST', '/api/dcim/sites/', { name: 'feed-s', slug: 'feed-s' });
  const ids = async (r: { headers: Headers }) => {
    const changes = await ok(service.api('GET', `${LIST}?request_id=${r.headers.get('x-request-id')}`), 200);
    return changes.results.map((c: any) => c.id);
  };
  const [tenantChange] = await ids(tenant);
  const [siteChange] = await ids(site);

  t.deepEqual(await feed(service, user.key, newest.id, siteChange), [siteChange], 'the tenant is left out');
  const admin = await feed(service, ADMIN_TOKEN, newest.id, siteChange);
  t.deepEqual(admin, [tenantChange, siteChange]);
});
