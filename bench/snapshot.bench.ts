/**
 * Read-model snapshots at scale. Not a test: run with
 * `node --expose-gc --import tsx bench/snapshot.bench.ts`.
 *
 *  0. body format: JSON.parse of the same documents one per line, in arrays of 500 per
 *     line (the format used), and as one big array;
 *  1. writes a file log of EVENTS site events over OBJECTS sites (bench/siteHistory.ts);
 *  2. start-up without a snapshot: the projector replays the whole log into a fresh
 *     MemoryReadStore, with the service's snapshot writer attached (one every EVERY events,
 *     written in the background during the replay), then a final snapshot at the head;
 *  3. a snapshot of the final store on its own: capture, serialise + write (bytes, ms, the
 *     longest event-loop stall meanwhile);
 *  4. start-up from snapshots: loading the newest (ms, RSS, heap bytes per document) and
 *     replaying the tail, for a tail of 0 and of about EVERY events (the worst case: a
 *     stop just before the next snapshot);
 *  5. `?as_of=` (PastStates.at) at a few positions, with the snapshots as starting points
 *     and without (a replay from position 1).
 *
 * Wall-clock and CPU time (process.cpuUsage) are both printed: a busy machine inflates the first.
 * Env: EVENTS (1000000), OBJECTS (250000), EVERY (100000), BASELINE=0 skips the as_of
 * replays from position 1 (minutes at full size), KEEP=1 keeps the temp dir.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';

import { AuditLog } from '../src/audit/AuditLog.js';
import { PastStates } from '../src/audit/PastStates.js';
import { FileEventLog } from '../src/events/file/FileEventLog.js';
import { memoryPastStores } from '../src/ledger/pastStores.js';
import { registry } from '../src/models/registry.js';
import { MemoryReadStore } from '../src/projections/memory/MemoryReadStore.js';
import { writeReadModelSnapshot } from '../src/projections/memory/snapshots/readModelSnapshot.js';
import { eventIdsOf, ReadModelSnapshots } from '../src/projections/memory/snapshots/ReadModelSnapshots.js';
import { Projector } from '../src/projections/Projector.js';
import { readModelIndexes } from '../src/projections/readModelIndexes.js';
import { listSnapshots } from '../src/snapshots/SnapshotFile.js';
import { reportFigure } from './figures.js';
import { siteDocument, writeSiteHistoryLog } from './siteHistory.js';

const EVENTS = Number(process.env.EVENTS ?? 1_000_000);
const OBJECTS = Number(process.env.OBJECTS ?? 250_000);
const EVERY = Number(process.env.EVERY ?? 100_000);
const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);
const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

/** Wall and CPU milliseconds of `work`. */
async function timed<T>(work: () => Promise<T> | T): Promise<{ value: T; wall: number; cpu: number }> {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const value = await work();
  const d = process.cpuUsage(cpu0);
  return { value, wall: performance.now() - t0, cpu: (d.user + d.system) / 1000 };
}
const show = (r: { wall: number; cpu: number }) => `${fmt(r.wall)} ms (CPU ${fmt(r.cpu)} ms)`;

async function indexedStore(): Promise<MemoryReadStore> {
  const store = new MemoryReadStore();
  await store.open();
  for (const [collection, fields] of readModelIndexes(registry)) await store.ensureIndexes(collection, fields);
  return store;
}

async function formats(): Promise<void> {
  const docs = Array.from({ length: 100_000 }, (_, i) => ({
    ...siteDocument(i + 1, 3, { withId: true }),
    _pos: i + 1,
    _name: `site-${i + 1}`,
  }));
  const perDoc = docs.map((d) => JSON.stringify(d));
  const batches: string[] = [];
  for (let i = 0; i < docs.length; i += 500) batches.push(JSON.stringify(docs.slice(i, i + 500)));
  const whole = JSON.stringify(docs);
  const run = (what: string, parse: () => void) => {
    parse(); // warm-up
    const t0 = performance.now();
    parse();
    console.log(`  ${what.padEnd(28)} ${fmt(performance.now() - t0)} ms per 100,000 documents`);
  };
  console.log(`format: JSON.parse of 100,000 site documents (${mib(whole.length)})`);
  run('one document per line', () => perDoc.forEach((s) => JSON.parse(s)));
  run('500 documents per line', () => batches.forEach((s) => JSON.parse(s)));
  run('one big array', () => JSON.parse(whole));
}

function writeLog(dir: string): Promise<void> {
  return writeSiteHistoryLog(dir, { events: EVENTS, objects: OBJECTS, user: null, requestSize: (p) => 1 + (p % 5) });
}

async function startUp(
  dir: string,
  snapshots: { write: boolean; loadAtOrBefore?: number },
  log: (line: string) => void,
) {
  const eventLog = new FileEventLog({ dir });
  await eventLog.open();
  const store = await indexedStore();
  const writer = new ReadModelSnapshots(store, eventIdsOf(eventLog), {
    dataDir: dir,
    every: snapshots.write ? EVERY : 0,
    keep: 100,
    logger: (entry) => log(`    ${String(entry.msg)}`),
  });
  const loaded =
    snapshots.loadAtOrBefore === undefined ? null : await timed(() => writer.loadNewest(snapshots.loadAtOrBefore!));
  const projector = new Projector(eventLog, store, registry);
  projector.onApplied = (position) => writer.applied(position);
  const replay = await timed(() => projector.start());
  // The first query after a load or a replay rebuilds the sorted indexes: part of being ready.
  const firstQuery = await timed(() => store.find('dcim.site', {}, { sort: { _name: 1, id: 1 }, limit: 50 }));
  await projector.stop();
  return { eventLog, store, writer, projector, loaded, replay, firstQuery };
}

