/**
 * The allocation decision inside the single writer: a request decided while an earlier
 * allocation is still waiting for its append sees that allocation (staged, not yet
 * durable nor projected), so the two never receive the same address.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import test from 'ava';

import { SecretKeeper } from '../../src/auth/secrets.js';
import { allocateObjects } from '../../src/commands/allocateObjects.js';
import { systemClock } from '../../src/commands/clock.js';
import { createObjects } from '../../src/commands/createObjects.js';
import { deleteObjects } from '../../src/commands/deleteObjects.js';
import { runFollowUps } from '../../src/commands/followUps.js';
import { updateObjects } from '../../src/commands/updateObjects.js';
import { WriteCoordinator } from '../../src/commands/WriteCoordinator.js';
import { ConflictError, NotFoundError, ValidationError } from '../../src/errors/requestErrors.js';
import type { ChangeEvent } from '../../src/events/ChangeEvent.js';
import type { EventLog } from '../../src/events/EventLog.js';
import { FileEventLog } from '../../src/events/file/FileEventLog.js';
import { prefixAvailableIps } from '../../src/models/allocation/availableIps.js';
import { registry } from '../../src/models/registry.js';
import { lookupView } from '../../src/projections/lookupView.js';
import { MemoryReadStore } from '../../src/projections/memory/MemoryReadStore.js';
import { Projector } from '../../src/projections/Projector.js';
import { readModelIndexes } from '../../src/projections/readModelIndexes.js';

/** A log whose appends wait until the test opens the gate. */
class GatedLog implements EventLog {
  private gate: Promise<void> = Promise.resolve();
  private openGate: () => void = () => {};
  constructor(private readonly inner: EventLog) {}
  hold(): void {
    this.gate = new Promise((resolve) => (this.openGate = resolve));
  }
  release(): void {
    this.openGate();
  }
  open = () => this.inner.open();
  append = (events: ChangeEvent[]) => this.gate.then(() => this.inner.append(events));
  head = () => this.inner.head();
  read = (from: number) => this.inner.read(from);
  readPositions = (positions: readonly number[]) => this.inner.readPositions(positions);
  subscribe: EventLog['subscribe'] = (from, onBatch) => this.inner.subscribe(from, onBatch);
  close = () => this.inner.close();
}

