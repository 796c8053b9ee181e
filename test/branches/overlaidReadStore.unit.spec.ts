import test from 'ava';

import { OverlaidReadStore } from '../../src/branches/OverlaidReadStore.js';
import { MemoryReadStore } from '../../src/projections/memory/MemoryReadStore.js';
import type { DocumentChange, FindOptions, Query, ReadDocument } from '../../src/projections/ReadStore.js';
import { seededRandom } from '../support/seededRandom.js';

const C = 'dcim.widget';
const NAMES = ['alpha', 'beta', 'Gamma', 'delta', 'epsilon', 'zeta'];

function doc(random: () => number, id: number, position: number): ReadDocument {
  return {
    id,
    _pos: position,
    name: NAMES[Math.floor(random() * NAMES.length)]!,
    rank: Math.floor(random() * 5),
    site: random() < 0.2 ? null : 1 + Math.floor(random() * 3),
    tags: random() < 0.5 ? [] : [1 + Math.floor(random() * 3)],
  };
}

/**
 * The overlaid store must answer exactly as a store to which the overlay was applied:
 * the same pages in the same order, the same counts, for random overlays and queries;
 * also when it may name only a few ids in one query to its base (MongoDB's 16 MB limit).
 */
/** The most ids a query or a getMany names ($in, $nin), over every call so far. */
function idsNamed(value: unknown): number {
  if (Array.isArray(value)) return Math.max(0, ...value.map(idsNamed));
  if (typeof value !== 'object' || value === null) return 0;
  let most = 0;
  for (const [key, inner] of Object.entries(value)) {
    if ((key === '$in' || key === '$nin') && Array.isArray(inner)) most = Math.max(most, inner.length);
    most = Math.max(most, idsNamed(inner));
  }
  return most;
}

/** The store, counting the most ids any query to it named. */
function watched(store: MemoryReadStore): { store: MemoryReadStore; most: () => number } {
  let most = 0;
  const proxy = new Proxy(store, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        if (key === 'getMany') most = Math.max(most, (args[1] as number[]).length);
        if (key === 'find' || key === 'count') most = Math.max(most, idsNamed(args[1]));
        return value.apply(target, args);
      };
    },
  });
  return { store: proxy, most: () => most };
}

for (const [seed, maxIds, overlaidShare] of [
  [1, undefined, 25],
  [2, undefined, 25],
  [3, undefined, 25],
  [4, undefined, 25],
  [5, undefined, 25],
  [6, 3, 25],
  [7, 3, 75],
  [8, 3, 75],
] as const) {
  const title = `an overlaid store answers as the overlay applied to its base (seed ${seed}${maxIds ? `, at most ${maxIds} ids a query, ${overlaidShare} changes` : ''})`;
  test(title, async (t) => {
    const random = seededRandom(seed);
    const base = new MemoryReadStore();
    const applied = new MemoryReadStore();
    const initial: DocumentChange[] = [];
    for (let id = 1; id <= 60; id++) initial.push({ collection: C, id, position: id, doc: doc(random, id, id) });
    await base.apply(initial, 60);
    await applied.apply(initial, 60);
    const guarded = watched(base);
    const overlaid = new OverlaidReadStore(guarded.store, maxIds);
    const changes: DocumentChange[] = [];
    for (let i = 0; i < overlaidShare; i++) {
      const id = 1 + Math.floor(random() * 80); // some new objects, beyond the base's ids
      const position = 61 + i;
      changes.push({ collection: C, id, position, doc: random() < 0.25 ? null : doc(random, id, position) });
    }
    await overlaid.apply(changes, 60 + overlaidShare);
    await applied.apply(changes, 60 + overlaidShare);

    const queries: Query[] = [
      {},
      { site: 2 },
      { site: null },
      { rank: { $gte: 2 } },
      { tags: 2 },
      { name: { $in: ['alpha', 'beta'] } },
      { $or: [{ site: 1 }, { rank: 0 }] },
    ];
    const sorts: FindOptions['sort'][] = [
      { id: 1 },
      { name: 1, id: 1 },
      { rank: -1, id: 1 },
      { site: 1, name: -1, id: 1 },
    ];
    for (const query of queries) {
      t.is(await overlaid.count(C, query), await applied.count(C, query), `count ${JSON.stringify(query)}`);
      for (const sort of sorts) {
        for (const [skip, limit] of [
          [0, 5],
          [3, 7],
          [0, undefined],
          [20, 50],
        ] as const) {
          const options = { sort, skip, limit };
          const got = (await overlaid.find(C, query, options)).map((d) => d.id);
          const want = (await applied.find(C, query, options)).map((d) => d.id);
          t.deepEqual(got, want, `${JSON.stringify(query)} ${JSON.stringify(options)}`);
        }
      }
    }
    const counted = await overlaid.countBy(C, 'site', [1, 2, 3]);
    t.deepEqual([...counted], [...(await applied.countBy(C, 'site', [1, 2, 3]))]);
    // (the ids a caller names itself are passed on as they are)
    if (maxIds) t.true(guarded.most() <= maxIds, `${guarded.most()} overlaid ids in one query`);
    const ids = [1, 5, 70, 79, 33];
    t.deepEqual(
      (await overlaid.getMany(C, ids)).map((d) => d.id),
      (await applied.getMany(C, ids)).map((d) => d.id),
    );
    t.deepEqual(await overlaid.maxIds(), await applied.maxIds());
  });
}

