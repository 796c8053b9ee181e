/**
 * The Kafka adapter under injected faults, against an in-memory fake of the client
 * library that raises the library's own error classes (test/support/fakeKafka.ts). Each
 * test checks what the caller sees and that nothing acknowledged is lost: every append
 * that resolved is in the topic, once, and nothing that was rejected as not committed is.
 */
import { randomUUID } from 'node:crypto';

import test, { type ExecutionContext } from 'ava';

import { errorResponses } from '../../src/api/middleware/errorResponses.js';
import { AuditLog } from '../../src/audit/AuditLog.js';
import { AuditService } from '../../src/audit/AuditService.js';
import { SecretKeeper } from '../../src/auth/secrets.js';
import { systemClock } from '../../src/commands/clock.js';
import { createObjects } from '../../src/commands/createObjects.js';
import type { CommandEnvironment } from '../../src/commands/decideObject.js';
import { runFollowUps } from '../../src/commands/followUps.js';
import { WriteCoordinator } from '../../src/commands/WriteCoordinator.js';
import { loadConfig } from '../../src/config.js';
import { WriterUnavailableError } from '../../src/errors/requestErrors.js';
import { AppendOutcomeUnknownError } from '../../src/events/AppendOutcomeUnknownError.js';
import type { ChangeEvent } from '../../src/events/ChangeEvent.js';
import { EventTooLargeError } from '../../src/events/EventTooLargeError.js';
import {
  EventLogUnavailableError,
  EventLogWriteError,
  type KafkaClient,
  KafkaEventLog,
  type KafkaEventLogOptions,
  WriterLeaseHeldError,
} from '../../src/events/kafka/KafkaEventLog.js';
import { kafkaSettingsFrom } from '../../src/events/kafka/kafkaSettingsFrom.js';
import { encode } from '../../src/events/kafka/messages.js';
import { transactionFailure } from '../../src/events/kafka/transactionFailure.js';
import { LogReadUnavailableError } from '../../src/events/LogReadUnavailableError.js';
import { memoryPastStores } from '../../src/ledger/pastStores.js';
import { registry } from '../../src/models/registry.js';
import { MemoryReadStore } from '../../src/projections/memory/MemoryReadStore.js';
import { Projector } from '../../src/projections/Projector.js';
import { appendThroughOutage } from '../support/appendThroughOutage.js';
import { readAll } from '../support/eventLog.contract.js';
import { connectionError, FakeKafkaCluster, protocolError, retriesExceeded } from '../support/fakeKafka.js';
import { makeBatch, makeEvent } from '../support/makeEvent.js';

const TOPIC = 'netledger.changes';
const TRANSACTIONAL_ID = 'netledger-writer';

async function openLog(
  t: ExecutionContext,
  cluster = new FakeKafkaCluster(),
  options: Partial<KafkaEventLogOptions> = {},
) {
  const log = new KafkaEventLog({
    brokers: ['broker-1:9092'],
    topic: TOPIC,
    transactionalId: TRANSACTIONAL_ID,
    replicationFactor: 1,
    logLevel: 'nothing',
    client: cluster.client,
    now: () => cluster.now,
    onSubscriptionError: () => {},
    ...options,
  });
  t.teardown(() => log.close());
  await log.open();
  return { cluster, log };
}

/** Positions in the topic as a read_committed reader sees them. */
function committedPositions(cluster: FakeKafkaCluster): number[] {
  return cluster.committedValues(TOPIC).map((e) => (e as ChangeEvent).position);
}

test('kafka fault: a commit whose answer is lost resolves the append (the log holds it) and writes go on', async (t) => {
  const { cluster, log } = await openLog(t);
  cluster.failNext('commit', retriesExceeded(connectionError()), { applied: true });
  const batch = makeBatch(1, 2);
  await log.append(batch);
  t.is(log.head(), 2);
  t.is(log.unavailable(), null);
  await log.append(makeBatch(3, 1));
  t.deepEqual(committedPositions(cluster), [1, 2, 3]);
  t.is(cluster.producersCreated, 2, 'the producer stuck in COMMITTING was replaced');
  t.deepEqual(
    (await readAll(log, 1)).map((b) => b.length),
    [2, 1],
  );
});

test('kafka fault: a commit that failed is rejected as not committed; writes resume after recover()', async (t) => {
  const { cluster, log } = await openLog(t);
  await log.append(makeBatch(1, 1));
  cluster.failNext('commit', retriesExceeded(protocolError('GROUP_COORDINATOR_NOT_AVAILABLE')));
  const error = await t.throwsAsync(log.append(makeBatch(2, 1)), { instanceOf: EventLogUnavailableError });
  t.regex(error!.message, /did not commit/);
  t.is(log.head(), 1);
  t.truthy(log.unavailable(), 'the caller is told to reset and recover, not to stop');
  await t.throwsAsync(log.append(makeBatch(2, 1)), { instanceOf: EventLogUnavailableError }, 'refused until recover()');
  await log.recover();
  t.is(log.unavailable(), null);
  await log.append(makeBatch(2, 1));
  await log.append(makeBatch(3, 1));
  t.deepEqual(committedPositions(cluster), [1, 2, 3]);
});

test('kafka fault: a produce error inside the transaction is rejected, nothing of it is visible, writes resume', async (t) => {
  const { cluster, log } = await openLog(t);
  cluster.failNext('send', retriesExceeded(protocolError('NOT_LEADER_FOR_PARTITION')));
  await t.throwsAsync(log.append(makeBatch(1, 3)), { instanceOf: EventLogUnavailableError });
  await log.recover();
  await log.append(makeBatch(1, 1));
  t.deepEqual(committedPositions(cluster), [1]);
});

test('kafka fault: a partition outage longer than the transaction timeout (INVALID_PRODUCER_EPOCH after the timeout) is not fencing', async (t) => {
  const { cluster, log } = await openLog(t);
  await log.append(makeBatch(1, 1));
  cluster.failNext('commit', retriesExceeded(protocolError('INVALID_PRODUCER_EPOCH')), {
    during: () => cluster.timeOutTransaction(TRANSACTIONAL_ID, 61_000),
  });
  await t.throwsAsync(log.append(makeBatch(2, 2)), { instanceOf: EventLogUnavailableError });
  await log.recover();
  await log.append(makeBatch(2, 1));
  t.deepEqual(committedPositions(cluster), [1, 2], 'the timed-out transaction was aborted by the broker');
});

test('kafka fault: INVALID_PRODUCER_ID_MAPPING after a long idle period re-registers the transactional id', async (t) => {
  const { cluster, log } = await openLog(t);
  await log.append(makeBatch(1, 1));
  cluster.expireTransactionalId(TRANSACTIONAL_ID);
  await t.throwsAsync(log.append(makeBatch(2, 1)), { instanceOf: EventLogUnavailableError });
  await log.recover();
  await log.append(makeBatch(2, 1));
  t.deepEqual(committedPositions(cluster), [1, 2]);
});

