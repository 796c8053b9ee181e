import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import test from 'ava';

import { listSnapshots, readSnapshotHeader } from '../../src/snapshots/SnapshotFile.js';
import { startService, type TestService } from '../support/startService.js';

/**
 * The service restarted on a real broker from its read-model and audit snapshots: it reads
 * the topic from the offsets kept beside them, not from offset 0 (issue 28; the seek issue 15
 * left undone). What a restart fetched is counted by the adapter (messagesFetched()).
 *   KAFKA_PORT=9392 scripts/kafka-local.sh start
 *   KAFKA_BROKERS=127.0.0.1:9392 npx ava test/events/kafkaSnapshotRestart.int.spec.ts
 */
const brokers = (process.env.KAFKA_BROKERS ?? '')
  .split(',')
  .map((b) => b.trim())
  .filter((b) => b.length > 0);

interface FetchCounting {
  messagesFetched(): Readonly<Record<string, number>>;
}

const fetched = (service: TestService) => (service.services.log as unknown as FetchCounting).messagesFetched();

/** Creates `count` sites in bulk requests of 200 (an event each). */
const createSites = async (service: TestService, prefix: string, count: number) => {
  for (let start = 0; start < count; start += 200) {
    const body = Array.from({ length: Math.min(200, count - start) }, (_, i) => ({
      name: `${prefix}-${start + i}`,
      slug: `${prefix}-${start + i}`,
    }));
    const response = await service.api('POST', '/api/dcim/sites/', body);
    if (response.status !== 201) throw new Error(`bulk create: ${response.status} ${JSON.stringify(response.body)}`);
  }
};

const siteCount = async (service: TestService) => (await service.api('GET', '/api/dcim/sites/?limit=1')).body.count;

if (brokers.length === 0) {
  test('Kafka restart from snapshots: skipped: KAFKA_BROKERS not set', (t) => {
    t.log('skipped: KAFKA_BROKERS not set');
    t.pass();
  });
} else {
  test('Kafka restart from snapshots: the topic is read from the snapshot’s offset, not from offset 0', async (t) => {
    t.timeout(180_000);
    const env = {
      KAFKA_BROKERS: brokers.join(','),
      KAFKA_TOPIC: `netledger.test.${randomUUID()}`,
      KAFKA_TRANSACTIONAL_ID: `netledger-test-${randomUUID()}`,
      KAFKA_REPLICATION_FACTOR: '1',
      // The read models' also at a clean close, the audit index's only every 400 events.
      SNAPSHOT_EVERY_EVENTS: '400',
    };
    const kept = mkdtempSync(path.join(os.tmpdir(), 'netledger-test-kafka-snap-'));
    const other = mkdtempSync(path.join(os.tmpdir(), 'netledger-test-kafka-snap-'));
    t.teardown(() => {
      rmSync(kept, { recursive: true, force: true });
      rmSync(other, { recursive: true, force: true });
    });

    // A first service writes 2,000 sites and stops cleanly: snapshots at its last position, with the cursor there.
    const first = await startService(env, kept);
    await createSites(first, 'before', 2000);
    const snapshotAt = first.services.log.head();
    await first.close();
    const [readModels] = await listSnapshots(path.join(kept, 'snapshots'), 'read-models');
    // The audit index's, written while its subscription ran ahead of the writer's head, each with its cursor.
    const [auditIndex] = await listSnapshots(path.join(kept, 'snapshots'), 'audit-index');
    t.truthy(auditIndex, 'audit index snapshots are written on a Kafka writer');
    t.regex((await readSnapshotHeader(auditIndex!.file)).header.cursor ?? '', /^kafka:\d+$/);
    t.is(readModels?.position, snapshotAt);
    const { header } = await readSnapshotHeader(readModels!.file);
    t.regex(header.cursor ?? '', /^kafka:\d+$/, 'the snapshot keeps the log cursor at its position');

    // Another writer (another data directory, no snapshots there) adds to the topic: the snapshot
    // is now behind the head, and its position's event is not in the tail a start reads.
    const second = await startService({ ...env, SNAPSHOT_EVERY_EVENTS: '0' }, other);
    await createSites(second, 'after', 200);
    const head = second.services.log.head();
    await second.close();
    t.true(head - snapshotAt >= 200);

    const warnings: string[] = [];
    const logger = (entry: Record<string, unknown>) => {
      if (entry.level === 'warn') warnings.push(String(entry.msg));
    };
    const restarted = await startService(env, kept, { logger });
    t.teardown(() => restarted.close());
    t.is(await siteCount(restarted), 2200, 'every site, from the snapshot and the tail');
    const counts = fetched(restarted);
    t.deepEqual(warnings, [], 'no snapshot passed over');
    t.is(restarted.services.audit?.loadedFrom, auditIndex!.position, 'the audit index from its snapshot');
    t.log(`restart ${snapshotAt} events into the topic, head ${head}: fetched ${JSON.stringify(counts)}`);
    // What the start waited for: each subscriber (read models, audit index, auth, webhooks) from
    // its own snapshot or saved cursor, the snapshots' events at their cursors, the head's
    // transaction. One subscriber reading from offset 0 would alone fetch more than snapshotAt.
    t.true((counts.subscribe ?? 0) < snapshotAt, `subscriptions fetched ${counts.subscribe}: their tails only`);
    t.true((counts.positions ?? 0) < snapshotAt, `random reads fetched ${counts.positions}: no scan`);
    t.is(counts.read ?? 0, 0, 'no read from the partition’s start');
    t.is(counts.locate ?? 0, 0, 'nor in the background: what the cursors skipped is located on first need');
    t.true((counts.head ?? 0) < snapshotAt, `the head's look-up fetched ${counts.head}`);

    // The audit side still reaches the events before the snapshot (by offset, once located).
    const oldest = await restarted.api('GET', '/api/extras/object-changes/?ordering=time&limit=1');
    t.is(oldest.status, 200);
    t.truthy(oldest.body.results[0]?.postchange_data?.name, JSON.stringify(oldest.body.results[0]));
    t.is((await restarted.api('POST', '/api/dcim/sites/', { name: 'later', slug: 'later' })).status, 201);
  });
}
