import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import test from 'ava';

import { registry } from '../../src/models/registry.js';
import { addressSortKey } from '../../src/models/values/ipNetworks.js';
import { MemoryReadStore } from '../../src/projections/memory/MemoryReadStore.js';
import {
  parseReadModels,
  readReadModelSnapshot,
  serialiseReadModels,
  writeReadModelSnapshot,
} from '../../src/projections/memory/snapshots/readModelSnapshot.js';
import { readModelIndexes } from '../../src/projections/readModelIndexes.js';
import type { DocumentChange, FindOptions, Query, ReadDocument } from '../../src/projections/ReadStore.js';
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
