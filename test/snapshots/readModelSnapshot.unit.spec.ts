import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import test from 'ava';

import { registry } from '../../src/models/registry.js';
import { addressSortKey } from '../../src/models/values/ipNetworks.js';
import type { ReadModelCapture } from '../../src/projections/memory/MemoryReadStore.js';
import { MemoryReadStore } from '../../src/projections/memory/MemoryReadStore.js';
import {
  parseReadModels,
  READ_MODELS_FORMAT,
  READ_MODELS_PART,
  readReadModelSnapshot,
  serialiseReadModels,
  writeReadModelSnapshot,
} from '../../src/projections/memory/snapshots/readModelSnapshot.js';
import { readModelIndexes } from '../../src/projections/readModelIndexes.js';
import type { DocumentChange, FindOptions, Query, ReadDocument } from '../../src/projections/ReadStore.js';
import { SnapshotDamagedError, writeSnapshot } from '../../src/snapshots/SnapshotFile.js';
import { seededRandom } from '../support/seededRandom.js';

const IP = 'ipam.ipaddress';
const SITE = 'dcim.site';
const STATUSES = ['active', 'reserved', 'deprecated', 'dhcp'];
const NAMES = ['alpha', 'Bravo', 'éclair', 'Ωmega', '\u{1f600}', 'line\nbreak', 'quote"d'];

async function indexedStore(): Promise<MemoryReadStore> {
  const store = new MemoryReadStore();
  await store.open();
  for (const [collection, fields] of readModelIndexes(registry)) await store.ensureIndexes(collection, fields);
  return store;
}

/** Creates, updates, deletes and column patches of sites and IP addresses, in batches, as a projector applies them. */
async function applyRandomEvents(store: MemoryReadStore, seed: number, events: number, from = 0): Promise<void> {
  const random = seededRandom(seed);
  const pick = <T>(xs: T[]): T => xs[Math.floor(random() * xs.length)]!;
  const live = { [IP]: [] as number[], [SITE]: [] as number[] };
  const next = { [IP]: 1, [SITE]: 1 };
  let position = from;
  const end = from + events;
  while (position < end) {
    const batch: DocumentChange[] = [];
    const size = random() < 0.05 ? 1200 : 1 + Math.floor(random() * 5); // now and then a replay-sized batch
    for (let i = 0; i < size && position < end; i++) {
      position++;
      const collection = random() < 0.7 ? IP : SITE;
      const ids = live[collection];
      const roll = random();
      if (roll < 0.1 && ids.length > 0) {
        const id = ids.splice(Math.floor(random() * ids.length), 1)[0]!;
        batch.push({ collection, id, position, doc: null });
        continue;
      }
      if (roll < 0.15 && ids.length > 0) {
        batch.push({
          collection,
          id: pick(ids),
          position,
          doc: null,
          columns: { _depth: Math.floor(random() * 4), children: Math.floor(random() * 9) },
        });
        continue;
      }
      const id = roll < 0.4 && ids.length > 0 ? pick(ids) : next[collection]++;
      if (!ids.includes(id)) ids.push(id);
      const doc: Record<string, unknown> = {
        id,
        _pos: position,
        status: pick(STATUSES),
        tags: random() < 0.5 ? [1 + Math.floor(random() * 5)] : [],
      };
      if (collection === IP) {
        doc.family = 4;
        doc.vrf = random() < 0.3 ? null : 1 + Math.floor(random() * 3);
        doc._address = addressSortKey(4, 0x0a000000n + BigInt(Math.floor(random() * 256)));
        doc._prefixlen = 24;
        doc.dns_name = `${pick(NAMES)}.example`;
        doc.nested = { a: [1, { b: pick(NAMES) }], c: null };
      } else {
        doc.name = `${pick(NAMES)}-${id}`;
        doc._name = doc.name;
        doc.region = random() < 0.5 ? null : 1 + Math.floor(random() * 3);
      }
      batch.push({ collection, id, position, doc: doc as ReadDocument });
    }
    await store.apply(batch, position);
  }
}

