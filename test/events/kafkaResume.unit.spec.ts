/**
 * Subscriptions resume from a cursor instead of reading the Kafka partition from its
 * start (issue 15, item 6): against the fake cluster (test/support/fakeKafka.ts), which
 * records where every consumer fetched from.
 */
import test, { type ExecutionContext } from 'ava';

import { AuditIndex } from '../../src/audit/AuditIndex.js';
import { AuditLog } from '../../src/audit/AuditLog.js';
import { captureAuditState } from '../../src/audit/AuditSnapshots.js';
import { IdempotencyIndex } from '../../src/audit/IdempotencyIndex.js';
import { decodeAuditState, encodeAuditState } from '../../src/audit/indexSnapshot.js';
import type { ChangeEvent } from '../../src/events/ChangeEvent.js';
import type { LogCursor, ResumePoint } from '../../src/events/EventLog.js';
import { offsetOfCursor } from '../../src/events/kafka/kafkaCursor.js';
import { type KafkaClient, KafkaEventLog, type KafkaEventLogOptions } from '../../src/events/kafka/KafkaEventLog.js';
import { encode } from '../../src/events/kafka/messages.js';
import { registry } from '../../src/models/registry.js';
import { MemoryReadStore } from '../../src/projections/memory/MemoryReadStore.js';
import { parseReadModels, serialiseReadModels } from '../../src/projections/memory/snapshots/readModelSnapshot.js';
import { Projector } from '../../src/projections/Projector.js';
import { FakeKafkaCluster } from '../support/fakeKafka.js';
import { makeBatch } from '../support/makeEvent.js';

let instances = 0;

async function openLog(t: ExecutionContext, cluster: FakeKafkaCluster, options: Partial<KafkaEventLogOptions> = {}) {
  const clientId = `instance-${++instances}`;
  const log = new KafkaEventLog({
    brokers: ['broker-1:9092'],
    clientId,
    replicationFactor: 1,
    logLevel: 'nothing',
    client: cluster.client,
    onSubscriptionError: () => {},
    ...options,
  });
  t.teardown(() => log.close());
  await log.open();
  return { log, clientId };
}

/** Three appends: positions 1-3, 4-5, 6-8. */
async function writtenCluster(t: ExecutionContext): Promise<FakeKafkaCluster> {
  const cluster = new FakeKafkaCluster();
  const { log } = await openLog(t, cluster);
  await log.append(makeBatch(1, 3));
  await log.append(makeBatch(4, 2));
  await log.append(makeBatch(6, 3));
  return cluster;
}

/** Subscribes, collects until caught up, stops; returns positions and each batch's cursor. */
async function follow(log: KafkaEventLog, from: number, resume?: ResumePoint | null) {
  const positions: number[] = [];
  const cursors = new Map<number, LogCursor>();
  const subscription = log.subscribe(
    from,
    async (events: ChangeEvent[], cursor?: LogCursor) => {
      positions.push(...events.map((e) => e.position));
      if (cursor !== undefined) cursors.set(events.at(-1)!.position, cursor);
    },
    resume,
  );
  await subscription.caughtUp;
  await subscription.stop();
  return { positions, cursors };
}

/** Where each of this instance's readers of one purpose (subscribe, read, ...) started fetching. */
function startsOf(cluster: FakeKafkaCluster, clientId: string, purpose: string): number[] {
  const firsts = new Map<string, number>();
  for (const f of cluster.fetches)
    if (f.groupId.startsWith(`${clientId}.${purpose}.`) && !firsts.has(f.groupId)) firsts.set(f.groupId, f.offset);
  return [...firsts.values()];
}

function subscriptionStarts(cluster: FakeKafkaCluster, clientId: string): number[] {
  return startsOf(cluster, clientId, 'subscribe');
}

