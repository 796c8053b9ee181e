/**
 * `?as_of=` under a burst, over HTTP. Not a test: run with
 * `node --expose-gc --import tsx bench/asOfLoad.bench.ts` (EVENTS=100000 by default).
 *
 * Writes EVENTS site events to a fresh data directory, starts the service on it, then:
 *  1. 8 concurrent anonymous `?as_of=` list reads at different positions;
 *  2. 8 concurrent authenticated ones (the superuser);
 * and for each burst reports its wall time, the statuses, the replays started, the heap
 * growth (after GC, the built states still cached) and the latency of plain
 * authenticated reads made meanwhile (one after another until the burst ends).
 *
 * Env: EVENTS (100000), OBJECTS (20000), BURST (8), KEEP=1 keeps the temp dir.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';

import { loadConfig } from '../src/config.js';
import { start } from '../src/main.js';
import { writeSiteHistoryLog } from './siteHistory.js';

const EVENTS = Number(process.env.EVENTS ?? 100_000);
const OBJECTS = Number(process.env.OBJECTS ?? 20_000);
const BURST = Number(process.env.BURST ?? 8);
const TOKEN = '0123456789abcdef0123456789abcdef01234567';
const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);

function writeLog(dir: string): Promise<void> {
  return writeSiteHistoryLog(dir, { events: EVENTS, objects: OBJECTS, user: null, withId: true });
}

async function get(url: string, auth: boolean): Promise<number> {
  const response = await fetch(url, { headers: auth ? { Authorization: `Token ${TOKEN}` } : {} });
  await response.arrayBuffer();
  return response.status;
}

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'netledger-asof-bench-'));
  try {
    await writeLog(dir);
    const running = await start(
      loadConfig({
        DATA_DIR: dir,
        PORT: '0',
        HOST: '127.0.0.1',
        SUPERUSER_API_TOKEN: TOKEN,
        SECRET_KEY: 'bench-secret',
      }),
      () => {},
    );
    const past = running.services.audit!.past;
    console.log(
      `log     ${EVENTS.toLocaleString('en-US')} events, ${mib(fs.statSync(path.join(dir, 'events.log')).size)}; burst of ${BURST}`,
    );
    try {
      await get(`${running.url}/api/`, true);
      let offset = 0;
      for (const [label, auth] of [
        ['anonymous', false],
        ['authenticated', true],
      ] as const) {
        gc();
        const heap0 = process.memoryUsage().heapUsed;
        const builds0 = past.builds;
        const t0 = performance.now();
        let burstDone = false;
        const burst = Promise.all(
          Array.from({ length: BURST }, (_, i) =>
            get(`${running.url}/api/dcim/sites/?limit=1&as_of=${EVENTS - 1000 * (offset + i)}`, auth),
          ),
        ).finally(() => (burstDone = true));
        offset += BURST;
        const latencies: number[] = [];
        while (!burstDone) {
          const s = performance.now();
          await get(`${running.url}/api/dcim/sites/?limit=1`, true);
          latencies.push(performance.now() - s);
        }
        const statuses = await burst;
        const wall = performance.now() - t0;
        gc();
        const heap = process.memoryUsage().heapUsed - heap0;
        const counts = new Map<number, number>();
        for (const s of statuses) counts.set(s, (counts.get(s) ?? 0) + 1);
        latencies.sort((a, b) => a - b);
        console.log(
          `${label.padEnd(13)} ${(wall / 1000).toFixed(2)} s; statuses ${[...counts].map(([s, n]) => `${n}×${s}`).join(' ')}; ` +
            `replays ${past.builds - builds0}; heap +${mib(heap)}; plain reads meanwhile: ${latencies.length}, ` +
            `max ${(latencies.at(-1) ?? 0).toFixed(0)} ms, median ${(latencies[Math.floor(latencies.length / 2)] ?? 0).toFixed(0)} ms`,
        );
      }
    } finally {
      await running.stop();
    }
  } finally {
    if (!process.env.KEEP) fs.rmSync(dir, { recursive: true, force: true });
  }
}

await main();
