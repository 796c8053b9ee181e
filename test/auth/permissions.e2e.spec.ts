import test from 'ava';

import { as, grant, ok, userWithToken } from '../support/callers.js';
import { ADMIN_TOKEN, startService, type TestService } from '../support/startService.js';

const FORBIDDEN = { detail: 'You do not have permission to perform this action.' };
const ANONYMOUS = { detail: 'Authentication credentials were not provided.' };

type Operation = 'list' | 'detail' | 'create' | 'update' | 'delete';
const OPERATIONS: Operation[] = ['list', 'detail', 'create', 'update', 'delete'];

/** One operation on a model as `key` (null: anonymous); a fresh object is made for update/delete. */
async function perform(
  service: TestService,
  key: string | null,
  model: 'site' | 'tag',
  operation: Operation,
  n: number,
): Promise<number> {
  const path = model === 'site' ? '/api/dcim/sites/' : '/api/extras/tags/';
  const fresh = async () => (await ok(service.api('POST', path, { name: `${model}-${n}`, slug: `${model}-${n}` }))).id;
  const call = as(service, key);
  switch (operation) {
    case 'list':
      return (await call('GET', path)).status;
    case 'detail':
      return (await call('GET', `${path}${await fresh()}/`)).status;
    case 'create':
      return (await call('POST', path, { name: `new-${model}-${n}`, slug: `new-${model}-${n}` })).status;
    case 'update':
      return (await call('PATCH', `${path}${await fresh()}/`, { description: 'changed' })).status;
    case 'delete':
      return (await call('DELETE', `${path}${await fresh()}/`)).status;
  }
}

test('a matrix of user × permission × action × model answers as NetBox does', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const viewer = await userWithToken(service, 'viewer');
  const editor = await userWithToken(service, 'editor');
  const deleter = await userWithToken(service, 'deleter');
  const nobody = await userWithToken(service, 'nobody');
  const readOnlyEditor = await ok(
    service.api('POST', '/api/users/tokens/', { user: editor.user.id, write_enabled: false }),
  );
  await grant(service, { object_types: ['dcim.site'], actions: ['view'], users: [viewer.user.id] });
  await grant(service, {
    object_types: ['dcim.site', 'extras.tag'],
    actions: ['view', 'add', 'change'],
    users: [editor.user.id],
  });
  await grant(service, { object_types: ['extras.tag'], actions: ['delete'], users: [deleter.user.id] });

  const callers: Record<string, string | null> = {
    superuser: ADMIN_TOKEN,
    viewer: viewer.key,
    editor: editor.key,
    'editor (read-only token)': readOnlyEditor.key,
    deleter: deleter.key,
    nobody: nobody.key,
    anonymous: null,
  };
  const expected: Record<string, Record<'site' | 'tag', number[]>> = {
    //                          list detail create update delete
    superuser: { site: [200, 200, 201, 200, 204], tag: [200, 200, 201, 200, 204] },
    viewer: { site: [200, 200, 403, 403, 403], tag: [403, 403, 403, 403, 403] },
    editor: { site: [200, 200, 201, 200, 403], tag: [200, 200, 201, 200, 403] },
    'editor (read-only token)': { site: [200, 200, 403, 403, 403], tag: [200, 200, 403, 403, 403] },
    // delete without view: NetBox's delete needs only the delete permission
    deleter: { site: [403, 403, 403, 403, 403], tag: [403, 403, 403, 403, 204] },
    nobody: { site: [403, 403, 403, 403, 403], tag: [403, 403, 403, 403, 403] },
    anonymous: { site: [403, 403, 403, 403, 403], tag: [403, 403, 403, 403, 403] },
  };
  const actual: typeof expected = {};
  let n = 0;
  for (const [name, key] of Object.entries(callers)) {
    actual[name] = { site: [], tag: [] };
    for (const model of ['site', 'tag'] as const) {
      for (const operation of OPERATIONS) actual[name][model].push(await perform(service, key, model, operation, n++));
    }
  }
  t.deepEqual(actual, expected);

  // the wording: anonymous vs authenticated
  t.deepEqual((await as(service, null)('GET', '/api/dcim/sites/')).body, ANONYMOUS);
  t.deepEqual((await as(service, nobody.key)('GET', '/api/dcim/sites/')).body, FORBIDDEN);
  t.deepEqual((await as(service, viewer.key)('POST', '/api/dcim/sites/', { name: 'v', slug: 'v' })).body, FORBIDDEN);
});

