/**
 * Allocations the log's storage refused leave nothing behind: once writes are accepted
 * again, the addresses they were decided with are free and handed out again, lowest first.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import test from 'ava';

import { SecretKeeper } from '../../src/auth/secrets.js';
import { allocateObjects } from '../../src/commands/allocateObjects.js';
import { systemClock } from '../../src/commands/clock.js';
import { createObjects } from '../../src/commands/createObjects.js';
import type { CommandEnvironment } from '../../src/commands/decideObject.js';
import { runFollowUps } from '../../src/commands/followUps.js';
import { WriteCoordinator } from '../../src/commands/WriteCoordinator.js';
import { WriterUnavailableError } from '../../src/errors/requestErrors.js';
import { FileEventLog } from '../../src/events/file/FileEventLog.js';
import { prefixAvailableIps } from '../../src/models/allocation/availableIps.js';
import { registry } from '../../src/models/registry.js';
import { MemoryReadStore } from '../../src/projections/memory/MemoryReadStore.js';
import { Projector } from '../../src/projections/Projector.js';
import { readModelIndexes } from '../../src/projections/readModelIndexes.js';
import { FaultyFileSystem } from '../support/faultyFileSystem.js';

test('allocations refused by a full disk are forgotten: after recovery the same addresses are handed out', async (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'netledger-allocation-outage-'));
  const disk = new FaultyFileSystem();
  const log = new FileEventLog({ dir, fs: disk, logger: () => {} });
  await log.open();
  const store = new MemoryReadStore();
  for (const [collection, fields] of readModelIndexes(registry)) await store.ensureIndexes(collection, fields);
  const projector = new Projector(log, store, registry);
  await projector.start();
  const coordinator = new WriteCoordinator(log, store, projector, registry, systemClock, {
    retry: { firstMs: 60_000, maxMs: 60_000 },
  });
  await coordinator.init();
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
  const context = () => ({ requestId: crypto.randomUUID(), user: null });
  const created = await coordinator.execute(context(), (tx) =>
    createObjects(env, tx, registry.get('ipam.prefix'), [{ prefix: '10.0.0.0/29' }], { bulk: false }),
  );
  const prefix = created.result.ids[0]!;
  await coordinator.execute(context(), (tx) =>
    createObjects(env, tx, registry.get('ipam.ipaddress'), [{ address: '10.0.0.1/29' }], { bulk: false }),
  );
  const allocate = (count: number) =>
    coordinator.execute(context(), (tx) =>
      allocateObjects(
        env,
        tx,
        'ipam.prefix',
        prefix,
        prefixAvailableIps,
        Array.from({ length: count }, () => ({})),
        { bulk: true },
      ),
    );
  const addresses = (events: Array<{ postchange: Record<string, unknown> | null }>) =>
    events.map((e) => e.postchange?.address);

  disk.free = 0;
  const refused = await Promise.allSettled([allocate(2), allocate(1)]);
  t.deepEqual(
    refused.map((r) => r.status === 'rejected' && r.reason instanceof WriterUnavailableError),
    [true, true],
  );
  disk.free = null;
  (coordinator as unknown as { outage: { nextAttemptAt: number } }).outage.nextAttemptAt = 0;
  t.deepEqual(addresses((await allocate(3)).events), ['10.0.0.2/29', '10.0.0.3/29', '10.0.0.4/29']);
  t.is(await store.count('ipam.ipaddress', {}), 4);
});
