import test from 'ava';

import { MemoryCollection } from '../../src/projections/memory/MemoryCollection.js';
import { MemoryReadStore } from '../../src/projections/memory/MemoryReadStore.js';
import { QueryPlanner } from '../../src/projections/memory/QueryPlanner.js';
import type { DocumentChange } from '../../src/projections/ReadStore.js';
import { regexCondition } from '../../src/projections/textPatterns.js';
import { seededRandom } from '../support/seededRandom.js';

const NAMES = [
  'a',
  'A',
  'Zed',
  'zED',
  '\u017ftar',
  'STAR',
  '\u212aelvin',
  'kelvin',
  'stra\u00dfe',
  'STRA\u1e9eE',
  'strasse',
  'x.y',
  'X.Y',
  'x*y',
  '',
];

function collectionOf(names: unknown[]): MemoryCollection {
  const col = new MemoryCollection();
  col.addIndex('name');
  names.forEach((name, i) => col.put(i + 1, { id: i + 1, _pos: i + 1, name, site: 1 }));
  return col;
}

test('case-insensitive exact match: the equality index of the field gives the few candidates, not a scan of the collection', (t) => {
  const planner = new QueryPlanner(true);
  const names = [...Array.from({ length: 500 }, (_, i) => `device ${i}`), 'Core', 'CORE'];
  const col = collectionOf(names);
  const plan = planner.filterPlan(col, { id: { $ne: 1 }, name: regexCondition('ie', ['core']), site: { $eq: 1 } });
  t.deepEqual(plan.candidates?.map((e) => e.doc.name).sort(), ['CORE', 'Core']);
  const none = planner.filterPlan(col, { name: regexCondition('ie', ['nothing like it']) });
  t.deepEqual(none.candidates, []);
  // Anything but an exact match of literals is still the regex's alone.
  t.is(planner.filterPlan(col, { name: regexCondition('ic', ['core']) }).candidates, null);
});

test('case-insensitive exact match: the indexed plan finds what mingo over every document finds, through puts, updates and deletes', async (t) => {
  const random = seededRandom(7);
  const indexed = new MemoryReadStore();
  const reference = new MemoryReadStore({ planner: false });
  for (const store of [indexed, reference]) await store.ensureIndexes('dcim.device', [['name']]);
  let position = 0;
  const pick = () => NAMES[Math.floor(random() * NAMES.length)]!;
  for (let round = 0; round < 60; round++) {
    const changes: DocumentChange[] = [];
    for (let k = 0; k < 5; k++) {
      position++;
      const id = 1 + Math.floor(random() * 25);
      const roll = random();
      const name = roll < 0.1 ? null : roll < 0.15 ? [pick(), pick()] : roll < 0.2 ? 7 : pick();
      const doc = roll > 0.95 ? null : { id, _pos: position, name, site: 1 };
      changes.push({ collection: 'dcim.device', id, position, doc });
    }
    for (const store of [indexed, reference]) await store.apply(changes, position);
    const lookups = [[pick()], [pick(), pick()], ['no such name']];
    for (const values of lookups) {
      const query = { name: regexCondition('ie', values), id: { $ne: 3 } };
      const got = (await indexed.find('dcim.device', query)).map((d) => d.id);
      const want = (await reference.find('dcim.device', query)).map((d) => d.id);
      t.deepEqual(got, want, `${JSON.stringify(values)} after round ${round}`);
    }
  }
});
