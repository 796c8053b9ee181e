/**
 * boundedSignal(): a time limit under a long-lived parent signal (the log's closing) that
 * leaves nothing attached to the parent once disposed.
 */
import { getEventListeners } from 'node:events';

import test from 'ava';

import { boundedSignal } from '../../src/events/kafka/boundedSignal.js';
import { dependants } from '../support/abortSignals.js';

test('a bounded signal aborts at its limit with the reason AbortSignal.timeout() gives, and then leaves nothing on the parent', async (t) => {
  const parent = new AbortController();
  const { signal } = boundedSignal(parent.signal, 1);
  t.is(getEventListeners(parent.signal, 'abort').length, 1);
  // Held open by this test: the limit's timer itself does not keep the process alive.
  const keepAlive = setInterval(() => {}, 1_000);
  t.teardown(() => clearInterval(keepAlive));
  await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
  t.is((signal.reason as Error).name, 'TimeoutError');
  t.is(getEventListeners(parent.signal, 'abort').length, 0);
  t.is(dependants(parent.signal), 0);
});

test("a bounded signal aborts with its parent, with the parent's reason; one made under an aborted parent is aborted", (t) => {
  const parent = new AbortController();
  const { signal } = boundedSignal(parent.signal, 60_000);
  const reason = new Error('closing');
  parent.abort(reason);
  t.true(signal.aborted);
  t.is(signal.reason, reason);
  t.is(getEventListeners(parent.signal, 'abort').length, 0);
  t.is(boundedSignal(parent.signal, 60_000).signal.reason, reason);
});

test('a disposed bounded signal leaves nothing attached to its parent and never aborts', (t) => {
  const parent = new AbortController();
  for (let i = 0; i < 100; i++) boundedSignal(parent.signal, 60_000).dispose();
  t.is(getEventListeners(parent.signal, 'abort').length, 0);
  t.is(dependants(parent.signal), 0);
  const { signal, dispose } = boundedSignal(parent.signal, 60_000);
  dispose();
  parent.abort();
  t.false(signal.aborted);
});
