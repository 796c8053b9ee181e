import test from 'ava';

import { as, grant, ok, userWithToken } from '../support/callers.js';
import { FakeClock } from '../support/fakeClock.js';
import { portOf, requestFrom } from '../support/rawRequests.js';
import { ADMIN_TOKEN, startService } from '../support/startService.js';

const FORBIDDEN = 'You do not have permission to perform this action.';

test('token header forms and unknown keys: 403 with NetBox reasons, never 401', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const cases: Array<[string, number, unknown]> = [
    ['Token', 403, { detail: 'Invalid token header. No credentials provided.' }],
    ['Token abc def', 403, { detail: 'Invalid token header. Token string should not contain spaces.' }],
    ['Token ffffffffffffffffffffffffffffffffffffffff', 403, { detail: 'Invalid token' }],
    ['Token not-even-hex', 403, { detail: 'Invalid token' }],
    // another scheme is ignored: the request is anonymous
    [
      'Bearer ffffffffffffffffffffffffffffffffffffffff',
      403,
      { detail: 'Authentication credentials were not provided.' },
    ],
    [`token ${ADMIN_TOKEN}`, 200, undefined],
    [`TOKEN   ${ADMIN_TOKEN}`, 200, undefined],
  ];
  for (const [header, status, body] of cases) {
    const response = await service.api('GET', '/api/dcim/sites/', undefined, { Authorization: header });
    t.is(response.status, status, header);
    t.is(response.headers.get('www-authenticate'), null, header);
    if (body) t.deepEqual(response.body, body, header);
  }
  // a bad token fails first even where no token is needed
  const provision = await service.api(
    'POST',
    '/api/users/tokens/provision/',
    { username: 'admin', password: 'admin-password' },
    {
      Authorization: 'Token ffffffffffffffffffffffffffffffffffffffff',
    },
  );
  t.deepEqual([provision.status, provision.body], [403, { detail: 'Invalid token' }]);
});

test('an expired token is refused, and so is the token of an inactive user', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const clock = new FakeClock();
  service.services.auth.clock = clock;
  const inAnHour = new Date(clock.ms + 3600_000).toISOString();
  const alice = await userWithToken(service, 'alice', { token: { expires: inAnHour } });
  const call = as(service, alice.key);
  t.is((await call('GET', '/api/users/tokens/')).status, 200);
  clock.advance(3600_000);
  t.deepEqual((await call('GET', '/api/users/tokens/')).body, { detail: 'Token expired' });
  const bob = await userWithToken(service, 'bob');
  t.is((await as(service, bob.key)('GET', '/api/users/tokens/')).status, 200);
  await ok(service.api('PATCH', `/api/users/users/${bob.user.id}/`, { is_active: false }), 200);
  const refused = await as(service, bob.key)('GET', '/api/users/tokens/');
  t.deepEqual([refused.status, refused.body], [403, { detail: 'User inactive' }]);
});

test('a token with write_enabled false may only read, even a superuser', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const readOnly = await ok(service.api('POST', '/api/users/tokens/', { user: 1, write_enabled: false }));
  const call = as(service, readOnly.key);
  t.is((await call('GET', '/api/dcim/sites/')).status, 200);
  const head = service.services.log.head();
  for (const [method, path, body] of [
    ['POST', '/api/dcim/sites/', { name: 'x', slug: 'x' }],
    ['PATCH', '/api/users/tokens/1/', { description: 'x' }],
    ['DELETE', '/api/users/tokens/1/', undefined],
  ] as const) {
    const response = await call(method, path, body);
    t.deepEqual([response.status, response.body], [403, { detail: FORBIDDEN }], `${method} ${path}`);
  }
  t.is(service.services.log.head(), head);
});

