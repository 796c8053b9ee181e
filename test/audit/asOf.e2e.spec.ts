import anyTest, { type TestFn } from 'ava';

import { changesOf, must, requestIdOf, unique } from '../support/auditRequests.js';
import { pastStateGate } from '../support/pastStateGate.js';
import { ADMIN_TOKEN, startService, type TestService } from '../support/startService.js';

const test = anyTest as TestFn<{ service: TestService }>;

test.before(async (t) => {
  t.context.service = await startService();
});
test.after.always(async (t) => {
  await t.context.service?.close();
});

/**
 * The test is about the replayed past states (PastStates: their builds, queue, cache and
 * cancellation): reads as of a position go through them for its duration, not through the
 * overlaid past views that serve them by default (test/audit/pastViewEquivalence.e2e.spec.ts
 * checks both give the same answers).
 */
function replayed(t: { teardown(fn: () => void): void }, service: TestService): void {
  const audit = service.services.audit!;
  audit.pastReads = 'replay';
  t.teardown(() => {
    audit.pastReads = 'overlay';
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

test('as_of returns the old state after an update and after a delete (position and time)', async (t) => {
  const { service } = t.context;
  const name = unique('asof');
  const created = await must(
    service.api('POST', '/api/dcim/sites/', { name, slug: name, description: 'original' }),
    201,
  );
  const id = created.body.id;
  const [creation] = await changesOf(service, requestIdOf(created));
  await sleep(5);
  const between = new Date().toISOString();
  await sleep(5);
  const updated = await must(
    service.api('PATCH', `/api/dcim/sites/${id}/`, { name: `${name}-renamed`, description: 'changed' }),
    200,
  );
  const [update] = await changesOf(service, requestIdOf(updated));

  // After the update: the detail and the list answer as of the creation.
  const old = await must(service.api('GET', `/api/dcim/sites/${id}/?as_of=${creation.id}`), 200);
  t.is(old.body.name, name);
  t.is(old.body.description, 'original');
  t.is(old.headers.get('x-as-of-position'), String(creation.id));
  const byTime = await must(service.api('GET', `/api/dcim/sites/${id}/?as_of=${encodeURIComponent(between)}`), 200);
  t.is(byTime.body.description, 'original');
  const oldList = await must(service.api('GET', `/api/dcim/sites/?as_of=${creation.id}&name=${name}`), 200);
  t.is(oldList.body.count, 1);
  t.is(oldList.body.results[0].description, 'original');
  t.is(
    (await must(service.api('GET', `/api/dcim/sites/?as_of=${creation.id}&name=${name}-renamed`), 200)).body.count,
    0,
  );
  const current = await must(service.api('GET', `/api/dcim/sites/${id}/`), 200);
  t.is(current.body.description, 'changed', 'without as_of: the live read models');

  // Before the creation the object did not exist.
  t.is((await service.api('GET', `/api/dcim/sites/${id}/?as_of=${creation.id - 1}`)).status, 404);

  // After a delete: gone now, still there as of the update.
  await must(service.api('DELETE', `/api/dcim/sites/${id}/`), 204);
  t.is((await service.api('GET', `/api/dcim/sites/${id}/`)).status, 404);
  const beforeDelete = await must(service.api('GET', `/api/dcim/sites/${id}/?as_of=${update.id}`), 200);
  t.is(beforeDelete.body.name, `${name}-renamed`);
  t.is(beforeDelete.body.description, 'changed');
  const listBeforeDelete = await must(service.api('GET', `/api/dcim/sites/?as_of=${update.id}&id=${id}`), 200);
  t.is(listBeforeDelete.body.count, 1);
});

test('as_of renders related objects as they were too', async (t) => {
  const { service } = t.context;
  const siteName = unique('asof-site');
  const site = await must(service.api('POST', '/api/dcim/sites/', { name: siteName, slug: siteName }), 201);
  const rack = await must(service.api('POST', '/api/dcim/racks/', { name: unique('rack'), site: site.body.id }), 201);
  const [rackCreation] = await changesOf(service, requestIdOf(rack));
  await must(service.api('PATCH', `/api/dcim/sites/${site.body.id}/`, { name: `${siteName}-new` }), 200);
  const now = await must(service.api('GET', `/api/dcim/racks/${rack.body.id}/`), 200);
  t.is(now.body.site.name, `${siteName}-new`);
  const then = await must(service.api('GET', `/api/dcim/racks/${rack.body.id}/?as_of=${rackCreation.id}`), 200);
  t.is(then.body.site.name, siteName);
});

test('bad as_of values are 400; a time before the first event is the empty registry', async (t) => {
  const { service } = t.context;
  const bad = await service.api('GET', '/api/dcim/sites/?as_of=yesterday');
  t.is(bad.status, 400);
  t.deepEqual(bad.body, { as_of: ['Enter a valid date/time or a log position.'] });
  const beyond = await service.api('GET', '/api/dcim/sites/?as_of=99999999');
  t.is(beyond.status, 400);
  t.truthy(beyond.body.as_of?.[0]);
  const early = await must(service.api('GET', '/api/dcim/sites/?as_of=2000-01-01T00:00:00Z'), 200);
  t.is(early.body.count, 0);
  const zero = await must(service.api('GET', '/api/users/users/?as_of=0'), 200);
  t.is(zero.body.count, 0);
  const future = await must(service.api('GET', '/api/users/users/?as_of=2999-01-01'), 200);
  t.true(future.body.count >= 1, 'a future time is the current state');
});

test.serial('past states are cached: repeated as_of reads reuse one replay', async (t) => {
  const { service } = t.context;
  replayed(t, service);
  const name = unique('cache');
  const created = await must(service.api('POST', '/api/dcim/sites/', { name, slug: name }), 201);
  const [creation] = await changesOf(service, requestIdOf(created));
  const past = service.services.audit!.past;
  const before = past.builds;
  await Promise.all([1, 2, 3].map(() => must(service.api('GET', `/api/dcim/sites/?as_of=${creation.id}`), 200)));
  t.true(past.builds - before <= 1, 'concurrent reads of one point share one replay');
  const built = past.builds;
  await must(service.api('GET', `/api/dcim/sites/${created.body.id}/?as_of=${creation.id}`), 200);
  t.is(past.builds, built, 'and later ones reuse it');
});

test.serial('as_of: anonymous callers and callers without permission get 403 and never cause a replay', async (t) => {
  const { service } = t.context;
  replayed(t, service);
  const name = unique('perm');
  const created = await must(service.api('POST', '/api/dcim/sites/', { name, slug: name }), 201);
  const [creation] = await changesOf(service, requestIdOf(created));
  const past = service.services.audit!.past;
  const before = past.builds;
  const anonymous = await service.api('GET', `/api/dcim/sites/?as_of=${creation.id}`, undefined, { Authorization: '' });
  t.is(anonymous.status, 403);
  t.deepEqual(anonymous.body, { detail: 'Authentication credentials were not provided.' });
  const detail = await service.api('GET', `/api/dcim/sites/${created.body.id}/?as_of=${creation.id}`, undefined, {
    Authorization: '',
  });
  t.is(detail.status, 403);
  // A bad value is refused after the permission check, as NetBox validates filters after it.
  t.is((await service.api('GET', '/api/dcim/sites/?as_of=yesterday', undefined, { Authorization: '' })).status, 403);

  const user = unique('noperm');
  const person = await must(
    service.api('POST', '/api/users/users/', { username: user, password: 'a-long-password-1' }),
    201,
  );
  const token = await must(service.api('POST', '/api/users/tokens/', { user: person.body.id }), 201);
  const denied = await service.api('GET', `/api/dcim/sites/?as_of=${creation.id}`, undefined, {
    Authorization: `Token ${token.body.key}`,
  });
  t.is(denied.status, 403);
  t.deepEqual(denied.body, { detail: 'You do not have permission to perform this action.' });
  t.is(past.builds, before, 'no past state was built for a caller who may not see it');
});

/** Positions of `n` new site creations (each a past state no test has built yet). */
async function newPositions(service: TestService, n: number): Promise<number[]> {
  const positions: number[] = [];
  for (let i = 0; i < n; i++) {
    const name = unique('pos');
    const created = await must(service.api('POST', '/api/dcim/sites/', { name, slug: name }), 201);
    positions.push((await changesOf(service, requestIdOf(created)))[0].id);
  }
  return positions;
}

test.serial('as_of: one past state is built at a time; beyond the queue 503 with Retry-After', async (t) => {
  const { service } = t.context;
  replayed(t, service);
  const past = service.services.audit!.past;
  const gate = pastStateGate();
  const saved = { hooks: past.hooks, maxQueued: past.limits.maxQueued };
  past.hooks = gate.hooks;
  past.limits.maxQueued = 1;
  t.teardown(() => {
    past.hooks = saved.hooks;
    past.limits.maxQueued = saved.maxQueued;
  });
  const [a, b, c] = await newPositions(service, 3);
  const first = service.api('GET', `/api/dcim/sites/?as_of=${a}`);
  await gate.held();
  const second = service.api('GET', `/api/dcim/sites/?as_of=${b}`);
  await gate.seen(`queued ${b}`);
  const sameAsFirst = service.api('GET', `/api/dcim/sites/?as_of=${a}&limit=1`);
  const refused = await service.api('GET', `/api/dcim/sites/?as_of=${c}`);
  t.is(refused.status, 503);
  t.regex(refused.headers.get('retry-after') ?? '', /^[1-9]\d*$/);
  t.deepEqual(refused.body, { detail: 'Too many past states are being built; retry later.' });
  gate.release();
  await gate.held();
  gate.release();
  t.is((await first).status, 200);
  t.is((await second).status, 200);
  t.is((await sameAsFirst).status, 200);
  t.is(gate.maxRunning, 1);
  t.deepEqual(gate.outcomes, [`started ${a}`, `built ${a}`, `started ${b}`, `built ${b}`]);
});

test.serial('as_of: a client that goes away cancels the build it alone was waiting for', async (t) => {
  const { service } = t.context;
  replayed(t, service);
  const past = service.services.audit!.past;
  const gate = pastStateGate();
  const saved = past.hooks;
  past.hooks = gate.hooks;
  t.teardown(() => {
    past.hooks = saved;
  });
  const [position] = await newPositions(service, 1);
  const client = new AbortController();
  const request = fetch(`${service.url}/api/dcim/sites/?as_of=${position}`, {
    headers: { Authorization: `Token ${ADMIN_TOKEN}` },
    signal: client.signal,
  }).catch((error: Error) => error.name);
  await gate.held();
  client.abort();
  t.is(await request, 'AbortError');
  await gate.seen(`abandoned ${position}`);
  gate.release();
  await gate.seen(`cancelled ${position}`);
  t.deepEqual(gate.outcomes, [`started ${position}`, `abandoned ${position}`, `cancelled ${position}`]);
  t.false(past.cachedPositions.includes(position));

  // Asked again later, it is built afresh.
  past.hooks = saved;
  t.is(
    (await must(service.api('GET', `/api/dcim/sites/?as_of=${position}`), 200)).headers.get('x-as-of-position'),
    String(position),
  );
});
