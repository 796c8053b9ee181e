/**
 * Waits for a follower of the log to reach a position: settled as it advances or fails,
 * and dropped as soon as the waiter gives up.
 */
import test from 'ava';

import { PositionWaiters } from '../../src/events/PositionWaiters.js';

test('the waits up to the position reached are settled as the follower advances; a failure rejects the rest', async (t) => {
  const waiters = new PositionWaiters();
  const settled: string[] = [];
  const wait = (position: number) =>
    waiters.wait(position).then(
      () => settled.push(`${position}`),
      (error: Error) => settled.push(`${position}: ${error.message}`),
    );
  const all = [wait(3), wait(1), wait(5)];
  waiters.reached(3);
  t.is(waiters.size, 1);
  waiters.failAll(new Error('stopped'));
  await Promise.all(all);
  t.deepEqual(settled, ['3', '1', '5: stopped']);
  t.is(waiters.size, 0);
});

test('a wait whose signal aborts is dropped at once and rejects with the reason; an aborted signal never waits', async (t) => {
  const waiters = new PositionWaiters();
  const gaveUp = new AbortController();
  const abandoned = waiters.wait(1_000_000, gaveUp.signal);
  const kept = waiters.wait(2);
  t.is(waiters.size, 2);
  gaveUp.abort(new Error('bound reached'));
  await t.throwsAsync(abandoned, { message: 'bound reached' });
  t.is(waiters.size, 1, 'only the wait still wanted is kept');
  waiters.reached(2);
  await kept;
  await t.throwsAsync(waiters.wait(3, gaveUp.signal), { message: 'bound reached' });
  t.is(waiters.size, 0);
});
