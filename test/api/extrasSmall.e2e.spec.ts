import test from 'ava';

import { ContentTypes } from '../../src/models/contentTypes.js';
import { registry } from '../../src/models/registry.js';
import { startService, type TestService } from '../support/startService.js';

const BOB_TOKEN = 'b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0';

async function post(service: TestService, path: string, body: unknown, headers?: Record<string, string>): Promise<any> {
  const response = await service.api('POST', path, body, headers);
  if (response.status !== 201) throw new Error(`${path}: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body;
}

async function names(
  service: TestService,
  path: string,
  query: string,
  headers?: Record<string, string>,
): Promise<string[]> {
  const response = await service.api('GET', `${path}?${query}`, undefined, headers);
  if (response.status !== 200) throw new Error(`${path}?${query}: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body.results.map((o: any) => o.name ?? o.model).sort();
}

/** A second, unprivileged user with a token, allowed to view saved filters. */
async function bob(service: TestService): Promise<{ id: number; headers: Record<string, string> }> {
  const user = await post(service, '/api/users/users/', { username: 'bob', password: 'a long passphrase' });
  await post(service, '/api/users/tokens/', { user: user.id, key: BOB_TOKEN });
  await post(service, '/api/users/permissions/', {
    name: 'filters',
    object_types: ['extras.savedfilter'],
    actions: ['view'],
    users: [user.id],
  });
  return { id: user.id, headers: { Authorization: `Token ${BOB_TOKEN}` } };
}

test('saved filters: fields, defaults, the parameters rule, and the usable filter relative to the caller', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const path = '/api/extras/saved-filters/';
  const caller = await bob(service);
  const shared = await post(service, path, {
    name: 'Active sites',
    slug: 'active-sites',
    content_types: ['dcim.site'],
    parameters: { status: ['active'] },
  });
  t.deepEqual(Object.keys(shared), [
    'id',
    'url',
    'display',
    'content_types',
    'name',
    'slug',
    'description',
    'user',
    'weight',
    'enabled',
    'shared',
    'parameters',
    'created',
    'last_updated',
  ]);
  t.like(shared, {
    display: 'Active sites',
    user: null,
    weight: 100,
    enabled: true,
    shared: true,
    content_types: ['dcim.site'],
  });
  await post(service, path, {
    name: 'Bob private',
    slug: 'bob-private',
    content_types: ['dcim.device'],
    parameters: {},
    shared: false,
    user: caller.id,
  });
  await post(service, path, {
    name: 'Admin private',
    slug: 'admin-private',
    content_types: ['dcim.site', 'dcim.device'],
    parameters: {},
    shared: false,
    user: 1,
  });
  await post(service, path, {
    name: 'Disabled',
    slug: 'disabled',
    content_types: ['ipam.prefix'],
    parameters: {},
    enabled: false,
  });

  const notObject = await service.api('POST', path, {
    name: 'Bad',
    slug: 'bad',
    content_types: ['dcim.site'],
    parameters: ['status'],
  });
  t.is(notObject.status, 400);
  t.deepEqual(notObject.body, {
    parameters: ['Filter parameters must be stored as a dictionary of keyword arguments.'],
  });
  const badType = await service.api('POST', path, {
    name: 'Bad',
    slug: 'bad',
    content_types: ['dcim.nothing'],
    parameters: {},
  });
  t.deepEqual(badType.body, { content_types: ['Invalid content type: dcim.nothing'] });

  t.deepEqual(await names(service, path, 'usable=true'), ['Active sites', 'Admin private']);
  t.deepEqual(await names(service, path, 'usable=true', caller.headers), ['Active sites', 'Bob private']);
  t.deepEqual(await names(service, path, 'usable=false', caller.headers), ['Admin private', 'Disabled']);
  t.deepEqual(
    await names(service, path, 'usable=maybe'),
    ['Active sites', 'Admin private', 'Bob private', 'Disabled'],
    'an unreadable boolean does not filter',
  );
  t.deepEqual(await names(service, path, 'user=bob'), ['Bob private']);
  t.deepEqual(await names(service, path, `user_id=${caller.id}`), ['Bob private']);
  t.deepEqual(await names(service, path, 'content_types=dcim.site'), ['Active sites', 'Admin private']);
  const deviceType = new ContentTypes(registry).id('dcim.device')!;
  t.deepEqual(await names(service, path, `content_type_id=${deviceType}`), ['Admin private', 'Bob private']);
  t.deepEqual(await names(service, path, 'shared=false&enabled=true'), ['Admin private', 'Bob private']);
  t.deepEqual((await service.api('GET', `${path}?brief=1`)).body.results.map((f: any) => Object.keys(f))[0], [
    'id',
    'url',
    'display',
    'name',
    'slug',
  ]);
});