test('constraints narrow lists and details; writes outside them are 404, results outside them 403 with nothing written', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const planner = await userWithToken(service, 'planner');
  const call = as(service, planner.key);
  const site = async (name: string, status: string) =>
    ok(service.api('POST', '/api/dcim/sites/', { name, slug: name, status }));
  const planned = await site('p1', 'planned');
  const planned2 = await site('p2', 'planned');
  const active = await site('a1', 'active');
  await grant(service, {
    object_types: ['dcim.site'],
    actions: ['view', 'add', 'change', 'delete'],
    users: [planner.user.id],
    constraints: { status: 'planned' },
  });

  const list = await ok(call('GET', '/api/dcim/sites/?limit=1'), 200);
  t.is(list.count, 2, 'count covers only permitted rows');
  t.deepEqual(
    (await ok(call('GET', '/api/dcim/sites/'), 200)).results.map((s: any) => s.name),
    ['p1', 'p2'],
  );
  t.is((await call('GET', `/api/dcim/sites/${active.id}/`)).status, 404);

  const head = service.services.log.head();
  // the object is outside the change constraints: 404, even though it exists
  t.is((await call('PATCH', `/api/dcim/sites/${active.id}/`, { status: 'planned' })).status, 404);
  t.is((await call('DELETE', `/api/dcim/sites/${active.id}/`)).status, 404);
  // the result would leave them: 403 and nothing changes
  const leaving = await call('PATCH', `/api/dcim/sites/${planned.id}/`, { status: 'active' });
  t.deepEqual([leaving.status, leaving.body], [403, FORBIDDEN]);
  const creating = await call('POST', '/api/dcim/sites/', [
    { name: 'n1', slug: 'n1', status: 'planned' },
    { name: 'n2', slug: 'n2', status: 'active' },
  ]);
  t.deepEqual([creating.status, creating.body], [403, FORBIDDEN]);
  t.is(service.services.log.head(), head, 'nothing reached the event log');

  // bulk: ids outside the constraints are skipped silently
  const bulk = await call('PATCH', '/api/dcim/sites/', [
    { id: planned.id, description: 'bulk' },
    { id: active.id, description: 'bulk' },
  ]);
  t.is(bulk.status, 200);
  t.deepEqual(
    bulk.body.map((s: any) => s.id),
    [planned.id],
  );
  t.is((await service.api('GET', `/api/dcim/sites/${active.id}/`)).body.description, '');
  t.is((await call('DELETE', '/api/dcim/sites/', [{ id: planned2.id }, { id: active.id }])).status, 204);
  t.is((await service.api('GET', `/api/dcim/sites/${planned2.id}/`)).status, 404);
  t.is((await service.api('GET', `/api/dcim/sites/${active.id}/`)).status, 200);

  // within the constraints everything works
  t.is((await call('POST', '/api/dcim/sites/', { name: 'n3', slug: 'n3', status: 'planned' })).status, 201);
  t.is((await call('PATCH', `/api/dcim/sites/${planned.id}/`, { description: 'ok' })).status, 200);
});

