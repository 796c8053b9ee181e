/**
 * How far behind a read replica of the embedded file log is: a writer (in this process)
 * takes WRITES sequential creates; a replica (ROLE=reader, same process, same data
 * directory, no lock) follows the file. For each write, the time from its answer to the
 * replica's read models holding its position; and the replica's catch-up over the
 * whole log at start.
 *
 *   npx tsx bench/replicaLag.bench.ts      (WRITES=500 by default)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { loadConfig } from '../src/config.js';
import { start } from '../src/main.js';

const WRITES = Number(process.env.WRITES ?? 500);
const TOKEN = '0123456789abcdef0123456789abcdef01234567';
const dir = mkdtempSync(path.join(os.tmpdir(), 'netledger-bench-replica-'));
const env = { DATA_DIR: dir, PORT: '0', SECRET_KEY: 'bench', SUPERUSER_API_TOKEN: TOKEN, KEEPALIVE_TIMEOUT: '60' };
const writer = await start(loadConfig(env), () => {});
const reader = await start(loadConfig({ ...env, ROLE: 'reader' }), () => {});
await reader.caughtUp;

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
const fixed = (n: number) => n.toFixed(2);
const lags: number[] = [];
for (let i = 0; i < WRITES; i++) {
  const response = await fetch(`${writer.url}/api/extras/tags/`, {
    method: 'POST',
    headers: { Authorization: `Token ${TOKEN}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: `tag-${i}`, slug: `tag-${i}` }),
  });
  await response.arrayBuffer();
  const position = Number(response.headers.get('X-Netledger-Position'));
  const answered = performance.now();
  await reader.services.projector.waitFor(position);
  lags.push(performance.now() - answered);
}
lags.sort((a, b) => a - b);
console.log(
  `replica lag after a write's answer (${WRITES} sequential creates): p50 ${fixed(percentile(lags, 50))} ms, p99 ${fixed(percentile(lags, 99))} ms, max ${fixed(lags.at(-1)!)} ms`,
);

const head = writer.services.log.head();
const t0 = performance.now();
const second = await start(loadConfig({ ...env, ROLE: 'reader' }), () => {});
await second.caughtUp;
console.log(`replica start and first catch-up over ${head} events: ${fixed(performance.now() - t0)} ms`);

await second.stop();
await reader.stop();
await writer.stop();
rmSync(dir, { recursive: true, force: true });