test('custom links: stored templates, choices, defaults; only models with custom links', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const path = '/api/extras/custom-links/';
  const link = await post(service, path, {
    name: 'Monitoring',
    content_types: ['dcim.device'],
    link_text: 'Graphs of {{ object.name }}',
    link_url: 'https://nms.example.com/{{ object.name }}',
  });
  t.deepEqual(Object.keys(link), [
    'id',
    'url',
    'display',
    'content_types',
    'name',
    'enabled',
    'link_text',
    'link_url',
    'weight',
    'group_name',
    'button_class',
    'new_window',
    'created',
    'last_updated',
  ]);
  t.like(link, {
    link_text: 'Graphs of {{ object.name }}',
    link_url: 'https://nms.example.com/{{ object.name }}',
    button_class: 'outline-dark',
    weight: 100,
    group_name: '',
    new_window: false,
    enabled: true,
  });
  await post(service, path, {
    name: 'Ticket',
    content_types: ['dcim.site'],
    link_text: 'Ticket',
    link_url: 'https://t.example.com/',
    group_name: 'Ops',
    button_class: 'red',
    new_window: true,
  });

  const notLinkable = await service.api('POST', path, {
    name: 'Bad',
    content_types: ['extras.tag'],
    link_text: 'x',
    link_url: 'y',
  });
  t.deepEqual(notLinkable.body, { content_types: ['Invalid content type: extras.tag'] });
  const badClass = await service.api('POST', path, {
    name: 'Bad',
    content_types: ['dcim.site'],
    link_text: 'x',
    link_url: 'y',
    button_class: 'mauve',
  });
  t.is(badClass.status, 400);
  t.truthy(badClass.body.button_class);

  t.deepEqual(await names(service, path, 'content_types=dcim.site'), ['Ticket']);
  t.deepEqual(await names(service, path, `content_type_id=${new ContentTypes(registry).id('dcim.device')}`), [
    'Monitoring',
  ]);
  t.deepEqual(await names(service, path, 'group_name=Ops'), ['Ticket']);
  t.deepEqual(await names(service, path, 'new_window=true'), ['Ticket']);
  t.deepEqual(await names(service, path, 'link_url__ic=nms'), ['Monitoring']);
  t.deepEqual(await names(service, path, 'q=graphs'), ['Monitoring']);
  // default ordering: group name, weight, name ('' before 'Ops')
  t.deepEqual(
    (await service.api('GET', path)).body.results.map((l: any) => l.name),
    ['Monitoring', 'Ticket'],
  );
});