test('allowed_ips restricts the client address: IPv4 and IPv6 clients over real sockets', async (t) => {
  const service = await startService({ HOST: '::' });
  t.teardown(() => service.close());
  const port = portOf(service);
  const admin = (method: string, path: string, body?: unknown) =>
    requestFrom(
      { host: '::1', port },
      method,
      path,
      { Authorization: `Token ${ADMIN_TOKEN}`, 'Content-Type': 'application/json' },
      body === undefined ? undefined : JSON.stringify(body),
    );
  const v4 = (await admin('POST', '/api/users/tokens/', { user: 1, allowed_ips: ['127.0.0.2'] })).body;
  const v6 = (await admin('POST', '/api/users/tokens/', { user: 1, allowed_ips: ['::1/128', '10.0.0.0/8'] })).body;
  t.deepEqual(v4.allowed_ips, ['127.0.0.2/32'], 'a bare address is one host');
  t.deepEqual(v6.allowed_ips, ['::1/128', '10.0.0.0/8']);

  const from = (host: string, localAddress: string | undefined, key: string, headers: Record<string, string> = {}) =>
    requestFrom({ host, port, localAddress }, 'GET', '/api/dcim/sites/', { Authorization: `Token ${key}`, ...headers });
  t.is((await from('127.0.0.1', '127.0.0.2', v4.key)).status, 200);
  const wrong4 = await from('127.0.0.1', '127.0.0.1', v4.key);
  t.deepEqual(
    [wrong4.status, wrong4.body],
    [403, { detail: 'Source IP 127.0.0.1 is not permitted to authenticate using this token.' }],
  );
  const wrong6 = await from('::1', '::1', v4.key);
  t.deepEqual(wrong6.body, { detail: 'Source IP ::1 is not permitted to authenticate using this token.' });
  t.is((await from('::1', '::1', v6.key)).status, 200);
  t.deepEqual((await from('127.0.0.1', '127.0.0.2', v6.key)).body, {
    detail: 'Source IP 127.0.0.2 is not permitted to authenticate using this token.',
  });
  // forwarding headers are not believed from a peer that is not a trusted proxy
  const spoofed = await from('127.0.0.1', '127.0.0.1', v4.key, {
    'X-Real-IP': '127.0.0.2',
    'X-Forwarded-For': '127.0.0.2',
  });
  t.is(spoofed.status, 403);
  // an unrestricted token works from anywhere
  t.is((await from('127.0.0.1', '127.0.0.2', ADMIN_TOKEN)).status, 200);
  t.is((await from('::1', '::1', ADMIN_TOKEN)).status, 200);

  const bad = await admin('POST', '/api/users/tokens/', { user: 1, allowed_ips: ['10.0.0.0/33'] });
  t.is(bad.status, 400);
  t.truthy(bad.body.allowed_ips);
});

test('behind a trusted proxy the client is X-Real-IP, else the first X-Forwarded-For entry', async (t) => {
  const service = await startService({ TRUSTED_PROXIES: '127.0.0.1/32' });
  t.teardown(() => service.close());
  const token = await ok(service.api('POST', '/api/users/tokens/', { user: 1, allowed_ips: ['198.51.100.0/24'] }));
  const call = (headers: Record<string, string>) =>
    as(service, token.key)('GET', '/api/dcim/sites/', undefined, headers);
  t.is((await call({ 'X-Real-IP': '198.51.100.7' })).status, 200);
  t.is((await call({ 'X-Forwarded-For': '198.51.100.7, 10.0.0.1' })).status, 200);
  t.deepEqual((await call({ 'X-Forwarded-For': '203.0.113.9' })).body, {
    detail: 'Source IP 203.0.113.9 is not permitted to authenticate using this token.',
  });
  t.deepEqual((await call({ 'X-Real-IP': 'not-an-address' })).body, {
    detail:
      'Client IP address could not be determined for validation. Check that the HTTP server is correctly configured to pass the required header(s).',
  });
});