test('kafka resume: every delivered batch comes with a cursor; handed back, a new instance reads from there, not from the start', async (t) => {
  const cluster = await writtenCluster(t);
  const first = await openLog(t, cluster, { follower: {} });
  const { positions, cursors } = await follow(first.log, 1);
  t.deepEqual(positions, [1, 2, 3, 4, 5, 6, 7, 8]);
  t.deepEqual([...cursors.keys()], [3, 5, 8], 'one cursor per appended batch');

  const restarted = await openLog(t, cluster, { follower: {} });
  const resumed = await follow(restarted.log, 6, { position: 5, cursor: cursors.get(5)! });
  t.deepEqual(resumed.positions, [6, 7, 8]);
  t.deepEqual(
    subscriptionStarts(cluster, restarted.clientId),
    [Number(offsetOfCursor(cursors.get(5)!))],
    'the first fetch starts at the cursor',
  );
  t.true(subscriptionStarts(cluster, restarted.clientId)[0]! > 0);
});

test('kafka resume: a cursor older than the position asked for is still good: the events before `from` are skipped', async (t) => {
  const cluster = await writtenCluster(t);
  const { cursors } = await follow((await openLog(t, cluster, { follower: {} })).log, 1);
  const restarted = await openLog(t, cluster, { follower: {} });
  const resumed = await follow(restarted.log, 7, { position: 3, cursor: cursors.get(3)! });
  t.deepEqual(resumed.positions, [7, 8]);
});

// Serial: it replaces console.warn, which concurrent tests share.
test.serial(
  'kafka resume: a cursor that leads past the wanted event (a recreated topic) costs a read from the start, never an event',
  async (t) => {
    const cluster = await writtenCluster(t);
    const { cursors } = await follow((await openLog(t, cluster, { follower: {} })).log, 1);
    const restarted = await openLog(t, cluster, { follower: {} });
    const warnings = captureWarnings(t);
    // Says position 3 ends where position 5 does: reading there would begin at 6.
    const resumed = await follow(restarted.log, 4, { position: 3, cursor: cursors.get(5)! });
    t.deepEqual(resumed.positions, [4, 5, 6, 7, 8]);
    t.deepEqual(
      subscriptionStarts(cluster, restarted.clientId),
      [Number(offsetOfCursor(cursors.get(5)!)), 0],
      'seeked, found 6, started over at 0',
    );
    t.regex(warnings.join('\n'), /does not match the topic \(found 6\); reading from the beginning/);
  },
);

// Serial: it replaces console.warn, which concurrent tests share.
test.serial(
  'kafka resume: a cursor that lands on commit markers only while the log holds events after its position (a recreated topic) costs a read from the start, never an event',
  async (t) => {
    const cluster = await writtenCluster(t);
    const { cursors } = await follow((await openLog(t, cluster, { follower: {} })).log, 1);
    const restarted = await openLog(t, cluster, { follower: {} });
    const warnings = captureWarnings(t);
    // Says position 1 ends where position 8 does: after it lies only the last commit marker.
    const resumed = await follow(restarted.log, 2, { position: 1, cursor: cursors.get(8)! });
    t.deepEqual(resumed.positions, [2, 3, 4, 5, 6, 7, 8]);
    t.deepEqual(
      subscriptionStarts(cluster, restarted.clientId),
      [Number(offsetOfCursor(cursors.get(8)!)), 0],
      'seeked, found no event, started over at 0',
    );
    t.regex(warnings.join('\n'), /does not match the topic \(found 8\); reading from the beginning/);
  },
);

// Serial: it replaces console.warn, which concurrent tests share.
test.serial(
  'kafka resume: a cursor beyond the end of the topic, or not a Kafka cursor at all, reads from the start',
  async (t) => {
    const cluster = await writtenCluster(t);
    const warn = console.warn;
    console.warn = () => {};
    t.teardown(() => void (console.warn = warn));
    const starts: number[] = [];
    // A fresh instance each time: one that has read the topic once locates position 5 by itself.
    for (const cursor of ['kafka:9999', 'file:12', 'kafka:-1']) {
      const restarted = await openLog(t, cluster, { follower: {} });
      t.deepEqual((await follow(restarted.log, 6, { position: 5, cursor })).positions, [6, 7, 8]);
      starts.push(...subscriptionStarts(cluster, restarted.clientId));
    }
    t.deepEqual(starts, [0, 0, 0]);
  },
);

