import anyTest, { type TestFn } from 'ava';

import { changesOf, must, requestIdOf, unique } from '../support/auditRequests.js';
import { makeEvent } from '../support/makeEvent.js';
import { ADMIN_TOKEN, startService, type TestService } from '../support/startService.js';

const test = anyTest as TestFn<{ service: TestService }>;

test.before(async (t) => {
  t.context.service = await startService();
});
test.after.always(async (t) => {
  await t.context.service?.close();
});

interface SseEvent {
  id: string | undefined;
  data: any;
}

/** An open SSE connection: collects events; `next(n)` waits for n more. */
async function connect(service: TestService, query: string, headers: Record<string, string> = {}) {
  const controller = new AbortController();
  const response = await fetch(`${service.url}/api/extras/object-changes/stream/${query}`, {
    headers: { Authorization: `Token ${ADMIN_TOKEN}`, ...headers },
    signal: controller.signal,
  });
  const events: SseEvent[] = [];
  const wake: { waiter: (() => void) | null } = { waiter: null };
  let buffer = '';
  const reading = (async () => {
    const decoder = new TextDecoder();
    try {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          let id: string | undefined;
          const data: string[] = [];
          for (const line of block.split('\n')) {
            if (line.startsWith('id: ')) id = line.slice(4);
            else if (line.startsWith('data: ')) data.push(line.slice(6));
          }
          if (data.length > 0) {
            events.push({ id, data: JSON.parse(data.join('\n')) });
            wake.waiter?.();
          }
        }
      }
    } catch {
      // aborted
    }
  })();
  return {
    response,
    events,
    async next(count: number, timeoutMs = 10_000): Promise<SseEvent[]> {
      const deadline = Date.now() + timeoutMs;
      while (events.length < count) {
        if (Date.now() > deadline) throw new Error(`timed out with ${events.length} of ${count} events`);
        await new Promise<void>((resolve) => {
          wake.waiter = resolve;
          setTimeout(resolve, 100);
        });
      }
      return events.slice(0, count);
    },
    async close() {
      controller.abort();
      await reading;
    },
  };
}

async function createSite(service: TestService) {
  const name = unique('sse');
  const r = await must(service.api('POST', '/api/dcim/sites/', { name, slug: name }), 201);
  const [change] = await changesOf(service, requestIdOf(r));
  return change;
}

test.serial(
  'the stream delivers new changes in order and resumes after Last-Event-ID without gaps or duplicates',
  async (t) => {
    const { service } = t.context;
    const stream = await connect(service, '?changed_object_type=dcim.site');
    t.is(stream.response.status, 200);
    t.regex(stream.response.headers.get('content-type') ?? '', /^text\/event-stream/);

    const first = [];
    for (let i = 0; i < 3; i++) first.push(await createSite(service));
    const got = await stream.next(3);
    t.deepEqual(
      got.map((e) => Number(e.id)),
      first.map((c) => c.id),
    );
    t.deepEqual(
      got.map((e) => e.data.id),
      first.map((c) => c.id),
    );
    t.deepEqual(got[0]!.data, first[0], 'each event is the object change as the list renders it');
    await stream.close();

    // While disconnected: more changes, some concurrent.
    const missed = [await createSite(service), ...(await Promise.all([1, 2, 3].map(() => createSite(service))))];
    const resumed = await connect(service, '?changed_object_type=dcim.site', { 'Last-Event-ID': got[2]!.id! });
    const live = [await createSite(service), await createSite(service)];
    const expected = [...missed, ...live].map((c) => c.id).sort((a, b) => a - b);
    const again = await resumed.next(expected.length);
    t.deepEqual(
      again.map((e) => e.data.id),
      expected,
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    t.is(resumed.events.length, expected.length, 'no duplicates');
    await resumed.close();
  },
);

test.serial('the stream is filterable like the list; last_event_id may be given as a parameter', async (t) => {
  const { service } = t.context;
  const before = await createSite(service);
  const name = unique('sse-f');
  const site = await must(service.api('POST', '/api/dcim/sites/', { name, slug: name }), 201);
  await must(service.api('PATCH', `/api/dcim/sites/${site.body.id}/`, { description: 'x' }), 200);
  await must(service.api('DELETE', `/api/dcim/sites/${site.body.id}/`), 204);
  const stream = await connect(
    service,
    `?last_event_id=${before.id}&changed_object_type=dcim.site&changed_object_id=${site.body.id}&action=update`,
  );
  const [update] = await stream.next(1);
  t.is(update!.data.action.value, 'update');
  t.is(update!.data.changed_object_id, site.body.id);
  await new Promise((resolve) => setTimeout(resolve, 200));
  t.is(stream.events.length, 1);
  await stream.close();
});

test.serial('an EventSource-style request (Accept: text/event-stream) is served', async (t) => {
  const { service } = t.context;
  const before = await createSite(service);
  const after = await createSite(service);
  const stream = await connect(service, '?changed_object_type=dcim.site', {
    Accept: 'text/event-stream',
    'Last-Event-ID': String(before.id),
  });
  t.is(stream.response.status, 200);
  const [event] = await stream.next(1);
  t.is(event!.data.id, after.id);
  await stream.close();
});

test.serial('stream: bad Last-Event-ID and bad filters are 400, no token is 403', async (t) => {
  const { service } = t.context;
  const bad = await service.api('GET', '/api/extras/object-changes/stream/', undefined, { 'Last-Event-ID': 'abc' });
  t.is(bad.status, 400);
  t.truthy(bad.body.last_event_id);
  const beyond = await service.api('GET', '/api/extras/object-changes/stream/?last_event_id=99999999');
  t.is(beyond.status, 400);
  const filter = await service.api('GET', '/api/extras/object-changes/stream/?request_id=nope');
  t.is(filter.status, 400);
  t.deepEqual(filter.body, { request_id: ['Enter a valid UUID.'] });
  const anonymous = await fetch(`${service.url}/api/extras/object-changes/stream/`);
  t.is(anonymous.status, 403);
  t.is((await service.api('POST', '/api/extras/object-changes/stream/', {})).status, 405);
});

test.serial('a change is streamed once the read models hold it: its object is rendered, not null', async (t) => {
  const { service } = t.context;
  const { log, store, projector } = service.services;
  const stream = await connect(service, '?changed_object_type=dcim.site');
  // The read models held back while the change log's index follows the log (on Kafka each
  // follows with a subscription of its own, so either may be first) ...
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  const apply = store.apply.bind(store);
  store.apply = async (...args) => {
    await held;
    return apply(...args);
  };
  const position = log.head() + 1;
  // ... until someone waits for them to reach the change, or the stream sent it without waiting.
  const waitFor = projector.waitFor.bind(projector);
  projector.waitFor = (wanted, limits) => {
    if (wanted >= position) release();
    return waitFor(wanted, limits);
  };
  const restore = () => {
    release();
    store.apply = apply;
    projector.waitFor = waitFor;
  };
  t.teardown(restore);
  const streamed = stream.next(1).finally(release);
  // Appended past the writer (last in this file: the writer's own next append goes on top of it).
  const site = makeEvent(position, { objectId: 90_000 });
  site.postchange = { ...site.postchange, id: 90_000, name: 'held-back', slug: 'held-back' };
  await log.append([site]);
  const [event] = await streamed;
  restore();
  t.is(event!.data.changed_object_id, 90_000);
  t.like(event!.data.changed_object, { id: 90_000, name: 'held-back' });
  await stream.close();
});
