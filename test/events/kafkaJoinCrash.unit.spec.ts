/**
 * A consumer whose group join fails inside run() (a coordinator still loading after a broker
 * restart): kafkajs runs its crash handler, which makes the reader replace the consumer, and
 * then resolves run() all the same. The reader then sought on the dead consumer, which throws
 * "Consumer group was not initialized": against a real 3.9 broker restarted by the coordinator
 * test, a follower's open failed so. The replacement must carry the read instead.
 */
import test from 'ava';

import { KafkaEventLog, type KafkaEventLogOptions } from '../../src/events/kafka/KafkaEventLog.js';
import { readAll } from '../support/eventLog.contract.js';
import { FakeKafkaCluster, protocolError } from '../support/fakeKafka.js';
import { makeBatch } from '../support/makeEvent.js';

const options = (cluster: FakeKafkaCluster): KafkaEventLogOptions => ({
  brokers: ['broker-1:9092'],
  clientId: 'join-crash',
  replicationFactor: 1,
  logLevel: 'nothing',
  client: cluster.client,
});

test('kafka: a reader whose consumer fails to join its group reads on through a replacement', async (t) => {
  const cluster = new FakeKafkaCluster();
  const writer = new KafkaEventLog(options(cluster));
  t.teardown(() => writer.close());
  await writer.open();
  await writer.append(makeBatch(1, 3));
  await writer.append(makeBatch(4, 2));

  // The follower's first consumer (its head look-up, seeked near the end) cannot join.
  cluster.failNext('consumerJoin', protocolError('GROUP_COORDINATOR_NOT_AVAILABLE'));
  const follower = new KafkaEventLog({ ...options(cluster), follower: {} });
  t.teardown(() => follower.close());
  await follower.open();
  t.is(follower.head(), 5);
  t.deepEqual(
    (await readAll(follower, 4)).map((b) => b.map((e) => e.position)),
    [[4, 5]],
  );
});
