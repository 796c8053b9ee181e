import { randomUUID } from 'node:crypto';

import test, { type ExecutionContext } from 'ava';

import { AppendOutcomeUnknownError } from '../../src/events/AppendOutcomeUnknownError.js';
import type { ChangeEvent } from '../../src/events/ChangeEvent.js';
import {
  EventLogUnavailableError,
  EventLogWriteError,
  KafkaEventLog,
  type KafkaEventLogOptions,
} from '../../src/events/kafka/KafkaEventLog.js';
import { eventLogContract, readAll, reopenable, waitFor } from '../support/eventLog.contract.js';
import { type KafkaMock, kafkaMockBinary, startKafkaMock } from '../support/kafkaMockBroker.js';
import { KafkaMockClient } from '../support/kafkaMockClient.js';
import { makeBatch } from '../support/makeEvent.js';

/**
 * The Kafka adapter against a real Kafka protocol peer: librdkafka's mock cluster (one per
 * test, on loopback ports). Unlike the in-memory fake, kafkajs encodes and decodes every
 * request here, and the faults are the wire's: a broker refusing connections, an error
 * code in a response.
 *
 * What the mock does not do, and so what these tests cannot show: it has no CreateTopics
 * and DescribeConfigs (answered by KafkaMockClient instead); transactions leave no commit
 * markers and an abort leaves its records readable (read_committed reads everything); a
 * second InitProducerId for a transactional id hands out a new producer id and leaves the
 * old one valid, so a second writer does not fence the first. Every fresh consumer group
 * waits 3 s for its first rebalance (like a broker's default
 * group.initial.rebalance.delay.ms), and a fetch at the end of the log waits its full
 * max wait, so each read, subscription and head lookup costs seconds here.
 */
const built = await kafkaMockBinary();