/** Capture, serialise and write one snapshot of the store, beside the others; returns the document count. */
async function snapshotAlone(store: MemoryReadStore, dir: string): Promise<number> {
  const capture = await timed(() => store.capture());
  const docs = capture.value.collections.reduce((n, c) => n + c.docs.length, 0);
  const side = path.join(dir, 'side');
  const lag = monitorEventLoopDelay({ resolution: 10 });
  lag.enable();
  const write = await timed(() => writeReadModelSnapshot(side, capture.value, 'x'));
  lag.disable();
  const bytes = fs.statSync(write.value).size;
  console.log(
    `snapshot of ${fmt(docs)} documents: capture ${show(capture)}, serialise + write ${show(write)}, ${mib(bytes)} (${fmt(bytes / docs)} bytes/document), ` +
      `longest event-loop stall ${fmt(lag.max / 1e6)} ms (p99 ${fmt(lag.percentile(99) / 1e6)} ms)`,
  );
  fs.rmSync(side, { recursive: true, force: true });
  return docs;
}

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'netledger-snapshot-bench-'));
  console.log(
    `snapshot bench: ${fmt(EVENTS)} events over ${fmt(OBJECTS)} sites, a snapshot every ${fmt(EVERY)} events, in ${dir}`,
  );
  try {
    await formats();

    const written = await timed(() => writeLog(dir));
    console.log(`log: written in ${show(written)}, ${mib(fs.statSync(path.join(dir, 'events.log')).size)}`);

    // ------------------------------------------------------------ 2. full replay
    gc();
    const baseRss = process.memoryUsage().rss;
    const full = await startUp(dir, { write: true }, console.log);
    console.log(
      `start-up without snapshot: replay ${show(full.replay)} (${fmt(full.projector.appliedEvents)} events, with background snapshots), first sorted page ${show(full.firstQuery)}`,
    );
    const finalClose = await timed(() => full.writer.close());
    console.log(`  final snapshot at the head (close): ${show(finalClose)}`);
    const head = full.eventLog.head();

    // ------------------------------------------------------------ 3. one snapshot on its own
    const docs = await snapshotAlone(full.store, dir);
    await full.eventLog.close();
    full.store.restore({ position: 0, maxIds: {}, collections: [] });
    gc();
    console.log(`  RSS after the full replay ${mib(baseRss)} → (store dropped) ${mib(process.memoryUsage().rss)}`);

    // ------------------------------------------------------------ 4. start-up from snapshots
    const positions = (await listSnapshots(path.join(dir, 'snapshots'), 'read-models')).map((e) => e.position);
    console.log(`snapshots on disk: ${positions.map(fmt).join(', ')}`);
    for (const [what, at] of [
      ['newest (tail 0)', head],
      ['a tail of about EVERY events', head - 1],
    ] as const) {
      gc();
      const heap0 = process.memoryUsage().heapUsed;
      const rss0 = process.memoryUsage().rss;
      const run = await startUp(dir, { write: false, loadAtOrBefore: at }, () => undefined);
      gc();
      const heap = process.memoryUsage().heapUsed - heap0;
      console.log(
        `start-up from the ${what}: load ${show(run.loaded!)} (position ${fmt(run.loaded!.value)}), tail replay ${show(run.replay)} (${fmt(run.projector.appliedEvents)} events), ` +
          `first sorted page ${show(run.firstQuery)}; heap +${mib(heap)} (${fmt(heap / docs)} bytes/document), RSS ${mib(rss0)} → ${mib(process.memoryUsage().rss)}`,
      );
      await run.eventLog.close();
      run.store.restore({ position: 0, maxIds: {}, collections: [] });
    }

    // ------------------------------------------------------------ 5. as_of
    const eventLog = new FileEventLog({ dir });
    await eventLog.open();
    const audit = new AuditLog(eventLog, registry);
    const opened = await timed(() => audit.open());
    console.log(`audit indexes for as_of: ${show(opened)}`);
    const snapshotsAt = new ReadModelSnapshots(await indexedStore(), eventIdsOf(eventLog), {
      dataDir: dir,
      every: 0,
      keep: 100,
    });
    const asOfPositions = [Math.floor(head / 4), Math.floor(head / 2) + 1, head - Math.floor(EVERY / 2), head];
    let slowest = 0;
    for (const withSnapshots of process.env.BASELINE === '0' ? [true] : [true, false]) {
      for (const position of asOfPositions) {
        const stores = memoryPastStores(registry, withSnapshots ? snapshotsAt : null);
        const past = new PastStates(audit, registry, stores, { maxEntries: 0 });
        gc();
        const r = await timed(async () => (await past.at(position)).count('dcim.site', {}));
        console.log(
          `as_of=${fmt(position)} ${withSnapshots ? 'from the nearest snapshot' : 'from position 1     '}: ${show(r)}, ${fmt(past.replayedEvents)} events replayed, ${fmt(r.value)} sites`,
        );
        if (withSnapshots) slowest = Math.max(slowest, r.wall);
      }
    }
    reportFigure({
      name: `?as_of= replayed (PastStates, the reference; served by PastView: asOfView) at any position of ${fmt(head)} events (slowest of ${asOfPositions.length})`,
      value: `${(slowest / 1000).toFixed(2)} s`,
      target: '≤ 1 s at 1,000,000 events',
      met: slowest <= 1000,
    });
    await audit.close();
    await eventLog.close();
  } finally {
    if (process.env.KEEP === '1') console.log(`kept ${dir}`);
    else fs.rmSync(dir, { recursive: true, force: true });
  }
}

await main();
