/**
 * List-query benchmark: the list view's work for one page (compile the filter, resolve
 * relations, count, fetch a 50-row page in order) over 100,000 IP addresses, 10,000
 * prefixes, 10,000 devices and 20,000 interfaces in MemoryReadStore, with and without indexes.
 *
 *   npx tsx bench/query.bench.ts [--quick] [--only <text in the query's name>]
 *
 * p50/p95: wall time of compile + count + page; CPU: this process's CPU time for the
 * same (what contention on a shared machine does not inflate); "incl. rendering": wall
 * p50 of the list view's whole work, the page rendered by the Serializer as well.
 *
 * Modes: "indexed" = the registry's read-model indexes (readModelIndexes) as the
 * service declares them; "no indexes" = no declared index (the planner still runs);
 * MongoDB too when MONGODB_URL is set (indexed). Prints p50/p95 per query. Not a test.
 */
import { compileFilter } from '../src/api/query/compileFilter.js';
import { listPage } from '../src/api/query/listPage.js';
import { Serializer } from '../src/api/Serializer.js';
import { SecretKeeper } from '../src/auth/secrets.js';
import { registry } from '../src/models/registry.js';
import { MemoryReadStore } from '../src/projections/memory/MemoryReadStore.js';
import { MongoReadStore } from '../src/projections/mongo/MongoReadStore.js';
import { withProjectedColumns } from '../src/projections/projectedColumns.js';
import { readModelIndexes } from '../src/projections/readModelIndexes.js';
import type { DocumentChange, ReadStore } from '../src/projections/ReadStore.js';
import { storedDocument } from '../test/support/queryDataset.js';
import { seededRandom } from '../test/support/seededRandom.js';

const QUICK = process.argv.includes('--quick');
const ONLY = process.argv.includes('--only') ? (process.argv[process.argv.indexOf('--only') + 1] ?? '') : '';
const ITERATIONS = QUICK ? 15 : 60;
const SITES = 50;
const VRFS = 10;

function dataset(): DocumentChange[] {
  const random = seededRandom(42);
  const int = (n: number) => Math.floor(random() * n);
  const pick = <T>(xs: T[]) => xs[int(xs.length)]!;
  const objects: Array<[string, Record<string, unknown> & { id: number }]> = [];
  for (let id = 1; id <= SITES; id++)
    objects.push(['dcim.site', { id, name: `site-${id}`, slug: `site-${id}`, status: 'active' }]);
  for (let id = 1; id <= VRFS; id++) objects.push(['ipam.vrf', { id, name: `vrf-${id}`, rd: `65000:${id}` }]);
  objects.push(['dcim.manufacturer', { id: 1, name: 'Juniper', slug: 'juniper' }]);
  objects.push(['dcim.devicetype', { id: 1, manufacturer: 1, model: 'MX204', slug: 'mx204' }]);
  objects.push(['dcim.devicerole', { id: 1, name: 'Router', slug: 'router', color: 'ff0000' }]);
  const statuses = ['active', 'active', 'active', 'reserved', 'deprecated'];
  const words = ['core', 'edge', 'access', 'transit', 'mgmt', 'lab'];
  // 10,000 /24 prefixes: 10.X.Y.0/24, X < 40, Y < 250
  let prefixId = 0;
  for (let x = 0; x < 40; x++) {
    for (let y = 0; y < 250; y++) {
      prefixId++;
      objects.push([
        'ipam.prefix',
        {
          id: prefixId,
          prefix: `10.${x}.${y}.0/24`,
          status: pick(statuses),
          site: 1 + int(SITES),
          vrf: random() < 0.2 ? null : 1 + int(VRFS),
          description: `${pick(words)} net ${prefixId}`,
        },
      ]);
    }
  }
  // 100,000 addresses, 10 per prefix
  let ipId = 0;
  for (let x = 0; x < 40; x++) {
    for (let y = 0; y < 250; y++) {
      for (let k = 0; k < 10; k++) {
        ipId++;
        objects.push([
          'ipam.ipaddress',
          {
            id: ipId,
            address: `10.${x}.${y}.${1 + int(254)}/24`,
            status: pick(statuses),
            vrf: random() < 0.2 ? null : 1 + int(VRFS),
            dns_name: random() < 0.7 ? `${pick(words)}-${int(5000)}.example.net` : '',
          },
        ]);
      }
    }
  }
  // 10,000 devices
  for (let id = 1; id <= 10_000; id++) {
    objects.push([
      'dcim.device',
      {
        id,
        name: `${pick(words)}${int(1000)}-${id}`,
        device_type: 1,
        device_role: 1,
        site: 1 + int(SITES),
        status: pick(['active', 'active', 'planned', 'offline']),
      },
    ]);
  }
  // 20,000 interfaces, two per device, created after every device (ids not in device order)
  for (let id = 1; id <= 20_000; id++) {
    objects.push([
      'dcim.interface',
      {
        id,
        device: 1 + ((id * 7919) % 10_000),
        name: `ge-0/0/${id % 2}`,
        type: '1000base-t',
        mgmt_only: false,
        enabled: true,
      },
    ]);
  }
  return objects.map(([model, obj], i) => ({
    collection: model,
    id: obj.id,
    position: i + 1,
    doc: storedDocument(model, obj, i + 1),
  }));
}