test('kafka resume: a subscription from just after the head found at open (the auth cache) starts at its end and is caught up at once', async (t) => {
  const cluster = await writtenCluster(t);
  const { log, clientId } = await openLog(t, cluster, { transactionalId: 'netledger-writer' });
  t.is(log.head(), 8);
  const seen: number[] = [];
  const subscription = log.subscribe(9, async (events) => void seen.push(...events.map((e) => e.position)));
  await subscription.caughtUp;
  t.deepEqual(seen, []);
  await log.append(makeBatch(9, 2));
  // Delivery is asynchronous: wait for the batch, not for time.
  while (seen.length < 2) await new Promise((resolve) => setImmediate(resolve));
  t.deepEqual(seen, [9, 10]);
  const starts = subscriptionStarts(cluster, clientId);
  t.is(starts.length, 1);
  t.true(starts[0]! > 0, 'nothing before the head was fetched');
  await subscription.stop();
});

// Serial: it replaces console.warn, which concurrent tests share.
test.serial(
  'kafka fault: a cursor at the end of the partition, resumed right after a commit whose markers are not written yet (the last stable offset leaves it out), is not taken for a foreign one',
  async (t) => {
    const cluster = new FakeKafkaCluster();
    const { log, clientId } = await openLog(t, cluster, { transactionalId: 'netledger-writer' });
    await log.append(makeBatch(1, 3));
    await log.append(makeBatch(4, 2));
    const { cursors } = await follow((await openLog(t, cluster, { follower: {} })).log, 1);
    // Past the commit marker after position 5: the partition's end then (a consumer's position after it).
    const end = offsetOfCursor(cursors.get(5)!)! + 1n;
    // The commit returns; the subscription's first look at the partition's end does not show it yet
    // (the append's own wait for it gave up: the end could not be read then).
    cluster.deferNextMarkers(1);
    cluster.failNext('fetchTopicOffsets', new Error('no answer'));
    await quietly(() => log.append(makeBatch(6, 2)));
    t.is(log.head(), 7);
    const warnings = captureWarnings(t);
    const resumed = await follow(log, 6, { position: 5, cursor: `kafka:${end}` });
    t.deepEqual(resumed.positions, [6, 7]);
    t.deepEqual(warnings, []);
    t.deepEqual(subscriptionStarts(cluster, clientId), [Number(end)], 'read from the cursor, not from the start');
  },
);

// Serial: it replaces console.warn, which concurrent tests share.
test.serial(
  'kafka fault: a subscription from just after the head found at open, made right after a commit whose markers are not written yet, reads on from its seek instead of starting over',
  async (t) => {
    const cluster = await writtenCluster(t);
    const { log, clientId } = await openLog(t, cluster, { transactionalId: 'netledger-writer' });
    t.is(log.head(), 8);
    // The end stays where it was for the subscription's look at it (the append's own wait for
    // it gave up: the end could not be read then).
    cluster.deferNextMarkers(1);
    cluster.failNext('fetchTopicOffsets', new Error('no answer'));
    await quietly(() => log.append(makeBatch(9, 2)));
    const warnings = captureWarnings(t);
    const resumed = await follow(log, 9);
    t.deepEqual(resumed.positions, [9, 10]);
    t.deepEqual(warnings, []);
    const starts = subscriptionStarts(cluster, clientId);
    t.is(starts.length, 1, 'one reader: no start over');
    t.true(starts[0]! > 0, 'nothing before the head was fetched');
  },
);

