/**
 * Sequential write latency on the Kafka event log: each write waits for the one before,
 * as a single client creating objects one by one does. Not a test: run with
 * `KAFKA_BROKERS=localhost:9094 npx tsx bench/kafkaWrite.bench.ts` (prints "skipped"
 * without KAFKA_BROKERS).
 *
 *  1. WRITES single-event appends to the log (one Kafka transaction each);
 *  2. WRITES single-site creates through the writer (decide, append, wait for the
 *     projection into the in-memory read models): what one POST costs besides HTTP.
 *
 * Back-to-back transactions used to wait ~300 ms each (the broker answers
 * CONCURRENT_TRANSACTIONS while it writes the previous commit markers, and the client's
 * first retry back-off was 300 ms); see src/events/kafka/clientSettings.ts.
 *
 * Env: WRITES (default 200), KAFKA_REPLICATION_FACTOR (default 1: a local broker).
 * KAFKA_MOCK=1 runs both against librdkafka's mock cluster on loopback instead
 * (test/support/kafka-mock/, needs librdkafka-dev): the client's side of the wire
 * protocol and its retry back-offs, without a broker's disk, replication or commit markers.
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';

import { SecretKeeper } from '../src/auth/secrets.js';
import { systemClock } from '../src/commands/clock.js';
import { createObjects } from '../src/commands/createObjects.js';
import type { CommandEnvironment } from '../src/commands/decideObject.js';
import { runFollowUps } from '../src/commands/followUps.js';
import { WriteCoordinator } from '../src/commands/WriteCoordinator.js';
import { KafkaEventLog, type KafkaEventLogOptions } from '../src/events/kafka/KafkaEventLog.js';
import { registry } from '../src/models/registry.js';
import { MemoryReadStore } from '../src/projections/memory/MemoryReadStore.js';
import { Projector } from '../src/projections/Projector.js';
import { startKafkaMock } from '../test/support/kafkaMockBroker.js';
import { KafkaMockClient } from '../test/support/kafkaMockClient.js';
import { makeEvent } from '../test/support/makeEvent.js';

let brokers = (process.env.KAFKA_BROKERS ?? '')
  .split(',')
  .map((b) => b.trim())
  .filter(Boolean);
let client: KafkaEventLogOptions['client'];
const WRITES = Number(process.env.WRITES ?? 200);
const REPLICATION = Number(process.env.KAFKA_REPLICATION_FACTOR ?? 1);

function summary(label: string, samples: number[]): void {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  const mean = samples.reduce((a, b) => a + b, 0) / samples.length;
  console.log(
    `${label}: ${samples.length} sequential, mean ${mean.toFixed(1)} ms, p50 ${at(0.5).toFixed(1)} ms, ` +
      `p95 ${at(0.95).toFixed(1)} ms, max ${sorted.at(-1)!.toFixed(1)} ms, ${(1000 / mean).toFixed(0)} writes/s`,
  );
}

function openLog(): KafkaEventLog {
  return new KafkaEventLog({
    brokers,
    topic: `netledger.bench.${randomUUID()}`,
    transactionalId: `netledger-bench-${randomUUID()}`,
    replicationFactor: REPLICATION,
    logLevel: 'error',
    client,
  });
}

async function appends(): Promise<void> {
  const log = openLog();
  await log.open();
  try {
    const samples: number[] = [];
    for (let p = 1; p <= WRITES; p++) {
      const event = makeEvent(p);
      const t0 = performance.now();
      await log.append([event]);
      samples.push(performance.now() - t0);
    }
    summary('kafka append, 1 event per transaction', samples);
  } finally {
    await log.close();
  }
}

async function creates(): Promise<void> {
  const log = openLog();
  await log.open();
  const store = new MemoryReadStore();
  const projector = new Projector(log, store, registry);
  await projector.start();
  const coordinator = new WriteCoordinator(log, store, projector, registry, systemClock);
  await coordinator.init();
  const env: CommandEnvironment = {
    registry,
    secrets: new SecretKeeper('bench', false),
    settings: { enforceGlobalUnique: false },
    followUps: runFollowUps,
  };
  try {
    const samples: number[] = [];
    for (let i = 1; i <= WRITES; i++) {
      const t0 = performance.now();
      await coordinator.execute({ requestId: randomUUID(), user: null }, (tx) =>
        createObjects(env, tx, registry.get('dcim.site'), [{ name: `site-${i}`, slug: `site-${i}` }], { bulk: false }),
      );
      samples.push(performance.now() - t0);
    }
    summary('site create through the writer (decide + commit + projection)', samples);
  } finally {
    coordinator.close();
    await projector.stop();
    await log.close();
  }
}

const mock = process.env.KAFKA_MOCK === '1' ? await startKafkaMock() : null;
if (mock && 'skipped' in mock) {
  console.log(`kafkaWrite: skipped (${mock.skipped})`);
} else if (mock) {
  brokers = mock.brokers;
  client = new KafkaMockClient(mock, { quiet: true }).factory;
  console.log(`kafkaWrite: librdkafka's mock cluster at ${brokers.join(',')}`);
  try {
    await appends();
    await creates();
  } finally {
    await mock.stop();
  }
} else if (brokers.length === 0) {
  console.log("kafkaWrite: skipped (KAFKA_BROKERS not set; KAFKA_MOCK=1 uses librdkafka's mock cluster)");
} else {
  await appends();
  await creates();
}
