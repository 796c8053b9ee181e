import test from 'ava';

import { as, ok, userWithToken } from '../support/callers.js';
import { startService } from '../support/startService.js';

test("GET /api/users/config/ answers the caller's preferences, {} before any; PATCH deep-merges and answers the result", async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const alice = await userWithToken(service, 'alice');
  const call = as(service, alice.key);
  t.deepEqual(await ok(call('GET', '/api/users/config/'), 200), {});
  const first = await ok(
    call('PATCH', '/api/users/config/', { pagination: { per_page: 100 }, ui: { colormode: 'dark' } }),
    200,
  );
  t.deepEqual(first, { pagination: { per_page: 100 }, ui: { colormode: 'dark' } });
  // objects merge key by key; lists and other values replace; keys are never removed
  const second = await ok(
    call('PATCH', '/api/users/config/', { pagination: { placement: 'top' }, tables: ['a'] }),
    200,
  );
  t.deepEqual(second, { pagination: { per_page: 100, placement: 'top' }, ui: { colormode: 'dark' }, tables: ['a'] });
  // an empty object replaces the subtree
  const third = await ok(call('PATCH', '/api/users/config/', { ui: {} }), 200);
  t.deepEqual(third.ui, {});
  t.deepEqual(await ok(call('GET', '/api/users/config/'), 200), third);
  // each user sees their own only
  t.deepEqual(await ok(service.api('GET', '/api/users/config/'), 200), {});
  // kept in the event log, as an update of the user
  const events: any[] = [];
  for await (const batch of service.services.log.read(0)) events.push(...batch);
  const event = events.filter((e) => e.objectType === 'auth.user' && e.postchange?.config?.tables).pop();
  t.truthy(event, 'an update event of the user carries the preferences');
  t.false(JSON.stringify(event).includes(alice.key), 'no token key in the event');
  t.false(JSON.stringify(event).includes('alice-password-1'), 'no password in the event');
  // and not in the user's rendered form or its writable fields
  const user = await ok(service.api('GET', `/api/users/users/${alice.user.id}/`), 200);
  t.false('config' in user);
});

test('/api/users/config/: anonymous callers get 403, read-only tokens may PATCH, other methods 405, a non-object body 400', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const anonymous = as(service, null);
  t.deepEqual(await ok(anonymous('GET', '/api/users/config/'), 403), {
    detail: 'Authentication credentials were not provided.',
  });
  t.deepEqual(await ok(anonymous('PATCH', '/api/users/config/', { a: 1 }), 403), {
    detail: 'Authentication credentials were not provided.',
  });
  const readOnly = await ok(service.api('POST', '/api/users/tokens/', { user: 1, write_enabled: false }));
  t.deepEqual(await ok(as(service, readOnly.key)('PATCH', '/api/users/config/', { a: 1 }), 200), { a: 1 });
  const put = await service.api('PUT', '/api/users/config/', { a: 2 });
  t.is(put.status, 405);
  t.deepEqual(put.body, { detail: 'Method "PUT" not allowed.' });
  t.is(put.headers.get('allow'), 'GET, PATCH, HEAD, OPTIONS');
  const list = await service.api('PATCH', '/api/users/config/', [{ a: 2 }]);
  t.is(list.status, 400);
  t.deepEqual(list.body, { non_field_errors: ['Invalid data. Expected a dictionary, but got list.'] });
  const options = await ok(service.api('OPTIONS', '/api/users/config/'), 200);
  t.is(options.name, 'User Config');
  const root = await ok(service.api('GET', '/api/users/'), 200);
  t.is(root.config, `${service.url}/api/users/config/`);
});
