/**
 * A bulk create of 1,000 IP addresses and sequential single creates over HTTP, with the event
 * log on Kafka (KAFKA_BROKERS) and on the file log, side by side. Not a test: run with
 * `KAFKA_BROKERS=127.0.0.1:9092 npx tsx bench/kafkaBulk.bench.ts`. Env: ROUNDS (default 5), SINGLES (default 100).
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';

import { startService } from '../test/support/startService.js';

const brokers = process.env.KAFKA_BROKERS ?? '';
const ROUNDS = Number(process.env.ROUNDS ?? 5);
const SINGLES = Number(process.env.SINGLES ?? 100);
const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]!;

async function measure(label: string, env: Record<string, string>) {
  const service = await startService(env);
  try {
    const singles: number[] = [];
    for (let i = 0; i < SINGLES; i++) {
      const started = performance.now();
      const answer = await service.api('POST', '/api/dcim/sites/', { name: `s${i}`, slug: `s${i}` });
      if (answer.status !== 201) throw new Error(`single create: ${answer.status}`);
      singles.push(performance.now() - started);
    }
    const bulks: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const body = Array.from({ length: 1000 }, (_, i) => ({ address: `10.${round}.${i >> 8}.${i & 255}/32` }));
      const started = performance.now();
      const answer = await service.api('POST', '/api/ipam/ip-addresses/', body);
      if (answer.status !== 201) throw new Error(`bulk create: ${answer.status}`);
      bulks.push(performance.now() - started);
    }
    singles.sort((a, b) => a - b);
    bulks.sort((a, b) => a - b);
    const single = `p50 ${pct(singles, 50).toFixed(1)} ms, p95 ${pct(singles, 95).toFixed(1)} ms (${SINGLES})`;
    const bulk = `median ${pct(bulks, 50).toFixed(0)} ms, min ${bulks[0]!.toFixed(0)} ms (${ROUNDS} rounds)`;
    console.log(`${label}: single site create ${single}; bulk create 1,000 IPs ${bulk}`);
  } finally {
    await service.close();
  }
}

await measure('file log', {});
if (!brokers) console.log('Kafka: skipped: KAFKA_BROKERS not set');
else {
  const id = randomUUID();
  await measure('Kafka', {
    KAFKA_BROKERS: brokers,
    KAFKA_TOPIC: `netledger.bench.${id}`,
    KAFKA_TRANSACTIONAL_ID: `netledger-bench-${id}`,
    KAFKA_REPLICATION_FACTOR: '1',
  });
}
