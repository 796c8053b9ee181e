/**
 * How far behind a read replica is under a steady write load: a writer (in this process)
 * takes WRITES creates from CONCURRENCY clients, each sending its next write when the last
 * is answered; a replica (ROLE=reader, same process, same data directory, no lock) follows
 * the log. For each write, the time from its answer to the replica's read models holding
 * its position; and a second replica's start and first catch-up over the whole log.
 * First on the embedded file log (the replica follows the file), then, when KAFKA_BROKERS is
 * set, on Kafka (a fresh topic; the replica is a follower of it).
 *
 *   npx tsx bench/replicaLag.bench.ts                                  (WRITES=500, CONCURRENCY=4)
 *   KAFKA_BROKERS=127.0.0.1:9392 npx tsx bench/replicaLag.bench.ts     (the file log, then Kafka)
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { loadConfig } from '../src/config.js';
import { start } from '../src/main.js';

const WRITES = Number(process.env.WRITES ?? 500);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 4);
const TOKEN = '0123456789abcdef0123456789abcdef01234567';

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
const fixed = (n: number) => n.toFixed(1);

async function measure(label: string, logEnv: Record<string, string>): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'netledger-bench-replica-'));
  const env = {
    DATA_DIR: dir,
    PORT: '0',
    SECRET_KEY: 'bench',
    SUPERUSER_API_TOKEN: TOKEN,
    KEEPALIVE_TIMEOUT: '60',
    ...logEnv,
  };
  const writer = await start(loadConfig(env), () => {});
  const reader = await start(loadConfig({ ...env, ROLE: 'reader', WRITER_URL: writer.url }), () => {});
  await reader.caughtUp;

  const lags: number[] = [];
  let visibleAtAnswer = 0;
  let next = 0;
  const started = performance.now();
  const client = async () => {
    for (let i = next++; i < WRITES; i = next++) {
      const response = await fetch(`${writer.url}/api/extras/tags/`, {
        method: 'POST',
        headers: { Authorization: `Token ${TOKEN}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ name: `tag-${i}`, slug: `tag-${i}` }),
      });
      await response.arrayBuffer();
      if (response.status !== 201) throw new Error(`write ${i}: ${response.status}`);
      const position = Number(response.headers.get('X-Netledger-Position'));
      const answered = performance.now();
      if (reader.services.projector.position >= position) visibleAtAnswer++;
      await reader.services.projector.waitFor(position);
      lags.push(performance.now() - answered);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, client));
  const seconds = (performance.now() - started) / 1000;
  lags.sort((a, b) => a - b);
  console.log(
    `${label}: replica lag after a write's answer ` +
      `(${WRITES} creates from ${CONCURRENCY} clients, ${fixed(WRITES / seconds)} writes/s): ` +
      `p50 ${fixed(percentile(lags, 50))} ms, p95 ${fixed(percentile(lags, 95))} ms, ` +
      `p99 ${fixed(percentile(lags, 99))} ms, max ${fixed(lags.at(-1)!)} ms; ` +
      `already on the replica when answered: ${Math.round((100 * visibleAtAnswer) / WRITES)}%`,
  );

  const head = writer.services.log.head();
  const t0 = performance.now();
  const second = await start(loadConfig({ ...env, ROLE: 'reader', WRITER_URL: writer.url }), () => {});
  await second.caughtUp;
  console.log(`${label}: replica start and first catch-up over ${head} events: ${fixed(performance.now() - t0)} ms`);

  await second.stop();
  await reader.stop();
  await writer.stop();
  rmSync(dir, { recursive: true, force: true });
}

await measure('file log', {});
if (process.env.KAFKA_BROKERS) {
  await measure('Kafka', {
    KAFKA_BROKERS: process.env.KAFKA_BROKERS,
    KAFKA_TOPIC: `netledger.bench.${randomUUID()}`,
    KAFKA_TRANSACTIONAL_ID: `netledger-bench-${randomUUID()}`,
    KAFKA_REPLICATION_FACTOR: '1',
  });
}
