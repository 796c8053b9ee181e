/**
 * The Kafka adapter under injected faults, against an in-memory fake of the client
 * library that raises the library's own error classes (test/support/fakeKafka.ts). Each
 * test checks what the caller sees and that nothing acknowledged is lost: every append
 * that resolved is in the topic, once, and nothing that was rejected as not committed is.
 */
import test, { type ExecutionContext } from 'ava';
import { randomUUID } from 'node:crypto';
import type { ChangeEvent } from '../../src/events/ChangeEvent.js';
import { EventLogUnavailableError, EventLogWriteError, KafkaEventLog, type KafkaEventLogOptions } from '../../src/events/kafka/KafkaEventLog.js';
import { connectionError, FakeKafkaCluster, protocolError, retriesExceeded } from '../support/fakeKafka.js';
import { readAll } from './eventLog.contract.js';
import { makeBatch, makeEvent } from './makeEvent.js';

const TOPIC = 'netledger.changes';
const TRANSACTIONAL_ID = 'netledger-writer';

async function openLog(t: ExecutionContext, cluster = new FakeKafkaCluster(), options: Partial<KafkaEventLogOptions> = {}) {
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
  t.deepEqual((await readAll(log, 1)).map((b) => b.length), [2, 1]);
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

test('kafka fault: the broker still down after a failed commit: rejected as unknown, recover() learns the commit went through', async (t) => {
  const { cluster, log } = await openLog(t);
  cluster.failNext('commit', retriesExceeded(connectionError()), { applied: true });
  cluster.failNext('init', retriesExceeded(connectionError()));
  const error = await t.throwsAsync(log.append(makeBatch(1, 1)), { instanceOf: EventLogUnavailableError });
  t.regex(error!.message, /not known/);
  t.truthy(log.unavailable());
  await log.recover();
  t.is(log.head(), 1, 'the head read after recovery shows the committed event');
  await log.append(makeBatch(2, 1));
  t.deepEqual(committedPositions(cluster), [1, 2]);
});

test('kafka fault: a recover() while the broker is still down throws and leaves appends refused', async (t) => {
  const { cluster, log } = await openLog(t);
  cluster.failNext('commit', retriesExceeded(connectionError()));
  cluster.failNext('init', retriesExceeded(connectionError()), { times: 2 });
  await t.throwsAsync(log.append(makeBatch(1, 1)), { instanceOf: EventLogUnavailableError });
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
  t.deepEqual((await readAll(log, 1)).map((b) => b.map((e) => e.position)), [[1], [2, 3]]);
});
