import test from 'ava';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AuditLog } from '../../src/audit/AuditLog.js';
import { KafkaEventLog } from '../../src/events/KafkaEventLog.js';
import { makeBatch, makeEvent } from '../events/makeEvent.js';

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
    const dir = mkdtempSync(path.join(os.tmpdir(), 'netledger-kafka-audit-'));
    t.teardown(() => rmSync(dir, { recursive: true, force: true }));
    const log = new KafkaEventLog({
      brokers,
      topic: `netledger.test.${randomUUID()}`,
      transactionalId: `netledger-test-writer-${randomUUID()}`,
      clientId: 'netledger-test',
      logLevel: 'error',
    });
    await log.open();
    t.teardown(() => log.close());
    const first = makeBatch(1, 3);
    await log.append(first);
    await log.append([makeEvent(4)]);

    const audit = new AuditLog(log, { dir });
    await audit.open();
    t.teardown(() => audit.close());
    t.is(audit.head, 4);
    t.deepEqual(audit.index.requestPositions(first[0]!.requestId), [1, 2, 3]);

    const second = makeBatch(5, 2);
    await log.append(second);
    await audit.sync();
    t.deepEqual(audit.index.requestPositions(second[0]!.requestId), [5, 6]);
    t.deepEqual(audit.events([6, 2]).map((e) => e.position), [6, 2]);
  });
}
