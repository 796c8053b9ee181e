import test from 'ava';

import { ContentTypes } from '../../src/models/contentTypes.js';
import { registry } from '../../src/models/registry.js';
import { startService, type TestService } from '../support/startService.js';

const JOURNAL = '/api/extras/journal-entries/';
const BOB_TOKEN = 'b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0';

async function post(service: TestService, path: string, body: unknown, headers?: Record<string, string>): Promise<any> {
  const response = await service.api('POST', path, body, headers);
  if (response.status !== 201) throw new Error(`${path}: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body;
}

async function ids(service: TestService, query: string): Promise<number[]> {
  const response = await service.api('GET', `${JOURNAL}?${query}`);
  if (response.status !== 200) throw new Error(`${query}: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body.results.map((o: any) => o.id).sort((a: number, b: number) => a - b);
}

test('a journal entry names its object generically, is signed by the requesting user and shows when and what kind', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const site = await post(service, '/api/dcim/sites/', { name: 'DC-1', slug: 'dc-1' });
  const entry = await post(service, JOURNAL, {
    assigned_object_type: 'dcim.site',
    assigned_object_id: site.id,
    comments: 'Power work **tonight**',
    kind: 'warning',
  });
  t.deepEqual(Object.keys(entry), [
    'id',
    'url',
    'display',
    'assigned_object_type',
    'assigned_object_id',
    'assigned_object',
    'created',
    'created_by',
    'kind',
    'comments',
    'tags',
    'custom_fields',
    'last_updated',
  ]);
  t.is(entry.assigned_object_type, 'dcim.site');
  t.is(entry.assigned_object.id, site.id);
  t.is(entry.assigned_object.url, site.url);
  t.is(entry.created_by, 1, 'the admin, who sent it');
  t.deepEqual(entry.kind, { value: 'warning', label: 'Warning' });
  t.regex(entry.display, /^\d{4}-\d\d-\d\d \d\d:\d\d \(Warning\)$/);
  t.regex(entry.created, /^\d{4}-\d\d-\d\d$/);
  const brief = await service.api('GET', `${JOURNAL}${entry.id}/?brief=1`);
  t.deepEqual(Object.keys(brief.body), ['id', 'url', 'display', 'created']);

  // another user writing signs it with their own id; a client may name another author or none
  const bob = await post(service, '/api/users/users/', { username: 'bob', password: 'a long passphrase' });
  await post(service, '/api/users/tokens/', { user: bob.id, key: BOB_TOKEN });
  await post(service, '/api/users/permissions/', {
    name: 'journal',
    object_types: ['extras.journalentry', 'dcim.site'],
    actions: ['view', 'add'],
    users: [bob.id],
  });
  const byBob = await post(
    service,
    JOURNAL,
    { assigned_object_type: 'dcim.site', assigned_object_id: site.id, comments: 'checked' },
    { Authorization: `Token ${BOB_TOKEN}` },
  );
  t.is(byBob.created_by, bob.id);
  const unsigned = await post(service, JOURNAL, {
    assigned_object_type: 'dcim.site',
    assigned_object_id: site.id,
    comments: 'anonymous note',
    created_by: null,
  });
  t.is(unsigned.created_by, null);
  // PATCH leaves the author; PUT without it resets it to the requester
  const patched = await service.api('PATCH', `${JOURNAL}${byBob.id}/`, { comments: 'checked twice' });
  t.is(patched.body.created_by, bob.id);
  const put = await service.api('PUT', `${JOURNAL}${byBob.id}/`, {
    assigned_object_type: 'dcim.site',
    assigned_object_id: site.id,
    comments: 'rewritten',
  });
  t.is(put.status, 200);
  t.is(put.body.created_by, 1);
  t.deepEqual(put.body.kind, { value: 'info', label: 'Info' }, 'kind defaults to info');

  // newest first
  t.deepEqual(
    (await service.api('GET', JOURNAL)).body.results.map((e: any) => e.id),
    [unsigned.id, byBob.id, entry.id],
  );
});

