/**
 * What a restart costs a Kafka subscriber: catching up on the last few batches from a
 * stored cursor (kafka resume) against reading the partition from its start, as every
 * subscriber did before. Not a test: run with `npx tsx bench/kafkaResume.bench.ts`,
 * against KAFKA_BROKERS when set, else against the in-process fake cluster of the tests
 * (test/support/fakeKafka.ts): there it measures this side's cost of a scan (every
 * message decoded and checked), which a real broker adds its transfer to.
 * librdkafka's mock cluster (the wire-level tests) is no use here: it keeps only the last
 * few thousand messages of a partition.
 *
 * Env: EVENTS (default 50,000) written in batches of BATCH (default 500); the subscriber
 * resumes TAIL_BATCHES (default 2) batches before the head.
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';

import type { LogCursor, ResumePoint } from '../src/events/EventLog.js';
import { KafkaEventLog, type KafkaEventLogOptions } from '../src/events/kafka/KafkaEventLog.js';
import { FakeKafkaCluster } from '../test/support/fakeKafka.js';
import { makeEvent } from '../test/support/makeEvent.js';
import { reportFigure } from './figures.js';

const EVENTS = Number(process.env.EVENTS ?? 50_000);
const BATCH = Number(process.env.BATCH ?? 500);
const TAIL_BATCHES = Number(process.env.TAIL_BATCHES ?? 2);

function brokers(): { brokers: string[]; client?: KafkaEventLogOptions['client']; where: string } {
  const configured = (process.env.KAFKA_BROKERS ?? '')
    .split(',')
    .map((b) => b.trim())
    .filter(Boolean);
  if (configured.length > 0) return { brokers: configured, where: `brokers ${configured.join(',')}` };
  return { brokers: ['fake:9092'], client: new FakeKafkaCluster().client, where: 'the in-process fake cluster' };
}

async function caughtUpIn(
  log: KafkaEventLog,
  from: number,
  resume: ResumePoint | null,
): Promise<{ ms: number; events: number }> {
  const started = performance.now();
  let events = 0;
  const subscription = log.subscribe(from, async (batch) => void (events += batch.length), resume);
  await subscription.caughtUp;
  const ms = performance.now() - started;
  await subscription.stop();
  return { ms, events };
}

async function main(): Promise<void> {
  const target = brokers();
  const options = {
    brokers: target.brokers,
    client: target.client,
    topic: `netledger.bench.${randomUUID()}`,
    transactionalId: `netledger-bench-${randomUUID()}`,
    replicationFactor: 1,
    logLevel: 'nothing' as const,
  };
  const writer = new KafkaEventLog(options);
  await writer.open();
  try {
    const started = performance.now();
    for (let first = 1; first <= EVENTS; first += BATCH) {
      const requestId = randomUUID();
      const batch = Array.from({ length: Math.min(BATCH, EVENTS - first + 1) }, (_, i) =>
        makeEvent(first + i, { requestId }),
      );
      await writer.append(batch);
    }
    console.log(
      `wrote ${EVENTS} events in batches of ${BATCH} to ${target.where} in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );

    // A subscriber that had reached `resumeAt` before it stopped, and kept the cursor it was handed there.
    const resumeAt = writer.head() - TAIL_BATCHES * BATCH;
    let cursor: LogCursor | undefined;
    const first = new KafkaEventLog({ ...options, follower: {} });
    await first.open();
    const learn = first.subscribe(1, async (batch, c) => {
      if (batch.at(-1)!.position === resumeAt) cursor = c;
    });
    await learn.caughtUp;
    await learn.stop();
    await first.close();
    if (!cursor) throw new Error(`no cursor handed at position ${resumeAt}`);

    const measure = async (label: string, resume: ResumePoint | null) => {
      const log = new KafkaEventLog({ ...options, follower: {} });
      await log.open();
      try {
        const { ms, events } = await caughtUpIn(log, resumeAt + 1, resume);
        console.log(`${label}: caught up with ${events} events in ${ms.toFixed(0)} ms`);
        return ms;
      } finally {
        await log.close();
      }
    };
    const scan = await measure('restart reading the partition from its start', null);
    const resumed = await measure('restart from the stored cursor', { position: resumeAt, cursor });
    reportFigure({
      name: `Kafka subscriber restart, ${TAIL_BATCHES * BATCH} events behind of ${EVENTS}`,
      value: `${resumed.toFixed(0)} ms (from the start: ${scan.toFixed(0)} ms)`,
    });
  } finally {
    await writer.close();
  }
}

await main();
