/**
 * The writer's decisions around an outage of the log's storage, driven directly (no
 * HTTP): refused writes carry a Retry-After, the outage is reported once however many
 * writes fail, decided-but-failed changes are forgotten (positions and ids continue from
 * what is durable), and an error that is not the storage's stops the writer for good.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import test, { type ExecutionContext } from 'ava';

import { SecretKeeper } from '../../src/auth/secrets.js';
import { systemClock } from '../../src/commands/clock.js';
import { createObjects } from '../../src/commands/createObjects.js';
import type { CommandEnvironment } from '../../src/commands/decideObject.js';
import { runFollowUps } from '../../src/commands/followUps.js';
import { WriteCoordinator } from '../../src/commands/WriteCoordinator.js';
import { WriterUnavailableError } from '../../src/errors/requestErrors.js';
import { FileEventLog } from '../../src/events/file/FileEventLog.js';
import { registry } from '../../src/models/registry.js';
import { MemoryReadStore } from '../../src/projections/memory/MemoryReadStore.js';
import { Projector } from '../../src/projections/Projector.js';
import { FaultyFileSystem } from '../support/faultyFileSystem.js';

async function writer(t: ExecutionContext, firstMs = 60_000) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'netledger-outage-'));
  const disk = new FaultyFileSystem();
  const log = new FileEventLog({ dir, fs: disk, logger: () => {} });
  await log.open();
  const store = new MemoryReadStore();
  const projector = new Projector(log, store, registry);
  await projector.start();
  // A long first back-off: nothing retries unless the test says so.
  const coordinator = new WriteCoordinator(log, store, projector, registry, systemClock, {
    retry: { firstMs, maxMs: firstMs },
  });
  await coordinator.init();
  const events = { outages: [] as string[], recoveries: 0, fatal: [] as string[] };
  coordinator.onOutage = (error) => events.outages.push(error.message);
  coordinator.onRecovered = () => events.recoveries++;
  coordinator.onFatal = (error) => events.fatal.push(error.message);
  t.teardown(async () => {
    coordinator.close();
    await projector.stop();
    await log.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const env: CommandEnvironment = {
    registry,
    secrets: new SecretKeeper('k', false),
    settings: { enforceGlobalUnique: false },
    followUps: runFollowUps,
  };
  const createTag = (name: string) =>
    coordinator.execute({ requestId: crypto.randomUUID(), user: null }, (tx) =>
      createObjects(env, tx, registry.get('extras.tag'), [{ name, slug: name }], { bulk: false }),
    );
  return { disk, log, store, coordinator, events, createTag };
}

test('a full disk: every write is refused with Retry-After, the outage is reported once, and failed decisions are forgotten', async (t) => {
  const { disk, log, coordinator, events, createTag } = await writer(t);
  const first = await createTag('a');
  t.deepEqual(
    first.events.map((e) => [e.position, e.objectId]),
    [[1, 1]],
  );

  disk.free = 0;
  const refused = await Promise.allSettled([createTag('b'), createTag('c'), createTag('d')]);
  for (const outcome of refused) {
    t.is(outcome.status, 'rejected');
    const error = (outcome as PromiseRejectedResult).reason;
    t.true(error instanceof WriterUnavailableError);
    t.true(error.logged, 'the writer logs the outage itself');
    t.true(error.retryAfterSeconds >= 1 && error.retryAfterSeconds <= 60);
  }
  await t.throwsAsync(createTag('e'), {
    instanceOf: WriterUnavailableError,
    message: /event log unavailable: .*ENOSPC/,
  });
  t.is(events.outages.length, 1);
  t.like(coordinator.health(), { state: 'unavailable' });
  t.regex(coordinator.health().reason!, /ENOSPC/);
  t.is(log.head(), 1);

  // Space is back; the next write after the retry time recovers first (here: at once).
  disk.free = null;
  (coordinator as unknown as { outage: { nextAttemptAt: number } }).outage.nextAttemptAt = 0;
  const after = await createTag('b');
  t.deepEqual(
    after.events.map((e) => [e.position, e.objectId]),
    [[2, 2]],
    'positions and ids continue from what is durable',
  );
  t.is(events.recoveries, 1);
  t.deepEqual(coordinator.health(), { state: 'up' });
  t.is(events.outages.length, 1);
  t.deepEqual(events.fatal, []);
});

test('the retry timer recovers the writer without any write arriving', async (t) => {
  const { disk, coordinator, events, createTag } = await writer(t, 10);
  disk.free = 0;
  await t.throwsAsync(createTag('a'), { instanceOf: WriterUnavailableError });
  disk.free = null;
  await new Promise<void>((resolve) => {
    coordinator.onRecovered = () => resolve();
  });
  t.deepEqual(coordinator.health(), { state: 'up' });
  t.deepEqual(
    (await createTag('a')).events.map((e) => e.position),
    [1],
  );
  t.deepEqual(events.fatal, []);
});

test("an append error that is not the storage's stops the writer for good, reported once", async (t) => {
  const { disk, coordinator, events, createTag } = await writer(t, 10);
  disk.syncError = 'EBADF';
  await Promise.allSettled([createTag('a'), createTag('b')]);
  disk.syncError = null;
  await t.throwsAsync(createTag('c'), { instanceOf: WriterUnavailableError, message: /writer stopped/ });
  t.like(coordinator.health(), { state: 'stopped' });
  t.is(events.fatal.length, 1);
  t.deepEqual(events.outages, []);
});
