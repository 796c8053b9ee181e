import anyTest, { type TestFn } from 'ava';

import { as, grant, ok, userWithToken } from '../support/callers.js';
import { startService, type TestService } from '../support/startService.js';

/**
 * Change records (object changes, an object's history, the change feed, request
 * summaries and past states) are readable only with extras.view_objectchange, as NetBox
 * gates its change log; being allowed to view the objects is not enough.
 */
const test = anyTest as TestFn<{
  service: TestService;
  site: any;
  requestId: string;
  creation: number;
  otherSite: any;
}>;

const FORBIDDEN = { detail: 'You do not have permission to perform this action.' };
const ANONYMOUS = { detail: 'Authentication credentials were not provided.' };

test.before(async (t) => {
  const service = await startService();
  t.context.service = service;
  const created = await service.api('POST', '/api/dcim/sites/', { name: 'hq', slug: 'hq', description: 'first' });
  t.context.site = created.body;
  t.context.requestId = created.headers.get('x-request-id')!;
  const changes = await ok(service.api('GET', `/api/extras/object-changes/?request_id=${t.context.requestId}`), 200);
  t.context.creation = changes.results[0].id;
  await ok(service.api('PATCH', `/api/dcim/sites/${created.body.id}/`, { description: 'second' }), 200);
  t.context.otherSite = await ok(service.api('POST', '/api/dcim/sites/', { name: 'branch', slug: 'branch' }));
});
test.after.always(async (t) => {
  await t.context.service?.close();
});

/** Every endpoint that shows change records, with the status a caller allowed to read it gets. */
function changeRecordReads(t: {
  context: { site: any; requestId: string; creation: number };
}): Array<[string, number]> {
  const { site, requestId, creation } = t.context;
  return [
    [`/api/dcim/sites/${site.id}/history/`, 200],
    ['/api/extras/object-changes/', 200],
    [`/api/extras/object-changes/${creation}/`, 200],
    [`/api/extras/requests/${requestId}/`, 200],
    [`/api/dcim/sites/?as_of=${creation}`, 200],
    [`/api/dcim/sites/${site.id}/?as_of=${creation}`, 200],
  ];
}

/** The stream's status and first bytes (then the connection is dropped). */
async function openStream(service: TestService, key: string | null): Promise<{ status: number; text: string }> {
  const abort = new AbortController();
  const response = await fetch(`${service.url}/api/extras/object-changes/stream/`, {
    headers: key === null ? {} : { Authorization: `Token ${key}` },
    signal: abort.signal,
  });
  if (response.status !== 200) return { status: response.status, text: await response.text() };
  const reader = response.body!.getReader();
  const { value } = await reader.read();
  abort.abort();
  await reader.cancel().catch(() => undefined);
  return { status: 200, text: new TextDecoder().decode(value) };
}

test('a user who may view sites but not object changes reads no change record anywhere', async (t) => {
  const { service, site } = t.context;
  const viewer = await userWithToken(service, 'site-viewer');
  await grant(service, { object_types: ['dcim.site'], actions: ['view'], users: [viewer.user.id] });
  const call = as(service, viewer.key);

  t.is((await call('GET', `/api/dcim/sites/${site.id}/`)).status, 200, 'the object itself is readable');
  for (const [path] of changeRecordReads(t)) {
    const response = await call('GET', path);
    t.is(response.status, 403, path);
    t.deepEqual(response.body, FORBIDDEN, path);
  }
  t.is((await openStream(service, viewer.key)).status, 403, 'change feed');

  // Granting extras.view_objectchange opens all of them.
  await grant(service, { object_types: ['extras.objectchange'], actions: ['view'], users: [viewer.user.id] });
  for (const [path, status] of changeRecordReads(t)) t.is((await call('GET', path)).status, status, path);
  const stream = await openStream(service, viewer.key);
  t.is(stream.status, 200, 'change feed');
  t.regex(stream.text, /: position \d+/);
});

test('anonymous callers read no change record, and the history of an object they cannot view is 403 first', async (t) => {
  const { service, site } = t.context;
  const call = as(service, null);
  for (const [path] of changeRecordReads(t)) {
    const response = await call('GET', path);
    t.is(response.status, 403, path);
    t.deepEqual(response.body, ANONYMOUS, path);
  }
  t.is((await openStream(service, null)).status, 403);

  // object-change permission without the model's: the object's history stays closed.
  const auditor = await userWithToken(service, 'auditor-only');
  await grant(service, { object_types: ['extras.objectchange'], actions: ['view'], users: [auditor.user.id] });
  const asAuditor = as(service, auditor.key);
  t.is((await asAuditor('GET', `/api/dcim/sites/${site.id}/history/`)).status, 403);
  t.is((await asAuditor('GET', `/api/dcim/sites/?as_of=1`)).status, 403);
  t.is((await asAuditor('GET', '/api/extras/object-changes/')).status, 200, 'the change log itself is readable');
});

