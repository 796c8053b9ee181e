import test from 'ava';

import { concurrentRequests } from '../support/concurrentRequests.js';
import { startService, type TestService } from '../support/startService.js';

// If-Match on the list views: each object of a bulk PATCH/PUT/DELETE may be guarded by
// its ETag, as an `etag` key of its item or in an If-Match header listing them. Any
// object not at the version named refuses the whole request: 412, nothing written.

async function twoTags(service: TestService) {
  const created = await service.api('POST', '/api/extras/tags/', [
    { name: 'A', slug: 'a' },
    { name: 'B', slug: 'b' },
  ]);
  const [a, b] = created.body;
  const etagOf = async (id: number) => (await service.api('GET', `/api/extras/tags/${id}/`)).headers.get('etag')!;
  return { a, b, etagA: await etagOf(a.id), etagB: await etagOf(b.id), etagOf };
}

test('bulk PATCH: an item with a stale etag refuses the whole request with 412 naming it; nothing changes', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const { a, b, etagA, etagB, etagOf } = await twoTags(service);
  await service.api('PATCH', `/api/extras/tags/${b.id}/`, { description: 'changed by someone else' });
  const head = service.services.log.head();
  const stale = await service.api('PATCH', '/api/extras/tags/', [
    { id: a.id, etag: etagA, description: 'mine' },
    { id: b.id, etag: etagB, description: 'mine' },
  ]);
  t.is(stale.status, 412);
  t.deepEqual(stale.body, { detail: `1 object has changed since the version named in If-Match: B (${b.id})` });
  t.is(service.services.log.head(), head, 'nothing appended');
  t.is((await service.api('GET', `/api/extras/tags/${a.id}/`)).body.description, '');

  const fresh = await service.api('PATCH', '/api/extras/tags/', [
    { id: a.id, etag: etagA, description: 'mine' },
    { id: b.id, etag: await etagOf(b.id), description: 'mine' },
  ]);
  t.is(fresh.status, 200, JSON.stringify(fresh.body));
  t.deepEqual(
    fresh.body.map((o: any) => o.description),
    ['mine', 'mine'],
  );
  t.false('etag' in fresh.body[0]);
  const [event] = await service.services.audit!.requestEvents(fresh.headers.get('x-request-id')!);
  t.false('etag' in event.postchange!, 'the etag is a precondition, never stored');
});

test('bulk PUT: an If-Match header listing the ETags guards every object', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const { a, b, etagA, etagB } = await twoTags(service);
  const body = [
    { id: a.id, name: 'A2', slug: 'a2' },
    { id: b.id, name: 'B2', slug: 'b2' },
  ];
  const head = service.services.log.head();
  const missingOne = await service.api('PUT', '/api/extras/tags/', body, { 'If-Match': etagA });
  t.is(missingOne.status, 412, 'an object whose version the list does not name is refused');
  t.regex(missingOne.body.detail, new RegExp(`B \\(${b.id}\\)$`));
  t.is(service.services.log.head(), head);

  const ok = await service.api('PUT', '/api/extras/tags/', body, { 'If-Match': `${etagB}, W/${etagA}` });
  t.is(ok.status, 200, JSON.stringify(ok.body));
  t.deepEqual(
    ok.body.map((o: any) => o.name),
    ['A2', 'B2'],
  );

  const replayed = await service.api('PUT', '/api/extras/tags/', body, { 'If-Match': `${etagA}, ${etagB}` });
  t.is(replayed.status, 412, 'the versions it named are no longer current');
  t.regex(replayed.body.detail, /^2 objects have changed/);
  const any = await service.api('PATCH', '/api/extras/tags/', [{ id: a.id, description: 'x' }], { 'If-Match': '*' });
  t.is(any.status, 200);
});

test('bulk DELETE: a stale etag deletes nothing; current ones delete', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const { a, b, etagA, etagB, etagOf } = await twoTags(service);
  await service.api('PATCH', `/api/extras/tags/${a.id}/`, { color: '00ff00' });
  const head = service.services.log.head();
  const stale = await service.api('DELETE', '/api/extras/tags/', [
    { id: a.id, etag: etagA },
    { id: b.id, etag: etagB },
  ]);
  t.is(stale.status, 412);
  t.regex(stale.body.detail, new RegExp(`A \\(${a.id}\\)$`));
  t.is(service.services.log.head(), head);
  t.is((await service.api('GET', '/api/extras/tags/')).body.count, 2);

  const staleHeader = await service.api('DELETE', '/api/extras/tags/', [{ id: a.id }, { id: b.id }], {
    'If-Match': `${etagA}, ${etagB}`,
  });
  t.is(staleHeader.status, 412);
  t.is(service.services.log.head(), head);

  const fresh = await service.api('DELETE', '/api/extras/tags/', [
    { id: a.id, etag: await etagOf(a.id) },
    { id: b.id, etag: etagB },
  ]);
  t.is(fresh.status, 204);
  t.is((await service.api('GET', '/api/extras/tags/')).body.count, 0);
});

test('an etag without its quotes is accepted; a malformed one is a 400 aligned with the items', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const { a, b, etagA } = await twoTags(service);
  const bare = await service.api('PATCH', '/api/extras/tags/', [
    { id: a.id, etag: etagA.replaceAll('"', ''), description: 'x' },
  ]);
  t.is(bare.status, 200, JSON.stringify(bare.body));
  const head = service.services.log.head();
  const bad = await service.api('PATCH', '/api/extras/tags/', [
    { id: a.id, description: 'y' },
    { id: b.id, etag: 42, description: 'y' },
  ]);
  t.is(bad.status, 400);
  t.deepEqual(bad.body, [
    {},
    { etag: ["Expected the object's ETag as a string, as the ETag response header gives it."] },
  ]);
  t.is(service.services.log.head(), head);
});

test('concurrent bulk PATCHes naming the same versions: exactly one wins, the others get 412', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const { a, b, etagA, etagB } = await twoTags(service);
  const head = service.services.log.head();
  const responses = await concurrentRequests(
    service.url,
    Array.from({ length: 20 }, (_, i) => ({
      method: 'PATCH',
      path: '/api/extras/tags/',
      body: [
        { id: a.id, etag: etagA, description: `writer ${i}` },
        { id: b.id, etag: etagB, description: `writer ${i}` },
      ],
    })),
  );
  const winners = responses.filter((r) => r.status === 200);
  t.is(winners.length, 1);
  t.is(responses.filter((r) => r.status === 412).length, 19);
  t.is(service.services.log.head(), head + 2, 'only the winner appended');
  const description = winners[0].body[0].description;
  t.is((await service.api('GET', `/api/extras/tags/${a.id}/`)).body.description, description);
});