for (const fencingError of ['INVALID_PRODUCER_EPOCH', 'PRODUCER_FENCED'] as const) {
  test(`kafka fault: fencing by a newer writer (${fencingError}) stays final`, async (t) => {
    const cluster = new FakeKafkaCluster();
    cluster.fencingError = fencingError;
    const { log: first } = await openLog(t, cluster);
    await first.append(makeBatch(1, 1));
    const { log: second } = await openLog(t, cluster);
    t.is(second.head(), 1);
    await t.throwsAsync(first.append(makeBatch(2, 1)), { instanceOf: EventLogWriteError });
    t.is(first.unavailable(), null, 'not an outage: the caller stops for good');
    await t.throwsAsync(first.append(makeBatch(2, 1)), { instanceOf: EventLogWriteError }, 'fenced for good');
    await t.throwsAsync(first.recover(), { instanceOf: EventLogWriteError });
    await second.append(makeBatch(2, 1));
    t.deepEqual(committedPositions(cluster), [1, 2]);
  });
}

test('kafka fault: a commit that went through but whose retry met a newer writer (fenced) resolves the append; the writer stays fenced', async (t) => {
  const cluster = new FakeKafkaCluster();
  const { log } = await openLog(t, cluster);
  await log.append(makeBatch(1, 1));
  cluster.failNext('commit', retriesExceeded(protocolError('INVALID_PRODUCER_EPOCH')), { applied: true });
  await log.append(makeBatch(2, 2));
  t.deepEqual(committedPositions(cluster), [1, 2, 3]);
  await t.throwsAsync(log.append(makeBatch(4, 1)), { instanceOf: EventLogWriteError }, 'fencing is still final');
  t.deepEqual(committedPositions(cluster), [1, 2, 3]);
});

/** A newer writer's transaction, made with the client alone: it reads nothing, so it runs while the partition's leader is away. */
async function newerWriterAppends(cluster: FakeKafkaCluster, events: ChangeEvent[]): Promise<void> {
  const producer = (cluster.client({}) as KafkaClient).producer({ transactionalId: TRANSACTIONAL_ID });
  await producer.connect();
  const tx = await producer.transaction();
  await tx.send({ topic: TOPIC, messages: events.map((e) => encode(e, events.at(-1)!.position)) });
  await tx.commit();
}

test('kafka fault: a commit that went through, refused as fenced after the newer writer appended on top, resolves the append: the positions it claimed are read, not the last event', async (t) => {
  const cluster = new FakeKafkaCluster();
  const { log } = await openLog(t, cluster);
  await log.append(makeBatch(1, 1));
  // The commit takes effect, its answer is lost, and its retry meets the newer writer's epoch;
  // the newer writer has appended after it by the time the writer looks.
  cluster.failNext('commit', retriesExceeded(protocolError('INVALID_PRODUCER_EPOCH')), { applied: true });
  cluster.beforeNextOffsets = () => newerWriterAppends(cluster, makeBatch(4, 2));
  await log.append(makeBatch(2, 2));
  t.is(log.head(), 3);
  t.deepEqual(committedPositions(cluster), [1, 2, 3, 4, 5]);
  await t.throwsAsync(log.append(makeBatch(4, 1)), { instanceOf: EventLogWriteError }, 'fencing is still final');
});

test("kafka fault: a writer refused as fenced whose claimed positions hold the newer writer's events rejects the append as fenced", async (t) => {
  const cluster = new FakeKafkaCluster();
  const { log } = await openLog(t, cluster);
  await log.append(makeBatch(1, 1));
  // The commit never reached the coordinator: the newer writer's start-up aborted it, and it wrote positions 2-3 itself.
  cluster.failNext('commit', retriesExceeded(protocolError('INVALID_PRODUCER_EPOCH')));
  cluster.beforeNextOffsets = () => newerWriterAppends(cluster, makeBatch(2, 2));
  await t.throwsAsync(log.append(makeBatch(2, 1)), { instanceOf: EventLogWriteError });
  t.is(log.head(), 1);
  t.deepEqual(committedPositions(cluster), [1, 2, 3]);
});

test('kafka fault: a commit that timed out, completed by a takeover writer that then appended on top, resolves the append: the positions it claimed are read, not the head', async (t) => {
  const cluster = new FakeKafkaCluster();
  const { log } = await openLog(t, cluster);
  await log.append(makeBatch(1, 1));
  // EndTxn reaches the coordinator, the client gives up before the markers are written
  // (not fencing: 'retry'); a takeover writer registers the id first, which completes the
  // transaction, and appends on top before this writer reads the log again.
  cluster.failNext('commit', retriesExceeded(protocolError('REQUEST_TIMED_OUT')), { requested: true });
  const init = cluster.holdNext('init');
  const append = log.append(makeBatch(2, 2));
  await init.reached;
  await newerWriterAppends(cluster, makeBatch(4, 2));
  init.release();
  await append;
  t.is(log.head(), 3);
  t.deepEqual(committedPositions(cluster), [1, 2, 3, 4, 5]);
  await t.throwsAsync(
    log.append(makeBatch(4, 1)),
    { instanceOf: EventLogWriteError },
    'another writer wrote: this one stops for good',
  );
});

test('kafka fault: a commit that timed out and that a takeover writer aborted before appending on top is refused as fenced, not as a write to retry', async (t) => {
  const cluster = new FakeKafkaCluster();
  const { log } = await openLog(t, cluster);
  await log.append(makeBatch(1, 1));
  // The commit never reached the coordinator: the takeover writer's registration aborts it, and it writes positions 2-3 itself.
  cluster.failNext('commit', retriesExceeded(protocolError('REQUEST_TIMED_OUT')));
  const init = cluster.holdNext('init');
  const append = log.append(makeBatch(2, 2));
  await init.reached;
  await newerWriterAppends(cluster, makeBatch(2, 2));
  init.release();
  await t.throwsAsync(append, { instanceOf: EventLogWriteError });
  t.is(log.head(), 3);
  t.deepEqual(committedPositions(cluster), [1, 2, 3]);
});

test('kafka fault: a writer refused as fenced that cannot read the log in time answers the append as of unknown outcome, not as refused', async (t) => {
  const cluster = new FakeKafkaCluster();
  const { log } = await openLog(t, cluster, { headReadTimeoutMs: 50 });
  await log.append(makeBatch(1, 1));
  // The commit goes through, its retry is refused as fenced, and the partition's leader goes away then.
  cluster.failNext('commit', retriesExceeded(protocolError('INVALID_PRODUCER_EPOCH')), {
    applied: true,
    during: () => cluster.leaderDown(),
  });
  // The head read's time limit does not hold the process open (a service's server does): this test must.
  const keepAlive = setInterval(() => {}, 1_000);
  t.teardown(() => clearInterval(keepAlive));
  const error = await t.throwsAsync(log.append(makeBatch(2, 1)), { instanceOf: AppendOutcomeUnknownError });
  t.regex(error!.message, /fenced.*whether its last transaction committed is not known/);
  cluster.leaderUp();
  await t.throwsAsync(log.append(makeBatch(3, 1)), { instanceOf: EventLogWriteError }, 'still fenced for good');
});

