/**
 * An append resolves only once its commit is readable. The broker answers EndTxn before the
 * coordinator has written the commit markers, and until they are written the partition's
 * last stable offset (what read_committed readers and ListOffsets see) leaves the
 * transaction out: against a real broker, `read()` right after `append()` then missed the
 * newest batch (the EventLog contract's round trip failed now and then). The fake cluster
 * (test/support/fakeKafka.ts) withholds the markers from the next ListOffsets answers.
 */
import test, { type ExecutionContext } from 'ava';

import type { ChangeEvent } from '../../src/events/ChangeEvent.js';
import { KafkaEventLog } from '../../src/events/kafka/KafkaEventLog.js';
import { readAll } from '../support/eventLog.contract.js';
import { FakeKafkaCluster } from '../support/fakeKafka.js';
import { makeBatch } from '../support/makeEvent.js';

async function openLog(t: ExecutionContext, cluster: FakeKafkaCluster) {
  const client = cluster.client;
  const log = new KafkaEventLog({
    brokers: ['broker-1:9092'],
    clientId: 'read-your-writes',
    replicationFactor: 1,
    logLevel: 'nothing',
    client,
  });
  t.teardown(() => log.close());
  await log.open();
  return log;
}

test('kafka: read() right after an append resolved sees it, though its commit markers were written after the answer', async (t) => {
  const cluster = new FakeKafkaCluster();
  const log = await openLog(t, cluster);
  await log.append(makeBatch(1, 3));
  cluster.deferNextMarkers(2);
  await log.append(makeBatch(4, 2));
  t.deepEqual(
    (await readAll(log, 1)).map((b) => b.map((e) => e.position)),
    [
      [1, 2, 3],
      [4, 5],
    ],
  );
});

test('kafka: a subscription made right after an append resolved has delivered it when it is caught up', async (t) => {
  const cluster = new FakeKafkaCluster();
  const log = await openLog(t, cluster);
  cluster.deferNextMarkers(1);
  await log.append(makeBatch(1, 2));
  t.is(log.head(), 2);
  const delivered: number[] = [];
  const subscription = log.subscribe(1, async (events: ChangeEvent[]) => {
    delivered.push(...events.map((e) => e.position));
  });
  await subscription.caughtUp;
  t.deepEqual(delivered, [1, 2]);
  await subscription.stop();
});

test.serial(
  'kafka: an append whose commit went through resolves though the end cannot be read afterwards',
  async (t) => {
    const cluster = new FakeKafkaCluster();
    const log = await openLog(t, cluster);
    const warned: string[] = [];
    const warn = console.warn;
    console.warn = (message: string) => void warned.push(message);
    t.teardown(() => {
      console.warn = warn;
    });
    cluster.deferNextMarkers(1);
    cluster.failNext('fetchTopicOffsets', new Error('the leader is gone'));
    await log.append(makeBatch(1, 2));
    t.is(log.head(), 2);
    t.true(
      warned.some((m) =>
        /could not tell whether the commit at offset 1 is readable yet \(the leader is gone\)/.test(m),
      ),
    );
  },
);
