import test from 'ava';

import { MemoryReadStore } from '../../src/projections/memory/MemoryReadStore.js';
import type { DocumentChange, FindOptions, Query, ReadDocument } from '../../src/projections/ReadStore.js';
import { readStoreContract } from '../support/readStore.contract.js';
import { seededRandom } from '../support/seededRandom.js';

readStoreContract('MemoryReadStore', async () => {
  const store = new MemoryReadStore();
  await store.open();
  return { store, cleanup: () => store.close() };
});

readStoreContract('MemoryReadStore (planner off)', async () => {
  const store = new MemoryReadStore({ planner: false });
  await store.open();
  return { store, cleanup: () => store.close() };
});

/* Differential test: indexes, pre-filters, bounded sort and early exit must give
 * exactly what a plain mingo scan + full sort gives. */

const COLLECTION = 'ipam.ip-address';
const STATUSES = ['active', 'reserved', 'deprecated', 'dhcp', 'slaac'];
const WORDS = ['alpha', 'Bravo', 'charlie', 'DELTA', 'echo', 'éclair', 'zulu', 'Ωmega', '\u{1f600}'];

function randomDocs(n: number, random: () => number): DocumentChange[] {
  const pick = <T>(xs: T[]): T => xs[Math.floor(random() * xs.length)]!;
  const changes: DocumentChange[] = [];
  for (let id = 1; id <= n; id++) {
    const doc: Record<string, unknown> = { id, _pos: id };
    doc.status = pick(STATUSES);
    if (random() < 0.9) doc.vrf = random() < 0.1 ? null : 1 + Math.floor(random() * 10);
    if (random() < 0.7) doc.tenant = 1 + Math.floor(random() * 50);
    if (random() < 0.6) doc.dns_name = `${pick(WORDS)}-${Math.floor(random() * 1000)}.${pick(WORDS)}.example`;
    if (random() < 0.5) doc.tags = Array.from({ length: Math.floor(random() * 4) }, () => 1 + Math.floor(random() * 8));
    if (random() < 0.2) doc.status = random() < 0.5 ? [pick(STATUSES), pick(STATUSES)] : null;
    if (random() < 0.5) doc.aliases = random() < 0.5 ? pick(WORDS) : [pick(WORDS), pick(WORDS), [pick(WORDS)]];
    doc._address = (Math.floor(random() * 0xffffffff) >>> 0).toString(16).padStart(8, '0');
    doc.role = random() < 0.5 ? pick(['vip', 'anycast', 'loopback']) : undefined;
    doc.assigned =
      random() < 0.3
        ? { type: pick(['dcim.interface', 'virtualization.vminterface']), id: Math.floor(random() * 100) }
        : null;
    changes.push({ collection: COLLECTION, id, position: id, doc: doc as ReadDocument });
  }
  return changes;
}

const QUERIES: Query[] = [
  {},
  { status: 'active' },
  { status: 'active', vrf: 3 },
  { status: { $in: ['active', 'dhcp'] }, vrf: { $in: [1, 2, 3] } },
  { status: { $eq: 'reserved' }, tenant: { $gt: 25 } },
  { vrf: null },
  { vrf: { $in: [null, 4] } },
  { vrf: { $ne: 5 }, status: 'slaac' },
  { tags: 3 },
  { tags: { $in: [1, 8] }, status: 'deprecated' },
  { tenant: 7 },
  { tenant: { $in: [1, 2, 3, 4, 5] }, role: 'vip' },
  { id: { $in: [5, 17, 9000, 123456] } },
  { id: 42, status: 'active' },
  { dns_name: { $regex: 'ALPHA', $options: 'i' } },
  { dns_name: { $regex: 'é' }, vrf: 2 },
  { dns_name: /^zulu-1/ },
  { $or: [{ status: 'dhcp' }, { tenant: 3 }] },
  { $and: [{ status: 'active' }, { $or: [{ vrf: 1 }, { tags: 2 }] }] },
  { 'assigned.type': 'dcim.interface', 'assigned.id': { $lt: 10 } },
  { role: { $exists: false }, status: 'reserved' },
  { aliases: /^[ab]/i },
  { aliases: { $regex: 'ha' }, status: 'active' },
  { aliases: 'zulu' },
  { aliases: { $in: ['zulu', 'echo'] }, vrf: { $in: [1, 2] } },
  { dns_name: { $regex: 'a', $ne: 'x' }, status: { $in: ['active', 'dhcp'], $ne: 'dhcp' } },
  { $and: [{ aliases: /a/ }, { status: 'reserved' }] },
  { status: { $in: [] } },
  { status: 'nonexistent' },
];

