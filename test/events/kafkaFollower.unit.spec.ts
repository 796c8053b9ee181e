/**
 * A read replica follows the Kafka topic without writing it: against the fake cluster
 * (test/support/fakeKafka.ts), which speaks the client library's API.
 */
import { getEventListeners } from 'node:events';

import test, { type ExecutionContext } from 'ava';

import { KafkaEventLog, type KafkaEventLogOptions } from '../../src/events/kafka/KafkaEventLog.js';
import { Readiness } from '../../src/replicas/Readiness.js';
import { dependants } from '../support/abortSignals.js';
import { connectionError, FakeKafkaCluster, retriesExceeded } from '../support/fakeKafka.js';
import { makeBatch } from '../support/makeEvent.js';

async function openLog(t: ExecutionContext, cluster: FakeKafkaCluster, options: Partial<KafkaEventLogOptions>) {
  const log = new KafkaEventLog({
    brokers: ['broker-1:9092'],
    topic: 'netledger.changes',
    replicationFactor: 1,
    logLevel: 'nothing',
    client: cluster.client,
    onSubscriptionError: () => {},
    ...options,
  });
  t.teardown(() => log.close());
  await log.open();
  return log;
}

test('a follower registers no producer, knows the head at open and follows it as the writer commits', async (t) => {
  const cluster = new FakeKafkaCluster();
  const writer = await openLog(t, cluster, { transactionalId: 'netledger-writer' });
  await writer.append(makeBatch(1, 3));
  const producers = cluster.producersCreated;

  const follower = await openLog(t, cluster, { clientId: 'netledger-reader', follower: { headRefreshMs: 20 } });
  t.is(cluster.producersCreated, producers, 'no producer, so no transactional id registered and nobody fenced');
  t.is(follower.head(), 3, 'the head at open is the last committed event');
  await t.throwsAsync(follower.append(makeBatch(4, 1)), { message: /does not write/ });

  await writer.append(makeBatch(4, 2));
  // The head is looked up again once the partition's end has moved: wait for that, not for time.
  await new Promise<void>((resolve) => {
    const check = setInterval(() => {
      if (follower.head() === 5) (clearInterval(check), resolve());
    }, 5);
  });
  t.is(follower.head(), 5);

  // Subscriptions deliver what the writer committed; the writer keeps writing (it was not fenced).
  const seen: number[] = [];
  const subscription = follower.subscribe(1, async (events) => void seen.push(...events.map((e) => e.position)));
  await subscription.caughtUp;
  t.deepEqual(seen, [1, 2, 3, 4, 5]);
  await writer.append(makeBatch(6, 1));
  t.is(writer.head(), 6);
  await subscription.stop();
});

/** Waits, a turn of the event loop at a time, until `condition` holds: for what the follower's own timer does. */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setImmediate(resolve));
}

test('kafka fault: a follower whose look-ups of the partition end fail keeps its head and reports a growing head age (not ready); answered again, it is confirmed at once', async (t) => {
  const cluster = new FakeKafkaCluster();
  const now = () => cluster.now;
  const writer = await openLog(t, cluster, { transactionalId: 'netledger-writer', now });
  await writer.append(makeBatch(1, 2));
  const follower = await openLog(t, cluster, { clientId: 'netledger-reader', follower: { headRefreshMs: 5 }, now });
  t.is(writer.headConfirmedAgoMs(), 0, 'a writer makes its head');
  t.is(follower.headConfirmedAgoMs(), 0, 'confirmed at open');
  // The read models of a replica at the head; readiness weighs the head's age as main.ts wires it.
  const readiness = new Readiness(
    () => 2,
    () => follower.head(),
    { maxLagEvents: 50, maxLagMs: 10_000 },
    now,
    () => follower.headConfirmedAgoMs(),
  );
  readiness.markCaughtUp();

  cluster.now += 3_000;
  t.is(follower.headConfirmedAgoMs(), 3_000);
  await until(() => follower.headConfirmedAgoMs() === 0); // a look-up whose end did not move confirms the head too

  cluster.failNext('fetchTopicOffsets', retriesExceeded(connectionError()), { times: 1_000 });
  await writer.append(makeBatch(3, 1)); // the writer moves on where the follower cannot see
  const failures = () => 1_000 - cluster.pendingFaults('fetchTopicOffsets');
  const ages: number[] = [];
  for (let probe = 0; probe < 3; probe++) {
    cluster.now += 4_000;
    const before = failures();
    await until(() => failures() > before); // one more look-up failed at this time
    ages.push(follower.headConfirmedAgoMs());
  }
  t.deepEqual(ages, [4_000, 8_000, 12_000]);
  t.is(follower.head(), 2, 'the head it knew is kept');
  t.like(
    readiness.report(),
    { ready: false, phase: 'log-unreachable', lag: 0, headAgeSeconds: 12 },
    'lag 0 against a stale head is not taken for ready',
  );

  cluster.clearFaults('fetchTopicOffsets');
  await until(() => follower.head() === 3);
  t.is(follower.headConfirmedAgoMs(), 0);
  t.like(readiness.report(), { ready: true, phase: 'ready', lag: 1, headAgeSeconds: 0 });
});

