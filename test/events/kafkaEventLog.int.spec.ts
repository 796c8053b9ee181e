import { exec } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';

import test from 'ava';
import { Kafka, logLevel } from 'kafkajs';

import { EventTooLargeError } from '../../src/events/EventTooLargeError.js';
import { EventLogWriteError, KafkaEventLog } from '../../src/events/kafka/KafkaEventLog.js';
import { appendThroughOutage } from '../support/appendThroughOutage.js';
import { eventLogContract, readAll, reopenable } from '../support/eventLog.contract.js';
import { makeBatch, makeEvent } from '../support/makeEvent.js';

/**
 * Integration tests against a real broker (Kafka 3.9 or 4.x): `scripts/kafka-local.sh start`, then
 * `KAFKA_BROKERS=127.0.0.1:9092 npx ava test/events/kafkaEventLog.int.spec.ts`
 * (or KAFKA_BROKERS=localhost:9094 after docker compose up kafka).
 * Each test gets a fresh topic and its own transactional id (tests run concurrently and
 * would otherwise fence each other). Topics are left behind on the test broker.
 */
const brokers = (process.env.KAFKA_BROKERS ?? '')
  .split(',')
  .map((b) => b.trim())
  .filter((b) => b.length > 0);

if (brokers.length === 0) {
  test('KafkaEventLog integration tests: skipped: KAFKA_BROKERS not set', (t) => {
    t.log('skipped: KAFKA_BROKERS not set');
    t.pass();
  });
} else {
  const storage = () => ({
    brokers,
    topic: `netledger.test.${randomUUID()}`,
    transactionalId: `netledger-test-writer-${randomUUID()}`,
    clientId: 'netledger-test',
    replicationFactor: 1, // the test broker is a single one
    logLevel: 'error' as const,
  });
  const openLog = async (options: ReturnType<typeof storage>) => {
    const log = new KafkaEventLog(options);
    await log.open();
    return log;
  };

  eventLogContract('KafkaEventLog', async () => {
    const options = storage();
    return reopenable(() => openLog(options));
  });

  // Needs a way to stop and start the broker, e.g. with the compose file:
  // KAFKA_DOWN_COMMAND='docker compose stop kafka' KAFKA_UP_COMMAND='docker compose start kafka'
  const downCommand = process.env.KAFKA_DOWN_COMMAND;
  const upCommand = process.env.KAFKA_UP_COMMAND;
  if (!downCommand || !upCommand) {
    test('KafkaEventLog: the transaction coordinator killed mid-transaction: skipped: KAFKA_DOWN_COMMAND / KAFKA_UP_COMMAND not set', (t) => {
      t.log('skipped: KAFKA_DOWN_COMMAND / KAFKA_UP_COMMAND not set (they stop and start the broker)');
      t.pass();
    });
  } else {
    test.serial(
      'KafkaEventLog: the transaction coordinator killed mid-transaction: nothing acknowledged is lost, writes resume',
      async (t) => {
        t.timeout(300_000);
        const options = storage();
        const log = await openLog(options);
        const readers: KafkaEventLog[] = [];
        t.teardown(async () => {
          await log.close();
          await Promise.all(readers.map((r) => r.close()));
        });
        const run = (command: string) => promisify(exec)(command).then(() => undefined);
        await appendThroughOutage(t, log, { down: () => run(downCommand), up: () => run(upCommand) }, async () => {
          const reader = new KafkaEventLog({ ...options, follower: {} });
          readers.push(reader);
          await reader.open();
          return reader;
        });
      },
    );
  }

  test('KafkaEventLog: a second writer with the same transactional id fences the first', async (t) => {
    const options = storage();
    const first = await openLog(options);
    const second = await openLog({ ...options }).catch(async (error: unknown) => {
      await first.close();
      throw error;
    });
    try {
      await t.throwsAsync(first.append(makeBatch(1, 1)), { instanceOf: EventLogWriteError });
      await t.throwsAsync(first.append(makeBatch(1, 1)), { instanceOf: EventLogWriteError }, 'fenced for good');
      t.is(second.head(), 0);
      const batch = makeBatch(1, 2);
      await second.append(batch);
      t.deepEqual(await readAll(second, 1), [batch]);
    } finally {
      await Promise.allSettled([first.close(), second.close()]);
    }
  });

  test('KafkaEventLog: an append larger than one produce request is still one atomic batch', async (t) => {
    const log = await openLog(storage());
    try {
      const big = makeBatch(1, 1500); // ~1.3 MiB of JSON: several produce requests in one transaction
      await log.append(big);
      await log.append(makeBatch(1501, 1));
      t.deepEqual(
        (await readAll(log, 1)).map((b) => b.length),
        [1500, 1],
      );
    } finally {
      await log.close();
    }
  });

  test('KafkaEventLog: a 2 MiB event is refused as too large (413) before anything is sent, and the log stays writable', async (t) => {
    const log = await openLog(storage());
    try {
      await log.append(makeBatch(1, 1));
      const limit = log.maxEventBytes();
      t.truthy(limit, "the topic's max.message.bytes was read at open");
      const big = makeEvent(2, { postchange: { ...makeEvent(2).postchange, comments: 'x'.repeat(2 << 20) } });
      const error = await t.throwsAsync(log.append([big]), { instanceOf: EventTooLargeError });
      t.is(error!.status, 413);
      t.is(log.unavailable(), null);
      await log.append(makeBatch(2, 1));
      t.deepEqual(
        (await readAll(log, 1)).map((b) => b.map((e) => e.position)),
        [[1], [2]],
      );
    } finally {
      await log.close();
    }
  });

  test('KafkaEventLog: a compacted topic is refused at open and the writer is not registered', async (t) => {
    const options = storage();
    const admin = new Kafka({ clientId: 'netledger-test', brokers, logLevel: logLevel.ERROR }).admin();
    await admin.connect();
    try {
      await admin
        .createTopics({
          waitForLeaders: true,
          topics: [
            {
              topic: options.topic,
              numPartitions: 1,
              replicationFactor: 1,
              configEntries: [{ name: 'cleanup.policy', value: 'compact' }],
            },
          ],
        })
        // Created, but not yet known to a busy broker when the library first asks (open() waits for it).
        .catch((error: { type?: string }) => {
          if (error.type !== 'UNKNOWN_TOPIC_OR_PARTITION') throw error;
        });
    } finally {
      await admin.disconnect();
    }
    const log = new KafkaEventLog(options);
    await t.throwsAsync(log.open(), { message: /refusing to use topic .*cleanup\.policy is compact/ });
    await log.close();
  });
}