test("journal entry validation errors come in NetBox's shapes", async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const tag = await post(service, '/api/extras/tags/', { name: 'Gold', slug: 'gold' });

  const missing = await service.api('POST', JOURNAL, {
    assigned_object_type: 'dcim.site',
    assigned_object_id: 999,
    comments: 'x',
  });
  t.is(missing.status, 400);
  t.deepEqual(missing.body, { non_field_errors: ['Invalid assigned_object: dcim | site ID 999'] });

  const unjournaled = await service.api('POST', JOURNAL, {
    assigned_object_type: 'extras.tag',
    assigned_object_id: tag.id,
    comments: 'x',
  });
  t.is(unjournaled.status, 400);
  t.deepEqual(unjournaled.body, { __all__: ['Journaling is not supported for this object type (extras | tag).'] });

  const unknownType = await service.api('POST', JOURNAL, {
    assigned_object_type: 'dcim.nothing',
    assigned_object_id: 1,
    comments: 'x',
  });
  t.deepEqual(unknownType.body, { assigned_object_type: ['Invalid content type: dcim.nothing'] });

  const required = await service.api('POST', JOURNAL, {});
  t.is(required.status, 400);
  t.deepEqual(Object.keys(required.body).sort(), ['assigned_object_id', 'assigned_object_type', 'comments']);

  const badKind = await service.api('POST', JOURNAL, {
    assigned_object_type: 'extras.tag',
    assigned_object_id: tag.id,
    comments: 'x',
    kind: 'meh',
  });
  t.deepEqual(badKind.body, { kind: ['meh is not a valid choice.'] });
});

test('journal entries filter by object, type (name and id), kind, author and creation time, and search their comments', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const site = await post(service, '/api/dcim/sites/', { name: 'DC-1', slug: 'dc-1' });
  const tenant = await post(service, '/api/tenancy/tenants/', { name: 'Acme', slug: 'acme' });
  const bob = await post(service, '/api/users/users/', { username: 'bob', password: 'a long passphrase' });
  const a = await post(service, JOURNAL, {
    assigned_object_type: 'dcim.site',
    assigned_object_id: site.id,
    comments: 'Fibre cut',
    kind: 'danger',
  });
  const b = await post(service, JOURNAL, {
    assigned_object_type: 'tenancy.tenant',
    assigned_object_id: tenant.id,
    comments: 'Contract renewed',
    created_by: bob.id,
  });
  const siteType = new ContentTypes(registry).id('dcim.site')!;

  t.deepEqual(await ids(service, 'assigned_object_type=dcim.site'), [a.id]);
  t.deepEqual(await ids(service, 'assigned_object_type__n=dcim.site'), [b.id]);
  t.deepEqual(await ids(service, `assigned_object_type_id=${siteType}`), [a.id]);
  t.deepEqual(await ids(service, `assigned_object_id=${tenant.id}&assigned_object_type=tenancy.tenant`), [b.id]);
  t.deepEqual(await ids(service, 'kind=danger'), [a.id]);
  t.deepEqual(await ids(service, 'created_by=bob'), [b.id]);
  t.deepEqual(await ids(service, `created_by_id=${bob.id}`), [b.id]);
  t.deepEqual(await ids(service, 'q=fibre'), [a.id]);
  t.deepEqual(await ids(service, 'created_after=2000-01-01'), [a.id, b.id]);
  t.deepEqual(await ids(service, 'created_before=2000-01-01'), []);
  const bad = await service.api('GET', `${JOURNAL}?created_after=yesterday`);
  t.deepEqual(bad.body, { created_after: ['Enter a valid date/time.'] });
  const badType = await service.api('GET', `${JOURNAL}?assigned_object_type_id=99999`);
  t.is(badType.status, 400);
});

test('deleting a journaled object deletes its journal, each deletion change-logged', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const site = await post(service, '/api/dcim/sites/', { name: 'DC-1', slug: 'dc-1' });
  const other = await post(service, '/api/dcim/sites/', { name: 'DC-2', slug: 'dc-2' });
  const entry = await post(service, JOURNAL, {
    assigned_object_type: 'dcim.site',
    assigned_object_id: site.id,
    comments: 'going away',
  });
  const kept = await post(service, JOURNAL, {
    assigned_object_type: 'dcim.site',
    assigned_object_id: other.id,
    comments: 'staying',
  });
  const deleted = await service.api('DELETE', `/api/dcim/sites/${site.id}/`);
  t.is(deleted.status, 204);
  t.is((await service.api('GET', `${JOURNAL}${entry.id}/`)).status, 404);
  t.is((await service.api('GET', `${JOURNAL}${kept.id}/`)).status, 200);
  const changes = await service.api(
    'GET',
    `/api/extras/object-changes/?changed_object_type=extras.journalentry&action=delete`,
  );
  t.deepEqual(
    changes.body.results.map((c: any) => c.changed_object_id),
    [entry.id],
  );
});

test('deleting the author leaves the entry, unsigned', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const site = await post(service, '/api/dcim/sites/', { name: 'DC-1', slug: 'dc-1' });
  const bob = await post(service, '/api/users/users/', { username: 'bob', password: 'a long passphrase' });
  const entry = await post(service, JOURNAL, {
    assigned_object_type: 'dcim.site',
    assigned_object_id: site.id,
    comments: 'by bob',
    created_by: bob.id,
  });
  t.is((await service.api('DELETE', `/api/users/users/${bob.id}/`)).status, 204);
  t.is((await service.api('GET', `${JOURNAL}${entry.id}/`)).body.created_by, null);
});