const QUERIES: Array<[string, Query, FindOptions]> = [
  [IP, {}, {}],
  [IP, {}, { sort: { _address: 1, id: 1 } }],
  [IP, { status: 'active' }, {}],
  [IP, { vrf: null }, { sort: { _address: -1, id: 1 }, limit: 7 }],
  [IP, { vrf: { $in: [1, 2] }, tags: 3 }, { skip: 2 }],
  [IP, { _address: { $gte: addressSortKey(4, 0x0a000040n) } }, { sort: { _address: 1, _prefixlen: 1, id: 1 } }],
  [IP, { _depth: { $gt: 1 } }, {}],
  [SITE, {}, { sort: { _name: 1, id: 1 } }],
  [SITE, { region: 2 }, {}],
  [SITE, { name: { $regex: '^alpha' } }, { sort: { name: -1 } }],
  ['dcim.device', {}, {}],
];

async function answers(store: MemoryReadStore): Promise<unknown> {
  const out: unknown[] = [await store.position(), await store.maxIds()];
  for (const [collection, query, options] of QUERIES) {
    out.push(await store.find(collection, query, options), await store.count(collection, query));
  }
  out.push(await store.countBy(IP, 'vrf', [1, 2, 3]), await store.countBy(SITE, 'region', [1, 2]));
  for (const scope of [undefined, { field: 'vrf', value: null }, { field: 'vrf', value: 2 }]) {
    out.push(
      await store.freeAddresses({
        collection: IP,
        field: '_address',
        family: 4,
        first: 0x0a000000n,
        last: 0x0a0000ffn,
        scope,
        taken: [],
        limit: Infinity,
      }),
    );
  }
  return out;
}

for (const seed of [1, 2, 3, 4]) {
  test(`a store loaded from a snapshot answers as the one it was taken of (seed ${seed})`, async (t) => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'netledger-rm-snap-'));
    t.teardown(() => rmSync(dir, { recursive: true, force: true }));
    const original = await indexedStore();
    await applyRandomEvents(original, seed, 3000);
    // Occupancy and sorted indexes built before the capture, as in a running service.
    const before = await answers(original);
    const file = await writeReadModelSnapshot(dir, original.capture(), `event-${seed}`);

    const { header, capture } = await readReadModelSnapshot(file);
    t.is(header.eventId, `event-${seed}`);
    t.is(header.position, 3000);
    const loaded = await indexedStore();
    loaded.restore(capture);
    t.deepEqual(await answers(loaded), before);

    // And both go on identically: ids continue after the highest ever created, the indexes are maintained.
    await applyRandomEvents(original, seed + 100, 500, 3000);
    await applyRandomEvents(loaded, seed + 100, 500, 3000);
    t.deepEqual(await answers(loaded), await answers(original));
  });
}

for (const seed of [5, 6]) {
  test(`a loaded store changed before any read (indexes unbuilt) answers as the original (seed ${seed})`, async (t) => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'netledger-rm-snap-'));
    t.teardown(() => rmSync(dir, { recursive: true, force: true }));
    const original = await indexedStore();
    await applyRandomEvents(original, seed, 3000);
    const file = await writeReadModelSnapshot(dir, original.capture(), `event-${seed}`);
    const loaded = await indexedStore();
    loaded.restore((await readReadModelSnapshot(file)).capture);
    // Updates, deletes and column patches land on indexes still to be built; they are built from the result.
    await applyRandomEvents(original, seed + 100, 500, 3000);
    await applyRandomEvents(loaded, seed + 100, 500, 3000);
    t.deepEqual(await answers(loaded), await answers(original));
  });
}

test('indexes built in the background while events are applied: answers as the original', async (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'netledger-rm-snap-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const original = await indexedStore();
  await applyRandomEvents(original, 12, 4000);
  const loaded = await indexedStore();
  loaded.restore((await readReadModelSnapshot(await writeReadModelSnapshot(dir, original.capture(), 'e'))).capture);
  loaded.buildIndexesInBackground();
  // Applies in small batches interleave with the build's slices (each apply awaits; the build runs on setImmediate).
  for (let i = 0; i < 20; i++) {
    await applyRandomEvents(original, 200 + i, 25, 4000 + i * 25);
    await applyRandomEvents(loaded, 200 + i, 25, 4000 + i * 25);
    await new Promise((resolve) => setImmediate(resolve));
  }
  t.deepEqual(await answers(loaded), await answers(original));
  await loaded.close();
});