test('non-superusers see only their own tokens; a token for someone else needs users.grant_token', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const alice = await userWithToken(service, 'alice');
  const bob = await userWithToken(service, 'bob');
  const asAlice = as(service, alice.key);
  const list = await asAlice('GET', '/api/users/tokens/');
  t.deepEqual(
    list.body.results.map((r: any) => r.id),
    [alice.token.id],
  );
  t.is((await asAlice('GET', `/api/users/tokens/${bob.token.id}/`)).status, 404);
  t.is((await asAlice('PATCH', `/api/users/tokens/${bob.token.id}/`, { description: 'mine now' })).status, 404);
  t.is((await asAlice('DELETE', `/api/users/tokens/${bob.token.id}/`)).status, 404);
  // her own: created, changed and deleted through DEFAULT_PERMISSIONS
  const own = await asAlice('POST', '/api/users/tokens/', { user: alice.user.id, description: 'ci' });
  t.is(own.status, 201);
  t.regex(own.body.key, /^[0-9a-f]{40}$/);
  t.is((await asAlice('PATCH', `/api/users/tokens/${own.body.id}/`, { description: 'ci-2' })).status, 200);
  t.is((await asAlice('DELETE', `/api/users/tokens/${own.body.id}/`)).status, 204);

  const head = service.services.log.head();
  const forBob = await asAlice('POST', '/api/users/tokens/', { user: bob.user.id });
  t.deepEqual(
    [forBob.status, forBob.body],
    [403, { detail: 'This user does not have permission to create tokens for other users.' }],
  );
  t.is(service.services.log.head(), head);

  await grant(service, { object_types: ['users.token'], actions: ['add', 'grant'], users: [alice.user.id] });
  const granted = await asAlice('POST', '/api/users/tokens/', { user: bob.user.id, description: 'for bob' });
  t.is(granted.status, 201);
  t.is(granted.body.user.username, 'bob');
  t.regex(granted.body.key, /^[0-9a-f]{40}$/, 'the requester reads the token it created');
  t.is((await as(service, granted.body.key)('GET', '/api/users/tokens/')).body.count, 2);
  t.false((await asAlice('GET', '/api/users/tokens/')).body.results.some((r: any) => r.id === granted.body.id));
  // the superuser sees every token
  t.is((await service.api('GET', '/api/users/tokens/')).body.count, 4);
});

test('a supplied key restores a token; an omitted one is 160 random bits; keys are unique', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const key = 'abcdefabcdefabcdefabcdefabcdefabcdefabcd';
  const created = await ok(service.api('POST', '/api/users/tokens/', { user: 1, key }));
  t.is(created.key, key);
  t.is((await as(service, key)('GET', '/api/dcim/sites/')).status, 200);
  await ok(service.api('DELETE', `/api/users/tokens/${created.id}/`), 204);
  t.deepEqual((await as(service, key)('GET', '/api/dcim/sites/')).body, { detail: 'Invalid token' });
  const restored = await ok(service.api('POST', '/api/users/tokens/', { user: 1, key }));
  t.is((await as(service, key)('GET', '/api/dcim/sites/')).status, 200);
  const duplicate = await service.api('POST', '/api/users/tokens/', { user: 1, key });
  t.deepEqual([duplicate.status, duplicate.body], [400, { key: ['Token with this Key already exists.'] }]);
  const random = new Set<string>();
  for (let i = 0; i < 3; i++) random.add((await ok(service.api('POST', '/api/users/tokens/', { user: 1 }))).key);
  t.is(random.size, 3);
  for (const k of random) t.regex(k, /^[0-9a-f]{40}$/);
  t.not(restored.id, created.id);
});

test('ALLOW_TOKEN_RETRIEVAL=false: the key is shown once, at creation, and the display is masked', async (t) => {
  const service = await startService({ ALLOW_TOKEN_RETRIEVAL: 'false' });
  t.teardown(() => service.close());
  const created = await ok(service.api('POST', '/api/users/tokens/', { user: 1, description: 'shown once' }));
  t.regex(created.key, /^[0-9a-f]{40}$/);
  const read = await ok(service.api('GET', `/api/users/tokens/${created.id}/`), 200);
  t.false('key' in read);
  t.is(read.display, '*'.repeat(34) + created.key.slice(-6));
  t.is((await as(service, created.key)('GET', '/api/dcim/sites/')).status, 200, 'the key still authenticates');
});