const OPTIONS: FindOptions[] = [
  {},
  { limit: 50 },
  { skip: 10, limit: 25 },
  { sort: { _address: 1 }, limit: 50 },
  { sort: { vrf: 1, tenant: -1 }, limit: 50 },
  { sort: { vrf: -1, dns_name: 1 }, skip: 40, limit: 20 },
  { sort: { tags: 1 }, skip: 5, limit: 100 },
  { sort: { status: -1, _address: 1 } },
  { sort: { dns_name: 1 }, skip: 900, limit: 200 },
  { sort: { 'assigned.id': 1, id: -1 }, limit: 30 },
];

test('MemoryReadStore: indexed plans give the same results as a plain scan (10,000 random docs)', async (t) => {
  const changes = randomDocs(10_000, seededRandom(42));
  const indexed = new MemoryReadStore();
  const plain = new MemoryReadStore({ planner: false });
  const noIndex = new MemoryReadStore();
  await indexed.ensureIndexes(COLLECTION, [['status'], ['vrf', 'tenant'], ['tags'], ['assigned.type']]);
  await indexed.apply(changes.slice(0, 5000), 5000);
  await indexed.apply(changes.slice(5000), 10_000);
  await plain.apply(changes, 10_000);
  await noIndex.apply(changes, 10_000);

  // Some updates and deletes so the indexes are maintained, not just built.
  const random = seededRandom(7);
  const edits: DocumentChange[] = [];
  for (let i = 0; i < 500; i++) {
    const id = 1 + Math.floor(random() * 10_000);
    if (random() < 0.3) edits.push({ collection: COLLECTION, id, position: 10_001 + i, doc: null });
    else {
      const base = changes[id - 1]!.doc!;
      edits.push({
        collection: COLLECTION,
        id,
        position: 10_001 + i,
        doc: { ...base, status: STATUSES[i % STATUSES.length], vrf: i % 11, tags: [i % 9] } as ReadDocument,
      });
    }
  }
  for (const s of [indexed, plain, noIndex]) await s.apply(edits, 10_500);

  const ids = (docs: ReadDocument[]) => docs.map((d) => d.id);
  let compared = 0;
  const counts: number[] = [];
  for (const query of QUERIES) {
    const want = await plain.count(COLLECTION, query);
    counts.push(want);
    t.is(await indexed.count(COLLECTION, query), want, `count ${JSON.stringify(query)}`);
    t.is(await noIndex.count(COLLECTION, query), want, `count (no index) ${JSON.stringify(query)}`);
    for (const options of OPTIONS) {
      const expected = ids(await plain.find(COLLECTION, query, options));
      const label = `${JSON.stringify(query)} ${JSON.stringify(options)}`;
      t.deepEqual(ids(await indexed.find(COLLECTION, query, options)), expected, label);
      t.deepEqual(ids(await noIndex.find(COLLECTION, query, options)), expected, `(no index) ${label}`);
      compared++;
    }
  }
  for (const field of ['vrf', 'tenant', 'tags']) {
    const values = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11];
    t.deepEqual(
      await indexed.countBy(COLLECTION, field, values),
      await plain.countBy(COLLECTION, field, values),
      field,
    );
  }
  t.true(
    counts.filter((n) => n > 0 && n < 10_000).length >= QUERIES.length - 4,
    'queries are selective, not trivially empty',
  );
  t.log(`${compared} query/option pairs compared; matches per query: ${counts.join(' ')}`);
});

test('MemoryReadStore: returned documents are frozen, deeply', async (t) => {
  const store = new MemoryReadStore();
  await store.apply([{ collection: 'c', id: 1, position: 1, doc: { id: 1, _pos: 1, a: { b: [1, { c: 2 }] } } }], 1);
  const doc = (await store.get('c', 1))!;
  t.true(Object.isFrozen(doc));
  t.true(Object.isFrozen(doc.a));
  t.true(Object.isFrozen((doc.a as { b: unknown[] }).b));
  t.throws(() => {
    (doc as Record<string, unknown>).x = 1;
  });
});

test('MemoryReadStore: undefined members are dropped like MongoDB does', async (t) => {
  const store = new MemoryReadStore();
  await store.apply(
    [{ collection: 'c', id: 1, position: 1, doc: { id: 1, _pos: 1, a: undefined, b: [undefined] } }],
    1,
  );
  t.deepEqual(await store.get('c', 1), { id: 1, _pos: 1, b: [null] });
  t.is(await store.count('c', { a: { $exists: true } }), 0);
});

test('MemoryReadStore: malformed queries are rejected', async (t) => {
  const store = new MemoryReadStore();
  await store.apply([{ collection: 'c', id: 1, position: 1, doc: { id: 1, _pos: 1 } }], 1);
  await t.throwsAsync(() => store.find('c', { a: { $bogus: 1 } }));
  await t.throwsAsync(() => store.count('c', { a: { $bogus: 1 } }));
});