test('a store loaded twice holds the second snapshot only, indexes included', async (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'netledger-rm-snap-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const first = await indexedStore();
  await applyRandomEvents(first, 7, 800);
  const second = await indexedStore();
  await applyRandomEvents(second, 8, 1200);
  const loaded = await indexedStore();
  loaded.restore((await readReadModelSnapshot(await writeReadModelSnapshot(dir, first.capture(), 'a'))).capture);
  await answers(loaded); // indexes built from the first
  loaded.restore((await readReadModelSnapshot(await writeReadModelSnapshot(dir, second.capture(), 'b'))).capture);
  t.deepEqual(await answers(loaded), await answers(second));
});

test('a body cut into chunks anywhere (inside lines, inside characters) parses to the same capture', async (t) => {
  const store = await indexedStore();
  await applyRandomEvents(store, 11, 2000);
  const capture = store.capture();
  const pieces: Buffer[] = [];
  for await (const chunk of serialiseReadModels(capture)) pieces.push(chunk);
  const body = Buffer.concat(pieces);
  for (const size of [1, 3, 997, 1 << 16]) {
    async function* chunks() {
      for (let i = 0; i < body.length; i += size) yield body.subarray(i, i + size);
    }
    const parsed = await parseReadModels(chunks());
    t.is(parsed.position, capture.position);
    t.deepEqual(
      parsed.collections.map(({ name, docs }) => [name, docs]),
      capture.collections.map(({ name, docs }) => [name, docs]),
      `chunks of ${size} bytes`,
    );
  }
});

test('loaded documents are frozen like applied ones', async (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'netledger-rm-snap-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const original = await indexedStore();
  await applyRandomEvents(original, 9, 50);
  const { capture } = await readReadModelSnapshot(await writeReadModelSnapshot(dir, original.capture(), 'e'));
  const loaded = await indexedStore();
  loaded.restore(capture);
  const [doc] = await loaded.find(IP, {}, { limit: 1 });
  t.throws(() => ((doc as any).status = 'x'), { instanceOf: TypeError });
  t.throws(() => (doc as any).nested.a.push(1), { instanceOf: TypeError });
});

test('a capture is not torn by later applies: documents replaced or deleted after it stay as they were', async (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'netledger-rm-snap-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const store = await indexedStore();
  await applyRandomEvents(store, 5, 400);
  const before = await answers(store);
  const capture = store.capture();
  await applyRandomEvents(store, 6, 400, 400); // ids 1.. again: many replaced, deleted, patched
  const loaded = await indexedStore();
  loaded.restore((await readReadModelSnapshot(await writeReadModelSnapshot(dir, capture, 'e'))).capture);
  t.deepEqual(await answers(loaded), before);
});

/** Whether a value and everything in it is frozen. */
function deeplyFrozen(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return true;
  return Object.isFrozen(value) && Object.values(value).every(deeplyFrozen);
}

/** A format-2 body (documents as JSON objects, 500 a line), as older services wrote it. */
function formatTwoBody(capture: ReadModelCapture): Buffer {
  const meta = {
    position: capture.position,
    resume: null,
    maxIds: capture.maxIds,
    collections: capture.collections.map(({ name, docs }) => ({ name, count: docs.length })),
  };
  const lines = [JSON.stringify(meta)];
  for (const { docs } of capture.collections)
    for (let i = 0; i < docs.length; i += 500) lines.push(JSON.stringify(docs.slice(i, i + 500)));
  return Buffer.from(lines.join('\n') + '\n', 'utf8');
}