interface Case {
  name: string;
  model: string;
  query: string;
  slow?: boolean;
}

const CASES: Case[] = [
  { name: 'IP addresses, no filter (count + first page)', model: 'ipam.ipaddress', query: '' },
  {
    name: 'IP addresses ?vrf_id=&status=&dns_name__ic=',
    model: 'ipam.ipaddress',
    query: 'vrf_id=3&status=active&dns_name__ic=core',
  },
  { name: 'IP addresses ?parent=10.5.0.0/16', model: 'ipam.ipaddress', query: 'parent=10.5.0.0/16' },
  { name: 'IP addresses ?parent=10.5.7.0/24', model: 'ipam.ipaddress', query: 'parent=10.5.7.0/24' },
  { name: 'IP addresses ?parent=10.0.0.0/8 (every address)', model: 'ipam.ipaddress', query: 'parent=10.0.0.0/8' },
  { name: 'IP addresses ?q=edge-12', model: 'ipam.ipaddress', query: 'q=edge-12' },
  { name: 'IP addresses ?q=10.5.7 (address prefix)', model: 'ipam.ipaddress', query: 'q=10.5.7' },
  { name: 'IP addresses ?q=EXAMPLE (most match)', model: 'ipam.ipaddress', query: 'q=EXAMPLE' },
  { name: 'IP addresses ?q=nomatch', model: 'ipam.ipaddress', query: 'q=nomatch' },
  { name: 'IP addresses ?q=ed (short: scan)', model: 'ipam.ipaddress', query: 'q=ed' },
  { name: 'IP addresses ?q=mgmt-4&status=active', model: 'ipam.ipaddress', query: 'q=mgmt-4&status=active' },
  {
    name: 'IP addresses ?ordering=-address&offset=50000',
    model: 'ipam.ipaddress',
    query: 'ordering=-address&offset=50000',
  },
  { name: 'IP addresses ?start=50000 (cursor)', model: 'ipam.ipaddress', query: 'start=50000' },
  {
    name: 'prefixes ?site_id=&status=&description__ic=',
    model: 'ipam.prefix',
    query: 'site_id=7&status=active&description__ic=core',
  },
  { name: 'prefixes ?site=<slug>&status=', model: 'ipam.prefix', query: 'site=site-7&status=active' },
  { name: 'prefixes ?within=10.3.0.0/16', model: 'ipam.prefix', query: 'within=10.3.0.0/16' },
  { name: 'prefixes ?contains=10.3.4.5', model: 'ipam.prefix', query: 'contains=10.3.4.5' },
  { name: 'devices ?site_id=&status=&name__ic=', model: 'dcim.device', query: 'site_id=7&status=active&name__ic=edge' },
  { name: 'devices ?ordering=site (10,000 devices, by site name)', model: 'dcim.device', query: 'ordering=site' },
  { name: 'devices ?ordering=-site&offset=5000', model: 'dcim.device', query: 'ordering=-site&offset=5000' },
  { name: 'devices ?status=planned&ordering=site', model: 'dcim.device', query: 'status=planned&ordering=site' },
  { name: 'devices ?ordering=name (no relation, for comparison)', model: 'dcim.device', query: 'ordering=name' },
  {
    name: 'IP addresses ?ordering=vrf (100,000 addresses)',
    model: 'ipam.ipaddress',
    query: 'ordering=vrf',
    slow: true,
  },
  { name: 'interfaces, default order (device, name; 20,000)', model: 'dcim.interface', query: '' },
  { name: 'interfaces, default order, offset=10000', model: 'dcim.interface', query: 'offset=10000' },
  { name: 'interfaces ?type=1000base-t (default order)', model: 'dcim.interface', query: 'type=1000base-t' },
  { name: 'interfaces ?ordering=-device', model: 'dcim.interface', query: 'ordering=-device' },
];

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

