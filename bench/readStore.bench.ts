/**
 * MemoryReadStore micro-benchmark on 100,000 IP-address-like documents.
 *
 *   npx tsx bench/readStore.bench.ts [count]
 *
 * Prints p50/p95 (ms) per operation. Not a test.
 */
import { MemoryReadStore } from '../src/projections/memory/MemoryReadStore.js';
import type { DocumentChange, ReadDocument } from '../src/projections/ReadStore.js';
import { seededRandom } from '../test/support/seededRandom.js';

const N = Number(process.argv[2] ?? 100_000);
const COLLECTION = 'ipam.ipaddress';

const random = seededRandom(1);
const int = (n: number) => Math.floor(random() * n);
const STATUSES = ['active', 'active', 'active', 'reserved', 'deprecated', 'dhcp'];
const ROLES = ['router', 'switch', 'server', 'fw', 'lb', 'ap'];

function makeDocs(n: number): DocumentChange[] {
  const changes: DocumentChange[] = [];
  for (let id = 1; id <= n; id++) {
    const ip = [10, int(256), int(256), int(256)];
    const prefixLength = [24, 32, 31, 64][int(4)]!;
    const doc = {
      id,
      _pos: id,
      address: `${ip.join('.')}/${prefixLength}`,
      // sortable key: family + address bytes + prefix length, as hex
      _address: `04${ip.map((b) => b.toString(16).padStart(2, '0')).join('')}${prefixLength.toString(16).padStart(2, '0')}`,
      status: STATUSES[int(STATUSES.length)],
      vrf: random() < 0.1 ? null : 1 + int(10),
      tenant: random() < 0.3 ? null : 1 + int(100),
      assigned_object_type: random() < 0.5 ? 'dcim.interface' : null,
      assigned_object_id: random() < 0.5 ? 1 + int(50_000) : null,
      dns_name: random() < 0.8 ? `${ROLES[int(ROLES.length)]}-${int(5000)}.dc${int(20)}.example.net` : '',
      description: '',
      tags: random() < 0.2 ? [1 + int(20)] : [],
      custom_fields: {},
      created: '2024-01-01T00:00:00Z',
      last_updated: '2024-01-01T00:00:00Z',
    };
    changes.push({ collection: COLLECTION, id, position: id, doc: doc as ReadDocument });
  }
  return changes;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

const rows: string[][] = [];

async function measure(name: string, iterations: number, op: (i: number) => Promise<unknown> | unknown): Promise<void> {
  for (let i = 0; i < Math.min(20, iterations); i++) await op(i); // warm-up
  const times: number[] = [];
  let result: unknown;
  for (let i = 0; i < iterations; i++) {
    const t0 = performance.now();
    result = await op(i);
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  const size = Array.isArray(result) ? `${result.length} docs` : typeof result === 'number' ? `= ${result}` : '';
  rows.push([name, percentile(times, 50).toFixed(4), percentile(times, 95).toFixed(4), String(iterations), size]);
}

async function main(): Promise<void> {
  const changes = makeDocs(N);
  const store = new MemoryReadStore();
  await store.ensureIndexes(COLLECTION, [['status'], ['vrf'], ['tenant']]);

  const t0 = performance.now();
  for (let i = 0; i < changes.length; i += 1000) await store.apply(changes.slice(i, i + 1000), Math.min(i + 1000, N));
  const loadMs = performance.now() - t0;
  const heapMb = process.memoryUsage().heapUsed / 1e6;

  const page = { sort: { _address: 1 as const }, limit: 50 };
  await measure("find {status:'active', vrf:k} sort _address limit 50", 200, (i) =>
    store.find(COLLECTION, { status: 'active', vrf: 1 + (i % 10) }, page),
  );
  await measure('find {status:{$in:[active,dhcp]}, tenant:k} sort _address limit 50', 200, (i) =>
    store.find(COLLECTION, { status: { $in: ['active', 'dhcp'] }, tenant: 1 + (i % 100) }, page),
  );
  await measure("find {status:'active'} sort _address skip 5000 limit 50 (full sort)", 50, () =>
    store.find(COLLECTION, { status: 'active' }, { ...page, skip: 5000 }),
  );
  await measure('find dns_name $regex i contains, limit 50 (no sort)', 200, (i) =>
    store.find(COLLECTION, { dns_name: { $regex: `ROUTER-${100 + (i % 50)}`, $options: 'i' } }, { limit: 50 }),
  );
  await measure('find dns_name $regex i contains, sort _address limit 50', 100, (i) =>
    store.find(COLLECTION, { dns_name: { $regex: `ROUTER-${100 + (i % 50)}`, $options: 'i' } }, page),
  );
  await measure('find dns_name $regex i, no match (full scan)', 100, (i) =>
    store.find(COLLECTION, { dns_name: { $regex: `nomatch${i}`, $options: 'i' } }, { limit: 50 }),
  );
  await measure('find $or (unindexed: full mingo scan), sort _address limit 50', 50, (i) =>
    store.find(COLLECTION, { $or: [{ assigned_object_id: i }, { tenant: 7, vrf: 2 }] }, page),
  );
  await measure('count {}', 10_000, () => store.count(COLLECTION, {}));
  await measure("count {status:'active'} (index only)", 10_000, () => store.count(COLLECTION, { status: 'active' }));
  await measure("count {status:'active', vrf:k}", 200, (i) =>
    store.count(COLLECTION, { status: 'active', vrf: 1 + (i % 10) }),
  );
  await measure('countBy tenant, 50 values (indexed)', 1000, () =>
    store.countBy(
      COLLECTION,
      'tenant',
      Array.from({ length: 50 }, (_, i) => i + 1),
    ),
  );
  await measure('countBy assigned_object_id, 50 values (scan)', 50, () =>
    store.countBy(
      COLLECTION,
      'assigned_object_id',
      Array.from({ length: 50 }, (_, i) => i + 1),
    ),
  );
  const ids = Array.from({ length: 10_000 }, () => 1 + int(N));
  await measure('get by id (frozen, returned as is)', 10_000, (i) => store.get(COLLECTION, ids[i]!));
  await measure('get by id + structuredClone (the alternative)', 10_000, async (i) =>
    structuredClone(await store.get(COLLECTION, ids[i]!)),
  );
  await measure('getMany 50 ids', 1000, (i) =>
    store.getMany(COLLECTION, ids.slice((i * 50) % 9950, ((i * 50) % 9950) + 50)),
  );
  await measure('getMany 50 ids + structuredClone each (the alternative)', 1000, async (i) =>
    (await store.getMany(COLLECTION, ids.slice((i * 50) % 9950, ((i * 50) % 9950) + 50))).map((d) =>
      structuredClone(d),
    ),
  );

  console.log(
    `MemoryReadStore, ${N.toLocaleString('en')} documents; load (apply in batches of 1000, 3 indexes): ${loadMs.toFixed(0)} ms; heap after load ${heapMb.toFixed(0)} MB; node ${process.version}`,
  );
  const header = ['operation', 'p50 ms', 'p95 ms', 'runs', 'result'];
  const widths = header.map((h, c) => Math.max(h.length, ...rows.map((r) => r[c]!.length)));
  const line = (r: string[]) =>
    r.map((v, c) => (c === 0 || c === 4 ? v.padEnd(widths[c]!) : v.padStart(widths[c]!))).join('  ');
  console.log(line(header));
  for (const r of rows) console.log(line(r));
}

await main();