test('kafka fault: the broker still down after a failed commit: the append waits for it and is answered as the commit it is', async (t) => {
  const { cluster, log } = await openLog(t);
  cluster.failNext('commit', retriesExceeded(connectionError()), { applied: true });
  cluster.failNext('init', retriesExceeded(connectionError()), { times: 2 });
  await log.append(makeBatch(1, 1));
  t.is(cluster.pendingFaults('init'), 0, 'the outcome was asked again until the broker answered');
  t.is(log.head(), 1);
  t.is(log.unavailable(), null);
  await log.append(makeBatch(2, 1));
  t.deepEqual(committedPositions(cluster), [1, 2]);
});

test('kafka fault: the broker down for longer than the outcome wait: the append is rejected as of unknown outcome, never as not committed; recover() learns it went through', async (t) => {
  const { cluster, log } = await openLog(t);
  cluster.failNext('commit', retriesExceeded(connectionError()), { applied: true });
  // The client's clock passes the wait while the broker is unreachable.
  cluster.failNext('init', retriesExceeded(connectionError()), { during: () => (cluster.now += 31_000) });
  const error = await t.throwsAsync(log.append(makeBatch(1, 1)), { instanceOf: AppendOutcomeUnknownError });
  t.regex(error!.message, /not known/);
  t.false(error instanceof EventLogUnavailableError, 'not the answer for an append known not to be committed');
  t.truthy(log.unavailable());
  await log.recover();
  t.is(log.head(), 1, 'the head read after recovery shows the committed event');
  await log.append(makeBatch(2, 1));
  t.deepEqual(committedPositions(cluster), [1, 2]);
});

test("kafka fault: the partition's leader unreachable while a failed transaction is settled: the head read times out and is tried again, and the append is answered once it is back", async (t) => {
  const { cluster, log } = await openLog(t, new FakeKafkaCluster(), { headReadTimeoutMs: 50 });
  await log.append(makeBatch(1, 1));
  cluster.failNext('commit', retriesExceeded(connectionError()), { during: () => cluster.leaderDown() });
  const headReads = () => cluster.consumerGroups.filter((g) => g.includes('.head.')).length;
  const before = headReads();
  const append = log.append(makeBatch(2, 1));
  // One read ran into its time limit and the next has begun: only then is the leader back.
  while (headReads() < before + 2) await new Promise((resolve) => setImmediate(resolve));
  cluster.leaderUp();
  await t.throwsAsync(append, { instanceOf: EventLogUnavailableError, message: /did not commit/ });
  await log.recover();
  await log.append(makeBatch(2, 1));
  t.deepEqual(committedPositions(cluster), [1, 2]);
});

test('kafka fault: a recover() while the broker is still down throws and leaves appends refused', async (t) => {
  const { cluster, log } = await openLog(t);
  cluster.failNext('commit', retriesExceeded(connectionError()));
  cluster.failNext('init', retriesExceeded(connectionError()), { times: 2, during: () => (cluster.now += 31_000) });
  await t.throwsAsync(log.append(makeBatch(1, 1)), { instanceOf: AppendOutcomeUnknownError });
  await t.throwsAsync(log.recover());
  t.truthy(log.unavailable());
  await log.recover();
  await log.append(makeBatch(1, 1));
  t.deepEqual(committedPositions(cluster), [1]);
});

test('kafka fault: appends queued behind a failed transaction are rejected too (they were decided on top of it); none is half-written', async (t) => {
  const { cluster, log } = await openLog(t);
  await log.append(makeBatch(1, 1));
  cluster.failNext('commit', retriesExceeded(connectionError()));
  const inFlight = log.append(makeBatch(2, 1));
  // Queued while that transaction is in flight: they would share the next one.
  const queued = [log.append(makeBatch(3, 2)), log.append(makeBatch(5, 1))];
  const outcomes = await Promise.allSettled([inFlight, ...queued]);
  for (const outcome of outcomes) {
    t.is(outcome.status, 'rejected');
    t.true((outcome as PromiseRejectedResult).reason instanceof EventLogUnavailableError);
  }
  t.deepEqual(committedPositions(cluster), [1]);
  await log.recover();
  await log.append(makeBatch(2, 2));
  t.deepEqual(committedPositions(cluster), [1, 2, 3]);
  t.deepEqual(
    (await readAll(log, 1)).map((b) => b.map((e) => e.position)),
    [[1], [2, 3]],
  );
});

/** The writer over the Kafka log (fake client), with the real projector and an in-memory read store. */
async function kafkaWriter(
  t: ExecutionContext,
  options: { cluster?: FakeKafkaCluster; projectionTimeoutMs?: number; store?: MemoryReadStore } = {},
) {
  const { cluster, log } = await openLog(t, options.cluster);
  const store = options.store ?? new MemoryReadStore();
  const projector = new Projector(log, store, registry);
  await projector.start();
  // No back-off: the next write after an outage retries at once.
  const coordinator = new WriteCoordinator(log, store, projector, registry, systemClock, {
    retry: { firstMs: 0, maxMs: 0 },
    projectionTimeoutMs: options.projectionTimeoutMs,
  });
  await coordinator.init();
  const fatal: string[] = [];
  coordinator.onFatal = (error) => fatal.push(error.message);
  t.teardown(async () => {
    coordinator.close();
    await projector.stop();
  });
  const env: CommandEnvironment = {
    registry,
    secrets: new SecretKeeper('k', false),
    settings: { enforceGlobalUnique: false },
    followUps: runFollowUps,
  };
  const createTag = (name: string) =>
    coordinator.execute({ requestId: randomUUID(), user: null }, (tx) =>
      createObjects(env, tx, registry.get('extras.tag'), [{ name, slug: name }], { bulk: false }),
    );
  const createSite = (name: string, comments: string) =>
    coordinator.execute({ requestId: randomUUID(), user: null }, (tx) =>
      createObjects(env, tx, registry.get('dcim.site'), [{ name, slug: name, comments }], { bulk: false }),
    );
  return { cluster, log, store, projector, coordinator, fatal, createTag, createSite };
}

