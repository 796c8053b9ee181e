import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import test from 'ava';

import { AuditIndex } from '../../src/audit/AuditIndex.js';
import { AuditLog } from '../../src/audit/AuditLog.js';
import {
  AUDIT_INDEX_PART,
  AuditSnapshotWriter,
  captureAuditState,
  loadAuditIndexes,
  writeAuditSnapshot,
} from '../../src/audit/AuditSnapshots.js';
import { IdempotencyIndex } from '../../src/audit/IdempotencyIndex.js';
import { decodeAuditState, encodeAuditState } from '../../src/audit/indexSnapshot.js';
import { formatMicros } from '../../src/audit/time.js';
import type { ChangeEvent } from '../../src/events/ChangeEvent.js';
import { FileEventLog } from '../../src/events/file/FileEventLog.js';
import { registry } from '../../src/models/registry.js';
import { listSnapshots } from '../../src/snapshots/SnapshotFile.js';
import { makeEvent } from '../support/makeEvent.js';
import { seededRandom } from '../support/seededRandom.js';

const T0 = Date.UTC(2024, 0, 1) * 1000;
const TYPES = ['dcim.site', 'dcim.device', 'dcim.interface', 'users.token', 'ipam.prefix', 'not.registered'];
const USERS = [null, { id: 1, username: 'admin' }, { id: 2, username: 'Ünïcode' }, { id: 3, username: 'ops' }];