test('a column patch is made on the version the overlay holds, and the base is never written', async (t) => {
  const base = new MemoryReadStore();
  await base.apply([{ collection: C, id: 1, position: 1, doc: { id: 1, _pos: 1, name: 'a', _depth: 0 } }], 1);
  const overlaid = new OverlaidReadStore(base);
  await overlaid.apply([{ collection: C, id: 1, position: 2, doc: null, columns: { _depth: 3 } }], 2);
  t.is((await overlaid.get(C, 1))?._depth, 3);
  t.is((await base.get(C, 1))?._depth, 0);
  t.is((await overlaid.get(C, 1))?._pos, 1, 'a patch is no new version');
  overlaid.clear();
  t.is(overlaid.size, 0);
  t.is((await overlaid.get(C, 1))?._depth, 0);
});

test('when the overlay hides most of the first matches and its ids are too many for one query, the base is read on in steps', async (t) => {
  const base = new MemoryReadStore();
  const applied = new MemoryReadStore();
  const initial: DocumentChange[] = [];
  for (let id = 1; id <= 300; id++)
    initial.push({ collection: C, id, position: id, doc: { id, _pos: id, name: `n${id}`, rank: id } });
  await base.apply(initial, 300);
  await applied.apply(initial, 300);
  // the first 280 in rank order are overlaid: moved to the end, or gone
  const changes: DocumentChange[] = [];
  for (let id = 1; id <= 280; id++) {
    const doc = id % 7 === 0 ? null : { id, _pos: 300 + id, name: `n${id}`, rank: 1000 + id };
    changes.push({ collection: C, id, position: 300 + id, doc });
  }
  const guarded = watched(base);
  const overlaid = new OverlaidReadStore(guarded.store, 50);
  await overlaid.apply(changes, 580);
  await applied.apply(changes, 580);
  for (const [skip, limit] of [
    [0, 5],
    [15, 10],
    [18, 30],
    [0, 300],
  ] as const) {
    const options = { sort: { rank: 1, id: 1 } as const, skip, limit };
    t.deepEqual(
      (await overlaid.find(C, { rank: { $gte: 2 } }, options)).map((d) => d.id),
      (await applied.find(C, { rank: { $gte: 2 } }, options)).map((d) => d.id),
      JSON.stringify(options),
    );
  }
  t.is(await overlaid.count(C, {}), await applied.count(C, {}));
  t.true(guarded.most() <= 50, `${guarded.most()} overlaid ids in one query`);
});
