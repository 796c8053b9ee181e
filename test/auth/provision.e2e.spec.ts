import test from 'ava';

import { as, grant, ok } from '../support/callers.js';
import { FakeClock } from '../support/fakeClock.js';
import { startService, type TestService } from '../support/startService.js';

const PROVISION = '/api/users/tokens/provision/';

function provision(service: TestService, body: unknown) {
  return as(service, null)('POST', PROVISION, body);
}

test('provisioning: a valid username and password get a new token (201), without a token', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const alice = await ok(service.api('POST', '/api/users/users/', { username: 'alice', password: 'correct horse' }));
  const response = await provision(service, { username: 'alice', password: 'correct horse' });
  t.is(response.status, 201);
  t.regex(response.body.key, /^[0-9a-f]{40}$/);
  t.like(response.body, {
    write_enabled: true,
    expires: null,
    description: '',
    allowed_ips: null,
    user: { id: alice.id, username: 'alice' },
  });
  t.is((await as(service, response.body.key)('GET', '/api/users/tokens/')).body.count, 1, 'the key works');
  const second = await provision(service, { username: 'alice', password: 'correct horse' });
  t.not(second.body.key, response.body.key, 'each call provisions a new token');
  t.is((await service.api('GET', `/api/users/tokens/?user_id=${alice.id}`)).body.count, 2);
});

test('provisioning: missing or wrong credentials and inactive users are 403; other methods 405', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  await ok(service.api('POST', '/api/users/users/', { username: 'alice', password: 'correct horse' }));
  await ok(service.api('POST', '/api/users/users/', { username: 'zed', password: 'correct horse', is_active: false }));
  const head = service.services.log.head();
  const missing = { detail: 'Username and password must be provided to provision a token.' };
  for (const body of [
    {},
    { username: 'alice' },
    { username: '', password: 'x' },
    { username: 'alice', password: 5 },
    [1],
    JSON.stringify('x'),
  ]) {
    const response = await provision(service, body);
    t.deepEqual([response.status, response.body], [403, missing], JSON.stringify(body));
  }
  const invalid = { detail: 'Invalid username/password' };
  for (const body of [
    { username: 'alice', password: 'wrong' },
    { username: 'nobody', password: 'correct horse' },
    { username: 'zed', password: 'correct horse' },
  ]) {
    const response = await provision(service, body);
    t.deepEqual([response.status, response.body], [403, invalid], JSON.stringify(body));
  }
  t.is(service.services.log.head(), head, 'nothing written');
  const get = await as(service, null)('GET', PROVISION);
  t.deepEqual([get.status, get.body], [405, { detail: 'Method "GET" not allowed.' }]);
});

test('provisioning needs the permission to create tokens (DEFAULT_PERMISSIONS or an object permission)', async (t) => {
  const service = await startService({ DEFAULT_PERMISSIONS: '{}' });
  t.teardown(() => service.close());
  const alice = await ok(service.api('POST', '/api/users/users/', { username: 'alice', password: 'correct horse' }));
  const refused = await provision(service, { username: 'alice', password: 'correct horse' });
  t.deepEqual(
    [refused.status, refused.body],
    [403, { detail: 'This user does not have permission to create tokens.' }],
  );
  // a permission whose constraints exclude the new token is no permission either
  const other = await grant(service, {
    object_types: ['users.token'],
    actions: ['add'],
    users: [alice.id],
    constraints: { user: 999 },
  });
  t.is((await provision(service, { username: 'alice', password: 'correct horse' })).status, 403);
  await ok(service.api('PATCH', `/api/users/permissions/${other.id}/`, { constraints: { user: '$user' } }), 200);
  t.is((await provision(service, { username: 'alice', password: 'correct horse' })).status, 201);
  // the superuser always may
  t.is((await provision(service, { username: 'admin', password: 'admin-password' })).status, 201);
});

test('brute force is slowed down per username, and the real user gets back in after the wait', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const clock = new FakeClock();
  service.services.auth.clock = clock;
  await ok(service.api('POST', '/api/users/users/', { username: 'alice', password: 'correct horse' }));
  for (let i = 0; i < 5; i++)
    t.is((await provision(service, { username: 'alice', password: `guess-${i}` })).status, 403);
  // blocked now, even with the right password, without the password being checked
  const blocked = await provision(service, { username: 'alice', password: 'correct horse' });
  t.is(blocked.status, 429);
  t.regex(blocked.body.detail, /^Request was throttled\. Expected available in \d+ seconds?\.$/);
  t.truthy(blocked.headers.get('retry-after'));
  clock.advance(Number(blocked.headers.get('retry-after')) * 1000);
  t.is((await provision(service, { username: 'alice', password: 'correct horse' })).status, 201);
  // after a success the owner is not held back by the username limit
  for (let i = 0; i < 8; i++) await provision(service, { username: 'alice', password: `guess-again-${i}` });
  t.is((await provision(service, { username: 'alice', password: 'correct horse' })).status, 201);
});
