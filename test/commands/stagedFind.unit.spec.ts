/**
 * The writer's `find` over staged documents (changes decided but not yet projected): it
 * must answer as mingo over the same documents would, whichever way each staged
 * document is tested (the compiled predicate, or mingo where that cannot tell).
 */
import test from 'ava';
import { Query as MingoQuery } from 'mingo';

import { Overlay, StagedView } from '../../src/commands/StagedView.js';
import { MemoryReadStore } from '../../src/projections/memory/MemoryReadStore.js';
import type { ReadDocument } from '../../src/projections/ReadStore.js';
import { regexCondition } from '../../src/projections/textPatterns.js';
import { seededRandom } from '../support/seededRandom.js';

const DEVICE = 'dcim.device';
const NAMES = ['core', 'CORE', 'Core-1', '\u212aelvin', 'kelvin', 'edge', null];

function staged(docs: ReadDocument[]): Overlay {
  const overlay = new Overlay();
  for (const doc of docs) overlay.put({ collection: DEVICE, id: doc.id, position: doc._pos, doc });
  return overlay;
}

test('staged find: uniqueness-shaped queries over staged documents answer as mingo does', async (t) => {
  const random = seededRandom(11);
  const pick = <T>(list: T[]) => list[Math.floor(random() * list.length)]!;
  for (let round = 0; round < 200; round++) {
    const docs: ReadDocument[] = Array.from({ length: 12 }, (_, i) => ({
      id: i + 1,
      _pos: i + 1,
      name: random() < 0.1 ? [pick(NAMES), { nested: 'core' }] : pick(NAMES),
      site: pick([1, 2]),
      tenant: pick([null, 5]),
    }));
    const view = new StagedView(new MemoryReadStore(), [staged(docs)]);
    const query = {
      id: { $ne: pick([1, 2, 99]) },
      name: regexCondition('ie', [pick(['core', 'KELVIN', 'edge'])]),
      site: { $eq: pick([1, 2]) },
      tenant: null,
    };
    const want = docs.filter((d) => new MingoQuery(query).test(d)).map((d) => d.id);
    const got = (await view.find(DEVICE, query)).map((d) => d.id);
    t.deepEqual(got, want, JSON.stringify(query));
  }
});

test('staged find: the newest layer wins and a staged delete hides the document', async (t) => {
  const older = staged([
    { id: 1, _pos: 1, name: 'core', site: 1 },
    { id: 2, _pos: 2, name: 'edge', site: 1 },
  ]);
  const newer = new Overlay();
  newer.put({ collection: DEVICE, id: 1, position: 3, doc: null });
  newer.put({ collection: DEVICE, id: 2, position: 4, doc: { id: 2, _pos: 4, name: 'CORE', site: 1 } });
  const view = new StagedView(new MemoryReadStore(), [older, newer]);
  const found = await view.find(DEVICE, { name: regexCondition('ie', ['core']), site: { $eq: 1 } });
  t.deepEqual(
    found.map((d) => [d.id, d.name]),
    [[2, 'CORE']],
  );
});

test('staged find: the staged index of a field follows puts, replacements, array values and settling', async (t) => {
  const layer = staged([
    { id: 1, _pos: 1, name: 'a', site: 1 },
    { id: 2, _pos: 2, name: 'b', site: [1, 2] },
  ]);
  const view = new StagedView(new MemoryReadStore(), [layer]);
  const ids = async (query: Record<string, unknown>) => (await view.find(DEVICE, query)).map((d) => d.id);
  t.deepEqual(await ids({ site: 2 }), [2]);
  t.deepEqual(await ids({ site: 1 }), [1, 2]);
  layer.put({ collection: DEVICE, id: 1, position: 3, doc: { id: 1, _pos: 3, name: 'a', site: 2 } });
  layer.put({ collection: DEVICE, id: 3, position: 4, doc: { id: 3, _pos: 4, name: 'c', site: 1 } });
  t.deepEqual(await ids({ site: 2 }), [1, 2]);
  t.deepEqual(await ids({ site: 1 }), [2, 3]);
  layer.settle({ collection: DEVICE, id: 2, position: 2, doc: null });
  t.deepEqual(await ids({ site: 1 }), [3], 'a settled document is the store\u2019s again (here: none)');
  t.deepEqual(await ids({ site: { $eq: 2 }, name: 'a' }), [1]);
});

test('staged find: a repeated question is answered again until a staged document of its collection changes; callers get their own array', async (t) => {
  const store = new MemoryReadStore();
  await store.apply([{ collection: DEVICE, id: 1, position: 1, doc: { id: 1, _pos: 1, name: 'core', site: 1 } }], 1);
  const layer = new Overlay();
  const view = new StagedView(store, [new Overlay(), layer]);
  const first = await view.find(DEVICE, { site: 1 });
  t.deepEqual(
    first.map((d) => d.id),
    [1],
  );
  first.pop();
  t.deepEqual(
    (await view.find(DEVICE, { site: 1 })).map((d) => d.id),
    [1],
    'not changed by what a caller did to its answer',
  );
  layer.put({ collection: DEVICE, id: 2, position: 2, doc: { id: 2, _pos: 2, name: 'edge', site: 1 } });
  t.deepEqual(
    (await view.find(DEVICE, { site: 1 })).map((d) => d.id),
    [1, 2],
  );
  t.deepEqual(
    (await view.find(DEVICE, { site: 1 }, 1)).map((d) => d.id),
    [1],
    'the limit is part of the question',
  );
  layer.put({ collection: DEVICE, id: 1, position: 3, doc: null });
  t.deepEqual(
    (await view.find(DEVICE, { site: 1 })).map((d) => d.id),
    [2],
  );
});
