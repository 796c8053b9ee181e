/**
 * Object-change lists under extras.view_objectchange constraints. Not a test: run with
 * `npx tsx bench/changeScope.bench.ts`.
 *
 *  1. over HTTP, in process: CHANGES object changes (half sites, half tenants, created by
 *     bulk POSTs of 100; then a tenth of the sites updated), then GET
 *     /api/extras/object-changes/ (first page of 50, and a deep page) as the superuser and
 *     as users whose permission is constrained by type, by action, through a relation
 *     (`user__username`) and by a column of many values (`object_repr__istartswith`);
 *     every constrained list counts its whole candidate set, from the audit index;
 *  2. index only (no HTTP, no rendering): the count and first page of a constrained
 *     selection over INDEX_EVENTS synthetic changes, to show how it scales.
 *
 * Env: CHANGES (10000), INDEX_EVENTS (1000000), SAMPLES (30).
 */
import { performance } from 'node:perf_hooks';

import { objectChangeModel } from '../src/api/audit/changePermission.js';
import { AuditIndex } from '../src/audit/AuditIndex.js';
import { compileChangeFilter, selectChanges, type UserLookup } from '../src/audit/changeQuery.js';
import { changeScopeTest } from '../src/audit/changeScope.js';
import { formatMicros } from '../src/audit/time.js';
import { PermissionSet } from '../src/auth/permissionSet.js';
import { type ChangeEvent, EVENT_SCHEMA_VERSION } from '../src/events/ChangeEvent.js';
import { ContentTypes } from '../src/models/contentTypes.js';
import type { LookupView } from '../src/models/lookupView.js';
import { registry } from '../src/models/registry.js';
import { reportFigure } from './figures.js';
import { api, startBenchService, TOKEN } from './inProcessService.js';

const CHANGES = Number(process.env.CHANGES ?? 10_000);
const INDEX_EVENTS = Number(process.env.INDEX_EVENTS ?? 1_000_000);
const SAMPLES = Number(process.env.SAMPLES ?? 30);

const CONSTRAINTS: Record<string, unknown> = {
  'type (changed_object_type)': { changed_object_type: 'dcim.site' },
  action: { action: 'update' },
  'relation (user__username)': { user__username: 'admin' },
  'many values (object_repr__istartswith)': { object_repr__istartswith: 'site 1' },
};

function stats(samples: number[]): string {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  return `p50 ${at(0.5).toFixed(2)} ms, p90 ${at(0.9).toFixed(2)} ms, max ${sorted.at(-1)!.toFixed(2)} ms`;
}

/** Wall-clock times of `samples` runs (after one to warm up); `cpu` gets the mean CPU ms per run (all threads). */
async function timed(samples: number, run: () => Promise<unknown>, cpu?: { ms: number }): Promise<number[]> {
  const times: number[] = [];
  await run(); // warm
  const from = process.cpuUsage();
  for (let i = 0; i < samples; i++) {
    const start = performance.now();
    await run();
    times.push(performance.now() - start);
  }
  const used = process.cpuUsage(from);
  if (cpu) cpu.ms = (used.user + used.system) / 1000 / samples;
  return times;
}