test('content types list every model with the ids object changes use, filter, page and refuse writes', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const path = '/api/extras/content-types/';
  const all = await service.api('GET', `${path}?limit=0`);
  t.is(all.status, 200);
  const byKey = new Map<string, any>(all.body.results.map((c: any) => [`${c.app_label}.${c.model}`, c]));
  for (const definition of registry.all()) t.true(byKey.has(definition.key), definition.key);
  t.true(byKey.has('extras.objectchange'));
  t.is(all.body.count, all.body.results.length);
  const site = byKey.get('dcim.site');
  t.deepEqual(site, {
    id: new ContentTypes(registry).id('dcim.site'),
    url: `${service.url}${path}${site.id}/`,
    display: 'dcim | site',
    app_label: 'dcim',
    model: 'site',
  });

  // the id an object change gives a site is the content type's id
  await post(service, '/api/dcim/sites/', { name: 'DC-1', slug: 'dc-1' });
  const change = await service.api('GET', '/api/extras/object-changes/?changed_object_type=dcim.site');
  t.is(change.body.results[0].changed_object_type, 'dcim.site');
  const byTypeId = await service.api('GET', `/api/extras/object-changes/?changed_object_type_id=${site.id}`);
  t.is(byTypeId.body.count, 1);

  // default ordering: app_label, then model
  const labels = all.body.results.map((c: any) => `${c.app_label}.${c.model}`);
  t.deepEqual(
    labels,
    [...labels].sort((a: string, b: string) =>
      a.split('.')[0]! === b.split('.')[0]! ? (a < b ? -1 : 1) : a.split('.')[0]! < b.split('.')[0]! ? -1 : 1,
    ),
  );
  t.deepEqual(
    await names(service, path, 'app_label=tenancy&ordering=-model'),
    ['tenantgroup', 'tenant', 'contactrole', 'contactgroup', 'contactassignment', 'contact'].sort(),
  );
  t.deepEqual(
    (await service.api('GET', `${path}?app_label=dcim&model=site`)).body.results.map((c: any) => c.id),
    [site.id],
  );
  t.deepEqual(
    (await service.api('GET', `${path}?id=${site.id}`)).body.results.map((c: any) => c.model),
    ['site'],
  );
  t.deepEqual(await names(service, path, 'q=journal'), ['journalentry']);
  t.deepEqual((await service.api('GET', `${path}?id=abc`)).body, { id: ['Enter a number.'] });

  const page = await service.api('GET', `${path}?limit=5&offset=5`);
  t.is(page.body.results.length, 5);
  t.is(page.body.next, `${service.url}${path}?limit=5&offset=10`);
  t.is(page.body.previous, `${service.url}${path}?limit=5&offset=0`);

  const detail = await service.api('GET', `${path}${site.id}/`);
  t.deepEqual(detail.body, site);
  t.is((await service.api('GET', `${path}99999/`)).status, 404);

  const write = await service.api('POST', path, { app_label: 'x', model: 'y' });
  t.is(write.status, 405);
  t.is(write.headers.get('allow'), 'GET, HEAD, OPTIONS');
  t.is((await service.api('DELETE', `${path}${site.id}/`)).status, 405);
  const anonymous = await service.api('GET', path, undefined, { Authorization: '' });
  t.is(anonymous.status, 403, 'any authenticated user, never anonymous');

  const root = await service.api('GET', '/api/extras/');
  for (const name of [
    'content-types',
    'custom-links',
    'job-results',
    'journal-entries',
    'reports',
    'saved-filters',
    'scripts',
  ]) {
    t.is(root.body[name], `${service.url}/api/extras/${name}/`, name);
  }
});

