import test from 'ava';

import { OverlayGate } from '../../src/audit/OverlayGate.js';
import { PastStatesBusyError } from '../../src/audit/PastStates.js';

/** A piece of work that runs until `finish()` is called. */
function held<T>(value: T) {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  let started = false;
  return {
    work: async () => {
      started = true;
      await done;
      return value;
    },
    finish: () => finish(),
    get started() {
      return started;
    },
  };
}

test('small overlays pass straight through while a large one runs', async (t) => {
  const gate = new OverlayGate({ largeVersions: 10, maxQueued: 1 });
  const large = held('large');
  const running = gate.run(10, large.work);
  t.is(await gate.run(9, async () => 'small'), 'small');
  large.finish();
  t.is(await running, 'large');
});

test('large overlays take turns; past the queue a request is refused as busy with a retry time', async (t) => {
  const gate = new OverlayGate({ largeVersions: 10, maxQueued: 1 });
  const first = held(1);
  const second = held(2);
  const one = gate.run(100, first.work);
  const two = gate.run(100, second.work);
  await Promise.resolve();
  t.true(first.started);
  t.false(second.started, 'the second waits for the first');
  const refused = await t.throwsAsync(
    gate.run(100, async () => 3),
    { instanceOf: PastStatesBusyError },
  );
  t.true(refused!.retryAfterSeconds >= 1);
  first.finish();
  t.is(await one, 1);
  await new Promise((resolve) => setImmediate(resolve));
  t.true(second.started, 'the waiter runs once the first is done');
  second.finish();
  t.is(await two, 2);
  // Free again: the next one runs at once.
  t.is(await gate.run(100, async () => 4), 4);
});

test('a failed overlay hands its turn on', async (t) => {
  const gate = new OverlayGate({ largeVersions: 1, maxQueued: 2 });
  const failing = gate.run(5, async () => {
    throw new Error('log unreadable');
  });
  const next = gate.run(5, async () => 'next');
  await t.throwsAsync(failing, { message: 'log unreadable' });
  t.is(await next, 'next');
});