if ('skipped' in built) {
  test(`kafka mock: skipped: ${built.skipped}`, (t) => {
    t.log(`skipped: ${built.skipped}`);
    t.pass();
  });
} else {
  eventLogContract('kafka mock: KafkaEventLog', async () => {
    const { mock, client } = await startMock(1);
    const options = logOptions(mock, client);
    try {
      return await reopenable(
        () => openLog(options),
        () => mock.stop(),
      );
    } catch (error) {
      await mock.stop();
      throw error;
    }
  });

  /**
   * Three brokers, the transaction coordinator on broker 2 and the partition leader on 1, so
   * that only the transaction requests meet an outage of broker 2; a steady writer that has
   * three appends acknowledged.
   */
  async function writerWithCoordinatorOn2(t: ExecutionContext, extra: Partial<KafkaEventLogOptions> = {}) {
    const { mock, client } = await mockFor(t, 3);
    const options = logOptions(mock, client, extra);
    await mock.command(`coordinator transaction ${options.transactionalId} 2`);
    const log = await openLog(options);
    t.teardown(() => log.close());
    await mock.command(`leader ${options.topic} 0 1`);
    const writer = new SteadyWriter(log);
    await writer.until(() => writer.acknowledged.length >= 3);
    return { mock, client, log, writer };
  }

  test('kafka mock: the transaction coordinator goes down mid-stream and comes back: no acknowledged append is lost, writes resume', async (t) => {
    const { mock, client, log, writer } = await writerWithCoordinatorOn2(t);
    const since = client.mark();
    await mock.command('down 2');
    await client.waitForLine(new RegExp(`ECONNREFUSED.*${mock.brokers[1]}|${mock.brokers[1]}.*ECONNREFUSED`), since);
    await mock.command('up 2');
    const before = writer.acknowledged.length;
    await writer.until(() => writer.acknowledged.length >= before + 3);
    await writer.stop();

    t.log(
      `acknowledged ${writer.acknowledged.length}, refused ${writer.refused.length}${writer.refusals.map((r) => `: ${r}`).join('')}`,
    );
    await assertLogHoldsAcknowledged(t, log, writer);
  });

  test('kafka mock: the transaction coordinator stays down until an append is refused: the writer recovers once it is back, no acknowledged append is lost', async (t) => {
    // The outcome of the transaction cut off is waited for this long before the append is refused.
    const { mock, log, writer } = await writerWithCoordinatorOn2(t, { outcomeWaitMs: 2_000 });
    await mock.command('down 2');
    await writer.until(() => writer.refused.length >= 1);
    t.is(log.head(), writer.acknowledged.length * 2, 'the refused append is not in the head');
    await mock.command('up 2');
    const before = writer.acknowledged.length;
    await writer.until(() => writer.acknowledged.length >= before + 3);
    await writer.stop();

    t.log(
      `acknowledged ${writer.acknowledged.length}, refused ${writer.refused.length}, recover() failed ${writer.failedRecoveries} times: ${writer.refusals[0]}`,
    );
    await assertLogHoldsAcknowledged(t, log, writer);
  });

  // No fencing case here: the mock hands a second InitProducerId for the same transactional
  // id a new producer id and keeps the old one valid, so it cannot fence. Fencing is tested
  // against the fake (kafkaFaults.unit.spec.ts) and a real broker (kafkaEventLog.int.spec.ts).

  test('kafka mock: the partition leader goes down, then leadership moves, while a subscription follows: it sees every acknowledged batch once, in order', async (t) => {
    const { mock, client } = await mockFor(t, 3);
    const options = logOptions(mock, client);
    await mock.command(`coordinator transaction ${options.transactionalId} 3`);
    const log = await openLog(options);
    t.teardown(() => log.close());

    const seen: ChangeEvent[][] = [];
    const joining = client.mark();
    const sub = log.subscribe(1, async (batch) => void seen.push(batch));
    t.teardown(() => sub.stop());
    await sub.caughtUp;
    // The outage is the partition leader's only: it must not host the subscription's group
    // (whose coordinator follows from the group id, a fresh one) nor the transactions.
    const { extra } = await client.waitForLine(/Found group coordinator/, joining);
    const leader = [1, 2].find((id) => id !== extra.nodeId)!;
    await mock.command(`leader ${options.topic} 0 ${leader}`);
    const writer = new SteadyWriter(log);
    await writer.until(() => writer.acknowledged.length >= 3);
    const since = client.mark();
    await mock.command(`down ${leader}`);
    const address = mock.brokers[leader - 1];
    await client.waitForLine(new RegExp(`ECONNREFUSED.*${address}|${address}.*ECONNREFUSED`), since);
    await mock.command(`up ${leader}`);
    let before = writer.acknowledged.length;
    await writer.until(() => writer.acknowledged.length >= before + 3);
    await mock.command(`leader ${options.topic} 0 ${3 - leader}`);
    before = writer.acknowledged.length;
    await writer.until(() => writer.acknowledged.length >= before + 3);
    await writer.stop();

    const head = log.head();
    await waitFor(() => (seen.at(-1)?.at(-1)?.position ?? 0) >= head, 20_000);
    t.log(`acknowledged ${writer.acknowledged.length}, refused ${writer.refused.length}`);
    const ids = (batches: ChangeEvent[][]) => batches.map((b) => b.map((e) => e.eventId).join(','));
    const acknowledged = new Set(ids(writer.acknowledged));
    t.true(
      ids(writer.acknowledged).every((id) => ids(seen).includes(id)),
      'every acknowledged batch delivered',
    );
    t.true(
      ids(seen).every((id) => acknowledged.has(id) || ids(writer.refused).includes(id)),
      'nothing delivered that was not appended',
    );
    t.deepEqual(
      seen.flat().map((e) => e.position),
      Array.from({ length: head }, (_, i) => i + 1),
      'in order, each once',
    );
    await assertLogHoldsAcknowledged(t, log, writer);
  });

  /** One writer on a one-broker mock, position 1 written, and a subscription from 1 collecting batches. */
  async function followedLog(t: ExecutionContext) {
    const { mock, client } = await mockFor(t, 1);
    const log = await openLog(logOptions(mock, client));
    t.teardown(() => log.close());
    await log.append(makeBatch(1, 1));
    const seen: ChangeEvent[][] = [];
    const since = client.mark();
    const sub = log.subscribe(1, async (batch) => void seen.push(batch));
    t.teardown(() => sub.stop());
    return { mock, client, log, seen, sub, since };
  }

  /** The broker is back: a new append reaches the subscription without waiting out the lost member's session (30 s). */
  async function deliveryResumes(t: ExecutionContext, log: KafkaEventLog, seen: ChangeEvent[][]) {
    await log.append(makeBatch(2, 1));
    await waitFor(() => seen.flat().length === 2, 20_000);
    t.deepEqual(positionsOf(seen), [[1], [2]]);
  }

  // A consumer the client lost while it joined its group (no LeaveGroup reached the
  // coordinator) stays a member until its session expires; the client's own restart would
  // join the same group as a new member and wait for that: 30-60 s without delivery. The
  // reader replaces a lost consumer with one in a fresh group of its own (~5 s here).
  test("kafka mock: the broker drops a subscription's consumer while it joins its group: delivery resumes after one new join, not after the lost member's session", async (t) => {
    const { mock, client, log, seen, since } = await followedLog(t);
    await client.waitForLine(/Request JoinGroup/, since);
    await mock.command('down 1');
    await client.waitForLine(/Crash/, since);
    await mock.command('up 1');
    await deliveryResumes(t, log, seen);
  });

  // The same after the subscription has joined: the group coordinator restarts and the
  // client gives up on it (~12 s here).
  test("kafka mock: the group coordinator restarts under a caught-up subscription: delivery resumes after one new join, not after the lost member's session", async (t) => {
    const { mock, client, log, seen, sub } = await followedLog(t);
    await sub.caughtUp;
    const since = client.mark();
    await mock.command('down 1');
    await client.waitForLine(/Crash/, since, 30_000);
    await mock.command('up 1');
    await deliveryResumes(t, log, seen);
  });

  test('kafka mock: an append larger than one produce request is still one batch', async (t) => {
    const { mock, client } = await mockFor(t, 1);
    const log = await openLog(logOptions(mock, client));
    t.teardown(() => log.close());
    await log.append(makeBatch(1, 1500)); // ~1.3 MiB of JSON: several produce requests in one transaction
    await log.append(makeBatch(1501, 1));
    t.deepEqual(
      (await readAll(log, 1)).map((b) => b.length),
      [1500, 1],
    );
  });

  test('kafka mock: readPositions on a fresh follower: a scan from the start, then consumers seeked to the learnt offsets', async (t) => {
    const { mock, client } = await mockFor(t, 1);
    const options = logOptions(mock, client);
    const writer = await openLog(options);
    for (let i = 0; i < 20; i++) await writer.append(makeBatch(i * 5 + 1, 5));
    await writer.close();
    const reader = await openLog({ ...options, follower: {}, bodyCacheBytes: 0 });
    t.teardown(() => reader.close());
    t.deepEqual(
      (await reader.readPositions([7, 93])).map((e) => e.position),
      [7, 93],
      'by a scan from the start',
    );
    t.deepEqual(
      (await reader.readPositions([52, 3, 99])).map((e) => e.position),
      [52, 3, 99],
      'by offset, in the order asked',
    );
  });

  test('kafka mock: a retriable Produce error (not leader, then a dropped connection) is retried and the append is written once', async (t) => {
    const { mock, client } = await mockFor(t, 1);
    const log = await openLog(logOptions(mock, client));
    t.teardown(() => log.close());
    await log.append(makeBatch(1, 2));
    await mock.command('errors 0 2 NOT_LEADER_FOR_PARTITION _TRANSPORT');
    await log.append(makeBatch(3, 2));
    await log.append(makeBatch(5, 1));
    t.is(log.head(), 5);
    t.deepEqual(positionsOf(await readAll(log, 1)), [[1, 2], [3, 4], [5]]);
  });

  test('kafka mock: a Produce refused for good fails the append, which is not written; after recover() writes resume', async (t) => {
    const { mock, client } = await mockFor(t, 1);
    const log = await openLog(logOptions(mock, client));
    t.teardown(() => log.close());
    await log.append(makeBatch(1, 2));
    await mock.command('errors 0 1 MSG_SIZE_TOO_LARGE');
    await t.throwsAsync(log.append(makeBatch(3, 2)), { instanceOf: EventLogUnavailableError });
    t.true(log.unavailable() instanceof EventLogUnavailableError);
    await t.throwsAsync(
      log.append(makeBatch(3, 2)),
      { instanceOf: EventLogUnavailableError },
      'refused until recover()',
    );
    await log.recover();
    t.is(log.unavailable(), null);
    t.is(log.head(), 2);
    await log.append(makeBatch(3, 1));
    t.deepEqual(positionsOf(await readAll(log, 1)), [[1, 2], [3]]);
  });

  test('kafka mock: an error on EndTxn (the commit) answers the append by what the log holds, and writes resume', async (t) => {
    const { mock, client } = await mockFor(t, 1);
    const log = await openLog(logOptions(mock, client));
    t.teardown(() => log.close());
    const writer = new SteadyWriter(log);
    await writer.until(() => writer.acknowledged.length >= 2);
    await mock.command('errors 26 2 COORDINATOR_LOAD_IN_PROGRESS INVALID_TXN_STATE');
    const before = writer.acknowledged.length;
    await writer.until(() => writer.acknowledged.length >= before + 3);
    await writer.stop();
    t.log(
      `acknowledged ${writer.acknowledged.length}, refused ${writer.refused.length}${writer.refusals.map((r) => `: ${r}`).join('')}`,
    );
    await assertLogHoldsAcknowledged(t, log, writer);
  });

  test('kafka mock: EndTxn answered INVALID_PRODUCER_EPOCH means a newer writer took over: appends stop for good', async (t) => {
    const { mock, client } = await mockFor(t, 1);
    const log = await openLog(logOptions(mock, client));
    t.teardown(() => log.close());
    await log.append(makeBatch(1, 1));
    await mock.command('errors 26 1 INVALID_PRODUCER_EPOCH');
    // The mock leaves the refused transaction's records readable, so the log holds this
    // append and it is answered as committed (a real broker's newer writer aborts it).
    await log.append(makeBatch(2, 1));
    t.deepEqual(positionsOf(await readAll(log, 1)), [[1], [2]]);
    t.is(log.unavailable(), null, 'fencing is final, not a temporary refusal');
    await t.throwsAsync(log.recover(), { instanceOf: EventLogWriteError });
    await t.throwsAsync(log.append(makeBatch(2, 1)), { instanceOf: EventLogWriteError });
  });
}

