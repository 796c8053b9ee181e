import test from 'ava';

import { concurrentRequests } from '../support/concurrentRequests.js';
import { startService } from '../support/startService.js';

// A write's response shows what that request wrote, never a later request's state:
// concurrent writes share group commits, so by the time one is answered the read
// models may already hold the writes decided after it. (The bursts run one at a time.)

test.serial('60 concurrent PATCHes of one object: each response shows its own value and its own version', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const site = (await service.api('POST', '/api/dcim/sites/', { name: 'S', slug: 's' })).body;
  const responses = await concurrentRequests(
    service.url,
    Array.from({ length: 60 }, (_, i) => ({
      method: 'PATCH',
      path: `/api/dcim/sites/${site.id}/`,
      body: { description: `writer ${i}` },
    })),
  );
  const versions = new Set<string>();
  for (const [i, response] of responses.entries()) {
    t.is(response.status, 200);
    t.is(response.body.description, `writer ${i}`, `response ${i} shows its own value`);
    const etag = response.headers.get('etag')!;
    versions.add(etag);
    // The ETag is the log position of the event this request appended for the object.
    const [event] = await service.services.audit!.requestEvents(response.headers.get('x-request-id')!);
    t.is(etag, `"${event.position}"`, `response ${i} carries its own version`);
    t.is(event.postchange?.description, `writer ${i}`);
  }
  t.is(versions.size, 60);
  const final = await service.api('GET', `/api/dcim/sites/${site.id}/`);
  t.true(versions.has(final.headers.get('etag')!), 'the last write wins and its ETag is current');
});

test.serial('concurrent bulk PATCHes: each response lists the values its own request wrote', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const tags = (
    await service.api('POST', '/api/extras/tags/', [
      { name: 'A', slug: 'a' },
      { name: 'B', slug: 'b' },
    ])
  ).body;
  const responses = await concurrentRequests(
    service.url,
    Array.from({ length: 30 }, (_, i) => ({
      method: 'PATCH',
      path: '/api/extras/tags/',
      body: tags.map((tag: any) => ({ id: tag.id, description: `${tag.slug} by ${i}` })),
    })),
  );
  for (const [i, response] of responses.entries()) {
    t.is(response.status, 200);
    t.deepEqual(
      response.body.map((o: any) => o.description),
      [`a by ${i}`, `b by ${i}`],
      `bulk response ${i}`,
    );
  }
});

test("with nobody else writing, a write's response equals a GET right after (computed fields included)", async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  await service.api('POST', '/api/ipam/prefixes/', { prefix: '10.0.0.0/8' });
  const created = await service.api('POST', '/api/ipam/prefixes/', { prefix: '10.0.0.0/16' });
  t.is(created.status, 201);
  const moved = await service.api('PATCH', `/api/ipam/prefixes/${created.body.id}/`, {
    prefix: '10.1.0.0/16',
    status: 'reserved',
  });
  const read = await service.api('GET', `/api/ipam/prefixes/${created.body.id}/`);
  t.is(moved.body._depth, 1, 'hierarchy is computed for the object as written');
  t.deepEqual(moved.body, read.body);
  t.is(moved.headers.get('etag'), read.headers.get('etag'));
});