// Serial: it replaces console.warn, which concurrent tests share.
test.serial(
  'kafka fault: a seeking subscription whose end re-check waits while an aborted transaction moves the end is caught up without a further write',
  async (t) => {
    const cluster = await writtenCluster(t);
    const quiet = { follower: { headRefreshMs: 600_000 } }; // no head refresh asks for the end meanwhile
    const { cursors } = await follow((await openLog(t, cluster, quiet)).log, 1);
    // Another producer's transaction is open at the end: the last stable offset stays before it.
    const topic = [...cluster.topics.keys()][0]!;
    const producer = (cluster.client({}) as KafkaClient).producer({ transactionalId: 'aborting-writer' });
    await producer.connect();
    const tx = await producer.transaction();
    await tx.send({ topic, messages: makeBatch(9, 2).map((e) => encode(e, 10)) });
    const restarted = await openLog(t, cluster, quiet);
    const warnings = captureWarnings(t);
    const seen: number[] = [];
    // Says position 1 ends where position 8 does: after it lies only the last commit marker, and
    // the log's head is 8, so reaching the end without an event re-checks the end.
    const cursor = cursors.get(8)!;
    const subscription = restarted.log.subscribe(
      2,
      async (events) => void seen.push(...events.map((e) => e.position)),
      { position: 1, cursor },
    );
    t.teardown(() => subscription.stop());
    const seekOffset = Number(offsetOfCursor(cursor));
    const fetchedFrom = (offset: number) =>
      cluster.fetches.some((f) => f.groupId.startsWith(`${restarted.clientId}.subscribe.`) && f.offset === offset);
    // The reader reads the commit marker and reaches the end: the re-check starts (its wait).
    while (!fetchedFrom(seekOffset)) await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    // Meanwhile the transaction is aborted: the end moves past aborted records and the abort
    // marker, which the reader passes before the re-check reads the end again.
    cluster.beforeNextOffsets = async () => {
      while (!fetchedFrom(seekOffset + 1)) await new Promise((resolve) => setImmediate(resolve));
      await new Promise((resolve) => setImmediate(resolve));
    };
    await tx.abort();
    await subscription.caughtUp;
    t.deepEqual(seen, [2, 3, 4, 5, 6, 7, 8]);
    t.regex(warnings.join('\n'), /does not match the topic \(found 8\); reading from the beginning/);
    t.deepEqual(
      subscriptionStarts(cluster, restarted.clientId),
      [seekOffset, 0],
      'seeked, found no event, started over at 0',
    );
  },
);

test('kafka resume: what a seeking subscription skipped is located when a random read first needs it, so random reads of it fetch by offset instead of scanning', async (t) => {
  const cluster = await writtenCluster(t);
  const { cursors } = await follow((await openLog(t, cluster, { follower: {} })).log, 1);
  const { log, clientId } = await openLog(t, cluster, { follower: {} });
  await follow(log, 6, { position: 5, cursor: cursors.get(5)! });
  const purposes = () =>
    new Set(cluster.fetches.filter((f) => f.groupId.startsWith(`${clientId}.`)).map((f) => f.groupId.split('.')[1]));
  t.false(purposes().has('locate'), 'a restart reads nothing before its cursors by itself');
  const events = await log.readPositions([2, 4, 7]);
  t.deepEqual(
    events.map((e) => e.position),
    [2, 4, 7],
  );
  t.true(purposes().has('locate'), 'the skipped part was located');
  t.false(purposes().has('read'), 'no read of the partition from its start');
});

test('kafka resume: a position read with its cursor (a snapshot checked at start) is fetched there: no locating, no scan', async (t) => {
  const cluster = await writtenCluster(t);
  const { cursors } = await follow((await openLog(t, cluster, { follower: {} })).log, 1);
  const { log, clientId } = await openLog(t, cluster, { follower: {} });
  const [event] = await log.readPositions([5], { position: 5, cursor: cursors.get(5)! });
  t.is(event?.position, 5);
  t.deepEqual(startsOf(cluster, clientId, 'positions'), [Number(offsetOfCursor(cursors.get(5)!)) - 1]);
  t.deepEqual(startsOf(cluster, clientId, 'read'), [], 'no scan from the start');
  t.deepEqual(startsOf(cluster, clientId, 'locate'), []);
  // A cursor of another topic leads elsewhere: the position is still found, by a scan.
  const [other] = await log.readPositions([3], { position: 3, cursor: cursors.get(5)! });
  t.is(other?.position, 3);
});