test('job results are an empty, read-only list with filters and pagination; reports and scripts are empty arrays', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const jobs = await service.api('GET', '/api/extras/job-results/?status=completed&created__after=2020-01-01&limit=10');
  t.is(jobs.status, 200);
  t.deepEqual(jobs.body, { count: 0, next: null, previous: null, results: [] });
  t.deepEqual((await service.api('GET', '/api/extras/job-results/?status=nope')).body, {
    status: ['Select a valid choice. nope is not one of the available choices.'],
  });
  t.deepEqual((await service.api('GET', '/api/extras/job-results/?completed__before=soon')).body, {
    completed__before: ['Enter a valid date/time.'],
  });
  // user and obj_type are NetBox's model choice filters: 'null' (django-filter's null choice) is taken
  for (const query of ['user=null', 'user__n=null', 'obj_type=null', 'obj_type__n=null']) {
    const answer = await service.api('GET', `/api/extras/job-results/?${query}`);
    t.is(answer.status, 200, query);
  }
  for (const query of ['user=99999', 'obj_type=99999', 'obj_type=abc']) {
    t.deepEqual(
      (await service.api('GET', `/api/extras/job-results/?${query}`)).body,
      { [query.split('=')[0]!]: ['Select a valid choice. That choice is not one of the available choices.'] },
      `${query}: ModelChoiceField's words`,
    );
  }
  t.is((await service.api('GET', '/api/extras/job-results/1/')).status, 404);
  t.is((await service.api('POST', '/api/extras/job-results/', {})).status, 405);

  for (const kind of ['reports', 'scripts']) {
    const list = await service.api('GET', `/api/extras/${kind}/`);
    t.is(list.status, 200);
    t.deepEqual(list.body, [], `${kind}: an unpaginated empty array`);
    t.is((await service.api('GET', `/api/extras/${kind}/inventory.Audit/`)).status, 404);
  }
  t.is((await service.api('POST', '/api/extras/reports/inventory.Audit/run/', {})).status, 404);
  t.is((await service.api('POST', '/api/extras/scripts/inventory.Audit/', { data: {}, commit: true })).status, 404);
  const caller = await bob(service);
  const denied = await service.api('POST', '/api/extras/reports/inventory.Audit/run/', {}, caller.headers);
  t.deepEqual(denied.body, { detail: 'This user does not have permission to run reports.' });
  t.deepEqual((await service.api('GET', '/api/extras/scripts/', undefined, caller.headers)).body, []);
});

test('a tag counts the objects carrying it, across models, as they are tagged, untagged and deleted', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const gold = await post(service, '/api/extras/tags/', { name: 'Gold', slug: 'gold' });
  const iron = await post(service, '/api/extras/tags/', { name: 'Iron', slug: 'iron' });
  const count = async () => {
    const list = await service.api('GET', '/api/extras/tags/');
    return Object.fromEntries(list.body.results.map((tag: any) => [tag.slug, tag.tagged_items]));
  };
  t.deepEqual(await count(), { gold: 0, iron: 0 });
  const site = await post(service, '/api/dcim/sites/', { name: 'DC-1', slug: 'dc-1', tags: [gold.id] });
  const tenant = await post(service, '/api/tenancy/tenants/', { name: 'Acme', slug: 'acme', tags: [gold.id, iron.id] });
  await post(service, '/api/extras/journal-entries/', {
    assigned_object_type: 'dcim.site',
    assigned_object_id: site.id,
    comments: 'x',
    tags: [iron.id],
  });
  t.deepEqual(await count(), { gold: 2, iron: 2 });
  t.is((await service.api('GET', `/api/extras/tags/${gold.id}/`)).body.tagged_items, 2, 'the detail view counts too');
  await service.api('PATCH', `/api/tenancy/tenants/${tenant.id}/`, { tags: [iron.id] });
  t.deepEqual(await count(), { gold: 1, iron: 2 });
  // deleting the site deletes it and its journal entry
  await service.api('DELETE', `/api/dcim/sites/${site.id}/`);
  t.deepEqual(await count(), { gold: 0, iron: 1 });
});