/**
 * Appends batches of two one after the other, as a busy service does: a refused append
 * (EventLogUnavailableError, AppendOutcomeUnknownError) is followed by recover() and the next append continues
 * from the head the log then has.
 */
class SteadyWriter {
  readonly acknowledged: ChangeEvent[][] = [];
  readonly refused: ChangeEvent[][] = [];
  readonly refusals: string[] = [];
  failedRecoveries = 0;
  private stopped = false;
  private readonly loop: Promise<void>;

  constructor(private readonly log: KafkaEventLog) {
    this.loop = this.run();
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      const batch = makeBatch(this.log.head() + 1, 2);
      try {
        await this.log.append(batch);
        this.acknowledged.push(batch);
      } catch (error) {
        // Refused: not committed, or of unknown outcome (then it may be in the log).
        if (!(error instanceof EventLogUnavailableError || error instanceof AppendOutcomeUnknownError)) throw error;
        this.refused.push(batch);
        this.refusals.push(error.message);
        await this.recover();
      }
    }
  }

  /** recover() fails while the broker it needs is unreachable: try again, as the service's writer does. */
  private async recover(): Promise<void> {
    for (;;) {
      try {
        await this.log.recover();
        return;
      } catch (error) {
        if (this.stopped || error instanceof EventLogWriteError) throw error;
        this.failedRecoveries++;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
  }

  /** Waits for the condition while the writer runs; fails if the writer failed. */
  async until(condition: () => boolean): Promise<void> {
    let failure: unknown;
    let ended = false;
    void this.loop.then(
      () => (ended = true),
      (error: unknown) => ((failure = error), (ended = true)),
    );
    while (!condition()) {
      if (ended) throw failure ?? new Error('SteadyWriter: stopped before the condition held');
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.loop;
  }
}

/** Every acknowledged batch is in the log exactly as appended, the log is dense, and whatever else it holds was an append answered with a refusal. */
async function assertLogHoldsAcknowledged(
  t: ExecutionContext,
  log: KafkaEventLog,
  writer: SteadyWriter,
): Promise<void> {
  const held = await readAll(log, 1);
  const ids = (batch: ChangeEvent[]) => batch.map((e) => e.eventId).join(',');
  const heldIds = new Set(held.map(ids));
  for (const batch of writer.acknowledged)
    t.true(heldIds.has(ids(batch)), `acknowledged batch at ${batch[0]!.position} is in the log`);
  const answered = new Set([...writer.acknowledged, ...writer.refused].map(ids));
  for (const batch of held) t.true(answered.has(ids(batch)), `batch at ${batch[0]!.position} in the log was appended`);
  const positions = held.flat().map((e) => e.position);
  t.deepEqual(
    positions,
    positions.map((_, i) => i + 1),
    'dense from 1',
  );
  t.is(log.head(), positions.length);
}

function positionsOf(batches: ChangeEvent[][]): number[][] {
  return batches.map((b) => b.map((e) => e.position));
}

async function startMock(brokers: number): Promise<{ mock: KafkaMock; client: KafkaMockClient }> {
  const mock = await startKafkaMock(brokers);
  if ('skipped' in mock) throw new Error(`kafka mock: ${mock.skipped}`);
  return { mock, client: new KafkaMockClient(mock) };
}

/** A mock cluster of its own for one test, stopped when the test ends. */
async function mockFor(t: ExecutionContext, brokers: number): Promise<{ mock: KafkaMock; client: KafkaMockClient }> {
  const started = await startMock(brokers);
  t.teardown(() => started.mock.stop());
  return started;
}

function logOptions(
  mock: KafkaMock,
  client: KafkaMockClient,
  extra: Partial<KafkaEventLogOptions> = {},
): KafkaEventLogOptions {
  return {
    brokers: mock.brokers,
    topic: `netledger.test.${randomUUID()}`,
    transactionalId: `netledger-test-writer-${randomUUID()}`,
    clientId: 'netledger-test',
    replicationFactor: mock.brokers.length,
    logLevel: 'error',
    client: client.factory,
    ...extra,
  };
}

async function openLog(options: KafkaEventLogOptions): Promise<KafkaEventLog> {
  const log = new KafkaEventLog(options);
  await log.open();
  return log;
}