function uuid(next: () => number): string {
  const hex = Array.from({ length: 32 }, () => Math.floor(next() * 16).toString(16)).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** Requests of 1–5 events over a few types and objects: some big ids, reverts, idempotency keys, a clock that sometimes goes back. */
function randomBatches(seed: number, requests: number): ChangeEvent[][] {
  const next = seededRandom(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!;
  const batches: ChangeEvent[][] = [];
  const requestIds: string[] = [];
  let position = 1;
  let seconds = 0;
  for (let r = 0; r < requests; r++) {
    const requestId = next() < 0.05 && requestIds.length > 0 ? pick(requestIds) : uuid(next);
    requestIds.push(requestId);
    seconds += next() < 0.1 ? -3 : Math.floor(next() * 3);
    const time = formatMicros(T0 + seconds * 1_000_000 + Math.floor(next() * 1000));
    const user = pick(USERS);
    const revertOf = next() < 0.05 && requestIds.length > 1 ? pick(requestIds).toUpperCase() : undefined;
    const idempotency =
      next() < 0.2
        ? {
            key: `key-${Math.floor(next() * 20)}`,
            fingerprint: Array.from({ length: 64 }, () => Math.floor(next() * 16).toString(16)).join(''),
          }
        : undefined;
    const size = 1 + Math.floor(next() * 5);
    const batch: ChangeEvent[] = [];
    for (let i = 0; i < size; i++) {
      const objectId = next() < 0.03 ? 2 ** 41 + Math.floor(next() * 5) : 1 + Math.floor(next() * 40);
      batch.push(
        makeEvent(position++, {
          requestId: r % 3 === 0 ? requestId.toUpperCase() : requestId,
          time,
          user,
          action: pick(['create', 'update', 'delete'] as const),
          objectType: pick(TYPES),
          objectId,
          objectRepr: next() < 0.1 ? '' : `obj ${objectId} ✓ ${Math.floor(next() * 100)}`,
          ...(revertOf ? { revertOf } : {}),
          ...(idempotency && i === 0 ? { idempotency } : {}),
        }),
      );
    }
    batches.push(batch);
  }
  return batches;
}

async function roundTrip(
  index: AuditIndex,
  idempotency: IdempotencyIndex,
): Promise<{ index: AuditIndex; idempotency: IdempotencyIndex }> {
  const body = Buffer.concat([...encodeAuditState({ index: index.capture(), idempotency: idempotency.entries() })]);
  const state = decodeAuditState(body);
  const loaded = new AuditIndex(registry);
  loaded.load(state.index);
  const loadedIdempotency = new IdempotencyIndex();
  loadedIdempotency.load(state.idempotency);
  return { index: loaded, idempotency: loadedIdempotency };
}

/** Every query method's answers, over every position, object, request and a spread of times. */
function answers(index: AuditIndex, idempotency: IdempotencyIndex, batches: ChangeEvent[][]): unknown {
  const head = index.head;
  const perPosition = [];
  for (let p = 1; p <= head; p++) {
    perPosition.push([
      index.timeAt(p),
      index.actionAt(p),
      index.actionCodeAt(p),
      index.typeAt(p),
      index.typeCodeAt(p),
      index.objectIdAt(p),
      index.userIdAt(p),
      index.userNameAt(p),
      index.userNameCodeAt(p),
      index.requestIdAt(p),
      index.requestOrdinalAt(p),
      index.reprAt(p),
      index.isLogged(p),
      index.loggedRank(p),
    ]);
  }
  const events = batches.flat().filter((e) => e.position <= head);
  const requests = [...new Set(events.map((e) => e.requestId.toLowerCase()))];
  const objects = [...new Set(events.map((e) => `${e.objectType}|${e.objectId}`))].map((key) => {
    const [type, id] = key.split('|');
    return [type!, Number(id)] as const;
  });
  const times = [];
  for (let p = 0; p <= head + 1; p += 3) times.push(T0 + (p - 5) * 700_000);
  const now = Date.parse(events.at(-1)?.time ?? '2024-01-01T00:00:00Z');
  return {
    head,
    ordered: index.timesOrdered,
    loggedCount: index.loggedCount,
    logged: Array.from({ length: index.loggedCount }, (_, i) => index.loggedAt(i)),
    perPosition,
    requests: requests.map((id) => [
      index.hasRequest(id),
      index.requestPositions(id.toUpperCase()),
      index.revertsOf(id),
    ]),
    objects: objects.map(([type, id]) => [
      index.objectPositions(type, id),
      index.lastPositionOf(type, id),
      index.objectPositionAt(type, id, Math.floor(head / 2)),
    ]),
    unknown: [
      index.objectPositions('dcim.site', 99999),
      index.requestPositions('00000000-0000-4000-a000-000000000000'),
      index.typeCode('nope'),
    ],
    times: times.map((t) => [index.positionAtTime(t), index.firstPositionFrom(t), index.firstPositionAfter(t)]),
    types: Array.from({ length: index.typeCount() }, (_, code) => [
      index.typeOfCode(code),
      index.typeCode(index.typeOfCode(code)),
    ]),
    userNameCodes: [...index.userNameCodes((name) => name.length > 3)].sort(),
    idempotency: USERS.flatMap((u) =>
      Array.from({ length: 20 }, (_, k) => idempotency.lookup(u?.id ?? null, `key-${k}`, now)),
    ),
  };
}

for (const seed of [1, 2, 3, 4, 5, 6, 7, 8]) {
  test(`seed ${seed}: an index snapshotted at any point, loaded and fed the rest answers like one built from the whole log`, async (t) => {
    const batches = randomBatches(seed, 120 + seed * 10);
    const whole = new AuditIndex(registry);
    const wholeIdempotency = new IdempotencyIndex();
    for (const batch of batches) {
      whole.add(batch);
      wholeIdempotency.add(batch);
    }
    const expected = answers(whole, wholeIdempotency, batches);
    const next = seededRandom(seed * 7919);
    for (const cut of [0, 1, Math.floor(next() * batches.length), batches.length]) {
      const partial = new AuditIndex(registry);
      const partialIdempotency = new IdempotencyIndex();
      for (const batch of batches.slice(0, cut)) {
        partial.add(batch);
        partialIdempotency.add(batch);
      }
      const loaded = await roundTrip(partial, partialIdempotency);
      t.deepEqual(
        answers(loaded.index, loaded.idempotency, batches),
        answers(partial, partialIdempotency, batches),
        `at the snapshot, cut ${cut}`,
      );
      // Re-delivery of the batch at the snapshot point is skipped like in a built index.
      if (cut > 0) loaded.index.add(batches[cut - 1]!);
      for (const batch of batches.slice(cut)) {
        loaded.index.add(batch);
        loaded.idempotency.add(batch);
      }
      t.deepEqual(
        answers(loaded.index, loaded.idempotency, batches),
        expected,
        `snapshot after ${cut} of ${batches.length} batches`,
      );
    }
  });
}

test('the capture is not disturbed by events indexed after it', async (t) => {
  const batches = randomBatches(42, 200);
  const index = new AuditIndex(registry);
  for (const batch of batches.slice(0, 100)) index.add(batch);
  const expected = answers(index, new IdempotencyIndex(), batches);
  const image = index.capture();
  for (const batch of batches.slice(100)) index.add(batch); // grows and rewrites the live columns
  const loaded = new AuditIndex(registry);
  loaded.load(decodeAuditState(Buffer.concat([...encodeAuditState({ index: image, idempotency: [] })])).index);
  t.deepEqual(answers(loaded, new IdempotencyIndex(), batches), expected);
});

test('a snapshot without the request slots (an older one), or with another hash, loads by hashing the ids', (t) => {
  const batches = randomBatches(43, 200);
  const index = new AuditIndex(registry);
  for (const batch of batches.slice(0, 120)) index.add(batch);
  const { requestSlots, ...older } = index.capture();
  t.truthy(requestSlots); // written since the slots exist
  for (const image of [older, { ...older, requestSlots: { hash: 'another', slots: new Int32Array(3) } }]) {
    const loaded = new AuditIndex(registry);
    loaded.load(decodeAuditState(Buffer.concat([...encodeAuditState({ index: image, idempotency: [] })])).index);
    for (const batch of batches.slice(120)) loaded.add(batch);
    const whole = new AuditIndex(registry);
    for (const batch of batches) whole.add(batch);
    t.deepEqual(answers(loaded, new IdempotencyIndex(), batches), answers(whole, new IdempotencyIndex(), batches));
  }
});

async function logWith(dir: string, batches: ChangeEvent[][]): Promise<FileEventLog> {
  const log = new FileEventLog({ dir, logger: () => {} });
  await log.open();
  for (const batch of batches) await log.append(batch);
  return log;
}

test('start-up loads the newest snapshot that matches the log and indexes only the tail', async (t) => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'netledger-auditsnap-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const snapshots = path.join(dir, 'snapshots');
  const batches = randomBatches(9, 60);
  const log = await logWith(dir, batches.slice(0, 40));
  const first = new AuditLog(log, registry);
  await first.open();
  await writeAuditSnapshot(snapshots, log, captureAuditState(first));
  const at = first.head;
  await first.close();
  for (const batch of batches.slice(40)) await log.append(batch);

  const warnings: string[] = [];
  const loaded = await loadAuditIndexes(snapshots, log, registry, (entry) => warnings.push(String(entry.msg)));
  t.truthy(loaded);
  t.is(loaded!.position, at);
  t.deepEqual(warnings, []);
  const resumed = new AuditLog(log, registry);
  resumed.adopt(loaded!.index, loaded!.idempotency);
  let delivered = 0;
  const counting = {
    ...log,
    subscribe: (from: number, onBatch: (events: ChangeEvent[]) => Promise<void>) => {
      t.is(from, at + 1, 'the catch-up starts after the snapshot');
      return log.subscribe(from, async (events) => {
        delivered += events.length;
        await onBatch(events);
      });
    },
  } as unknown as FileEventLog;
  const viaSnapshot = new AuditLog(counting, registry);
  viaSnapshot.adopt(loaded!.index, loaded!.idempotency);
  await viaSnapshot.open();
  t.is(delivered, log.head() - at);

  const rebuilt = new AuditLog(log, registry);
  await rebuilt.open();
  t.deepEqual(
    answers(viaSnapshot.index, viaSnapshot.idempotency, batches),
    answers(rebuilt.index, rebuilt.idempotency, batches),
  );
  await Promise.all([viaSnapshot.close(), rebuilt.close()]);
  await log.close();
});

test('a damaged snapshot, or one of another log, is refused and an older one or the log is used', async (t) => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'netledger-auditsnap-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const snapshots = path.join(dir, 'snapshots');
  const batches = randomBatches(11, 50);
  const log = await logWith(dir, batches.slice(0, 20));
  const audit = new AuditLog(log, registry);
  await audit.open();
  await writeAuditSnapshot(snapshots, log, captureAuditState(audit));
  const older = audit.head;
  for (const batch of batches.slice(20)) await log.append(batch);
  await audit.waitFor(log.head());
  const newest = await writeAuditSnapshot(snapshots, log, captureAuditState(audit));
  await audit.close();

  // One flipped byte in the newest body: refused (checksum), the older one is used.
  const bytes = await readFile(newest);
  bytes[bytes.length - 100]! ^= 0xff;
  await writeFile(newest, bytes);
  const warnings: string[] = [];
  const loaded = await loadAuditIndexes(snapshots, log, registry, (entry) => warnings.push(String(entry.msg)));
  t.is(loaded?.position, older);
  t.regex(warnings.join('\n'), /checksum/);

  // A log whose events at those positions are other events: nothing is used, with a warning.
  const otherDir = await mkdtemp(path.join(os.tmpdir(), 'netledger-auditsnap-other-'));
  t.teardown(() => rm(otherDir, { recursive: true, force: true }));
  const other = await logWith(otherDir, randomBatches(12, 50));
  warnings.length = 0;
  t.is(await loadAuditIndexes(snapshots, other, registry, (entry) => warnings.push(String(entry.msg))), null);
  t.regex(warnings.join('\n'), /not the one it was taken at/);
  t.regex(warnings.join('\n'), /from position 1/);
  await other.close();

  // A log shorter than the snapshot: skipped too.
  const shortDir = await mkdtemp(path.join(os.tmpdir(), 'netledger-auditsnap-short-'));
  t.teardown(() => rm(shortDir, { recursive: true, force: true }));
  const short = await logWith(shortDir, batches.slice(0, 5));
  warnings.length = 0;
  t.is(await loadAuditIndexes(snapshots, short, registry, (entry) => warnings.push(String(entry.msg))), null);
  t.regex(warnings.join('\n'), /beyond the log's head/);
  await short.close();
  await log.close();
});

test('the writer snapshots every so many events in the background and keeps the newest', async (t) => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'netledger-auditsnap-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const snapshots = path.join(dir, 'snapshots');
  const batches = randomBatches(13, 80);
  const log = await logWith(dir, []);
  const audit = new AuditLog(log, registry);
  await audit.open();
  const writer = new AuditSnapshotWriter(audit, log, { dir: snapshots, everyEvents: 25, keep: 2, write: true }, 0);
  writer.start();
  for (const batch of batches) {
    await log.append(batch);
    await audit.waitFor(log.head());
    await writer.idle();
  }
  await writer.stop();
  const entries = await listSnapshots(snapshots, AUDIT_INDEX_PART);
  t.true(writer.written >= Math.floor(log.head() / 30), `${writer.written} snapshots for ${log.head()} events`);
  t.is(entries.length, 2, 'older ones pruned');
  t.true(entries[0]!.position > log.head() - 31);
  t.deepEqual(
    (await readdir(snapshots)).filter((name) => name.endsWith('.tmp')),
    [],
  );
  const loaded = await loadAuditIndexes(snapshots, log, registry);
  t.is(loaded?.position, entries[0]!.position);
  await audit.close();
  await log.close();
});
