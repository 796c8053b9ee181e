/**
 * The audit side at scale. Not a test: run with `npx tsx bench/audit.bench.ts`.
 *
 *  1. builds the audit indexes (AuditLog.ingest; event bodies stay in the log) over EVENTS
 *     events (default 1,000,000: requests of 1-5 events over OBJECTS sites, a create
 *     then updates each), while appending the same batches to a FileEventLog;
 *  2. look-ups at that size (p50 / p99 / max over SAMPLES random keys): request id →
 *     positions, object → positions, time → position, and the full object-change
 *     queries minus HTTP/rendering (`?request_id=`, an object's history, the first
 *     unfiltered page: filter compile + select + reading the page's events);
 *  3. rebuild: replaying the file log into fresh in-memory read models
 *     (`npm run rebuild`'s rebuildReadModels), and the audit indexes' rebuild on open.
 *
 * Every figure is given in wall-clock time and in CPU time of this process
 * (process.cpuUsage: all its threads), since a busy machine inflates wall-clock time.
 *
 * Env: EVENTS (1000000), OBJECTS (100000), SAMPLES (2000), KEEP=1 keeps the temp dir.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';

import { AuditLog } from '../src/audit/AuditLog.js';
import { compileChangeFilter, selectChanges, type UserLookup } from '../src/audit/changeQuery.js';
import { formatMicros } from '../src/audit/time.js';
import { rebuildReadModels } from '../src/cli/rebuild.js';
import type { EventLog } from '../src/events/EventLog.js';
import { FileEventLog } from '../src/events/file/FileEventLog.js';
import { fileEventSource } from '../src/ledger/eventSource.js';
import { ContentTypes } from '../src/models/contentTypes.js';
import { registry } from '../src/models/registry.js';
import { MemoryReadStore } from '../src/projections/memory/MemoryReadStore.js';
import { HISTORY_START_MICROS, siteHistory } from './siteHistory.js';

const EVENTS = Number(process.env.EVENTS ?? 1_000_000);
const OBJECTS = Number(process.env.OBJECTS ?? 100_000);
const SAMPLES = Number(process.env.SAMPLES ?? 2_000);

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
const ms = (n: number) => n.toFixed(3);
const mib = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);

function stats(samples: number[]): string {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  return `p50 ${ms(at(0.5))} ms, p99 ${ms(at(0.99))} ms, max ${ms(sorted[sorted.length - 1]!)} ms`;
}

/** CPU milliseconds (user + system, all threads) since `from`. */
function cpuMs(from: NodeJS.CpuUsage): number {
  const d = process.cpuUsage(from);
  return (d.user + d.system) / 1000;
}

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'netledger-audit-bench-'));
  console.log(`audit bench: ${fmt(EVENTS)} events over ${fmt(OBJECTS)} objects in ${dir}`);
  try {
    // ------------------------------------------------------------ 1. build
    const log = new FileEventLog({ dir });
    await log.open();
    const audit = new AuditLog(log as EventLog, registry);
    const requestIds: string[] = [];
    let ingestMs = 0;
    let ingestCpuMs = 0;
    let pending: Promise<void>[] = [];
    for (const batch of siteHistory({ events: EVENTS, objects: OBJECTS, requestSize: (p) => 1 + (p % 5) })) {
      if (requestIds.length < 1_000_000 && batch[0]!.position % 7 === 0) requestIds.push(batch[0]!.requestId);
      const t0 = performance.now();
      const c0 = process.cpuUsage();
      audit.ingest(batch);
      ingestCpuMs += cpuMs(c0);
      ingestMs += performance.now() - t0;
      pending.push(log.append(batch));
      if (pending.length >= 2000) {
        await Promise.all(pending);
        pending = [];
      }
    }
    await Promise.all(pending);
    const heap = process.memoryUsage();
    console.log(
      `index   ${fmt(EVENTS)} events indexed (request, object, time): ${fmt(EVENTS / (ingestMs / 1000))} events/s ` +
        `(${(ingestMs / 1000).toFixed(2)} s wall), ${fmt(EVENTS / (ingestCpuMs / 1000))} events per CPU-second; ` +
        `index ~${mib(audit.index.approximateBytes())} MiB, heap ${mib(heap.heapUsed)} MiB, ` +
        `log ${mib(fs.statSync(log.file).size)} MiB`,
    );

    // ---------------------------------------------------------- 2. look-ups
    const index = audit.index;
    const users: UserLookup = {
      idsByUsername: async () => new Map([['admin', 1]]),
      existingIds: async (ids) => new Set(ids),
    };
    const types = new ContentTypes(registry);
    const pick = <T>(list: T[]) => list[Math.floor(Math.random() * list.length)]!;
    const time = async (label: string, fn: () => unknown | Promise<unknown>) => {
      for (let i = 0; i < 50; i++) await fn(); // warm-up
      const samples: number[] = [];
      const cpu: number[] = [];
      for (let i = 0; i < SAMPLES; i++) {
        const t0 = performance.now();
        const c0 = process.cpuUsage();
        await fn();
        cpu.push(cpuMs(c0));
        samples.push(performance.now() - t0);
      }
      console.log(`lookup  ${label.padEnd(56)} wall ${stats(samples)} | cpu ${stats(cpu)}`);
    };
    let matches = 0;
    await time('request id → positions', () => (matches += index.requestPositions(pick(requestIds)).length));
    await time('object (dcim.site, id) → positions', () =>
      index.objectPositions('dcim.site', 1 + Math.floor(Math.random() * OBJECTS)),
    );
    await time('time → position (as_of)', () =>
      index.positionAtTime(HISTORY_START_MICROS + Math.floor(Math.random() * EVENTS) * 1000),
    );
    const page = async (query: string) => {
      const filter = await compileChangeFilter(index, new URLSearchParams(query), users, types);
      const selection = selectChanges(index, filter, [], 0, 50);
      return audit.events(selection.positions);
    };
    await time('?request_id=<uuid> (compile + select + read events)', () => page(`request_id=${pick(requestIds)}`));
    await time('object history (type + id, first page of 50)', () =>
      page(`changed_object_type=dcim.site&changed_object_id=${1 + Math.floor(Math.random() * OBJECTS)}`),
    );
    await time('unfiltered list, first page of 50', () => page(''));
    await time('unfiltered list, random page of 50 (offset)', () =>
      page(`offset=${Math.floor(Math.random() * (EVENTS - 50))}`),
    );
    await time('?time_after=&time_before= (one minute of events)', () => {
      const start = HISTORY_START_MICROS + Math.floor(Math.random() * (EVENTS - 60_000)) * 1000;
      return page(`time_after=${formatMicros(start)}&time_before=${formatMicros(start + 60_000_000)}`);
    });
    void matches;
    await log.close();
    await audit.close();

    // ----------------------------------------------------------- 3. rebuild
    let c0 = process.cpuUsage();
    let t0 = performance.now();
    let read = 0;
    for await (const batch of fileEventSource(path.join(dir, 'events.log')).read()) read += batch.length;
    const readMs = performance.now() - t0;
    const readCpu = cpuMs(c0);
    console.log(
      `read    ${fmt(read)} events from the file log, read-only (CRC + JSON.parse + schema validation): ${(readMs / 1000).toFixed(2)} s wall, ` +
        `${fmt(read / (readMs / 1000))} events/s; ${fmt(read / (readCpu / 1000))} events per CPU-second`,
    );

    const store = new MemoryReadStore();
    c0 = process.cpuUsage();
    const rebuild = await rebuildReadModels(fileEventSource(path.join(dir, 'events.log')).read(), store);
    const rebuildCpu = cpuMs(c0);
    console.log(
      `rebuild ${fmt(rebuild.events)} events from the file log into fresh in-memory read models (npm run rebuild): ` +
        `${(rebuild.ms / 1000).toFixed(2)} s wall, ${fmt(rebuild.eventsPerSecond)} events/s; ` +
        `${(rebuildCpu / 1000).toFixed(2)} CPU-s, ${fmt(rebuild.events / (rebuildCpu / 1000))} events per CPU-second ` +
        `(${fmt(rebuild.applied)} document writes after compaction, ${fmt(await store.count('dcim.site', {}))} sites)`,
    );
    await store.close();

    const reopened = new FileEventLog({ dir });
    t0 = performance.now();
    c0 = process.cpuUsage();
    await reopened.open();
    const openMs = performance.now() - t0;
    const openCpu = cpuMs(c0);
    const rebuiltAudit = new AuditLog(reopened, registry);
    t0 = performance.now();
    c0 = process.cpuUsage();
    await rebuiltAudit.open();
    const auditMs = performance.now() - t0;
    const auditCpu = cpuMs(c0);
    console.log(
      `reopen  FileEventLog.open (recovery scan) ${(openMs / 1000).toFixed(2)} s wall / ${(openCpu / 1000).toFixed(2)} CPU-s; ` +
        `audit indexes rebuilt on open (subscribe from 1: read, parse, index): ${(auditMs / 1000).toFixed(2)} s wall, ` +
        `${fmt(EVENTS / (auditMs / 1000))} events/s; ${(auditCpu / 1000).toFixed(2)} CPU-s, ${fmt(EVENTS / (auditCpu / 1000))} events per CPU-second`,
    );
    await rebuiltAudit.close();
    await reopened.close();
  } finally {
    if (!process.env.KEEP) fs.rmSync(dir, { recursive: true, force: true });
  }
}

await main();