test('kafka resume: the projector keeps the cursor with the read models and, restarted on them, reads the log from there', async (t) => {
  const cluster = await writtenCluster(t);
  const store = new MemoryReadStore();
  const before = await openLog(t, cluster, { follower: {} });
  const first = new Projector(before.log, store, registry);
  await first.start();
  await first.stop();
  const resume = await store.resumePoint();
  t.is(resume?.position, 8);

  // The store as a snapshot would bring it back: the cursor goes with the documents.
  const restored = new MemoryReadStore();
  restored.restore(await parseReadModels(serialiseReadModels(store.capture())));
  t.deepEqual(await restored.resumePoint(), resume);

  const writer = await openLog(t, cluster, { transactionalId: 'netledger-writer' });
  await writer.log.append(makeBatch(9, 2));
  const after = await openLog(t, cluster, { follower: {} });
  const second = new Projector(after.log, restored, registry);
  t.teardown(() => second.stop());
  await second.start();
  t.is(second.position, 10);
  t.is(second.appliedEvents, 2, 'only the tail was applied');
  t.deepEqual(subscriptionStarts(cluster, after.clientId), [Number(offsetOfCursor(resume!.cursor))]);
  t.is((await restored.get('dcim.site', 10))?.name, 'site-10');
});

test('kafka resume: the audit index keeps the cursor in its snapshot and, adopted, reads the log from there', async (t) => {
  const cluster = await writtenCluster(t);
  const before = await openLog(t, cluster, { follower: {} });
  const audit = new AuditLog(before.log, registry);
  await audit.open();
  t.is(audit.resumePoint?.position, 8);
  const state = decodeAuditState(Buffer.concat([...encodeAuditState(captureAuditState(audit))]));
  t.deepEqual(state.resume, audit.resumePoint);
  await audit.close();

  const index = new AuditIndex(registry);
  index.load(state.index);
  const idempotency = new IdempotencyIndex();
  idempotency.load(state.idempotency);
  const writer = await openLog(t, cluster, { transactionalId: 'netledger-writer' });
  await writer.log.append(makeBatch(9, 1));
  const after = await openLog(t, cluster, { follower: {} });
  const adopted = new AuditLog(after.log, registry);
  adopted.adopt(index, idempotency, state.resume ?? null);
  t.teardown(() => adopted.close());
  await adopted.open();
  t.is(adopted.head, 9);
  t.deepEqual(subscriptionStarts(cluster, after.clientId), [Number(offsetOfCursor(state.resume!.cursor))]);
});

test('kafka resume: read(from) starts at `from` once this instance has located it (as_of replays, history ranges)', async (t) => {
  const cluster = await writtenCluster(t);
  const { log, clientId } = await openLog(t, cluster, { follower: {} });
  const readFrom = async (from: number) => {
    const out: number[] = [];
    for await (const batch of log.read(from)) out.push(...batch.map((e) => e.position));
    return out;
  };
  const readStarts = () => startsOf(cluster, clientId, 'read');
  t.deepEqual(await readFrom(7), [7, 8]);
  t.deepEqual(readStarts(), [0], 'not located yet: a scan from the start');
  await follow(log, 1); // a subscription locates every event
  t.deepEqual(await readFrom(7), [7, 8]);
  t.deepEqual(await readFrom(5), [5, 6, 7, 8], 'a batch entered in its middle yields its tail');
  const [, at7, at5] = readStarts();
  t.true(at7! > at5! && at5! > 0, `seeked (${at5}, ${at7})`);
});

/** console.warn's lines for the rest of the test (callers run serially: the console is shared). */
function captureWarnings(t: ExecutionContext): string[] {
  const warnings: string[] = [];
  const warn = console.warn;
  console.warn = (message: string) => void warnings.push(message);
  t.teardown(() => void (console.warn = warn));
  return warnings;
}

/** Runs `action` with console.warn silenced (serial tests only: concurrent ones share it). */
async function quietly<T>(action: () => Promise<T>): Promise<T> {
  const warn = console.warn;
  console.warn = () => {};
  try {
    return await action();
  } finally {
    console.warn = warn;
  }
}
