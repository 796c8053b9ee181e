/**
 * Branches at scale (README: Branches). Not a test: run with
 * `node --expose-gc --import tsx bench/branches.bench.ts`.
 *
 *  1. a file log making OBJECTS sites (bench/siteHistory.ts, requests of 1,000), replayed
 *     into a MemoryReadStore by the projector with the branches attached, as the service starts;
 *  2. creating a branch: one request of the writer (decision, fsync, projection), wall and CPU;
 *  3. the first reads in it: a page of 50 by name and its count, a filtered count, one object;
 *     the same on main just before;
 *  4. CHANGES site updates made in the branch (bulk PATCHes of 1,000) and MAIN_CHANGES on main
 *     meanwhile (other sites), then the same reads, and the heap the branch holds;
 *  5. the branch's view rebuilt from the log, as a restart does;
 *  6. the merge of the branch: its CHANGES changes as one request on main.
 * Env: OBJECTS (1000000), CHANGES (10000), MAIN_CHANGES (10000), KEEP=1 keeps the temp dir.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';

import { SecretKeeper } from '../src/auth/secrets.js';
import { createBranch } from '../src/branches/branchCommands.js';
import { Branches } from '../src/branches/Branches.js';
import { BranchView } from '../src/branches/BranchView.js';
import { mergeBranch } from '../src/branches/mergeBranch.js';
import type { CommandEnvironment } from '../src/commands/decideObject.js';
import { runFollowUps } from '../src/commands/followUps.js';
import { updateObjects } from '../src/commands/updateObjects.js';
import { type WriteContext, WriteCoordinator } from '../src/commands/WriteCoordinator.js';
import { FileEventLog } from '../src/events/file/FileEventLog.js';
import { registry } from '../src/models/registry.js';
import { MemoryReadStore } from '../src/projections/memory/MemoryReadStore.js';
import { Projector } from '../src/projections/Projector.js';
import { readModelIndexes } from '../src/projections/readModelIndexes.js';
import type { ReadStore } from '../src/projections/ReadStore.js';
import { reportFigure } from './figures.js';
import { writeSiteHistoryLog } from './siteHistory.js';

const OBJECTS = Number(process.env.OBJECTS ?? 1_000_000);
const CHANGES = Number(process.env.CHANGES ?? 10_000);
const MAIN_CHANGES = Number(process.env.MAIN_CHANGES ?? 10_000);
const BULK = 1000;
const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);
const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
const ms = (n: number) => (n < 10 ? n.toFixed(2) : fmt(n));

async function timed<T>(work: () => Promise<T>): Promise<{ value: T; wall: number; cpu: number }> {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const value = await work();
  const d = process.cpuUsage(cpu0);
  return { value, wall: performance.now() - t0, cpu: (d.user + d.system) / 1000 };
}
const show = (r: { wall: number; cpu: number }) => `${ms(r.wall)} ms (CPU ${ms(r.cpu)} ms)`;

/** The reads a client's first look at a registry makes. */
async function reads(store: ReadStore, label: string): Promise<number> {
  const r = await timed(async () => {
    const page = await store.find('dcim.site', {}, { sort: { _name: 1, id: 1 }, limit: 50 });
    const count = await store.count('dcim.site', {});
    const filtered = await store.count('dcim.site', { description: { $regex: '^branch' } });
    const one = await store.get('dcim.site', 1);
    return { page: page.length, count, filtered, one: one?.id };
  });
  console.log(`  ${label.padEnd(44)} ${show(r)}  ${JSON.stringify(r.value)}`);
  return r.wall;
}

