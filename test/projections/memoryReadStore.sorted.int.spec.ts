import test from 'ava';

import { MemoryReadStore } from '../../src/projections/memory/MemoryReadStore.js';
import type { DocumentChange, FindOptions, Query, ReadDocument, Sort } from '../../src/projections/ReadStore.js';
import { seededRandom } from '../support/seededRandom.js';

/*
 * Differential test of MemoryReadStore's sorted indexes (page walks, ranges of the first
 * field, pure-range counts), its native matcher and findWithCount: every plan must give exactly what a
 * plain mingo scan + full sort gives ({ planner: false }), before and after incremental
 * changes, after a large batch (rebuild) and once a field turns multi-valued.
 */

const C = 'ipam.ipaddress';
const WORDS = ['alpha', 'Bravo', 'charlie', 'éclair', 'Ωmega', '\u{1f600}x', 'a.b', ''];

function randomDoc(id: number, position: number, random: () => number): DocumentChange {
  const pick = <T>(xs: T[]): T => xs[Math.floor(random() * xs.length)]!;
  const doc: Record<string, unknown> = { id, _pos: position };
  const r = random();
  if (r < 0.85)
    doc._k = `4${Math.floor(random() * 0xfff)
      .toString(16)
      .padStart(4, '0')}`;
  else if (r < 0.92) doc._k = null; // else missing
  if (random() < 0.9) doc.n = random() < 0.1 ? null : Math.floor(random() * 10);
  if (random() < 0.8) doc.s = pick(WORDS);
  doc.status = pick(['active', 'reserved', 'dhcp']);
  doc.tags = random() < 0.3 ? [1 + Math.floor(random() * 3)] : [];
  return { collection: C, id, position, doc: doc as ReadDocument };
}

const SORTS: Array<Sort | undefined> = [
  undefined,
  { _k: 1, id: 1 },
  { _k: -1, id: -1 },
  { n: 1, _k: 1, id: 1 },
  { n: -1, _k: -1, id: -1 },
  { s: 1, id: 1 },
  { s: -1, id: -1 },
  { id: 1 },
  { id: -1 },
  { _k: 1, id: -1 },
];

const QUERIES: Query[] = [
  {},
  { _k: { $gte: '40400', $lte: '40800' } },
  { _k: { $gt: '40400', $lt: '40800' } },
  { _k: { $gt: '40f00' } },
  { _k: { $lte: '40100' } },
  { _k: '40123' },
  { _k: null },
  { _k: { $gte: '40400', $lte: 5 } },
  { $and: [{ _k: { $gte: '40200', $lte: '40a00' } }, { n: 3 }] },
  { $and: [{ _k: { $gte: '40200' } }, { status: 'active' }] },
  { _k: { $gte: '40200', $lte: '40a00' }, status: { $in: ['active', 'dhcp'] } },
  { n: { $gte: 5 } },
  { n: { $gt: 2, $lt: 7 }, _k: { $lt: '40800' } },
  { id: { $gte: 500 } },
  { id: { $gte: 500 }, status: 'reserved' },
  { s: { $regex: 'A', $options: 'i' } },
  { s: { $not: { $regex: '^a', $options: 'i' } } },
  { s: { $gte: 'b', $lt: 'é' } },
  { $or: [{ s: 'alpha' }, { n: { $in: [1, 2, null] } }] },
  { $nor: [{ status: 'active' }, { tags: 2 }] },
  { tags: { $all: [1] } },
  { tags: { $nin: [1, 2] }, n: { $ne: null } },
  { n: { $exists: false } },
  { s: { $in: ['', 'Bravo'] }, _k: { $exists: true } },
];

const PAGES: Array<Pick<FindOptions, 'skip' | 'limit'>> = [
  {},
  { limit: 10 },
  { skip: 5, limit: 50 },
  { skip: 990, limit: 20 },
  { skip: 3 },
];

