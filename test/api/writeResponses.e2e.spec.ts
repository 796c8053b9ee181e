import test from 'ava';
import { startService } from '../support/startService.js';

// A write's response shows what that request wrote, never a later request's state:
// concurrent writes share group commits, so by the time one is answered the read
// models may already hold the writes decided after it.

test('60 concurrent PATCHes of one object: each response shows its own value and its own version', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const site = (await service.api('POST', '/api/dcim/sites/', { name: 'S', slug: 's' })).body;
  const responses = await Promise.all(
    Array.from({ length: 60 }, (_, i) => service.api('PATCH', `/api/dcim/sites/${site.id}/`, { description: `writer ${i}` })),
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

test('concurrent bulk PATCHes: each response lists the values its own request wrote', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const tags = (await service.api('POST', '/api/extras/tags/', [
    { name: 'A', slug: 'a' },
    { name: 'B', slug: 'b' },
  ])).body;
  const responses = await Promise.all(
    Array.from({ length: 30 }, (_, i) =>
      service.api('PATCH', '/api/extras/tags/', tags.map((tag: any) => ({ id: tag.id, description: `${tag.slug} by ${i}` }))),
    ),
  );
  for (const [i, response] of responses.entries()) {
    t.is(response.status, 200);
    t.deepEqual(response.body.map((o: any) => o.description), [`a by ${i}`, `b by ${i}`], `bulk response ${i}`);
  }
});

test('a response renders the computed fields of the object as written (display, created date)', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const created = await service.api('POST', '/api/ipam/prefixes/', { prefix: '10.0.0.0/16' });
  t.is(created.status, 201);
  const renamed = await service.api('PATCH', `/api/ipam/prefixes/${created.body.id}/`, { prefix: '10.1.0.0/16' });
  const read = await service.api('GET', `/api/ipam/prefixes/${created.body.id}/`);
  t.deepEqual(renamed.body, read.body, 'with nobody else writing, the response equals a GET right after');
  t.is(renamed.headers.get('etag'), read.headers.get('etag'));
});
