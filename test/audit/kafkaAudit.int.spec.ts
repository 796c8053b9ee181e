import { randomUUID } from 'node:crypto';

import test from 'ava';

import { AuditLog } from '../../src/audit/AuditLog.js';
import { KafkaEventLog } from '../../src/events/kafka/KafkaEventLog.js';
import { registry } from '../../src/models/registry.js';
import { makeBatch, makeEvent } from '../support/makeEvent.js';

/**
 * The audit indexes over the Kafka adapter: `KAFKA_BROKERS=localhost:9094 npx ava test/audit/kafkaAudit.int.spec.ts`.
 * Skipped unless KAFKA_BROKERS is set.
 */
const brokers = (process.env.KAFKA_BROKERS ?? '')
  .split(',')
  .map((b) => b.trim())
  .filter((b) => b.length > 0);

if (brokers.length === 0) {
  test('AuditLog over KafkaEventLog: skipped: KAFKA_BROKERS not set', (t) => {
    t.log('skipped: KAFKA_BROKERS not set');
    t.pass();
  });
} else {
  test('AuditLog over KafkaEventLog: rebuilt on open, maintained on append', async (t) => {
    const log = new KafkaEventLog({
      brokers,
      topic: `netledger.test.${randomUUID()}`,
      transactionalId: `netledger-test-writer-${randomUUID()}`,
      clientId: 'netledger-test',
      replicationFactor: 1, // the test broker is a single one
      logLevel: 'error',
    });
    await log.open();
    t.teardown(() => log.close());
    const first = makeBatch(1, 3);
    await log.append(first);
    await log.append([makeEvent(4)]);

    const audit = new AuditLog(log, registry);
    await audit.open();
    t.teardown(() => audit.close());
    t.is(audit.head, 4);
    t.deepEqual(audit.index.requestPositions(first[0]!.requestId), [1, 2, 3]);

    const second = makeBatch(5, 2);
    await log.append(second);
    await audit.sync();
    t.deepEqual(audit.index.requestPositions(second[0]!.requestId), [5, 6]);
    t.deepEqual(
      (await audit.events([6, 2])).map((e) => e.position),
      [6, 2],
    );
  });

  test('KafkaEventLog.readPositions without a body cache: fetched by offset, or scanned when never consumed', async (t) => {
    const topic = `netledger.test.${randomUUID()}`;
    const options = { brokers, topic, clientId: 'netledger-test', replicationFactor: 1, logLevel: 'error' as const };
    const writer = new KafkaEventLog({ ...options, transactionalId: `netledger-test-writer-${randomUUID()}` });
    await writer.open();
    t.teardown(() => writer.close());
    await writer.append(makeBatch(1, 3));
    for (let p = 4; p <= 40; p++) await writer.append([makeEvent(p)]);

    const reader = new KafkaEventLog({
      ...options,
      transactionalId: `netledger-test-reader-${randomUUID()}`,
      bodyCacheBytes: 0,
    });
    await reader.open();
    t.teardown(() => reader.close());
    // Nothing consumed yet: a scan.
    t.deepEqual(
      (await reader.readPositions([7, 2, 7])).map((e) => e.position),
      [7, 2, 7],
    );
    // After a subscription from 1 has seen every offset: fetched by offset.
    const audit = new AuditLog(reader, registry);
    await audit.open();
    t.teardown(() => audit.close());
    const events = await audit.events([40, 1, 20, 21, 3]);
    t.deepEqual(
      events.map((e) => e.position),
      [40, 1, 20, 21, 3],
    );
    await t.throwsAsync(() => reader.readPositions([41]), { instanceOf: RangeError });
  });
}
