import test from 'ava';

import { startService } from '../support/startService.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

test('every response carries X-Request-ID and API-Version', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  for (const path of ['/api/', '/api/dcim/sites/', '/api/dcim/sites/99/', '/api/nothing/']) {
    const response = await service.api('GET', path);
    t.regex(response.headers.get('x-request-id') ?? '', UUID, path);
    t.is(response.headers.get('api-version'), '3.4', path);
  }
});

test('every response says not to sniff its type, as NetBox does (stored text, errors alike)', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  await service.api('POST', '/api/dcim/sites/', { name: '<html><script>x</script>', slug: 'x' });
  const requests = [
    ['GET', '/api/dcim/sites/'],
    ['GET', '/api/dcim/sites/99/'],
    ['POST', '/api/dcim/sites/'],
    ['GET', '/api/status/'],
  ];
  for (const [method, path] of requests) {
    const response = await service.api(method, path, method === 'POST' ? {} : undefined);
    t.is(response.headers.get('x-content-type-options'), 'nosniff', `${method} ${path}`);
  }
});

test('the request id of a write is stamped on its events', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const head = service.services.log.head();
  const response = await service.api('POST', '/api/extras/tags/', { name: 'Core', slug: 'core' });
  const batches = [];
  for await (const b of service.services.log.read(head + 1)) batches.push(b);
  const [batch] = batches;
  t.is(batch[0].requestId, response.headers.get('x-request-id') ?? '');
  t.is(batch[0].user?.username, 'admin');
});

test('a path without its trailing slash answers 302 to the slashed path, query kept', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const response = await service.api('GET', '/api/dcim/sites?limit=5');
  t.is(response.status, 302);
  t.is(
    new URL(response.headers.get('location')!, service.url).pathname +
      new URL(response.headers.get('location')!, service.url).search,
    '/api/dcim/sites/?limit=5',
  );
});

test('writes need a token: 403 with NetBox detail otherwise', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const response = await fetch(`${service.url}/api/extras/tags/`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: 'x', slug: 'x' }),
  });
  t.is(response.status, 403);
  t.deepEqual(await response.json(), { detail: 'Authentication credentials were not provided.' });
  const bad = await service.api('GET', '/api/extras/tags/', undefined, {
    Authorization: 'Token ffffffffffffffffffffffffffffffffffffffff',
  });
  t.is(bad.status, 403);
  t.deepEqual(bad.body, { detail: 'Invalid token' });
});

test('reads without a token are refused unless the model is exempt', async (t) => {
  const service = await startService({ EXEMPT_VIEW_PERMISSIONS: 'dcim.site' });
  t.teardown(() => service.close());
  t.is((await fetch(`${service.url}/api/dcim/sites/`)).status, 200);
  t.is((await fetch(`${service.url}/api/dcim/racks/`)).status, 403);
});

test('a body that is not JSON is 415; malformed JSON is 400; nothing written', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const head = service.services.log.head();
  const text = await service.api('POST', '/api/extras/tags/', 'name=x', { 'Content-Type': 'text/plain' });
  t.is(text.status, 415);
  t.deepEqual(text.body, { detail: 'Unsupported media type "text/plain" in request.' });
  const broken = await service.api('POST', '/api/extras/tags/', '{"name": ');
  t.is(broken.status, 400);
  t.regex(broken.body.detail, /^JSON parse error - /);
  t.is(service.services.log.head(), head);
});

test('a body over the size limit is 413', async (t) => {
  const service = await startService({ MAX_BODY_BYTES: '1000' });
  t.teardown(() => service.close());
  const response = await service.api('POST', '/api/extras/tags/', { name: 'x'.repeat(2000), slug: 'x' });
  t.is(response.status, 413);
});