test('a format-2 snapshot (an older file) still loads, to the same documents, frozen', async (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'netledger-rm-snap-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const original = await indexedStore();
  await applyRandomEvents(original, 13, 3000);
  const before = await answers(original);
  const capture = original.capture();
  const header = { part: READ_MODELS_PART, format: 2, position: capture.position, eventId: 'e2' };
  const file = await writeSnapshot(dir, header, [formatTwoBody(capture)]);
  t.true(READ_MODELS_FORMAT > 2);
  const loaded = (await readReadModelSnapshot(file)).capture;
  t.deepEqual(
    loaded.collections.map(({ name, docs }) => [name, docs]),
    capture.collections.map(({ name, docs }) => [name, docs]),
  );
  t.true(loaded.collections.every(({ docs }) => docs.every(deeplyFrozen)));
  const store = await indexedStore();
  store.restore(loaded);
  t.deepEqual(await answers(store), before);
});

test('documents of differing keys, key orders and odd keys come back as they were, frozen', async (t) => {
  const odd = JSON.parse('{"id": 9, "__proto__": {"x": 1}, "constructor": "c"}') as Record<string, unknown>;
  const docs = [
    { id: 1, name: 'a', tags: [1, { deep: [2] }] },
    { name: 'b', id: 2, tags: [] }, // the same keys in another order
    { id: 3, name: 'c', tags: [], extra: { nested: { x: null } } },
    { id: 4, name: 'd', gone: undefined, tags: [] }, // undefined: left out, as JSON leaves it out
    { id: 5, 10: 'ten', 2: 'two', name: 'e' }, // integer-like keys come first, as in any object
    odd,
    { id: 6, name: 'a', tags: [1, { deep: [2] }] },
    { id: 7, name: '\u{1f600}\n"', tags: [] },
    { id: 8 },
  ] as unknown as ReadModelCapture['collections'][number]['docs'];
  const capture: ReadModelCapture = {
    position: 9,
    resume: null,
    maxIds: { 'dcim.site': 9 },
    collections: [
      { name: 'dcim.site', docs },
      { name: 'dcim.empty', docs: [] },
      { name: 'dcim.region', docs: docs.slice(2, 4) },
    ],
  };
  const pieces: Buffer[] = [];
  for await (const chunk of serialiseReadModels(capture)) pieces.push(chunk);
  const parsed = await parseReadModels(
    (async function* () {
      yield Buffer.concat(pieces);
    })(),
  );
  const expected = JSON.parse(JSON.stringify(capture.collections)) as unknown;
  t.deepEqual(JSON.parse(JSON.stringify(parsed.collections)), expected);
  t.deepEqual(
    parsed.collections.map(({ docs: out }) => out.map((doc) => Object.keys(doc))),
    capture.collections.map(({ docs: out }) => out.map((doc) => Object.keys(JSON.parse(JSON.stringify(doc))))),
  );
  const loadedOdd = parsed.collections[0]!.docs[5] as unknown as Record<string, unknown>;
  t.is(Object.getPrototypeOf(loadedOdd), Object.prototype); // __proto__ stayed a key, as JSON.parse keeps it
  t.deepEqual(Object.getOwnPropertyDescriptor(loadedOdd, '__proto__')?.value, { x: 1 });
  t.false('gone' in parsed.collections[0]!.docs[3]!);
  t.true(parsed.collections.every(({ docs: out }) => out.every(deeplyFrozen)));
});

test('a format-3 line that does not fit its shapes is a damaged snapshot', async (t) => {
  const meta = { position: 1, maxIds: {}, collections: [{ name: 'dcim.site', count: 1 }] };
  for (const line of [
    '{"shapes":[["id","name"]],"rows":[[0,1]]}',
    '{"shapes":[["id","name"]],"rows":[[1,1,"a"]]}',
    '{"shapes":[["id",2]],"rows":[[0,1,"a"]]}',
    '{"shapes":[["id","id"]],"rows":[[0,1,2]]}',
    '[{"id":1}]',
  ]) {
    const body = Buffer.from(`${JSON.stringify(meta)}\n${line}\n`, 'utf8');
    await t.throwsAsync(
      parseReadModels(
        (async function* () {
          yield body;
        })(),
      ),
      { instanceOf: SnapshotDamagedError },
      line,
    );
  }
});