async function writer(t: { teardown(fn: () => unknown): void }) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'netledger-allocate-'));
  const log = new GatedLog(new FileEventLog({ dir }));
  const store = new MemoryReadStore();
  await log.open();
  await store.open();
  for (const [collection, fields] of readModelIndexes(registry)) await store.ensureIndexes(collection, fields);
  const projector = new Projector(log, store, registry);
  await projector.start();
  const coordinator = new WriteCoordinator(log, store, projector, registry, systemClock);
  await coordinator.init();
  t.teardown(async () => {
    await projector.stop();
    await log.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const env = {
    registry,
    secrets: new SecretKeeper('test-secret', false),
    settings: { enforceGlobalUnique: false },
    followUps: runFollowUps,
  };
  const context = { requestId: '00000000-0000-4000-8000-000000000000', user: null };
  const create = (model: string, input: unknown) =>
    coordinator
      .execute(context, (tx) => createObjects(env, tx, registry.get(model), [input], { bulk: false }))
      .then(({ result }) => result.ids[0]);
  const allocate = (prefixId: number, requests: unknown[]) =>
    coordinator.execute(context, (tx) =>
      allocateObjects(env, tx, 'ipam.prefix', prefixId, prefixAvailableIps, requests, { bulk: true }),
    );
  const update = (model: string, id: number, input: Record<string, unknown>) =>
    coordinator.execute(context, (tx) =>
      updateObjects(env, tx, registry.get(model), [{ id, input }], { mode: 'patch', bulk: false }),
    );
  const remove = (model: string, ids: number[]) =>
    coordinator.execute(context, (tx) => deleteObjects(env, tx, registry.get(model), ids, { bulk: true }));
  /** The prefix's listing of free addresses (committed state), at most `limit`. */
  const listed = async (prefixId: number, limit: number | null) =>
    (
      await prefixAvailableIps.allocator.available(
        (await store.get('ipam.prefix', prefixId))!,
        lookupView(store),
        limit,
      )
    ).map((e) => e.address);
  return { log, store, create, allocate, update, remove, listed };
}

test('an allocation decided while an earlier one awaits its append sees it; the next finds the prefix full', async (t) => {
  const { log, store, create, allocate } = await writer(t);
  const prefix = await create('ipam.prefix', { prefix: '10.0.0.0/30' });
  log.hold();
  const first = allocate(prefix, [{}]);
  const second = allocate(prefix, [{ description: 'second' }]);
  const third = allocate(prefix, [{}]);
  const refused = await t.throwsAsync(third, { instanceOf: ConflictError });
  t.is(
    refused.message,
    'An insufficient number of IP addresses are available within 10.0.0.0/30 (1 requested, 0 available)',
  );
  t.is(await store.count('ipam.ipaddress', {}), 0, 'nothing durable yet: both allocations are staged');
  log.release();
  const [a, b] = await Promise.all([first, second]);
  const address = (events: ChangeEvent[]) => events.map((e) => e.postchange?.address);
  t.deepEqual(address(a.events), ['10.0.0.1/30']);
  t.deepEqual(address(b.events), ['10.0.0.2/30']);
  t.is(await store.count('ipam.ipaddress', {}), 2);
});

test('an allocation from a parent deleted before the decision is not found, and writes nothing', async (t) => {
  const { log, allocate } = await writer(t);
  const head = log.head();
  await t.throwsAsync(allocate(424242, [{}]), { instanceOf: NotFoundError });
  t.is(log.head(), head);
});

const addressesOf = (events: ChangeEvent[]) =>
  events.filter((e) => e.objectType === 'ipam.ipaddress').map((e) => e.postchange?.address);

test('existing addresses and child prefixes, then deletes and moves: each allocation takes the lowest address free at that moment', async (t) => {
  const { create, allocate, update, remove, listed } = await writer(t);
  const vrf = await create('ipam.vrf', { name: 'blue' });
  const prefix = await create('ipam.prefix', { prefix: '10.0.0.0/28' });
  // Child prefixes take no addresses of their parent's available-ips (as NetBox).
  await create('ipam.prefix', { prefix: '10.0.0.0/30' });
  await create('ipam.prefix', { prefix: '10.0.0.4/32' });
  const ids: Record<string, number> = {};
  for (const host of [1, 2, 3, 5, 6]) ids[host] = await create('ipam.ipaddress', { address: `10.0.0.${host}/24` });
  await create('ipam.ipaddress', { address: '10.0.0.4/28', vrf }); // another VRF: not in the way
  t.deepEqual(addressesOf((await allocate(prefix, [{}])).events), ['10.0.0.4/28']);
  await remove('ipam.ipaddress', [ids[2]!]);
  t.deepEqual(await listed(prefix, 2), ['10.0.0.2/28', '10.0.0.7/28']);
  t.deepEqual(addressesOf((await allocate(prefix, [{}, {}])).events), ['10.0.0.2/28', '10.0.0.7/28']);
  // Moving an address to another VRF, or elsewhere in the table, frees it here.
  await update('ipam.ipaddress', ids[3]!, { vrf });
  await update('ipam.ipaddress', ids[1]!, { address: '10.0.0.12/28' });
  t.deepEqual(await listed(prefix, null), [
    '10.0.0.1/28',
    '10.0.0.3/28',
    '10.0.0.8/28',
    '10.0.0.9/28',
    '10.0.0.10/28',
    '10.0.0.11/28',
    '10.0.0.13/28',
    '10.0.0.14/28',
  ]);
  t.deepEqual(addressesOf((await allocate(prefix, [{}, {}, {}])).events), [
    '10.0.0.1/28',
    '10.0.0.3/28',
    '10.0.0.8/28',
  ]);
  // The prefix itself changing its VRF changes what is in its way.
  await update('ipam.prefix', prefix, { vrf });
  t.deepEqual(await listed(prefix, 3), ['10.0.0.1/28', '10.0.0.2/28', '10.0.0.5/28']);
});

test('a rejected allocation changes nothing: the next one gets the addresses it would have had', async (t) => {
  const { log, store, create, allocate, listed } = await writer(t);
  const prefix = await create('ipam.prefix', { prefix: '10.0.0.0/29' });
  await create('ipam.ipaddress', { address: '10.0.0.1/29' });
  const head = log.head();
  await t.throwsAsync(allocate(prefix, [{}, { status: 'no-such-status' }]), { instanceOf: ValidationError });
  await t.throwsAsync(allocate(prefix, [{}, {}, {}, {}, {}, {}]), { instanceOf: ConflictError });
  t.is(log.head(), head, 'nothing written');
  t.is(await store.count('ipam.ipaddress', {}), 1);
  t.deepEqual(await listed(prefix, null), ['10.0.0.2/29', '10.0.0.3/29', '10.0.0.4/29', '10.0.0.5/29', '10.0.0.6/29']);
  t.deepEqual(addressesOf((await allocate(prefix, [{}, { status: 'reserved' }])).events), [
    '10.0.0.2/29',
    '10.0.0.3/29',
  ]);
});

test('an allocation decided while a delete awaits its append takes the address the delete frees', async (t) => {
  const { log, store, create, allocate, remove } = await writer(t);
  const prefix = await create('ipam.prefix', { prefix: '10.0.0.0/29' });
  const first = await create('ipam.ipaddress', { address: '10.0.0.1/29' });
  await create('ipam.ipaddress', { address: '10.0.0.2/29' });
  log.hold();
  const deleted = remove('ipam.ipaddress', [first]);
  const allocated = allocate(prefix, [{}, {}]);
  t.is(await store.count('ipam.ipaddress', {}), 2, 'the delete is staged, not projected');
  log.release();
  await deleted;
  t.deepEqual(addressesOf((await allocated).events), ['10.0.0.1/29', '10.0.0.3/29']);
});