test('constraints: OR lists, lookups, relations, $user; what does not compile matches nothing', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const tenant = await ok(service.api('POST', '/api/tenancy/tenants/', { name: 'Acme', slug: 'acme' }));
  const names = ['dc-one', 'dc-two', 'lab-one', 'edge'];
  for (const [i, name] of names.entries()) {
    await ok(
      service.api('POST', '/api/dcim/sites/', {
        name,
        slug: name,
        tenant: i === 3 ? tenant.id : null,
        facility: `F${i}`,
      }),
    );
  }
  const cases: Array<[unknown, string[]]> = [
    [null, ['dc-one', 'dc-two', 'edge', 'lab-one']],
    [{}, ['dc-one', 'dc-two', 'edge', 'lab-one']],
    [{ name__startswith: 'dc-' }, ['dc-one', 'dc-two']],
    [{ name__iendswith: 'ONE' }, ['dc-one', 'lab-one']],
    [{ name__in: ['edge', 'dc-two', 'nope'] }, ['dc-two', 'edge']],
    [
      [{ name: 'edge' }, { name__icontains: 'LAB' }],
      ['edge', 'lab-one'],
    ],
    [{ tenant__slug: 'acme' }, ['edge']],
    [{ tenant_id: tenant.id }, ['edge']],
    [{ tenant__isnull: true, name__contains: 'two' }, ['dc-two']],
    [{ name__contains: '.*' }, []], // a literal, not a regular expression
    // not compilable: no such field, an operator smuggled in as a key or a value, a secret field
    [{ bogus: 1 }, []],
    [{ name: { $ne: null } }, []],
    [{ $where: 'true' }, []],
    [{ name__regex: '.*' }, []],
  ];
  let i = 0;
  for (const [constraints, expected] of cases) {
    const { user, key } = await userWithToken(service, `u${i++}`);
    await grant(service, { object_types: ['dcim.site'], actions: ['view'], users: [user.id], constraints });
    const response = await as(service, key)('GET', '/api/dcim/sites/?ordering=name');
    t.is(response.status, 200, JSON.stringify(constraints));
    t.deepEqual(
      response.body.results.map((s: any) => s.name),
      expected,
      JSON.stringify(constraints),
    );
  }
  // $user: users may see themselves only; the password hash can never be a constraint
  const { user, key } = await userWithToken(service, 'self');
  await grant(service, {
    object_types: ['auth.user'],
    actions: ['view'],
    users: [user.id],
    constraints: { id: '$user' },
  });
  t.deepEqual(
    (await as(service, key)('GET', '/api/users/users/')).body.results.map((u: any) => u.username),
    ['self'],
  );
  const probe = await userWithToken(service, 'probe');
  await grant(service, {
    object_types: ['auth.user'],
    actions: ['view'],
    users: [probe.user.id],
    constraints: { password__startswith: 'scrypt' },
  });
  t.is((await as(service, probe.key)('GET', '/api/users/users/')).body.count, 0);
});

test('permissions through groups and enabled flags take effect at once', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const group = await ok(service.api('POST', '/api/users/groups/', { name: 'NOC' }));
  const member = await userWithToken(service, 'member', { user: { groups: [group.id] } });
  const call = as(service, member.key);
  t.is((await call('GET', '/api/dcim/sites/')).status, 403);
  const permission = await grant(service, { object_types: ['dcim.site'], actions: ['view'], groups: [group.id] });
  t.is((await call('GET', '/api/dcim/sites/')).status, 200);
  await ok(service.api('PATCH', `/api/users/permissions/${permission.id}/`, { enabled: false }), 200);
  t.is((await call('GET', '/api/dcim/sites/')).status, 403);
  await ok(service.api('PATCH', `/api/users/permissions/${permission.id}/`, { enabled: true }), 200);
  t.is((await call('GET', '/api/dcim/sites/')).status, 200);
  await ok(service.api('PATCH', `/api/users/users/${member.user.id}/`, { groups: [] }), 200);
  t.is((await call('GET', '/api/dcim/sites/')).status, 403);
  await ok(service.api('PATCH', `/api/users/users/${member.user.id}/`, { groups: [group.id] }), 200);
  t.is((await call('GET', '/api/dcim/sites/')).status, 200);
  await ok(service.api('DELETE', `/api/users/groups/${group.id}/`), 204);
  t.is((await call('GET', '/api/dcim/sites/')).status, 403);
  const detail = await ok(service.api('GET', `/api/users/permissions/${permission.id}/`), 200);
  t.deepEqual(detail.groups, [], 'the deleted group left the permission');
});

