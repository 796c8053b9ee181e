/**
 * Start-up at scale. Not a test: run with `npx tsx bench/startup.bench.ts`.
 *
 * Generates a log of EVENTS events (default 1,000,000; the generator of the audit bench:
 * sites created then updated, requests of 1-5 events) in a temp DATA_DIR, then measures,
 * each in a fresh child process (so nothing is warm but the OS's page cache):
 *
 *  1. cold start, no snapshots: the file log's open, the read models' replay, the audit
 *     indexes' build, each phase on its own; then the snapshot writes (the file log's
 *     open point, the audit index, the read models);
 *  2. the same phases with those snapshots present;
 *  3. the whole service (openLedger + HTTP) with snapshots: time until it answers
 *     `GET /api/` and a list, and its RSS;
 *  4. the whole service without snapshots (the snapshot directory removed, none written).
 *
 * Figures are wall-clock and CPU time of the child, and its RSS (current and peak). After the
 * list, the first reads by value (`?slug=`, `?status=`), which build their equality index
 * after a snapshot load, are timed, and again.
 * Env: EVENTS (1000000), OBJECTS (100000), KEEP=1 keeps the temp dir. Issue 34's figure is
 * at 1,000,000 objects: OBJECTS=1000000 EVENTS=1111112 (one event in ten revisits a site).
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

import { AuditService } from '../src/audit/AuditService.js';
import { captureAuditState, writeAuditSnapshot } from '../src/audit/AuditSnapshots.js';
import { loadConfig } from '../src/config.js';
import { FileEventLog } from '../src/events/file/FileEventLog.js';
import { eventLogFor } from '../src/ledger/openLedger.js';
import { memoryPastStores } from '../src/ledger/pastStores.js';
import { registry } from '../src/models/registry.js';
import { MemoryReadStore } from '../src/projections/memory/MemoryReadStore.js';
import { writeReadModelSnapshot } from '../src/projections/memory/snapshots/readModelSnapshot.js';
import { eventIdsOf, ReadModelSnapshots } from '../src/projections/memory/snapshots/ReadModelSnapshots.js';
import { Projector } from '../src/projections/Projector.js';
import { readModelIndexes } from '../src/projections/readModelIndexes.js';
import { reportFigure } from './figures.js';
import { writeSiteHistoryLog } from './siteHistory.js';

const EVENTS = Number(process.env.EVENTS ?? 1_000_000);
const OBJECTS = Number(process.env.OBJECTS ?? 100_000);
const TOKEN = '0123456789abcdef0123456789abcdef01234567';
const RESULT = 'STARTUP-RESULT ';

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
const sec = (ms: number) => (ms / 1000).toFixed(2);
const mib = (bytes: number) => (bytes / 1024 / 1024).toFixed(0);

/** Times `fn` in wall and CPU milliseconds. */
async function timed<T>(fn: () => Promise<T>): Promise<{ value: T; ms: number; cpuMs: number }> {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const value = await fn();
  const c = process.cpuUsage(c0);
  return { value, ms: performance.now() - t0, cpuMs: (c.user + c.system) / 1000 };
}

function memory(): { rss: number; maxRss: number } {
  return { rss: process.memoryUsage().rss, maxRss: process.resourceUsage().maxRSS * 1024 };
}

function configFor(dataDir: string, extra: Record<string, string> = {}) {
  return loadConfig({
    DATA_DIR: dataDir,
    HOST: '127.0.0.1',
    PORT: '0',
    SUPERUSER_NAME: 'admin',
    SUPERUSER_API_TOKEN: TOKEN,
    SECRET_KEY: 'bench-secret-key',
    ...extra,
  });
}

// ------------------------------------------------------------------ children