interface Measured {
  p50: number;
  p95: number;
  cpu50: number;
  cpu95: number;
  /** The same plus rendering the page as the list view does (related objects fetched per page). */
  full50: number;
  count: number | null;
  rows: number;
}

/** Wall time and this process's CPU time per request (CPU time is what contention on a shared machine does not inflate). */
async function measure(store: ReadStore, c: Case): Promise<Measured> {
  const definition = registry.get(c.model);
  const params = new URLSearchParams(c.query);
  const times: number[] = [];
  const cpus: number[] = [];
  const fulls: number[] = [];
  const serializer = new Serializer(registry, store, new SecretKeeper('bench-secret', false));
  let last = { count: null as number | null, rows: 0 };
  for (let i = 0; i < ITERATIONS + 3; i++) {
    const started = performance.now();
    const cpu = process.cpuUsage();
    const filter = await compileFilter(registry, definition, params, store);
    const page = await listPage({
      store,
      definition,
      filter,
      query: params,
      base: 'http://bench/',
      paginateCount: 50,
      maxPageSize: 1000,
      brief: false,
    });
    const used = process.cpuUsage(cpu);
    const elapsed = performance.now() - started;
    await serializer.render(definition, page.docs, 'complete', { baseUrl: 'http://bench' });
    const full = performance.now() - started;
    if (i >= 3) {
      times.push(elapsed);
      cpus.push((used.user + used.system) / 1000);
      fulls.push(full);
    }
    last = { count: page.count, rows: page.docs.length };
  }
  times.sort((a, b) => a - b);
  cpus.sort((a, b) => a - b);
  fulls.sort((a, b) => a - b);
  return {
    p50: percentile(times, 50),
    p95: percentile(times, 95),
    cpu50: percentile(cpus, 50),
    cpu95: percentile(cpus, 95),
    full50: percentile(fulls, 50),
    ...last,
  };
}

async function run(
  label: string,
  store: ReadStore,
  changes: DocumentChange[],
  indexed: boolean,
  skipSlow = false,
): Promise<void> {
  await store.open();
  await store.drop();
  if (indexed)
    for (const [collection, fields] of readModelIndexes(registry)) await store.ensureIndexes(collection, fields);
  const loadStart = performance.now();
  // as the projector applies batches: with the columns models keep from other documents
  for (let i = 0; i < changes.length; i += 5000) {
    await store.apply(
      await withProjectedColumns(registry, store, changes.slice(i, i + 5000)),
      changes[Math.min(i + 4999, changes.length - 1)]!.position,
    );
  }
  console.log(
    `\n## ${label}  (loaded ${changes.length} documents in ${(performance.now() - loadStart).toFixed(0)} ms)\n`,
  );
  console.log('| query | count | rows | p50 ms | p95 ms | CPU p50 ms | CPU p95 ms | p50 ms incl. rendering |');
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|');
  for (const c of CASES) {
    if (ONLY && !c.name.includes(ONLY)) continue;
    if (skipSlow && c.slow) {
      console.log(`| ${c.name} | | | (skipped) | | | | |`);
      continue;
    }
    const r = await measure(store, c);
    console.log(
      `| ${c.name} | ${r.count ?? 'null'} | ${r.rows} | ${r.p50.toFixed(2)} | ${r.p95.toFixed(2)} | ${r.cpu50.toFixed(2)} | ${r.cpu95.toFixed(2)} | ${r.full50.toFixed(2)} |`,
    );
  }
  await store.close();
}

const changes = dataset();
console.log(
  `load average at start: ${(await import('node:os'))
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')} (2 cores)`,
);
await run('MemoryReadStore, indexed', new MemoryReadStore(), changes, true);
await run('MemoryReadStore, no indexes', new MemoryReadStore(), changes, false);
if (process.env.MONGODB_URL) {
  await run(
    'MongoReadStore, indexed',
    new MongoReadStore({ url: process.env.MONGODB_URL, dbName: `netledger_bench_${process.pid}` }),
    changes,
    true,
  );
} else {
  console.log('\n(MongoReadStore skipped: MONGODB_URL not set)');
}
