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
 * the same pages in the same order, the same counts, for random overlays and queries.
 */
for (const seed of [1, 2, 3, 4, 5]) {
  test(`an overlaid store answers as the overlay applied to its base (seed ${seed})`, async (t) => {
    const random = seededRandom(seed);
    const base = new MemoryReadStore();
    const applied = new MemoryReadStore();
    const initial: DocumentChange[] = [];
    for (let id = 1; id <= 60; id++) initial.push({ collection: C, id, position: id, doc: doc(random, id, id) });
    await base.apply(initial, 60);
    await applied.apply(initial, 60);
    const overlaid = new OverlaidReadStore(base);
    const changes: DocumentChange[] = [];
    for (let i = 0; i < 25; i++) {
      const id = 1 + Math.floor(random() * 80); // some new objects, beyond the base's ids
      const position = 61 + i;
      changes.push({ collection: C, id, position, doc: random() < 0.25 ? null : doc(random, id, position) });
    }
    await overlaid.apply(changes, 85);
    await applied.apply(changes, 85);

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