test('a list body of more items than MAX_BULK_ITEMS is 400 for every bulk method; nothing written', async (t) => {
  const service = await startService({ MAX_BULK_ITEMS: '3' });
  t.teardown(() => service.close());
  const tags = (n: number, from = 0) =>
    Array.from({ length: n }, (_, i) => ({ name: `t${from + i}`, slug: `t${from + i}` }));
  const created = await service.api('POST', '/api/extras/tags/', tags(3));
  t.is(created.status, 201, 'at the limit');
  const head = service.services.log.head();
  const message = { non_field_errors: ['A request may hold at most 3 items; this one holds 4.'] };
  const ids = [...created.body.map((tag: { id: number }) => ({ id: tag.id })), { id: 999 }];
  const refused = [
    await service.api('POST', '/api/extras/tags/', tags(4, 10)),
    await service.api(
      'PATCH',
      '/api/extras/tags/',
      ids.map((item) => ({ ...item, description: 'x' })),
    ),
    await service.api(
      'PUT',
      '/api/extras/tags/',
      ids.map((item) => ({ ...item, name: 'x', slug: 'x' })),
    ),
    await service.api('DELETE', '/api/extras/tags/', ids),
  ];
  for (const response of refused) {
    t.is(response.status, 400);
    t.deepEqual(response.body, message);
  }
  t.is(service.services.log.head(), head);
  t.is((await service.api('GET', '/api/extras/tags/')).body.count, 3);
});

test('unknown ids are 404 {"detail": "Not found."}, non-numeric ids too', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  for (const path of ['/api/dcim/sites/12345/', '/api/dcim/sites/abc/']) {
    const response = await service.api('GET', path);
    t.is(response.status, 404);
    t.deepEqual(response.body, { detail: 'Not found.' });
  }
  t.is((await service.api('PATCH', '/api/dcim/sites/12345/', { name: 'x' })).status, 404);
  t.is((await service.api('DELETE', '/api/dcim/sites/12345/')).status, 404);
});

test('POST on a detail view is 405 with an Allow header', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const tag = (await service.api('POST', '/api/extras/tags/', { name: 'a', slug: 'a' })).body;
  const response = await service.api('POST', `/api/extras/tags/${tag.id}/`, { name: 'b' });
  t.is(response.status, 405);
  t.deepEqual(response.body, { detail: 'Method "POST" not allowed.' });
  t.is(response.headers.get('allow'), 'GET, PUT, PATCH, DELETE, HEAD, OPTIONS');
});

test('validation errors come back per field in NetBox words', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const response = await service.api('POST', '/api/dcim/sites/', {
    name: 'x'.repeat(101),
    slug: 'not a slug',
    status: 'bogus',
    region: 999,
  });
  t.is(response.status, 400);
  t.deepEqual(response.body.name, ['Ensure this field has no more than 100 characters.']);
  t.deepEqual(response.body.slug, ['Enter a valid "slug" consisting of letters, numbers, underscores or hyphens.']);
  t.deepEqual(response.body.status, ['bogus is not a valid choice.']);
  t.deepEqual(response.body.region, ['Related object not found using the provided numeric ID: 999']);
  const missing = await service.api('POST', '/api/dcim/sites/', {});
  t.deepEqual(missing.body, { name: ['This field is required.'], slug: ['This field is required.'] });
});

test('read-only and unknown fields are ignored on write', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const response = await service.api('POST', '/api/extras/tags/', {
    id: 77,
    url: 'x',
    display: 'y',
    name: 'Core',
    slug: 'core',
    bogus: 1,
  });
  t.is(response.status, 201);
  t.not(response.body.id, 77);
  t.is(response.body.display, 'Core');
  t.false('bogus' in response.body);
});

test('the token created at start authenticates; its key is never in an event', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const all = [];
  for await (const batch of service.services.log.read(1)) all.push(...batch);
  const text = JSON.stringify(all);
  t.false(text.includes('0123456789abcdef0123456789abcdef01234567'));
  t.false(text.includes('admin-password'));
  t.true(all.some((e) => e.objectType === 'users.token'));
});