async function overHttp(): Promise<void> {
  const service = await startBenchService('changescope');
  try {
    const url = service.url;
    const half = Math.floor(CHANGES / 2.2);
    const loaded = performance.now();
    for (let i = 0; i < half; i += 100) {
      const n = Math.min(100, half - i);
      const named = (kind: string) =>
        Array.from({ length: n }, (_, j) => ({ name: `${kind} ${i + j}`, slug: `${kind}-${i + j}` }));
      await api(url, 'POST', '/api/dcim/sites/', named('site'));
      await api(url, 'POST', '/api/tenancy/tenants/', named('tenant'));
    }
    const sites = (await api(url, 'GET', `/api/dcim/sites/?limit=${half}&brief=1`)).results as Array<{ id: number }>;
    const rest = CHANGES - 2 * half;
    for (let i = 0; i < rest; i += 100) {
      const batch = sites.slice(i, i + Math.min(100, rest - i)).map((s) => ({ id: s.id, description: 'updated' }));
      await api(url, 'PATCH', '/api/dcim/sites/', batch);
    }
    const all = await api(url, 'GET', '/api/extras/object-changes/?limit=1');
    console.log(`${all.count} object changes loaded in ${((performance.now() - loaded) / 1000).toFixed(1)} s`);

    const get = (key: string | null, path: string) =>
      fetch(url + path, { headers: key ? { Authorization: `Token ${key}` } : {} }).then(async (r) => {
        if (r.status !== 200) throw new Error(`${path}: ${r.status}`);
        return r.json() as Promise<{ count: number }>;
      });
    const readers: Array<[string, string]> = [];
    let n = 0;
    for (const [name, constraints] of Object.entries(CONSTRAINTS)) {
      const username = `reader-${n++}`;
      const user = await api(url, 'POST', '/api/users/users/', { username, password: 'reader-password-1' });
      const token = await api(url, 'POST', '/api/users/tokens/', { user: user.id });
      const permission = { name: `oc-${n}`, object_types: ['extras.objectchange'], actions: ['view'] };
      await api(url, 'POST', '/api/users/permissions/', { ...permission, users: [user.id], constraints });
      readers.push([name, token.key]);
    }
    const list = '/api/extras/object-changes/?limit=50';
    for (const [name, key] of [['unconstrained (superuser)', TOKEN] as [string, string], ...readers]) {
      const count = (await get(key, list)).count;
      const cpu = { ms: 0 };
      const first = await timed(SAMPLES, () => get(key, list), cpu);
      const deep = await timed(SAMPLES, () => get(key, `${list}&offset=${Math.max(0, count - 60)}`));
      const cpuText = `${cpu.ms.toFixed(2)} CPU-ms`;
      console.log(`  ${name}: count ${count}; first page ${stats(first)} (${cpuText}); deep page ${stats(deep)}`);
      if (name.startsWith('type')) {
        const p50 = [...first].sort((a, b) => a - b)[Math.floor(first.length / 2)]!;
        const figure = `constrained object-change list, first page of 50 (${all.count} changes)`;
        reportFigure({ name: figure, value: `${p50.toFixed(1)} ms` });
      }
    }
  } finally {
    await service.stop();
  }
}

function syntheticIndex(events: number): AuditIndex {
  const index = new AuditIndex(registry);
  const types = ['dcim.site', 'dcim.device', 'ipam.ipaddress', 'tenancy.tenant'];
  const users = [
    { id: 1, username: 'admin' },
    { id: 2, username: 'ops' },
    { id: 3, username: 'netbot' },
  ];
  const t0 = Date.UTC(2024, 0, 1) * 1000;
  let batch: ChangeEvent[] = [];
  let requestId = '';
  for (let p = 1; p <= events; p++) {
    if (p % 4 === 1) requestId = `00000000-0000-4000-8000-${p.toString(16).padStart(12, '0')}`;
    batch.push({
      v: EVENT_SCHEMA_VERSION,
      eventId: requestId,
      position: p,
      requestId,
      time: formatMicros(t0 + p * 1000),
      user: users[p % 3]!,
      action: p % 5 === 0 ? 'update' : 'create',
      objectType: types[p % 4]!,
      objectId: p,
      objectRepr: `object ${p}`,
      prechange: null,
      postchange: {},
    } as ChangeEvent);
    if (batch.length === 10_000) {
      index.add(batch);
      batch = [];
    }
  }
  index.add(batch);
  return index;
}

async function indexOnly(): Promise<void> {
  const index = syntheticIndex(INDEX_EVENTS);
  const contentTypes = new ContentTypes(registry);
  const noUsers: UserLookup = { idsByUsername: async () => new Map(), existingIds: async () => new Set() };
  const view = { find: async () => [{ id: 1 }] } as unknown as LookupView;
  const size = INDEX_EVENTS.toLocaleString('en-US');
  console.log(`index only, ${size} changes (count + first page of 50, no HTTP/rendering):`);
  for (const [name, constraints] of [['unconstrained', null] as [string, unknown], ...Object.entries(CONSTRAINTS)]) {
    const grants = [{ objectTypes: ['extras.objectchange'], actions: ['view'], constraints }];
    const permissions = new PermissionSet(registry, 9, grants);
    const cpu = { ms: 0 };
    const times = await timed(
      Math.min(SAMPLES, 10),
      async () => {
        const scope = (await permissions.scope(objectChangeModel, 'view', view))!;
        const filter = await compileChangeFilter(index, new URLSearchParams(), noUsers, contentTypes);
        const readable = changeScopeTest(index, scope);
        if (readable) filter.tests.push(readable);
        return selectChanges(index, filter, [], 0, 50);
      },
      cpu,
    );
    console.log(`  ${name}: ${stats(times)} (${cpu.ms.toFixed(1)} CPU-ms)`);
  }
}

await overHttp();
await indexOnly();
