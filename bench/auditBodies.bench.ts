/**
 * What the audit side costs in memory and disk for a generated log. Not a test: run with
 * `node --expose-gc --import tsx bench/auditBodies.bench.ts` (EVENTS=100000 by default).
 *
 *  1. writes EVENTS events (requests of 1-5 site creates/updates) to a FileEventLog;
 *  2. opens the log and the AuditLog over it (the audit's rebuild) and reports the time,
 *     the heap and RSS growth, every file the process holds open under the data
 *     directory (a deleted-but-open file shows as "(deleted)") and its size;
 *  3. reads event bodies by position: the newest page of 50, 50 random positions;
 *  4. builds the past state at the head (PastStates) and reports its time and heap growth
 *     next to the cache's own estimate of its size.
 *
 * Env: EVENTS (100000), OBJECTS (20000), KEEP=1 keeps the temp dir.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';

import { AuditLog } from '../src/audit/AuditLog.js';
import { PastStates } from '../src/audit/PastStates.js';
import { FileEventLog } from '../src/events/file/FileEventLog.js';
import { memoryPastStores } from '../src/ledger/pastStores.js';
import { registry } from '../src/models/registry.js';
import { siteHistory } from './siteHistory.js';

const EVENTS = Number(process.env.EVENTS ?? 100_000);
const OBJECTS = Number(process.env.OBJECTS ?? 20_000);
const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);

/** Files this process holds open under `dir`, with their sizes (Linux). */
function openFiles(dir: string): string[] {
  if (!fs.existsSync('/proc/self/fd')) return ['(not Linux: open files not listed)'];
  const out: string[] = [];
  for (const fd of fs.readdirSync('/proc/self/fd')) {
    try {
      const target = fs.readlinkSync(`/proc/self/fd/${fd}`);
      if (target.startsWith(dir))
        out.push(`${path.relative(dir, target)} ${mib(fs.statSync(`/proc/self/fd/${fd}`).size)}`);
    } catch {
      // closed meanwhile
    }
  }
  return out;
}

/** CPU seconds (user + system) since `from`. */
function cpuSeconds(from: NodeJS.CpuUsage): string {
  const d = process.cpuUsage(from);
  return `${((d.user + d.system) / 1e6).toFixed(2)} CPU-s`;
}

function memory(): { heap: number; rss: number; external: number } {
  gc();
  const m = process.memoryUsage();
  return { heap: m.heapUsed, rss: m.rss, external: m.external + m.arrayBuffers };
}

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'netledger-bodies-bench-'));
  try {
    const writer = new FileEventLog({ dir });
    await writer.open();
    let pending: Promise<void>[] = [];
    for (const batch of siteHistory({
      events: EVENTS,
      objects: OBJECTS,
      requestSize: (p) => 1 + (p % 5),
      withId: true,
      description: (v) => `version ${v} of a site with a description of ordinary length`,
    })) {
      pending.push(writer.append(batch));
      if (pending.length >= 2000) {
        await Promise.all(pending);
        pending = [];
      }
    }
    await Promise.all(pending);
    await writer.close();
    console.log(
      `log     ${EVENTS.toLocaleString('en-US')} events, events.log ${mib(fs.statSync(path.join(dir, 'events.log')).size)}`,
    );

    const log = new FileEventLog({ dir });
    await log.open();
    const before = memory();
    let t0 = performance.now();
    let c0 = process.cpuUsage();
    const audit = new AuditLog(log, registry);
    await audit.open();
    const openMs = performance.now() - t0;
    const openCpu = cpuSeconds(c0);
    const after = memory();
    console.log(
      `audit   open (rebuild) ${(openMs / 1000).toFixed(2)} s, ${openCpu}; heap +${mib(after.heap - before.heap)}, ` +
        `buffers +${mib(after.external - before.external)}, rss +${mib(after.rss - before.rss)}`,
    );
    const files = openFiles(dir);
    console.log(`disk    open files under the data dir: ${files.join(', ') || 'none'}`);
    const scratch = path.join(dir, 'audit');
    console.log(
      `disk    ${scratch}: ${fs.existsSync(scratch) ? `${fs.readdirSync(scratch).length} visible files` : 'absent'}`,
    );

    const head = audit.head;
    t0 = performance.now();
    for (let i = 0; i < 100; i++) await audit.events(Array.from({ length: 50 }, (_, k) => head - k));
    const newestMs = (performance.now() - t0) / 100;
    t0 = performance.now();
    for (let i = 0; i < 100; i++)
      await audit.events(Array.from({ length: 50 }, () => 1 + Math.floor(Math.random() * head)));
    const randomMs = (performance.now() - t0) / 100;
    console.log(`read    newest page of 50: ${newestMs.toFixed(2)} ms; 50 random positions: ${randomMs.toFixed(2)} ms`);

    const past = new PastStates(audit, registry, memoryPastStores(registry), {});
    const m0 = memory();
    t0 = performance.now();
    c0 = process.cpuUsage();
    await past.at(head);
    const buildMs = performance.now() - t0;
    const buildCpu = cpuSeconds(c0);
    const m1 = memory();
    const estimate = (past as unknown as { cachedBytes?: number }).cachedBytes;
    console.log(
      `past    state at ${head}: built in ${(buildMs / 1000).toFixed(2)} s, ${buildCpu}; heap +${mib(m1.heap - m0.heap)}` +
        (estimate === undefined ? '' : `; the cache's estimate ${mib(estimate)}`),
    );
    past.clear();
    await audit.close();
    await log.close();
  } finally {
    if (!process.env.KEEP) fs.rmSync(dir, { recursive: true, force: true });
  }
}

await main();
