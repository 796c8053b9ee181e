import test from 'ava';

import { startService } from '../support/startService.js';

test('bulk create returns every object in input order', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const body = Array.from({ length: 5 }, (_, i) => ({ name: `Tag ${i}`, slug: `tag-${i}` }));
  const response = await service.api('POST', '/api/extras/tags/', body);
  t.is(response.status, 201);
  t.deepEqual(
    response.body.map((o: any) => o.slug),
    body.map((b) => b.slug),
  );
  t.is(response.headers.get('location'), null);
});

test('bulk create with one failing element writes nothing and aligns the errors', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const head = service.services.log.head();
  const response = await service.api('POST', '/api/extras/tags/', [
    { name: 'A', slug: 'a' },
    { name: 'B' },
    { name: 'C', slug: 'c' },
  ]);
  t.is(response.status, 400);
  t.deepEqual(response.body, [{}, { slug: ['This field is required.'] }, {}]);
  t.is(service.services.log.head(), head);
  t.is((await service.api('GET', '/api/extras/tags/')).body.count, 0);
});

test('duplicates inside one bulk create are caught', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const response = await service.api('POST', '/api/extras/tags/', [
    { name: 'A', slug: 'a' },
    { name: 'A', slug: 'a2' },
  ]);
  t.is(response.status, 400);
  t.deepEqual(response.body[1], { name: ['tag with this name already exists.'] });
});

test('bulk update changes different attributes per element; a bad element aborts all', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const created = (
    await service.api('POST', '/api/extras/tags/', [
      { name: 'A', slug: 'a' },
      { name: 'B', slug: 'b' },
    ])
  ).body;
  const ok = await service.api('PATCH', '/api/extras/tags/', [
    { id: created[0].id, description: 'first' },
    { id: created[1].id, color: '00ff00' },
  ]);
  t.is(ok.status, 200);
  t.is(ok.body[0].description, 'first');
  t.is(ok.body[1].color, '00ff00');
  const head = service.services.log.head();
  const bad = await service.api('PATCH', '/api/extras/tags/', [
    { id: created[0].id, description: 'changed' },
    { id: created[1].id, name: '' },
  ]);
  t.is(bad.status, 400);
  t.deepEqual(bad.body, [{}, { name: ['This field may not be blank.'] }]);
  t.is(service.services.log.head(), head);
  t.is((await service.api('GET', `/api/extras/tags/${created[0].id}/`)).body.description, 'first');
  const missing = await service.api('PATCH', '/api/extras/tags/', [{ id: 999, description: 'x' }]);
  t.is(missing.status, 400);
  const noId = await service.api('PATCH', '/api/extras/tags/', [{ description: 'x' }]);
  t.deepEqual(noId.body, [{ id: ['This field is required.'] }]);
});

test('bulk delete removes all, or nothing when one is protected', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const [m1, m2] = (
    await service.api('POST', '/api/dcim/manufacturers/', [
      { name: 'M1', slug: 'm1' },
      { name: 'M2', slug: 'm2' },
    ])
  ).body;
  await service.api('POST', '/api/dcim/device-types/', { manufacturer: m2.id, model: 'X', slug: 'x' });
  const refused = await service.api('DELETE', '/api/dcim/manufacturers/', [{ id: m1.id }, { id: m2.id }]);
  t.is(refused.status, 409);
  t.is((await service.api('GET', '/api/dcim/manufacturers/')).body.count, 2);
  const m3 = (await service.api('POST', '/api/dcim/manufacturers/', { name: 'M3', slug: 'm3' })).body;
  const done = await service.api('DELETE', '/api/dcim/manufacturers/', [{ id: m1.id }, { id: m3.id }]);
  t.is(done.status, 204);
  t.is((await service.api('GET', '/api/dcim/manufacturers/')).body.count, 1);
});

test('a bulk request is one atomic batch under one request id', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const head = service.services.log.head();
  const response = await service.api('POST', '/api/extras/tags/', [
    { name: 'A', slug: 'a' },
    { name: 'B', slug: 'b' },
    { name: 'C', slug: 'c' },
  ]);
  const batches = [];
  for await (const batch of service.services.log.read(head + 1)) batches.push(batch);
  t.is(batches.length, 1);
  t.is(batches[0].length, 3);
  t.true(batches[0].every((e) => e.requestId === response.headers.get('x-request-id')));
});

test('a bulk PATCH of 100 objects with one invalid element changes none', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const created = (
    await service.api(
      'POST',
      '/api/dcim/sites/',
      Array.from({ length: 100 }, (_, i) => ({ name: `S${i}`, slug: `s${i}` })),
    )
  ).body;
  const head = service.services.log.head();
  const patch = created.map((site: any, i: number) => ({
    id: site.id,
    description: `patched ${i}`,
    ...(i === 57 ? { status: 'bogus' } : {}),
  }));
  const response = await service.api('PATCH', '/api/dcim/sites/', patch);
  t.is(response.status, 400);
  t.is(response.body.length, 100);
  t.deepEqual(response.body[57], { status: ['bogus is not a valid choice.'] });
  t.true(response.body.every((e: object, i: number) => i === 57 || Object.keys(e).length === 0));
  t.is(service.services.log.head(), head, 'the log did not grow');
  const after = (await service.api('GET', '/api/dcim/sites/?limit=100')).body.results;
  t.true(after.every((site: any) => site.description === ''));
});