test("kafka fault: a head look-up under way (its consumer still joining) counts from the end's answer, so a reachable cluster under writes does not age the head by the look-up's length", async (t) => {
  const cluster = new FakeKafkaCluster();
  const now = () => cluster.now;
  const writer = await openLog(t, cluster, { transactionalId: 'netledger-writer', now });
  await writer.append(makeBatch(1, 2));
  // No refresh of its own during the test: the look-up is started by hand.
  const follower = await openLog(t, cluster, {
    clientId: 'netledger-reader',
    follower: { headRefreshMs: 3_600_000 },
    now,
  });
  const refresh = () => (follower as unknown as { refreshFollowedHead(): Promise<void> }).refreshFollowedHead();
  cluster.now += 4_000;
  const join = cluster.holdNext('consumerConnect');
  await writer.append(makeBatch(3, 1)); // the end moves: the refresh looks the last event up
  const refreshing = refresh();
  await join.reached;
  cluster.now += 3_000;
  t.is(follower.headConfirmedAgoMs(), 3_000, "from the end's answer, not from the refresh before (7 s)");
  join.release();
  await refreshing;
  t.is(follower.head(), 3);
  t.is(follower.headConfirmedAgoMs(), 3_000);
});

test("a follower's head look-ups leave nothing attached to the log's closing signal (each made one that lived as long as the log: a leak)", async (t) => {
  const cluster = new FakeKafkaCluster();
  const writer = await openLog(t, cluster, { transactionalId: 'netledger-writer' });
  await writer.append(makeBatch(1, 1));
  const follower = await openLog(t, cluster, { clientId: 'netledger-reader', follower: { headRefreshMs: 5 } });
  const closing = (follower as unknown as { closing: AbortController }).closing.signal;
  const listeners = getEventListeners(closing, 'abort').length;
  for (let position = 2; position <= 4; position++) {
    await writer.append(makeBatch(position, 1)); // the partition's end moves: the head is looked up again
    await until(() => follower.head() === position);
  }
  t.is(getEventListeners(closing, 'abort').length, listeners);
  t.is(dependants(closing), 0);
});

test('a follower takes no writer lease', (t) => {
  const cluster = new FakeKafkaCluster();
  t.throws(
    () =>
      new KafkaEventLog({
        brokers: ['b:9092'],
        client: cluster.client,
        follower: {},
        writerLease: { takeover: false },
      }),
    { message: /no writer lease/ },
  );
});

test("a follower starts no head look-up while one is under way (the partition's leader away: each takes up to its time limit)", async (t) => {
  const cluster = new FakeKafkaCluster();
  const writer = await openLog(t, cluster, { transactionalId: 'netledger-writer' });
  await writer.append(makeBatch(1, 1));
  const follower = await openLog(t, cluster, {
    clientId: 'netledger-reader',
    follower: { headRefreshMs: 5 },
    headReadTimeoutMs: 100,
  });
  const lookups = () => cluster.consumerGroups.filter((g) => g.startsWith('netledger-reader.head.'));
  const atOpen = lookups().length;
  cluster.leaderDown();
  await writer.append(makeBatch(2, 1)); // the partition's end moves: the next tick looks the head up
  // Twenty ticks pass while the first look-up waits for its time limit; the next begins only after it.
  while (lookups().length < atOpen + 2) await new Promise((resolve) => setImmediate(resolve));
  t.is(cluster.groupMembers(lookups()[atOpen]!).length, 0, 'the first look-up had ended when the second began');
  cluster.leaderUp();
  while (follower.head() < 2) await new Promise((resolve) => setImmediate(resolve));
  t.is(follower.head(), 2);
});

test('a follower does not create the topic: a missing one (the writer not started yet, a mistyped KAFKA_TOPIC) is refused at open, saying so', async (t) => {
  const cluster = new FakeKafkaCluster();
  const follower = new KafkaEventLog({
    brokers: ['broker-1:9092'],
    topic: 'netledger.chagnes',
    replicationFactor: 1,
    logLevel: 'nothing',
    client: cluster.client,
    follower: {},
  });
  t.teardown(() => follower.close());
  await t.throwsAsync(follower.open(), {
    message: /topic netledger\.chagnes does not exist, and a reader does not create it/,
  });
  t.false(cluster.topics.has('netledger.chagnes'), 'no empty log was made to be served');
});
