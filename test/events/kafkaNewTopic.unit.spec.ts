/**
 * A topic created moments ago may be unknown to the broker still: under KRaft a broker
 * learns of a new topic from the metadata log, and kafkajs's createTopics({waitForLeaders})
 * gives up at the first UNKNOWN_TOPIC_OR_PARTITION it is answered 100 ms after creating it.
 * Seen against a real, busy 3.9 broker: a writer's open() failed on a topic it had just made.
 */
import test from 'ava';

import { KafkaEventLog, type KafkaEventLogOptions } from '../../src/events/kafka/KafkaEventLog.js';
import { readAll } from '../support/eventLog.contract.js';
import { FakeKafkaCluster, protocolError } from '../support/fakeKafka.js';
import { makeBatch } from '../support/makeEvent.js';

const options = (cluster: FakeKafkaCluster): KafkaEventLogOptions => ({
  brokers: ['broker-1:9092'],
  clientId: 'new-topic',
  replicationFactor: 1,
  logLevel: 'nothing',
  client: cluster.client,
});

test('kafka: a writer opens on the topic it just created though the broker did not know it when first asked', async (t) => {
  const cluster = new FakeKafkaCluster();
  // Created, but the library's wait for its leaders is answered "unknown topic"; so is the next look.
  cluster.failNext('createTopics', protocolError('UNKNOWN_TOPIC_OR_PARTITION'), { applied: true });
  cluster.failNext('fetchTopicMetadata', protocolError('UNKNOWN_TOPIC_OR_PARTITION'));
  const log = new KafkaEventLog(options(cluster));
  t.teardown(() => log.close());
  await log.open();
  await log.append(makeBatch(1, 2));
  t.deepEqual(
    (await readAll(log, 1)).map((b) => b.length),
    [2],
  );
});

test("kafka: a topic that cannot be created is still refused with the broker's error", async (t) => {
  const cluster = new FakeKafkaCluster();
  cluster.failNext('createTopics', protocolError('POLICY_VIOLATION'));
  const log = new KafkaEventLog(options(cluster));
  t.teardown(() => log.close());
  await t.throwsAsync(log.open(), { message: /policy/i });
});