test("?filter= and ?filter_id= merge a saved filter's parameters into any list query", async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  for (const [name, status] of [
    ['DC-1', 'active'],
    ['DC-2', 'planned'],
    ['DC-3', 'retired'],
  ] as const) {
    await post(service, '/api/dcim/sites/', { name, slug: name.toLowerCase(), status });
  }
  const live = await post(service, '/api/extras/saved-filters/', {
    name: 'Live',
    slug: 'live',
    content_types: ['dcim.site'],
    parameters: { status: ['active', 'planned'] },
  });
  await post(service, '/api/extras/saved-filters/', {
    name: 'Off',
    slug: 'off',
    content_types: ['dcim.site'],
    parameters: { status: 'retired' },
    enabled: false,
  });
  t.deepEqual(await names(service, '/api/dcim/sites/', 'filter=live'), ['DC-1', 'DC-2']);
  t.deepEqual(await names(service, '/api/dcim/sites/', `filter_id=${live.id}`), ['DC-1', 'DC-2']);
  t.deepEqual(
    await names(service, '/api/dcim/sites/', 'filter=live&name=DC-2'),
    ['DC-2'],
    'ANDed with the other parameters',
  );
  t.deepEqual(await names(service, '/api/dcim/sites/', 'filter=off'), ['DC-3'], 'a disabled filter still applies');
  t.deepEqual(
    await names(service, '/api/dcim/sites/', 'status=retired&filter=live'),
    ['DC-1', 'DC-2', 'DC-3'],
    'values are appended to a parameter given',
  );
  t.deepEqual(
    await names(service, '/api/dcim/sites/', 'filter=nothing&filter_id=999'),
    ['DC-1', 'DC-2', 'DC-3'],
    'unknown references are ignored',
  );
});

test('tags filter by the content type (name or id) of the objects carrying them', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const gold = await post(service, '/api/extras/tags/', { name: 'Gold', slug: 'gold' });
  await post(service, '/api/extras/tags/', { name: 'Iron', slug: 'iron' });
  await post(service, '/api/dcim/sites/', { name: 'DC-1', slug: 'dc-1', tags: [gold.id] });
  const siteType = new ContentTypes(registry).id('dcim.site')!;
  t.deepEqual(await names(service, '/api/extras/tags/', 'content_type=dcim.site'), ['Gold']);
  t.deepEqual(await names(service, '/api/extras/tags/', `content_type_id=${siteType}`), ['Gold']);
  t.deepEqual(
    await names(service, '/api/extras/tags/', `content_type_id=${new ContentTypes(registry).id('tenancy.tenant')}`),
    [],
  );
});

test('custom fields filter by content_type_id and object permissions by object_types, both naming content types by id', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const typeId = async (app: string, model: string) =>
    (await service.api('GET', `/api/extras/content-types/?app_label=${app}&model=${model}`)).body.results[0]
      .id as number;
  const site = await typeId('dcim', 'site');
  const device = await typeId('dcim', 'device');
  await post(service, '/api/extras/custom-fields/', { name: 'on_sites', type: 'text', content_types: ['dcim.site'] });
  await post(service, '/api/extras/custom-fields/', {
    name: 'on_devices',
    type: 'text',
    content_types: ['dcim.device'],
  });
  t.deepEqual(await names(service, '/api/extras/custom-fields/', `content_type_id=${site}`), ['on_sites']);
  t.deepEqual(await names(service, '/api/extras/custom-fields/', `content_type_id=${site}&content_type_id=${device}`), [
    'on_devices',
    'on_sites',
  ]);
  t.deepEqual(await names(service, '/api/extras/custom-fields/', `content_type_id__n=${site}`), ['on_devices']);
  await post(service, '/api/users/permissions/', { name: 'sites', object_types: ['dcim.site'], actions: ['view'] });
  await post(service, '/api/users/permissions/', {
    name: 'devices',
    object_types: ['dcim.device', 'dcim.site'],
    actions: ['view'],
  });
  t.deepEqual(await names(service, '/api/users/permissions/', `object_types=${device}`), ['devices']);
  t.deepEqual(await names(service, '/api/users/permissions/', `object_types=${site}`), ['devices', 'sites']);
  // NetBox's MultiValueNumberFilter on content_types__id: an id no type has is a number matching nothing
  t.deepEqual(await names(service, '/api/extras/custom-fields/', 'content_type_id=999999'), []);
});
