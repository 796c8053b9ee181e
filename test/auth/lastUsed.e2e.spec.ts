import test from 'ava';

import type { ChangeEvent } from '../../src/events/ChangeEvent.js';
import { as, userWithToken } from '../support/callers.js';
import { FakeClock } from '../support/fakeClock.js';
import { startService, type TestService } from '../support/startService.js';

async function eventsAfter(service: TestService, position: number): Promise<ChangeEvent[]> {
  const events: ChangeEvent[] = [];
  for await (const batch of service.services.log.read(position + 1)) events.push(...batch);
  return events;
}

test('last_used is recorded on first use, then at most once a minute, as one update event of the token', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const clock = new FakeClock();
  service.services.auth.clock = clock;
  const alice = await userWithToken(service, 'alice');
  t.is(alice.token.last_used, null);
  const call = as(service, alice.key);

  let head = service.services.log.head();
  const first = await call('GET', '/api/users/tokens/');
  const [event, ...more] = await eventsAfter(service, head);
  t.is(more.length, 0, 'one event, nothing else');
  t.like(event, {
    action: 'update',
    objectType: 'users.token',
    objectId: alice.token.id,
    user: { id: alice.user.id, username: 'alice' },
  });
  t.is(event.requestId, first.headers.get('x-request-id') ?? '');
  const changed = Object.keys(event.postchange!).filter(
    (k) => JSON.stringify(event.postchange![k]) !== JSON.stringify(event.prechange![k]),
  );
  t.deepEqual(changed.sort(), ['last_updated', 'last_used']);
  t.is(event.postchange!.last_used, clock.now());
  const shown = first.body.results[0];
  t.is(shown.last_used, clock.now(), 'the request that recorded the use already shows it');
  t.is(shown.last_updated, clock.now(), 'the use time is served as last_updated too');

  // within the minute: no write at all
  head = service.services.log.head();
  clock.advance(30_000);
  await call('GET', '/api/dcim/sites/');
  clock.advance(30_000);
  await call('GET', '/api/dcim/sites/');
  t.deepEqual(await eventsAfter(service, head), []);

  // past it: one more
  clock.advance(1_000);
  await call('GET', '/api/dcim/sites/');
  await call('GET', '/api/dcim/sites/');
  const later = await eventsAfter(service, head);
  t.is(later.length, 1);
  t.is(later[0].postchange!.last_used, clock.now());
});

test('a refused token still gets its use recorded (NetBox checks expiry after the update)', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const clock = new FakeClock();
  service.services.auth.clock = clock;
  const alice = await userWithToken(service, 'alice', { token: { expires: new Date(clock.ms - 1000).toISOString() } });
  const head = service.services.log.head();
  t.deepEqual((await as(service, alice.key)('GET', '/api/dcim/sites/')).body, { detail: 'Token expired' });
  const events = await eventsAfter(service, head);
  t.is(events.length, 1);
  t.is(events[0].postchange!.last_used, clock.now());
});

test('MAINTENANCE_MODE: uses are not recorded', async (t) => {
  const service = await startService({ MAINTENANCE_MODE: 'true' });
  t.teardown(() => service.close());
  const clock = new FakeClock();
  service.services.auth.clock = clock;
  const alice = await userWithToken(service, 'alice');
  const head = service.services.log.head();
  for (let i = 0; i < 3; i++) {
    t.is((await as(service, alice.key)('GET', '/api/users/tokens/')).status, 200);
    clock.advance(120_000);
  }
  t.deepEqual(await eventsAfter(service, head), []);
  t.is((await service.api('GET', `/api/users/tokens/${alice.token.id}/`)).body.last_used, null);
});
