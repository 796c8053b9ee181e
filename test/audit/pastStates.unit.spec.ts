import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import anyTest, { type TestFn } from 'ava';

import { AuditLog } from '../../src/audit/AuditLog.js';
import { PastStateCancelledError, PastStates, PastStatesBusyError } from '../../src/audit/PastStates.js';
import { FileEventLog } from '../../src/events/file/FileEventLog.js';
import { memoryPastStores } from '../../src/ledger/pastStores.js';
import { registry } from '../../src/models/registry.js';
import { makeEvent } from '../support/makeEvent.js';
import { pastStateGate } from '../support/pastStateGate.js';

const test = anyTest as TestFn<{ log: FileEventLog; audit: AuditLog; dir: string }>;

/** 20 sites, one request each: past states at positions 1..20 differ by their site count. */
test.beforeEach(async (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'netledger-past-'));
  const log = new FileEventLog({ dir });
  await log.open();
  for (let p = 1; p <= 20; p++) await log.append([makeEvent(p)]);
  const audit = new AuditLog(log, registry);
  await audit.open();
  t.context = { log, audit, dir };
});
test.afterEach.always(async (t) => {
  await t.context.audit?.close();
  await t.context.log?.close();
  rmSync(t.context.dir, { recursive: true, force: true });
});

const sites = async (states: PastStates, position: number) => (await states.at(position)).count('dcim.site', {});

test('one past state is built at a time; readers of one position share its build', async (t) => {
  const states = new PastStates(t.context.audit, registry, memoryPastStores(registry), { maxQueued: 10 });
  const gate = pastStateGate();
  states.hooks = gate.hooks;
  const reads = [5, 5, 9, 12, 9, 5].map((p) => states.at(p));
  await gate.held();
  t.deepEqual(gate.outcomes, ['started 5'], 'only the first build runs; the others queue');
  // Release builds one by one until all are done.
  const done = Promise.all(reads);
  let finished = false;
  void done.then(() => (finished = true));
  while (!finished) {
    await Promise.race([gate.held(), done]);
    gate.release();
  }
  const stores = await done;
  t.is(gate.maxRunning, 1, 'never two replays at once');
  t.is(states.builds, 3, 'one build per distinct position');
  t.is(stores[0], stores[1], 'the same state for readers of one position');
  t.deepEqual(await Promise.all(stores.map((s) => s.count('dcim.site', {}))), [5, 5, 9, 12, 9, 5]);
  t.deepEqual(gate.outcomes, ['started 5', 'built 5', 'started 9', 'built 9', 'started 12', 'built 12']);
});

test('beyond the queue a build is refused with a retry time; cached and shared positions are still served', async (t) => {
  const states = new PastStates(t.context.audit, registry, memoryPastStores(registry), { maxQueued: 1 });
  const gate = pastStateGate();
  states.hooks = gate.hooks;
  const running = states.at(3);
  await gate.held();
  const queued = states.at(4);
  const refused = await t.throwsAsync(() => states.at(6), { instanceOf: PastStatesBusyError });
  t.true(refused!.retryAfterSeconds >= 1);
  const sameAsQueued = states.at(4); // joins the queued build: no new slot needed
  const sameAsRunning = states.at(3);
  gate.release();
  await gate.held();
  gate.release();
  t.is(await running, await sameAsRunning);
  t.is(await queued, await sameAsQueued);
  t.is(states.builds, 2);
  t.is(await sites(states, 3), 3, 'kept: served without a build');
  t.is(states.builds, 2);
});

test('a build whose every reader left is cancelled at its next yield point; a queued one is dropped', async (t) => {
  const states = new PastStates(t.context.audit, registry, memoryPastStores(registry), { maxQueued: 5 });
  const gate = pastStateGate();
  states.hooks = gate.hooks;
  const first = new AbortController();
  const second = new AbortController();
  const a = states.at(10, first.signal);
  const b = states.at(10, second.signal);
  await gate.held();
  const queuedAlone = new AbortController();
  const c = states.at(15, queuedAlone.signal);
  const d = states.at(17);

  first.abort();
  await t.throwsAsync(a, { instanceOf: PastStateCancelledError });
  t.false(gate.events.includes('abandoned 10'), 'one reader still waits: the build goes on');
  queuedAlone.abort();
  await t.throwsAsync(c, { instanceOf: PastStateCancelledError });
  t.true(gate.events.includes('cancelled 15'), 'a queued build nobody waits for is dropped before it starts');
  second.abort();
  await t.throwsAsync(b, { instanceOf: PastStateCancelledError });
  await gate.seen('abandoned 10');
  gate.release(); // the replay leaves its yield point and sees that nobody waits
  await gate.seen('cancelled 10');
  await gate.held();
  gate.release();
  t.is(await (await d).count('dcim.site', {}), 17, 'the next queued build then runs');
  t.deepEqual(gate.outcomes, ['started 10', 'cancelled 15', 'abandoned 10', 'cancelled 10', 'started 17', 'built 17']);
  t.is(states.cancelled, 2);
  t.deepEqual(states.cachedPositions, [17], 'a cancelled state is not kept');
});

test('a reader that comes back before the replay noticed the cancellation revives the build', async (t) => {
  const states = new PastStates(t.context.audit, registry, memoryPastStores(registry));
  const gate = pastStateGate();
  states.hooks = gate.hooks;
  const leaving = new AbortController();
  const a = states.at(8, leaving.signal);
  await gate.held();
  leaving.abort();
  await t.throwsAsync(a, { instanceOf: PastStateCancelledError });
  const again = states.at(8);
  gate.release();
  t.is(await (await again).count('dcim.site', {}), 8);
  t.is(states.builds, 1);
});

test('kept states are bounded by count and by approximate bytes', async (t) => {
  const byCount = new PastStates(t.context.audit, registry, memoryPastStores(registry), { maxEntries: 2 });
  for (const p of [2, 4, 6]) await byCount.at(p);
  t.deepEqual(byCount.cachedPositions, [4, 6], 'the least recently used is dropped');
  await byCount.at(4);
  t.deepEqual(byCount.cachedPositions, [6, 4], 'a read makes a state recently used');
  await byCount.at(2);
  t.is(byCount.builds, 4, 'a dropped state is rebuilt');

  const probe = new PastStates(t.context.audit, registry, memoryPastStores(registry));
  await probe.at(20);
  const oneState = probe.cachedBytes;
  t.true(oneState > 0, 'a state has a size');
  const byBytes = new PastStates(t.context.audit, registry, memoryPastStores(registry), {
    maxEntries: 10,
    maxBytes: oneState * 1.5,
  });
  await byBytes.at(20);
  await byBytes.at(19);
  t.deepEqual(byBytes.cachedPositions, [19], 'two full states do not fit');
  t.true(byBytes.cachedBytes <= oneState * 1.5);
  const tiny = new PastStates(t.context.audit, registry, memoryPastStores(registry), { maxBytes: 1 });
  t.is(await sites(tiny, 20), 20, 'a state larger than the bound is still served');
  t.deepEqual(tiny.cachedPositions, [], 'but not kept');
});
