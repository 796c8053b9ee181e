import test from 'ava';

import { as, ok } from '../support/callers.js';
import { startService } from '../support/startService.js';

test('users: the password is write-only and hashed; NetBox validation messages', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const group = await ok(service.api('POST', '/api/users/groups/', { name: 'NOC' }));
  const created = await ok(
    service.api('POST', '/api/users/users/', {
      username: 'j.doe+ops@x',
      password: 's3cret!',
      first_name: 'Jane',
      last_name: 'Doe',
      groups: [group.id],
    }),
  );
  t.false('password' in created);
  t.is(created.display, 'j.doe+ops@x (Jane Doe)');
  t.deepEqual(
    created.groups.map((g: any) => g.name),
    ['NOC'],
  );
  const stored = await service.services.store.get('auth.user', created.id);
  t.regex(String(stored!.password), /^scrypt\$/);
  t.false(JSON.stringify(await service.api('GET', `/api/users/users/${created.id}/`)).includes('scrypt'));

  const errors: Array<[unknown, unknown]> = [
    [{ username: 'j.doe+ops@x', password: 'x' }, { username: ['A user with that username already exists.'] }],
    [
      { username: 'no spaces', password: 'x' },
      { username: ['Enter a valid username. This value may contain only letters, numbers, and @/./+/-/_ characters.'] },
    ],
    [{ username: 'nopw' }, { password: ['This field is required.'] }],
    [
      { username: 'x'.repeat(151), password: 'x' },
      { username: ['Ensure this field has no more than 150 characters.'] },
    ],
  ];
  for (const [body, expected] of errors) {
    const response = await service.api('POST', '/api/users/users/', body);
    t.deepEqual([response.status, response.body], [400, expected], JSON.stringify(body).slice(0, 60));
  }
  // the group counts its members (not in the create response)
  t.is((await ok(service.api('GET', `/api/users/groups/${group.id}/`), 200)).user_count, 1);
  t.false('user_count' in group);
  t.deepEqual((await service.api('POST', '/api/users/groups/', { name: 'NOC' })).body, {
    name: ['group with this name already exists.'],
  });
});

test('deleting a user deletes its tokens, and the token stops working', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const user = await ok(service.api('POST', '/api/users/users/', { username: 'temp', password: 'temp-password' }));
  const token = await ok(service.api('POST', '/api/users/tokens/', { user: user.id }));
  t.is((await as(service, token.key)('GET', '/api/users/tokens/')).status, 200);
  await ok(service.api('DELETE', `/api/users/users/${user.id}/`), 204);
  t.is((await service.api('GET', `/api/users/tokens/${token.id}/`)).status, 404);
  t.deepEqual((await as(service, token.key)('GET', '/api/users/tokens/')).body, { detail: 'Invalid token' });
});

test('object permissions: fields, brief form and validation', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const permission = await ok(
    service.api('POST', '/api/users/permissions/', {
      name: 'Site editors',
      object_types: ['dcim.site', 'dcim.rack'],
      actions: ['view', 'change'],
      users: [1],
      constraints: [{ status: 'active' }, { tenant__slug: 'acme' }],
    }),
  );
  t.like(permission, {
    display: 'Site editors',
    enabled: true,
    description: '',
    object_types: ['dcim.site', 'dcim.rack'],
    actions: ['view', 'change'],
  });
  t.deepEqual(permission.constraints, [{ status: 'active' }, { tenant__slug: 'acme' }]);
  const brief = await ok(service.api('GET', `/api/users/permissions/${permission.id}/?brief=1`), 200);
  t.deepEqual(Object.keys(brief), [
    'id',
    'url',
    'display',
    'name',
    'enabled',
    'object_types',
    'groups',
    'users',
    'actions',
  ]);
  const invalid: Array<[Record<string, unknown>, string]> = [
    [{ actions: [] }, 'actions'],
    [{ object_types: ['not a type'] }, 'object_types'],
    [{ object_types: [] }, 'object_types'],
    [{ constraints: 'status=active' }, 'constraints'],
    [{ constraints: [1, 2] }, 'constraints'],
    [{ actions: ['x'.repeat(31)] }, 'actions'],
  ];
  for (const [change, field] of invalid) {
    const response = await service.api('POST', '/api/users/permissions/', {
      name: 'bad',
      object_types: ['dcim.site'],
      actions: ['view'],
      ...change,
    });
    t.is(response.status, 400, JSON.stringify(change));
    t.truthy(response.body[field], JSON.stringify(response.body));
  }
  const missing = await service.api('POST', '/api/users/permissions/', { name: 'bad' });
  t.deepEqual(missing.body, { object_types: ['This field is required.'], actions: ['This field is required.'] });
});