test('kafka fault: through the writer, a failed commit answers 503 with Retry-After and the next write starts again from the log', async (t) => {
  const { cluster, coordinator, createTag, fatal } = await kafkaWriter(t);
  await createTag('a');
  cluster.failNext('commit', retriesExceeded(connectionError()));
  const error = await t.throwsAsync(createTag('b'), { instanceOf: WriterUnavailableError });
  t.true(error!.retryAfterSeconds >= 1);
  t.is(coordinator.health().state, 'unavailable');
  const c = await createTag('c');
  t.deepEqual(
    c.events.map((e) => [e.position, e.objectId]),
    [[2, 2]],
    'the failed decision (position 2, id 2) was forgotten',
  );
  t.deepEqual(fatal, []);
  t.deepEqual(committedPositions(cluster), [1, 2]);
});

test('kafka fault: through the writer, a commit whose answer was lost is answered as the success it is', async (t) => {
  const { cluster, store, createTag } = await kafkaWriter(t);
  cluster.failNext('commit', retriesExceeded(connectionError()), { applied: true });
  const a = await createTag('a');
  t.deepEqual(
    a.events.map((e) => e.position),
    [1],
  );
  t.truthy(await store.get('extras.tag', 1));
  t.deepEqual(
    (await createTag('b')).events.map((e) => e.position),
    [2],
  );
});

test('kafka fault: through the writer, a commit whose outcome cannot be learnt in time answers 503 saying it may be committed; recovery shows it', async (t) => {
  const { cluster, store, coordinator, createTag } = await kafkaWriter(t);
  cluster.failNext('commit', retriesExceeded(connectionError()), { applied: true });
  cluster.failNext('init', retriesExceeded(connectionError()), { during: () => (cluster.now += 31_000) });
  const error = await t.throwsAsync(createTag('a'), { instanceOf: WriterUnavailableError });
  const response = await errorResponse(error!);
  t.is(response.status, 503);
  t.regex((response.body as { detail: string }).detail, /may or may not have been committed.*Idempotency-Key/);
  t.is(coordinator.health().state, 'unavailable');
  const b = await createTag('b');
  t.deepEqual(
    b.events.map((e) => [e.position, e.objectId]),
    [[2, 2]],
    'the next write continues after the event that did commit',
  );
  t.truthy(await store.get('extras.tag', 1), "the first write's object is there");
  t.deepEqual(committedPositions(cluster), [1, 2]);
});

test('kafka fault: through the writer, fencing stops it for good (503, state stopped)', async (t) => {
  const cluster = new FakeKafkaCluster();
  const { coordinator, createTag, fatal } = await kafkaWriter(t, { cluster });
  await createTag('a');
  await openLog(t, cluster); // a newer writer takes the transactional id
  await t.throwsAsync(createTag('b'), { instanceOf: WriterUnavailableError });
  t.is(coordinator.health().state, 'stopped');
  t.is(fatal.length, 1);
  await t.throwsAsync(createTag('c'), { instanceOf: WriterUnavailableError, message: /writer stopped/ });
});

test('kafka fault: an event larger than the topic accepts is refused with 413 before anything is written; writes go on', async (t) => {
  const cluster = new FakeKafkaCluster();
  cluster.createTopic(TOPIC, { config: { 'retention.ms': '-1', 'max.message.bytes': '8192' } });
  const { log, createTag, createSite, coordinator } = await kafkaWriter(t, { cluster });
  t.is(log.maxEventBytes(), 8192 - 1024, "the topic's max.message.bytes, read at open, less room for key and headers");
  const error = await t.throwsAsync(createSite('big', 'x'.repeat(10_000)), { instanceOf: EventTooLargeError });
  t.is(error!.status, 413);
  t.regex(error!.message, /dcim\.site 'big' is 10\.\d KiB.*accepts for one change \(7\.0 KiB\); nothing was written/);
  t.deepEqual(committedPositions(cluster), []);
  t.is(coordinator.health().state, 'up');
  t.deepEqual(
    (await createTag('small')).events.map((e) => [e.position, e.objectId]),
    [[1, 1]],
  );

  const response = await errorResponse(error!);
  t.deepEqual(response, { status: 413, body: { detail: error!.message } });
});

test('kafka fault: an oversized event handed to append() directly is refused whole, nothing is sent, the log stays writable', async (t) => {
  const cluster = new FakeKafkaCluster();
  cluster.createTopic(TOPIC, { config: { 'retention.ms': '-1', 'max.message.bytes': '4096' } });
  const { log } = await openLog(t, cluster);
  const big = makeEvent(2, {
    objectRepr: 'big',
    postchange: { ...makeEvent(2).postchange, comments: 'y'.repeat(5000) },
  });
  await t.throwsAsync(log.append([makeEvent(1), big]), { instanceOf: EventTooLargeError });
  t.is(log.unavailable(), null);
  await log.append(makeBatch(1, 1));
  t.deepEqual(committedPositions(cluster), [1]);
});