test('constraints on the site permission: the history of a site outside them is 404', async (t) => {
  const { service, site, otherSite } = t.context;
  const user = await userWithToken(service, 'hq-only');
  await grant(service, {
    object_types: ['dcim.site'],
    actions: ['view'],
    users: [user.user.id],
    constraints: { slug: 'hq' },
  });
  await grant(service, { object_types: ['extras.objectchange'], actions: ['view'], users: [user.user.id] });
  const call = as(service, user.key);
  const history = await ok(call('GET', `/api/dcim/sites/${site.id}/history/`), 200);
  t.is(history.count, 2);
  t.is((await call('GET', `/api/dcim/sites/${otherSite.id}/history/`)).status, 404);
});

test('constraints on extras.objectchange narrow the history, detail reads and the list', async (t) => {
  const { service, site } = t.context;
  const user = await userWithToken(service, 'creations-only');
  await grant(service, { object_types: ['dcim.site'], actions: ['view'], users: [user.user.id] });
  await grant(service, {
    object_types: ['extras.objectchange'],
    actions: ['view'],
    users: [user.user.id],
    constraints: { action: 'create' },
  });
  const call = as(service, user.key);

  const history = await ok(call('GET', `/api/dcim/sites/${site.id}/history/`), 200);
  t.deepEqual(
    history.results.map((r: any) => r.action.value),
    ['create'],
    'only the changes the constraints allow',
  );
  const all = await ok(service.api('GET', `/api/dcim/sites/${site.id}/history/`), 200);
  const update = all.results.find((r: any) => r.action.value === 'update');
  const creation = all.results.find((r: any) => r.action.value === 'create');
  t.is((await call('GET', `/api/extras/object-changes/${update.id}/`)).status, 404);
  t.is((await call('GET', `/api/extras/object-changes/${creation.id}/`)).status, 200);
  // Beyond NetBox 3.4 (whose API list is not restricted): the list is narrowed too (changeLogConstraints.e2e.spec.ts).
  const list = await ok(call('GET', '/api/extras/object-changes/'), 200);
  const admin = await ok(service.api('GET', '/api/extras/object-changes/?action=create'), 200);
  t.is(list.count, admin.count);
  // A past state results from every change before it: constrained change-log readers get none.
  t.is((await call('GET', `/api/dcim/sites/?as_of=${t.context.creation}`)).status, 403);

  // Constraints name the record's fields: by user, by type.
  const own = await userWithToken(service, 'own-changes');
  await grant(service, { object_types: ['dcim.site'], actions: ['view'], users: [own.user.id] });
  await grant(service, {
    object_types: ['extras.objectchange'],
    actions: ['view'],
    users: [own.user.id],
    constraints: { user: '$user' },
  });
  t.is(
    (await ok(as(service, own.key)('GET', `/api/dcim/sites/${site.id}/history/`), 200)).count,
    0,
    'admin made these changes',
  );
  const byType = await userWithToken(service, 'site-changes');
  await grant(service, { object_types: ['dcim.site'], actions: ['view'], users: [byType.user.id] });
  await grant(service, {
    object_types: ['extras.objectchange'],
    actions: ['view'],
    users: [byType.user.id],
    constraints: { changed_object_type: 'dcim.site', user_name: 'admin' },
  });
  t.is((await ok(as(service, byType.key)('GET', `/api/dcim/sites/${site.id}/history/`), 200)).count, 2);
});

test('EXEMPT_VIEW_PERMISSIONS may open the change log to anonymous readers', async (t) => {
  const service = await startService({ EXEMPT_VIEW_PERMISSIONS: 'dcim.site,extras.objectchange' });
  t.teardown(() => service.close());
  const site = await ok(service.api('POST', '/api/dcim/sites/', { name: 'x', slug: 'x' }));
  const call = as(service, null);
  t.is((await call('GET', `/api/dcim/sites/${site.id}/history/`)).status, 200);
  t.is((await call('GET', '/api/extras/object-changes/')).status, 200);
  t.is((await call('GET', '/api/dcim/sites/?as_of=1')).status, 200);
  const closed = await startService({ EXEMPT_VIEW_PERMISSIONS: 'dcim.site' });
  t.teardown(() => closed.close());
  const other = await ok(closed.api('POST', '/api/dcim/sites/', { name: 'y', slug: 'y' }));
  t.is((await as(closed, null)('GET', `/api/dcim/sites/${other.id}/history/`)).status, 403);
  t.is((await as(closed, null)('GET', `/api/dcim/sites/${other.id}/`)).status, 200);
});
