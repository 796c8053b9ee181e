import test from 'ava';
import { randomUUID } from 'node:crypto';
import { KafkaEventLog, type KafkaEventLogOptions } from '../../src/events/kafka/KafkaEventLog.js';
import { kafkaMockBinary, startKafkaMock, type KafkaMock } from '../support/kafkaMockBroker.js';
import { KafkaMockClient } from '../support/kafkaMockClient.js';
import { eventLogContract } from './eventLog.contract.js';

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
      let log = await openLog(options);
      return {
        log,
        reopen: async () => {
          await log.close();
          log = await openLog(options);
          return log;
        },
        cleanup: async () => {
          await log.close();
          await mock.stop();
        },
      };
    } catch (error) {
      await mock.stop();
      throw error;
    }
  });
}

async function startMock(brokers: number): Promise<{ mock: KafkaMock; client: KafkaMockClient }> {
  const mock = await startKafkaMock(brokers);
  if ('skipped' in mock) throw new Error(`kafka mock: ${mock.skipped}`);
  return { mock, client: new KafkaMockClient(mock) };
}

function logOptions(mock: KafkaMock, client: KafkaMockClient, extra: Partial<KafkaEventLogOptions> = {}): KafkaEventLogOptions {
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