test('kafka fault: events that each fit the topic but not together are sent as several record batches of one transaction, which commits whole', async (t) => {
  const cluster = new FakeKafkaCluster();
  cluster.createTopic(TOPIC, { config: { 'retention.ms': '-1', 'max.message.bytes': '8192' } });
  const { log } = await openLog(t, cluster);
  const requestId = randomUUID();
  const sized = (position: number) =>
    makeEvent(position, { requestId, postchange: { ...makeEvent(position).postchange, comments: 'z'.repeat(2500) } });
  const batch = [1, 2, 3, 4, 5].map(sized);
  await log.append(batch);
  // Queued behind an append in flight: group-committed into one transaction.
  await Promise.all([log.append([6, 7, 8].map(sized)), log.append([9, 10].map(sized))]);
  t.is(log.unavailable(), null);
  t.deepEqual(committedPositions(cluster), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  t.deepEqual(
    (await readAll(log, 1)).map((b) => b.length),
    [5, 3, 2],
    'each append is still one batch',
  );
});

test("kafka fault: the projector's consumer failing after catch-up answers a waiting write 503 saying it IS committed", async (t) => {
  const { cluster, createTag, projector } = await kafkaWriter(t);
  await createTag('a');
  // The commit takes effect, then every consumer crashes before it fetched the new event.
  // Not one the client retries (a retriable one replaces the consumer: see below).
  cluster.afterNextCommit = () => cluster.crashConsumers(protocolError('TOPIC_AUTHORIZATION_FAILED'));
  const error = await t.throwsAsync(createTag('b'), { instanceOf: WriterUnavailableError });
  t.regex(error!.detail!, /The write was committed .*do not repeat it/);
  t.true(error!.retryAfterSeconds >= 1);
  t.truthy(projector.failed);
  t.deepEqual(committedPositions(cluster), [1, 2], 'acknowledged as committed, and it is');
  const next = await t.throwsAsync(createTag('c'), { instanceOf: WriterUnavailableError });
  t.regex(next!.message, /read models failed/);
});

test('kafka fault: read models that do not reach a committed write in time answer 503 saying it IS committed', async (t) => {
  const store = new MemoryReadStore();
  const { createTag } = await kafkaWriter(t, { store, projectionTimeoutMs: 50 });
  await createTag('a');
  let release = () => {};
  const apply = store.apply.bind(store);
  store.apply = async (changes, position) => {
    await new Promise<void>((resolve) => (release = resolve));
    return apply(changes, position);
  };
  // The projector's timer does not hold the process open (a service's server does): this test must.
  const keepAlive = setInterval(() => {}, 1_000);
  const error = await t.throwsAsync(createTag('b'), { instanceOf: WriterUnavailableError });
  clearInterval(keepAlive);
  t.regex(error!.detail!, /committed/);
  const response = await errorResponse(error!);
  t.is(response.status, 503);
  t.regex(response.body.detail, /The write was committed/);
  release();
});

test('kafka fault: read models that do not reach what recovery learnt was committed keep the outage on (writes answered 503, not left waiting) until they do', async (t) => {
  const store = new MemoryReadStore();
  const { cluster, coordinator, createTag } = await kafkaWriter(t, { store, projectionTimeoutMs: 50 });
  await createTag('a');
  // The read models take nothing more until released.
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  const apply = store.apply.bind(store);
  store.apply = async (changes, position) => {
    await released;
    return apply(changes, position);
  };
  const keepAlive = setInterval(() => {}, 1_000);
  t.teardown(() => clearInterval(keepAlive));
  // 'b' commits, but its answer is lost and the broker stays away past the outcome wait.
  cluster.failNext('commit', retriesExceeded(connectionError()), { applied: true });
  cluster.failNext('init', retriesExceeded(connectionError()), { during: () => (cluster.now += 31_000) });
  await t.throwsAsync(createTag('b'), { instanceOf: WriterUnavailableError, message: /outcome unknown/ });
  // Recovery learns 'b' is committed; the read models cannot show it yet.
  await t.throwsAsync(createTag('c'), {
    instanceOf: WriterUnavailableError,
    message: /unavailable.*read models reached position 1, not 2/,
  });
  t.is(coordinator.health().state, 'unavailable', 'not stopped: the read models are behind, not broken');
  release();
  const d = await createTag('d');
  t.deepEqual(
    d.events.map((e) => [e.position, e.objectId]),
    [[3, 3]],
    "after 'b', which did commit",
  );
  t.deepEqual(committedPositions(cluster), [1, 2, 3]);
});

test("kafka fault: the audit's consumer failing after catch-up makes history reads answer 503 instead of hanging", async (t) => {
  const { cluster, log } = await openLog(t);
  await log.append(makeBatch(1, 1));
  const audit = new AuditLog(log, registry);
  await audit.open();
  t.teardown(() => audit.close());
  cluster.crashConsumers(protocolError('TOPIC_AUTHORIZATION_FAILED'));
  await log.append(makeBatch(2, 1));
  await t.throwsAsync(audit.sync(), { instanceOf: WriterUnavailableError, message: /stopped following the event log/ });
});

test("kafka fault: history reads while the partition's leader is unreachable are answered 503 with Retry-After, not left hanging, and read again once it is back", async (t) => {
  // No body cache: every read of a past event goes to the broker.
  const { cluster, log } = await openLog(t, new FakeKafkaCluster(), { bodyCacheBytes: 0, readStallTimeoutMs: 50 });
  await log.append(makeBatch(1, 2));
  await log.append(makeBatch(3, 1));
  const audit = new AuditService(log, registry, { pastStores: memoryPastStores(registry) });
  await audit.open();
  t.teardown(() => audit.close());
  cluster.leaderDown();
  const reads: Array<[string, () => Promise<unknown>]> = [
    ['change record bodies (readPositions)', () => audit.log.events([2])],
    [
      'a history range (read)',
      async () => {
        for await (const _chunk of audit.log.range(1, 3));
      },
    ],
    ['an ?as_of= replay (read)', () => audit.pastStore(2)],
  ];
  for (const [what, read] of reads) {
    const error = await t.throwsAsync(read(), { instanceOf: LogReadUnavailableError }, what);
    t.deepEqual(
      await errorResponse(error!),
      {
        status: 503,
        retryAfter: '5',
        body: { detail: 'The event log did not answer in time (change history is read from it); retry shortly.' },
      },
      what,
    );
  }
  cluster.leaderUp();
  t.deepEqual(
    (await audit.log.events([2, 3])).map((e) => e.position),
    [2, 3],
  );
  t.truthy(await (await audit.pastStore(2)).get('dcim.site', 2));
});

test('kafka fault: a head look-up whose consumer cannot connect or join its group gives up at its time limit, not when the join returns', async (t) => {
  const { cluster, log } = await openLog(t, new FakeKafkaCluster(), { headReadTimeoutMs: 50 });
  // The head read's time limit does not hold the process open (a service's server does): this test must.
  const keepAlive = setInterval(() => {}, 1_000);
  t.teardown(() => clearInterval(keepAlive));
  await log.append(makeBatch(1, 1));
  // The commit fails and did not commit; the head look-up settling it meets a consumer whose connect does not return.
  cluster.failNext('commit', retriesExceeded(connectionError()));
  const join = cluster.holdNext('consumerConnect');
  const append = log.append(makeBatch(2, 1));
  await join.reached;
  // That look-up ends at its limit and the next one answers, while the first connect still hangs.
  await t.throwsAsync(append, { instanceOf: EventLogUnavailableError, message: /did not commit/ });
  join.release();
  await log.recover();
  await log.append(makeBatch(2, 1));
  t.deepEqual(committedPositions(cluster), [1, 2]);
});

test('kafka fault: reads whose consumer cannot connect or join its group are answered LogReadUnavailableError at the stall limit, not when the join returns', async (t) => {
  // No body cache: every read of a past event goes to the broker.
  const { cluster, log } = await openLog(t, new FakeKafkaCluster(), { bodyCacheBytes: 0, readStallTimeoutMs: 50 });
  await log.append(makeBatch(1, 2));
  // Not located yet: found by a scan (read()).
  let join = cluster.holdNext('consumerConnect');
  await t.throwsAsync(log.readPositions([1]), { instanceOf: LogReadUnavailableError }, 'a scan');
  join.release();
  t.deepEqual(
    (await log.readPositions([1])).map((e) => e.position),
    [1],
  );
  // Located by that scan: fetched by a consumer seeked to its offset (consumeRange()).
  join = cluster.holdNext('consumerConnect');
  await t.throwsAsync(log.readPositions([2]), { instanceOf: LogReadUnavailableError }, 'a located read');
  join.release();
  t.deepEqual(
    (await log.readPositions([2])).map((e) => e.position),
    [2],
  );
});

/** What the API's error middleware answers for `error`. */
async function errorResponse(error: Error): Promise<{ status: number; body: any; retryAfter?: string }> {
  const headers: Record<string, string> = {};
  const ctx = {
    status: 200,
    body: undefined as unknown,
    state: { requestId: 'r' },
    set: (name: string, value: string) => (headers[name] = value),
  };
  await errorResponses(() => {})(ctx as never, async () => {
    throw error;
  });
  return {
    status: ctx.status,
    body: ctx.body,
    ...(headers['Retry-After'] ? { retryAfter: headers['Retry-After'] } : {}),
  };
}

for (const [title, config, reason] of [
  ['a compacted topic', { 'cleanup.policy': 'compact', 'retention.ms': '-1' }, /cleanup\.policy is compact/],
  [
    'a topic both compacted and deleting',
    { 'cleanup.policy': 'compact,delete', 'retention.ms': '-1' },
    /cleanup\.policy is compact,delete/,
  ],
  ['a topic keeping events 7 days', { 'retention.ms': '604800000' }, /retention\.ms is 604800000/],
  [
    'a topic keeping 1 GiB',
    { 'retention.ms': '-1', 'retention.bytes': '1073741824' },
    /retention\.bytes is 1073741824/,
  ],
] as const) {
  test(`kafka fault: ${title} would delete history: refused at open, saying what to change`, async (t) => {
    const cluster = new FakeKafkaCluster();
    cluster.createTopic(TOPIC, { config });
    const log = new KafkaEventLog({ brokers: ['b:9092'], topic: TOPIC, logLevel: 'nothing', client: cluster.client });
    const error = await t.throwsAsync(log.open());
    t.regex(error!.message, reason);
    t.regex(error!.message, /needs cleanup\.policy=delete, retention\.ms=-1 and retention\.bytes=-1/);
    t.is(cluster.producersCreated, 0, 'no writer registered, nothing fenced');
    await log.close();
  });
}

test('kafka fault: a topic with several partitions is refused at open', async (t) => {
  const cluster = new FakeKafkaCluster();
  cluster.createTopic(TOPIC, { partitions: 3, config: { 'retention.ms': '-1' } });
  const log = new KafkaEventLog({ brokers: ['b:9092'], topic: TOPIC, logLevel: 'nothing', client: cluster.client });
  await t.throwsAsync(log.open(), { message: /has 3 partitions; the log needs exactly 1/ });
  await log.close();
});

test('kafka fault: a topic created at open is kept forever with the configured replication factor and min.insync.replicas', async (t) => {
  const cluster = new FakeKafkaCluster();
  await openLog(t, cluster, { replicationFactor: 3 });
  const topic = cluster.topics.get(TOPIC)!;
  t.is(topic.replicationFactor, 3);
  t.deepEqual(
    Object.fromEntries(
      ['cleanup.policy', 'retention.ms', 'retention.bytes', 'min.insync.replicas'].map((n) => [n, topic.config.get(n)]),
    ),
    { 'cleanup.policy': 'delete', 'retention.ms': '-1', 'retention.bytes': '-1', 'min.insync.replicas': '2' },
  );
});

test('kafka fault: TLS, SASL and short retry back-offs reach the client; the configuration carries them from the environment', async (t) => {
  const env = {
    SECRET_KEY: 'k',
    KAFKA_BROKERS: 'b1:9093,b2:9093',
    KAFKA_REPLICATION_FACTOR: '1',
    KAFKA_SSL: 'true',
    KAFKA_SASL_MECHANISM: 'SCRAM-SHA-512',
    KAFKA_SASL_USERNAME: 'netledger',
    KAFKA_SASL_PASSWORD: 'pa55-secret',
  };
  const config = loadConfig(env);
  t.is(config.kafkaReplicationFactor, 1);
  t.is(config.kafkaMinInsyncReplicas, 1);
  const cluster = new FakeKafkaCluster();
  await openLog(t, cluster, { ...kafkaSettingsFrom(config), topic: TOPIC });
  const client = cluster.clientConfigs[0] as {
    ssl?: boolean;
    sasl?: unknown;
    retry?: { initialRetryTime: number };
    connectionTimeout?: number;
  };
  t.true(client.ssl);
  t.true(client.connectionTimeout! >= 5_000, "not the library's 1 s, which a busy machine passes");
  t.deepEqual(client.sasl, { mechanism: 'scram-sha-512', username: 'netledger', password: 'pa55-secret' });
  t.true(
    client.retry!.initialRetryTime <= 25,
    'back-to-back transactions must not wait 300 ms on CONCURRENT_TRANSACTIONS',
  );
  const producer = cluster.producerConfigs[0] as {
    retry?: { retries: number; initialRetryTime: number };
    transactionTimeout?: number;
  };
  t.true(producer.retry!.initialRetryTime <= 25);
  t.true(
    Number.isSafeInteger(producer.retry!.retries) && producer.retry!.retries < 100,
    'an outage fails the transaction instead of retrying forever',
  );
  t.is(producer.transactionTimeout, 60_000);

  const refused = t.throws(() => loadConfig({ ...env, KAFKA_SASL_MECHANISM: 'gssapi' }));
  t.false(refused!.message.includes('pa55-secret'));
  t.throws(() => loadConfig({ ...env, KAFKA_SASL_PASSWORD: '' }), {
    message: /needs KAFKA_SASL_USERNAME and KAFKA_SASL_PASSWORD/,
  });
});

test('kafka fault: a second writer refuses to start while one is live, instead of fencing it silently', async (t) => {
  const cluster = new FakeKafkaCluster();
  const { log: first } = await openLog(t, cluster, { writerLease: { takeover: false } });
  await first.append(makeBatch(1, 1));
  const second = new KafkaEventLog({
    brokers: ['b:9092'],
    topic: TOPIC,
    transactionalId: TRANSACTIONAL_ID,
    replicationFactor: 1,
    logLevel: 'nothing',
    client: cluster.client,
    writerLease: { takeover: false },
  });
  const error = await t.throwsAsync(second.open(), { instanceOf: WriterLeaseHeldError });
  t.regex(error!.message, /another writer is live .*KAFKA_TAKEOVER=1/);
  await second.close();
  await first.append(makeBatch(2, 1));
  t.deepEqual(committedPositions(cluster), [1, 2], 'the live writer was not fenced');
});

test('kafka fault: with takeover the second writer starts and the live one is fenced', async (t) => {
  const cluster = new FakeKafkaCluster();
  const { log: first } = await openLog(t, cluster, { writerLease: { takeover: false } });
  const { log: second } = await openLog(t, cluster, { writerLease: { takeover: true } });
  await t.throwsAsync(first.append(makeBatch(1, 1)), { instanceOf: EventLogWriteError });
  await second.append(makeBatch(1, 1));
  t.deepEqual(committedPositions(cluster), [1]);
});

test('kafka fault: the lease is free once the writer closed, or once a dead writer has left the group', async (t) => {
  const cluster = new FakeKafkaCluster();
  const lease = { writerLease: { takeover: false } };
  const first = new KafkaEventLog({
    brokers: ['b:9092'],
    topic: TOPIC,
    replicationFactor: 1,
    logLevel: 'nothing',
    client: cluster.client,
    ...lease,
  });
  await first.open();
  await first.close();
  const { log: second } = await openLog(t, cluster, lease);
  t.is(second.head(), 0);
  // The second dies without leaving: the broker ends its membership when its session times out.
  cluster.crashConsumers(connectionError());
  const { log: third } = await openLog(t, cluster, lease);
  await third.append(makeBatch(1, 1));
  t.deepEqual(committedPositions(cluster), [1]);
});

const LEASE_GROUP = `${TRANSACTIONAL_ID}.lease.${TOPIC}`;
const leased = (takeover: boolean) => ({ writerLease: { takeover } });

test('kafka fault: a transaction that outlived the timeout while a newer writer took over is fenced: the writer does not register again and the one in charge keeps writing', async (t) => {
  const cluster = new FakeKafkaCluster();
  const { log: first } = await openLog(t, cluster, leased(false));
  await first.append(makeBatch(1, 1));
  // The first writer's commit gets no answer (the cluster is unreachable from it)...
  const hold = cluster.holdNext('commit');
  const stranded = first.append(makeBatch(2, 2));
  await hold.reached;
  // ...for longer than the transaction timeout: the broker aborts it and bumps the epoch.
  cluster.timeOutTransaction(TRANSACTIONAL_ID, 61_000);
  // Meanwhile an operator starts a writer with KAFKA_TAKEOVER=1: it joins the lease group
  // while the first is still a member, registers the transactional id and writes.
  const { log: second } = await openLog(t, cluster, leased(true));
  const secondsEvents = makeBatch(2, 1);
  await second.append(secondsEvents);
  const producers = cluster.producersCreated;
  // The commit is answered at last: INVALID_PRODUCER_EPOCH, after the whole timeout.
  hold.release();
  await t.throwsAsync(stranded, { instanceOf: EventLogWriteError, message: /another writer took over/ });
  t.is(cluster.producersCreated, producers, 'the first writer did not register the transactional id again');
  t.is(first.unavailable(), null, 'stopped for good, not an outage to recover from');
  await t.throwsAsync(first.append(makeBatch(3, 1)), { instanceOf: EventLogWriteError });
  await t.throwsAsync(first.recover(), { instanceOf: EventLogWriteError });
  t.is(cluster.groupMembers(LEASE_GROUP).length, 1, 'the fenced writer left the lease group');
  await second.append(makeBatch(3, 1));
  t.deepEqual(committedPositions(cluster), [1, 2, 3]);
  const written = await readAll(second, 2);
  t.deepEqual(
    written[0]!.map((e) => e.eventId),
    secondsEvents.map((e) => e.eventId),
    "the newer writer's events are intact",
  );
});

test('kafka fault: a commit that reached the coordinator, whose writer finds a takeover writer in the lease before the markers are written, is answered as of unknown outcome, not as refused', async (t) => {
  const cluster = new FakeKafkaCluster();
  const { log: first } = await openLog(t, cluster, leased(false));
  await first.append(makeBatch(1, 1));
  // EndTxn reaches the coordinator; the client gives up before the markers are written.
  cluster.failNext('commit', retriesExceeded(protocolError('REQUEST_TIMED_OUT')), { requested: true });
  const commit = cluster.holdNext('commit');
  const events = makeBatch(2, 2);
  const append = first.append(events);
  await commit.reached;
  // A takeover writer joins the lease; its registration waits for the open transaction to complete.
  const init = cluster.holdNext('init');
  const opening = openLog(t, cluster, leased(true));
  t.teardown(() => init.release()); // before the logs close, should an assertion fail first
  await init.reached;
  commit.release();
  // The first writer finds itself supplanted while the log still ends before its positions.
  const error = await t.throwsAsync(append, { instanceOf: AppendOutcomeUnknownError });
  t.regex(error!.message, /another writer took over.*not known/);
  t.deepEqual(committedPositions(cluster), [1], 'the markers are not written yet');
  await t.throwsAsync(first.append(makeBatch(4, 1)), { instanceOf: EventLogWriteError }, 'the writer stays fenced');
  // The takeover writer's registration completes the transaction: the markers land.
  init.release();
  const { log: second } = await opening;
  t.deepEqual(committedPositions(cluster), [1, 2, 3]);
  const written = await readAll(second, 2);
  t.deepEqual(
    written[0]!.map((e) => e.eventId),
    events.map((e) => e.eventId),
    'the write is in the log',
  );
});

test('kafka fault: with the writer lease and no takeover, a transaction the broker timed out still recovers (INVALID_PRODUCER_EPOCH after the timeout is not fencing)', async (t) => {
  const { cluster, log } = await openLog(t, new FakeKafkaCluster(), leased(false));
  await log.append(makeBatch(1, 1));
  cluster.failNext('commit', retriesExceeded(protocolError('INVALID_PRODUCER_EPOCH')), {
    during: () => cluster.timeOutTransaction(TRANSACTIONAL_ID, 61_000),
  });
  await t.throwsAsync(log.append(makeBatch(2, 2)), { instanceOf: EventLogUnavailableError, message: /did not commit/ });
  await log.recover();
  await log.append(makeBatch(2, 1));
  t.deepEqual(committedPositions(cluster), [1, 2]);
});

test('kafka fault: the writer that took over is not stopped by the fenced writer still in the lease group when its own transaction times out', async (t) => {
  const cluster = new FakeKafkaCluster();
  await openLog(t, cluster, leased(false)); // fenced below, idle: it has not noticed and is still a member
  const { log: second } = await openLog(t, cluster, leased(true));
  await second.append(makeBatch(1, 1));
  t.is(cluster.groupMembers(LEASE_GROUP).length, 2);
  cluster.failNext('commit', retriesExceeded(protocolError('INVALID_PRODUCER_EPOCH')), {
    during: () => cluster.timeOutTransaction(TRANSACTIONAL_ID, 61_000),
  });
  await t.throwsAsync(second.append(makeBatch(2, 1)), {
    instanceOf: EventLogUnavailableError,
    message: /did not commit/,
  });
  await second.recover();
  await second.append(makeBatch(2, 1));
  t.deepEqual(committedPositions(cluster), [1, 2]);
});

test('kafka fault: while the lease cannot be asked the writer does not register the transactional id again; a takeover meanwhile fences it once the lease answers', async (t) => {
  const cluster = new FakeKafkaCluster();
  const { log: first } = await openLog(t, cluster, leased(false));
  await first.append(makeBatch(1, 1));
  const producers = cluster.producersCreated;
  // The transaction is timed out by the broker, and the cluster stays unreachable from
  // this writer (the lease question fails) past the outcome wait.
  cluster.failNext('commit', retriesExceeded(protocolError('INVALID_PRODUCER_EPOCH')), {
    during: () => cluster.timeOutTransaction(TRANSACTIONAL_ID, 61_000),
  });
  cluster.failNext('describeGroups', retriesExceeded(connectionError()), { during: () => (cluster.now += 31_000) });
  const error = await t.throwsAsync(first.append(makeBatch(2, 1)), { instanceOf: AppendOutcomeUnknownError });
  t.regex(error!.message, /not known/);
  t.is(cluster.producersCreated, producers, 'no new registration while a takeover cannot be ruled out');
  t.truthy(first.unavailable());
  // recover() meets the same question unanswered: it fails and registers nothing.
  cluster.failNext('describeGroups', retriesExceeded(connectionError()));
  await t.throwsAsync(first.recover());
  t.is(cluster.producersCreated, producers);
  // The operator takes over meanwhile; once the lease answers, the first writer learns it.
  const { log: second } = await openLog(t, cluster, leased(true));
  await second.append(makeBatch(2, 1));
  await t.throwsAsync(first.recover(), { instanceOf: EventLogWriteError, message: /another writer took over/ });
  t.is(cluster.groupMembers(LEASE_GROUP).length, 1, 'the fenced writer left the lease group');
  await second.append(makeBatch(3, 1));
  t.deepEqual(committedPositions(cluster), [1, 2, 3]);
});

test('kafka fault: while the lease cannot be asked and nobody took over, the writer recovers once it answers', async (t) => {
  const { cluster, log } = await openLog(t, new FakeKafkaCluster(), leased(false));
  await log.append(makeBatch(1, 1));
  cluster.failNext('commit', retriesExceeded(connectionError()), { applied: true });
  cluster.failNext('describeGroups', retriesExceeded(connectionError()), { during: () => (cluster.now += 31_000) });
  await t.throwsAsync(log.append(makeBatch(2, 1)), { instanceOf: AppendOutcomeUnknownError });
  await log.recover();
  t.is(log.head(), 2, 'the commit whose answer was lost is there');
  await log.append(makeBatch(3, 1));
  t.deepEqual(committedPositions(cluster), [1, 2, 3]);
});

test('kafka fault: what a failed transaction means, by the error the library raises', (t) => {
  const timeout = 60_000;
  const cases: Array<[string, Error, number, 'fenced' | 'retry']> = [
    ['PRODUCER_FENCED (unknown to the library: code 90)', protocolError('PRODUCER_FENCED'), 10, 'fenced'],
    ['INVALID_PRODUCER_EPOCH soon after the transaction began', protocolError('INVALID_PRODUCER_EPOCH'), 10, 'fenced'],
    [
      'INVALID_PRODUCER_EPOCH wrapped by the retrier',
      retriesExceeded(protocolError('INVALID_PRODUCER_EPOCH')),
      10,
      'fenced',
    ],
    ['INVALID_PRODUCER_EPOCH after the transaction timeout', protocolError('INVALID_PRODUCER_EPOCH'), timeout, 'retry'],
    ['INVALID_PRODUCER_ID_MAPPING', protocolError('INVALID_PRODUCER_ID_MAPPING'), 10, 'retry'],
    ['CONCURRENT_TRANSACTIONS retried out', retriesExceeded(protocolError('CONCURRENT_TRANSACTIONS')), 10, 'retry'],
    ['a lost connection', retriesExceeded(connectionError()), 10, 'retry'],
    [
      'a producer stuck in COMMITTING',
      new Error('Transaction state exception: Cannot call "beginTransaction" in state "COMMITTING"'),
      10,
      'retry',
    ],
  ];
  for (const [what, error, elapsed, expected] of cases)
    t.is(transactionFailure(error, elapsed, timeout), expected, what);
});

test('kafka fault: a batch handler that runs long keeps heartbeating to its group, and stops when the batch is done', async (t) => {
  const { cluster, log } = await openLog(t, new FakeKafkaCluster(), { heartbeatMs: 5 });
  await log.append(makeBatch(1, 2));
  const beats: string[] = [];
  let beaten: () => void = () => {};
  const twoBeats = new Promise<void>((resolve) => (beaten = resolve));
  cluster.onHeartbeat = (groupId) => {
    beats.push(groupId);
    if (beats.length === 2) beaten();
  };
  const delivered: number[] = [];
  const sub = log.subscribe(1, async (events) => {
    // A slow apply: it ends only once the consumer has heartbeaten twice from inside it.
    await twoBeats;
    delivered.push(...events.map((e) => e.position));
  });
  await sub.caughtUp;
  t.deepEqual(delivered, [1, 2]);
  t.true(beats.length >= 2);
  t.true(
    beats.every((g) => g.includes('.subscribe.')),
    'the subscription group heartbeats',
  );
  const after = beats.length;
  await log.append(makeBatch(3, 1));
  await new Promise<void>((resolve) => {
    const check = () => (delivered.includes(3) ? resolve() : setImmediate(check));
    check();
  });
  await sub.stop();
  t.true(beats.length <= after + 2, 'no heartbeats once the handler has returned');
});

test('kafka fault: the transaction coordinator goes away mid-transaction and comes back: nothing acknowledged is lost, writes resume', async (t) => {
  const { cluster, log } = await openLog(t);
  await appendThroughOutage(
    t,
    log,
    {
      down: async () => {
        const refused = cluster.refusedWhileDown;
        cluster.down();
        // Down until the writer has met the outage (its transaction was refused), not for a time.
        while (cluster.refusedWhileDown === refused) await new Promise((resolve) => setImmediate(resolve));
      },
      up: async () => cluster.up(),
    },
    async () => (await openLog(t, cluster, { follower: {}, clientId: 'reader' })).log,
  );
});

test('kafka fault: a consumer the client loses to a retriable failure is replaced in a new group, from where it had got to; delivery goes on', async (t) => {
  const { cluster, log } = await openLog(t);
  await log.append(makeBatch(1, 2));
  const seen: number[] = [];
  const subscription = log.subscribe(1, async (events) => void seen.push(...events.map((e) => e.position)));
  t.teardown(() => subscription.stop());
  await subscription.caughtUp;
  const before = cluster.fetches.length;
  cluster.crashConsumers(connectionError('Connection error: read ECONNRESET'));
  await log.append(makeBatch(3, 2));
  while (seen.length < 4) await new Promise((resolve) => setImmediate(resolve));
  t.deepEqual(seen, [1, 2, 3, 4], 'every event once, in order');
  const replacement = cluster.fetches.slice(before).find((f) => f.groupId.includes('.subscribe.'));
  t.regex(replacement!.groupId, /\.subscribe\.[0-9a-f-]+\.1$/, 'a group of its own');
  t.true(replacement!.offset > 0, 'not from the start of the partition');
});