/** The start-up phases one by one, as openLedger runs them (without the writer and auth). */
async function phasesChild(dataDir: string, writeSnapshots: boolean): Promise<Record<string, unknown>> {
  const config = configFor(dataDir, { SNAPSHOT_EVERY_EVENTS: '0' }); // nothing written behind the measurement's back
  const snapshots = path.join(dataDir, 'snapshots');
  const log = eventLogFor(config) as FileEventLog;
  const open = await timed(() => log.open());
  const store = new MemoryReadStore();
  const projector = new Projector(log, store, registry);
  const readModelSnapshots = new ReadModelSnapshots(store, eventIdsOf(log), {
    dataDir,
    every: 0,
    keep: config.snapshotKeep,
  });
  const readModels = await timed(async () => {
    await store.open();
    for (const [collection, fields] of readModelIndexes(registry)) await store.ensureIndexes(collection, fields);
    await readModelSnapshots.loadNewest(log.head());
    await projector.start();
  });
  const audit = new AuditService(log, registry, {
    pastStores: memoryPastStores(registry),
    snapshots: { dir: snapshots, everyEvents: 0, keep: config.snapshotKeep, write: false },
  });
  const auditOpen = await timed(() => audit.open());
  const result: Record<string, unknown> = {
    head: log.head(),
    open: { ms: open.ms, cpuMs: open.cpuMs, ...log.openStats },
    readModels: { ms: readModels.ms, cpuMs: readModels.cpuMs, replayed: projector.appliedEvents },
    audit: { ms: auditOpen.ms, cpuMs: auditOpen.cpuMs },
    ...memory(),
  };
  if (writeSnapshots) {
    const capture = await timed(async () => captureAuditState(audit.log));
    const auditWrite = await timed(() => writeAuditSnapshot(snapshots, log, capture.value));
    const pointWrite = await timed(() => log.persistOpenPoint());
    const readModelCapture = await timed(async () => store.capture());
    const eventId = (await eventIdsOf(log)(readModelCapture.value.position)) ?? '';
    const readModelWrite = await timed(() => writeReadModelSnapshot(snapshots, readModelCapture.value, eventId));
    result.writes = {
      readModelCaptureMs: readModelCapture.ms,
      readModels: { ms: readModelWrite.ms, cpuMs: readModelWrite.cpuMs, bytes: fs.statSync(readModelWrite.value).size },
      auditCaptureMs: capture.ms,
      audit: { ms: auditWrite.ms, cpuMs: auditWrite.cpuMs, bytes: fs.statSync(auditWrite.value).size },
      openPoint: { ms: pointWrite.ms, cpuMs: pointWrite.cpuMs },
    };
  }
  await audit.close();
  await projector.stop();
  await log.close();
  await store.close();
  return result;
}

/** The whole service: until it answers GET /api/ and a list. */
async function serviceChild(dataDir: string, extra: Record<string, string>): Promise<Record<string, unknown>> {
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  const { start } = await import('../src/main.js');
  const imported = performance.now() - t0;
  const warnings: string[] = [];
  const running = await start(configFor(dataDir, extra), (entry) => {
    if (entry.level === 'warn' || entry.level === 'error') warnings.push(String(entry.msg));
  });
  const listening = performance.now() - t0;
  const get = async (route: string) => {
    const response = await fetch(running.url + route, {
      headers: { Authorization: `Token ${TOKEN}`, Accept: 'application/json' },
    });
    if (response.status !== 200) throw new Error(`${route}: ${response.status}`);
    return response.json();
  };
  await get('/api/');
  const root = performance.now() - t0;
  const list = (await get('/api/dcim/sites/?limit=5')) as { count: number };
  const listed = performance.now() - t0;
  const cpu = process.cpuUsage(c0);
  // The first reads by value after a snapshot load build their equality index then (MemoryCollection.index).
  const firstBy = async (route: string) => {
    const started = performance.now();
    await get(route);
    const first = performance.now() - started;
    const again = performance.now();
    await get(route);
    return { firstMs: first, againMs: performance.now() - again };
  };
  const bySlug = await firstBy('/api/dcim/sites/?slug=site-7');
  const byStatus = await firstBy('/api/dcim/sites/?status=active&limit=5');
  const result = {
    importMs: imported,
    listeningMs: listening,
    rootMs: root,
    listMs: listed,
    cpuMs: (cpu.user + cpu.system) / 1000,
    sites: list.count,
    bySlug,
    byStatus,
    warnings,
    ...memory(),
  };
  await running.stop();
  return result;
}

// -------------------------------------------------------------------- parent

function runChild(mode: string, dataDir: string): Promise<any> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url)], {
      env: { ...process.env, STARTUP_CHILD: mode, STARTUP_DATA_DIR: dataDir },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('exit', (code) => {
      const line = out.split('\n').find((l) => l.startsWith(RESULT));
      if (code !== 0 || !line) reject(new Error(`child ${mode} exited with ${code}: ${out.slice(-2000)}`));
      else resolve(JSON.parse(line.slice(RESULT.length)));
    });
  });
}

function printPhases(label: string, r: any): void {
  console.log(
    `${label.padEnd(28)} open ${sec(r.open.ms)} s / ${sec(r.open.cpuMs)} CPU-s (${fmt(r.open.framesScanned)} frames read from position ${fmt(r.open.fromPosition)}) | ` +
      `read models ${sec(r.readModels.ms)} s / ${sec(r.readModels.cpuMs)} CPU-s (${fmt(r.readModels.replayed)} events replayed) | audit ${sec(r.audit.ms)} s / ${sec(r.audit.cpuMs)} CPU-s | ` +
      `total ${sec(r.open.ms + r.readModels.ms + r.audit.ms)} s / ${sec(r.open.cpuMs + r.readModels.cpuMs + r.audit.cpuMs)} CPU-s | RSS ${mib(r.rss)} MiB (peak ${mib(r.maxRss)} MiB)`,
  );
}

