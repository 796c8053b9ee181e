import test from 'ava';

import { EqualityIndex } from '../../src/projections/memory/EqualityIndex.js';
import { MemoryCollection } from '../../src/projections/memory/MemoryCollection.js';
import type { ReadDocument } from '../../src/projections/ReadStore.js';
import { seededRandom } from '../support/seededRandom.js';

const FIELDS = ['status', 'region', 'tags', 'name'];
const STATUSES = ['active', 'planned', 'retired'];

function randomDoc(random: () => number, id: number): ReadDocument {
  return Object.freeze({
    id,
    _pos: id,
    status: STATUSES[Math.floor(random() * STATUSES.length)],
    region: random() < 0.3 ? null : Math.floor(random() * 4),
    tags: Object.freeze(random() < 0.5 ? [] : [Math.floor(random() * 3), 7]),
    name: `n${Math.floor(random() * 50)}`,
  }) as ReadDocument;
}

/** Every posting of an index as value → sorted ids, for comparison with one built afresh. */
function postingsOf(index: EqualityIndex): Record<string, number[]> {
  const out: Record<string, number[]> = {};
  for (const key of index.postings.keys()) {
    const entries: { doc: ReadDocument }[] = [];
    index.collect(key, entries as never, null);
    out[`${typeof key}:${String(key)}`] = entries.map((e) => e.doc.id).sort((a, b) => a - b);
  }
  return out;
}

for (const seed of [1, 2, 3, 4, 5, 6]) {
  test(`indexes built in slices amid creates, replaces and deletes equal ones built afresh (seed ${seed})`, (t) => {
    const random = seededRandom(seed);
    const col = new MemoryCollection();
    for (const field of FIELDS) col.addIndex(field);
    col.load(Array.from({ length: 400 }, (_, i) => randomDoc(random, i + 1)));
    let nextId = 401;
    // A slice of the background build, then a few changes, until every index is built.
    let rounds = 0;
    while (col.buildIndexes(1 + Math.floor(random() * 40)) > 0 || rounds < 5) {
      rounds++;
      for (let i = 0; i < 6; i++) {
        const roll = random();
        const ids = [...col.docs.keys()];
        const id = ids[Math.floor(random() * ids.length)]!;
        if (roll < 0.25) col.delete(id);
        else if (roll < 0.6) col.put(id, randomDoc(random, id));
        else if (roll < 0.75 && ids.length > 0) {
          col.delete(id); // deleted and created again: it moves to the end of the natural order
          col.put(id, randomDoc(random, id));
        } else {
          const created = nextId++;
          col.put(created, randomDoc(random, created));
        }
      }
    }
    for (const field of FIELDS) {
      const fresh = new EqualityIndex(field);
      for (const entry of col.docs.values()) fresh.add(entry, fresh.keysOf(entry.doc));
      t.deepEqual(postingsOf(col.index(field)!), postingsOf(fresh), field);
    }
  });
}

test('a read in the middle of a background build finishes it there, from where it was', (t) => {
  const random = seededRandom(9);
  const col = new MemoryCollection();
  col.addIndex('status');
  col.load(Array.from({ length: 100 }, (_, i) => randomDoc(random, i + 1)));
  t.true(col.buildIndexes(30) > 0);
  col.put(5, randomDoc(random, 5)); // filed already: followed
  col.put(90, randomDoc(random, 90)); // not yet: filed as it is when reached
  const index = col.index('status')!;
  t.false(index.stale);
  let filed = 0;
  for (const key of index.postings.keys()) filed += index.size(key);
  t.is(filed, 100);
  t.is(col.buildIndexes(1000), 0);
});