async function compare(
  t: import('ava').ExecutionContext,
  indexed: MemoryReadStore,
  plain: MemoryReadStore,
  stage: string,
): Promise<number> {
  let pairs = 0;
  for (const query of QUERIES) {
    t.is(await indexed.count(C, query), await plain.count(C, query), `${stage}: count ${JSON.stringify(query)}`);
    for (const sort of SORTS) {
      // the reference: one full scan and sort, pages cut from it
      const all = (await plain.find(C, query, { sort })).map((d) => d.id);
      for (const page of PAGES) {
        const options = { ...page, sort };
        const a = (await indexed.find(C, query, options)).map((d) => d.id);
        const skip = page.skip ?? 0;
        const b = all.slice(skip, page.limit === undefined ? undefined : skip + page.limit);
        t.deepEqual(a, b, `${stage}: ${JSON.stringify(query)} ${JSON.stringify(options)}`);
        const both = await indexed.findWithCount(C, query, options);
        t.deepEqual(
          { count: both.count, ids: both.docs.map((d) => d.id) },
          { count: all.length, ids: b },
          `${stage}: findWithCount ${JSON.stringify(query)} ${JSON.stringify(options)}`,
        );
        pairs++;
      }
    }
  }
  return pairs;
}

test.serial('sorted indexes and the native matcher give what a plain scan gives, through changes', async (t) => {
  const random = seededRandom(7);
  const indexed = new MemoryReadStore();
  const plain = new MemoryReadStore({ planner: false });
  for (const store of [indexed, plain])
    await store.ensureIndexes(C, [['status'], ['tags'], ['_k', 'id'], ['n', '_k', 'id'], ['s', 'id']]);
  let position = 0;
  const initial = Array.from({ length: 1500 }, (_, i) => randomDoc(i + 1, ++position, random));
  for (const store of [indexed, plain]) await store.apply(initial, position);
  let pairs = await compare(t, indexed, plain, 'after a large batch');

  // small batches: incremental maintenance (updates moving keys, deletes, inserts)
  for (let round = 0; round < 2; round++) {
    const changes: DocumentChange[] = [];
    for (let i = 0; i < 40; i++) {
      const id = 1 + Math.floor(random() * 1600);
      position++;
      changes.push(random() < 0.2 ? { collection: C, id, position, doc: null } : randomDoc(id, position, random));
    }
    for (const store of [indexed, plain]) await store.apply(changes, position);
    pairs += await compare(t, indexed, plain, `after small batch ${round}`);
  }

  // one document with an array in an indexed field: the index is no longer usable
  position++;
  const arrayDoc: DocumentChange = {
    collection: C,
    id: 5000,
    position,
    doc: {
      id: 5000,
      _pos: position,
      _k: ['40500', '40001'],
      n: [1, 9],
      s: ['Bravo'],
      status: 'active',
      tags: [],
    } as unknown as ReadDocument,
  };
  for (const store of [indexed, plain]) await store.apply([arrayDoc], position);
  pairs += await compare(t, indexed, plain, 'with an array value');
  t.log(`${pairs} query/option pairs compared per stage`);
});

test.serial('a pure range is counted from the index and a page walk stops early', async (t) => {
  const store = new MemoryReadStore();
  await store.ensureIndexes(C, [['_k', 'id']]);
  const changes = Array.from({ length: 50_000 }, (_, i) => ({
    collection: C,
    id: i + 1,
    position: i + 1,
    doc: {
      id: i + 1,
      _pos: i + 1,
      _k: `4${((i * 7919) % 50_000).toString(16).padStart(5, '0')}`,
    } as unknown as ReadDocument,
  }));
  await store.apply(changes, 50_000);
  await store.find(C, {}, { sort: { _k: 1, id: 1 }, limit: 1 }); // builds the index
  // CPU time of this process (the machine may be shared), tests in this file run serially
  const cpu = process.cpuUsage();
  for (let i = 0; i < 200; i++) {
    await store.count(C, { _k: { $gte: '400100', $lte: '400fff' } });
    await store.find(C, {}, { sort: { _k: -1, id: -1 }, skip: 20_000, limit: 50 });
  }
  const used = process.cpuUsage(cpu);
  const perPair = (used.user + used.system) / 1000 / 200;
  t.is(await store.count(C, { _k: { $gte: '400100', $lte: '400fff' } }), 0xfff - 0x100 + 1);
  t.true(perPair < 5, `count + deep page took ${perPair.toFixed(2)} ms`);
});
