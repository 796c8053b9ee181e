/**
 * FileEventLog throughput. Not a test: run with `npx tsx bench/eventLog.bench.ts`.
 *
 *  1. 1,000,000 events appended in batches of 1,000 (one await per batch);
 *  2. 10,000 single-event appends from 50 concurrent callers (shows the group commit);
 *  3. reopen of the 1M-event log (recovery scan) and a full read(1) replay.
 *
 * Env: EVENTS (default 1000000), BATCH (1000), SINGLES (10000), CALLERS (50), KEEP=1 keeps the temp dir.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';

import { FileEventLog } from '../src/events/file/FileEventLog.js';
import { makeBatch, makeEvent } from '../test/support/makeEvent.js';

const EVENTS = Number(process.env.EVENTS ?? 1_000_000);
const BATCH = Number(process.env.BATCH ?? 1_000);
const SINGLES = Number(process.env.SINGLES ?? 10_000);
const CALLERS = Number(process.env.CALLERS ?? 50);

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
const mib = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);

async function batchedAppends(dir: string): Promise<void> {
  const log = new FileEventLog({ dir });
  await log.open();
  let appendMs = 0;
  const wall = performance.now();
  for (let first = 1; first <= EVENTS; first += BATCH) {
    const batch = makeBatch(first, Math.min(BATCH, EVENTS - first + 1)); // generation not timed
    const t0 = performance.now();
    await log.append(batch);
    appendMs += performance.now() - t0;
  }
  const wallMs = performance.now() - wall;
  const { syncs, bytesWritten } = log.stats;
  await log.close();
  console.log(
    `append  ${fmt(EVENTS)} events in batches of ${fmt(BATCH)}: ${fmt(EVENTS / (appendMs / 1000))} events/s ` +
      `(${(appendMs / 1000).toFixed(2)} s in append incl. validation+serialisation+write+fdatasync; ` +
      `${(wallMs / 1000).toFixed(2)} s wall incl. event generation), ${syncs} fdatasyncs, ${mib(bytesWritten)} MiB, ` +
      `${fmt(bytesWritten / EVENTS)} B/event`,
  );
}

async function concurrentSingles(dir: string): Promise<void> {
  const log = new FileEventLog({ dir });
  await log.open();
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: CALLERS }, async () => {
      while (next < SINGLES) {
        const position = ++next; // positions are assigned in call order
        await log.append([makeEvent(position)]);
      }
    }),
  );
  const ms = performance.now() - t0;
  const { syncs, appends } = log.stats;
  await log.close();
  console.log(
    `append  ${fmt(SINGLES)} single-event appends, ${CALLERS} concurrent callers: ${fmt(SINGLES / (ms / 1000))} appends/s ` +
      `(${(ms / 1000).toFixed(2)} s), ${appends} appends in ${syncs} fdatasyncs = ${(appends / syncs).toFixed(1)} appends per group commit`,
  );
}

async function replay(dir: string): Promise<void> {
  const log = new FileEventLog({ dir });
  let t0 = performance.now();
  await log.open();
  const openMs = performance.now() - t0;
  const size = fs.statSync(log.file).size;
  console.log(
    `open    ${fmt(log.head())} events, ${mib(size)} MiB (recovery scan: CRC + parse + position check): ${(openMs / 1000).toFixed(2)} s, ${fmt(log.head() / (openMs / 1000))} events/s`,
  );

  t0 = performance.now();
  let events = 0;
  let batches = 0;
  let last = 0;
  for await (const batch of log.read(1)) {
    batches++;
    events += batch.length;
    last = batch[batch.length - 1]!.position;
  }
  const ms = performance.now() - t0;
  if (events !== log.head() || last !== log.head())
    throw new Error(`replay saw ${events} events up to ${last}, head ${log.head()}`);
  console.log(
    `replay  read(1) of ${fmt(events)} events in ${fmt(batches)} batches: ${(ms / 1000).toFixed(2)} s = ${fmt(events / (ms / 1000))} events/s, ` +
      `${(size / 1024 / 1024 / (ms / 1000)).toFixed(0)} MiB/s`,
  );
  await log.close();
}

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'nl-bench-'));
try {
  console.log(`FileEventLog bench: node ${process.version}, ${os.cpus().length} CPUs, ${os.platform()}, dir ${root}`);
  await batchedAppends(path.join(root, 'batched'));
  await concurrentSingles(path.join(root, 'singles'));
  await replay(path.join(root, 'batched'));
} finally {
  if (process.env.KEEP !== '1') fs.rmSync(root, { recursive: true, force: true });
}