test('EXEMPT_VIEW_PERMISSIONS: "*" opens reads of most models but not users, groups or permissions', async (t) => {
  const service = await startService({ EXEMPT_VIEW_PERMISSIONS: '*' });
  t.teardown(() => service.close());
  await ok(service.api('POST', '/api/dcim/sites/', { name: 'x', slug: 'x' }));
  const anonymous = as(service, null);
  t.is((await anonymous('GET', '/api/dcim/sites/')).body.count, 1);
  t.is((await anonymous('GET', '/api/extras/tags/')).status, 200);
  for (const path of ['/api/users/users/', '/api/users/groups/', '/api/users/permissions/']) {
    t.deepEqual((await anonymous('GET', path)).body, ANONYMOUS, path);
  }
  t.is((await anonymous('GET', '/api/users/tokens/')).body.count, 0, 'anonymous callers see no token');
  t.deepEqual((await anonymous('POST', '/api/dcim/sites/', { name: 'y', slug: 'y' })).body, ANONYMOUS);
  // authenticated users read exempt models without a permission, unconstrained
  const nobody = await userWithToken(service, 'nobody');
  t.is((await as(service, nobody.key)('GET', '/api/dcim/sites/')).body.count, 1);
  t.is((await as(service, nobody.key)('GET', '/api/users/users/')).status, 403);
});

test('LOGIN_REQUIRED closes exempt models to anonymous callers', async (t) => {
  const service = await startService({ EXEMPT_VIEW_PERMISSIONS: 'dcim.site', LOGIN_REQUIRED: 'true' });
  t.teardown(() => service.close());
  t.deepEqual((await as(service, null)('GET', '/api/dcim/sites/')).body, ANONYMOUS);
  t.is((await service.api('GET', '/api/dcim/sites/')).status, 200);
});

test('DEFAULT_PERMISSIONS: own tokens by default; {} takes that away', async (t) => {
  const withDefaults = await startService();
  t.teardown(() => withDefaults.close());
  const alice = await userWithToken(withDefaults, 'alice');
  t.is((await as(withDefaults, alice.key)('GET', '/api/users/tokens/')).status, 200);
  t.is((await as(withDefaults, alice.key)('POST', '/api/users/tokens/', { user: alice.user.id })).status, 201);

  const without = await startService({ DEFAULT_PERMISSIONS: '{}' });
  t.teardown(() => without.close());
  const bob = await userWithToken(without, 'bob');
  t.deepEqual((await as(without, bob.key)('GET', '/api/users/tokens/')).body, FORBIDDEN);
  t.deepEqual((await as(without, bob.key)('POST', '/api/users/tokens/', { user: bob.user.id })).body, FORBIDDEN);
  t.is((await as(without, bob.key)('GET', '/api/dcim/sites/')).status, 403);
});

test('OPTIONS lists the POST actions (and choices) only to callers who may create', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const viewer = await userWithToken(service, 'viewer');
  const editor = await userWithToken(service, 'editor');
  await grant(service, { object_types: ['dcim.site'], actions: ['view'], users: [viewer.user.id] });
  await grant(service, { object_types: ['dcim.site'], actions: ['view', 'add'], users: [editor.user.id] });
  const options = async (key: string) => (await as(service, key)('OPTIONS', '/api/dcim/sites/')).body;
  t.false('POST' in ((await options(viewer.key)).actions ?? {}));
  t.truthy((await options(editor.key)).actions?.POST?.status?.choices);
  t.truthy((await options(ADMIN_TOKEN)).actions?.POST);
});