function printService(label: string, r: any): void {
  console.log(
    `${label.padEnd(28)} modules loaded ${sec(r.importMs)} s | listening ${sec(r.listeningMs)} s | GET /api/ ${sec(r.rootMs)} s | list ${sec(r.listMs)} s (${fmt(r.sites)} sites) | ` +
      `CPU ${sec(r.cpuMs)} s | RSS ${mib(r.rss)} MiB (peak ${mib(r.maxRss)} MiB)${r.warnings.length ? ` | warnings: ${r.warnings.join('; ')}` : ''}`,
  );
  console.log(
    `${''.padEnd(28)} then ?slug= ${fmt(r.bySlug.firstMs)} ms first, ${fmt(r.bySlug.againMs)} ms again | ` +
      `?status= ${fmt(r.byStatus.firstMs)} ms first, ${fmt(r.byStatus.againMs)} ms again`,
  );
}

async function main(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'netledger-startup-bench-'));
  console.log(
    `start-up bench: ${fmt(EVENTS)} events over ${fmt(OBJECTS)} sites in ${dataDir}; ${os.cpus().length} CPUs, load ${os.loadavg()[0]!.toFixed(1)}`,
  );
  try {
    const generated = await timed(async () => {
      await writeSiteHistoryLog(dataDir, { events: EVENTS, objects: OBJECTS, requestSize: (p) => 1 + (p % 5) });
    });
    console.log(
      `log                          ${fmt(EVENTS)} events written in ${sec(generated.ms)} s, ${mib(fs.statSync(path.join(dataDir, 'events.log')).size)} MiB`,
    );

    const cold = await runChild('phases-cold', dataDir);
    printPhases('cold, no snapshots', cold);
    const w = cold.writes;
    console.log(
      `snapshot writes              audit index: capture ${sec(w.auditCaptureMs)} s, write ${sec(w.audit.ms)} s (${mib(w.audit.bytes)} MiB, CPU ${sec(w.audit.cpuMs)} s) | ` +
        `file log open point ${sec(w.openPoint.ms)} s (CPU ${sec(w.openPoint.cpuMs)} s) | ` +
        `read models: capture ${sec(w.readModelCaptureMs)} s, write ${sec(w.readModels.ms)} s (${mib(w.readModels.bytes)} MiB, CPU ${sec(w.readModels.cpuMs)} s)`,
    );
    printPhases('with snapshots', await runChild('phases-warm', dataDir));
    const warm = await runChild('service-warm', dataDir);
    printService('service, with snapshots', warm);
    const coldService = await runChild('service-cold', dataDir);
    printService('service, no snapshots', coldService);
    reportFigure({
      name: `start-up to a served list at ${fmt(EVENTS)} events, no snapshots`,
      value: `${sec(coldService.listMs)} s`,
    });
    reportFigure({
      name: `start-up to a served list at ${fmt(warm.sites)} objects (${fmt(EVENTS)} events), with snapshots`,
      value: `${sec(warm.listMs)} s, ${sec(warm.cpuMs)} CPU-s (RSS ${mib(warm.maxRss)} MiB peak)`,
      target: '≤ 5 s and ≤ 2 GB at 1,000,000 objects',
      met: warm.listMs <= 5000 && warm.maxRss <= 2 * 1024 ** 3,
    });
    reportFigure({
      name: `first filtered list after the start (equality index built then), ${fmt(warm.sites)} objects`,
      value: `?slug= ${fmt(warm.bySlug.firstMs)} ms, ?status= ${fmt(warm.byStatus.firstMs)} ms`,
    });
  } finally {
    if (!process.env.KEEP) fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

const mode = process.env.STARTUP_CHILD;
if (mode) {
  const dataDir = process.env.STARTUP_DATA_DIR!;
  let result: Record<string, unknown>;
  if (mode === 'phases-cold') result = await phasesChild(dataDir, true);
  else if (mode === 'phases-warm') result = await phasesChild(dataDir, false);
  else if (mode === 'service-warm') result = await serviceChild(dataDir, {});
  else if (mode === 'service-cold') {
    fs.rmSync(path.join(dataDir, 'snapshots'), { recursive: true, force: true });
    result = await serviceChild(dataDir, { SNAPSHOT_EVERY_EVENTS: '0' });
  } else throw new Error(`unknown STARTUP_CHILD ${mode}`);
  process.stdout.write(`${RESULT}${JSON.stringify(result)}\n`);
  process.exit(0);
} else {
  await main();
}