async function main(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'netledger-branches-bench-'));
  try {
    console.log(`branches: ${fmt(OBJECTS)} sites, ${fmt(CHANGES)} changes in the branch, ${fmt(MAIN_CHANGES)} on main`);
    // Every tenth event of the history updates a site: a ninth more events make OBJECTS sites.
    const events = Math.ceil(OBJECTS / 0.9) + 10;
    const written = await timed(() => writeSiteHistoryLog(dir, { events, objects: OBJECTS, requestSize: () => BULK }));
    console.log(`  log of ${fmt(events)} events written: ${show(written)}`);

    const log = new FileEventLog({ dir });
    await log.open();
    const store = new MemoryReadStore();
    await store.open();
    for (const [collection, fields] of readModelIndexes(registry)) await store.ensureIndexes(collection, fields);
    const projector = new Projector(log, store, registry);
    const branches = new Branches(registry, store, log);
    await branches.load();
    projector.beforeApply = (events, changes) => branches.observe(events, changes);
    const replay = await timed(() => projector.start());
    // Ids 1..sites exist.
    const sites = (await store.maxIds())['dcim.site']!;
    console.log(`  replayed into the read models (${fmt(sites)} sites): ${show(replay)}`);
    const clock = { now: () => new Date().toISOString().replace('Z', '000Z') };
    const coordinator = new WriteCoordinator(log, store, projector, registry, clock, { branches });
    await coordinator.init();
    const env: CommandEnvironment = {
      registry,
      secrets: new SecretKeeper('bench-secret', false),
      settings: { enforceGlobalUnique: false },
      followUps: runFollowUps,
    };
    let requests = 0;
    const context = (): WriteContext => ({ requestId: crypto.randomUUID(), user: { id: 1, username: 'admin' } });

    gc();
    const heap0 = process.memoryUsage().heapUsed;
    const created = await timed(() => coordinator.execute(context(), (tx) => createBranch(tx, { name: 'bench' })));
    requests++;
    const schemaId = (created.value.result.postchange as { schema_id: string }).schema_id;
    const view = branches.view(schemaId)!;
    console.log(`  branch created (one request: decided, fsynced, projected): ${show(created)}`);
    reportFigure({ name: `branch creation at ${fmt(OBJECTS)} objects`, value: `${ms(created.wall)} ms` });

    // Main first: the first read after a replay rebuilds the sorted indexes, which is not the branch's cost.
    await reads(store, 'the reads on main');
    const firstRead = await reads(view.store, 'the same reads in the branch (its first)');
    // A second branch: the first request after a replay also pays for warming the writer's path.
    const second = await timed(() => coordinator.execute(context(), (tx) => createBranch(tx, { name: 'bench-2' })));
    requests++;
    console.log(`  a second branch created: ${show(second)}`);
    reportFigure({ name: `first read in a branch at ${fmt(OBJECTS)} objects`, value: `${ms(firstRead)} ms` });

    const patchBulk = (from: number, count: number, text: string, inBranch: boolean) =>
      coordinator.execute({ ...context(), ...(inBranch ? { branch: branches.view(schemaId)!.target() } : {}) }, (tx) =>
        updateObjects(
          env,
          tx,
          registry.get('dcim.site'),
          Array.from({ length: count }, (_, i) => ({ id: from + i, input: { description: `${text} ${from + i}` } })),
          { mode: 'patch', bulk: true },
        ),
      );
    const inBranch = await timed(async () => {
      for (let done = 0; done < CHANGES; done += BULK, requests++)
        await patchBulk(1 + done, Math.min(BULK, CHANGES - done), 'branch', true);
    });
    console.log(`  ${fmt(CHANGES)} updates in the branch (bulk PATCHes of ${BULK}): ${show(inBranch)}`);
    const onMain = await timed(async () => {
      for (let done = 0; done < MAIN_CHANGES; done += BULK, requests++)
        await patchBulk(sites - MAIN_CHANGES + 1 + done, Math.min(BULK, MAIN_CHANGES - done), 'main', false);
    });
    console.log(`  ${fmt(MAIN_CHANGES)} updates on main meanwhile: ${show(onMain)}`);
    await reads(store, 'the reads on main after them');
    await reads(view.store, 'the reads in the branch after them');
    gc();
    const held = process.memoryUsage().heapUsed - heap0;
    console.log(
      `  the branch holds ${fmt(view.store.size)} documents (${fmt(view.own.length)} own events): the process's ` +
        `heap +${(held / 1024 / 1024).toFixed(1)} MiB since its creation (main's changes and indexes included)`,
    );

    // What a restart does for each open branch: its view built again from the log since its creation.
    const again = new BranchView(registry, store, view.record);
    const rebuilt = await timed(() => again.rebuild(log, projector.position));
    console.log(
      `  the branch's view rebuilt from the log, as at a restart (${fmt(again.store.size)} documents): ${show(rebuilt)}`,
    );
    reportFigure({ name: `branch view rebuilt at start, ${fmt(CHANGES)} changes`, value: `${fmt(rebuilt.wall)} ms` });

    const merged = await timed(() => coordinator.execute(context(), (tx) => mergeBranch(registry, tx, view)));
    console.log(`  merge of ${fmt(merged.value.events.length)} changes as one request: ${show(merged)}`);
    reportFigure({ name: `merge of ${fmt(CHANGES)} changes`, value: `${fmt(merged.wall)} ms` });
    console.log(`  (${requests} requests besides the merge)`);
    coordinator.close();
    await projector.stop();
    await log.close();
  } finally {
    if (process.env.KEEP !== '1') fs.rmSync(dir, { recursive: true, force: true });
  }
}

await main();
