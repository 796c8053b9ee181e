import test from 'ava';

import { MemoryReadStore } from '../../src/projections/memory/MemoryReadStore.js';
import { foldedLiteralOf } from '../../src/projections/memory/regexLiteral.js';
import type { DocumentChange, Query, ReadDocument } from '../../src/projections/ReadStore.js';
import { regexCondition } from '../../src/projections/textPatterns.js';
import { seededRandom } from '../support/seededRandom.js';

/*
 * The trigram indexes only narrow the documents a text match is tested on: every answer
 * must be exactly what the plain scan (planner off) gives, for random text with the
 * characters case folding treats specially, through inserts, updates and deletes.
 */

const COLLECTION = 'ipam.ipaddress';
// Pairs the 'iu' folding joins or keeps apart: long s, Kelvin sign, sharp s and capital sharp s,
// final sigma, dotted and dotless i, titlecase dz, theta symbol, micro sign, Angstrom sign,
// the Greek letters and ligatures Unicode 15 folds together though none is the other's case
// (U+0390/U+1FD3, U+03B0/U+1FE3, U+FB05/U+FB06), an astral character, a combining mark, regex metacharacters and a control character.
const ALPHABET = [
  ...'abkKsS',
  '\u0390',
  '\u1fd3',
  '\u03b0',
  '\u1fe3',
  '\ufb05',
  '\ufb06',
  'ſ',
  'K',
  'ß',
  'ẞ',
  'Σ',
  'σ',
  'ς',
  'İ',
  'ı',
  'i',
  'I',
  'ǅ',
  'Ǆ',
  'ǆ',
  'ϑ',
  'θ',
  'ϴ',
  'µ',
  'μ',
  'Å',
  'å',
  '\u{1f600}',
  '\u0301',
  '.',
  '/',
  '\\',
  '(',
  '*',
  '\n',
  '-',
  '1',
  '0',
];

function randomText(random: () => number, max: number): string {
  const n = Math.floor(random() * max);
  let s = '';
  for (let i = 0; i < n; i++) s += ALPHABET[Math.floor(random() * ALPHABET.length)]!;
  return s;
}

function randomDoc(random: () => number, id: number, pos: number): ReadDocument {
  const doc: Record<string, unknown> = { id, _pos: pos, status: random() < 0.5 ? 'active' : 'reserved' };
  doc.dns_name = randomText(random, 12);
  if (random() < 0.7) doc.description = randomText(random, 16);
  const r = random();
  if (r < 0.1) doc.address = null;
  else if (r < 0.2) doc.address = [randomText(random, 6), randomText(random, 6)];
  else if (r < 0.25) doc.address = [randomText(random, 6), { nested: randomText(random, 6) }];
  else if (r < 0.3) doc.address = 42;
  else doc.address = `${Math.floor(random() * 12)}.${Math.floor(random() * 12)}.${randomText(random, 4)}/24`;
  return doc as ReadDocument;
}

function queriesFor(text: string): Query[] {
  return [
    { dns_name: regexCondition('ic', [text]) },
    { description: regexCondition('isw', [text]) },
    { address: regexCondition('iew', [text]) },
    { dns_name: regexCondition('ie', [text]) },
    {
      $or: [
        { dns_name: regexCondition('ic', [text]) },
        { description: regexCondition('ic', [text]) },
        { address: regexCondition('isw', [text]) },
      ],
    },
    { status: 'active', $or: [{ dns_name: regexCondition('ic', [text]) }, { id: { $in: [3, 5, 8] } }] },
    { $and: [{ status: 'reserved' }, { description: regexCondition('ic', [text]) }] },
    { $or: [{ dns_name: regexCondition('ic', [text]) }, { description: { $not: regexCondition('ic', [text]) } }] },
  ];
}

async function stores(): Promise<[MemoryReadStore, MemoryReadStore]> {
  const indexed = new MemoryReadStore();
  const scan = new MemoryReadStore({ planner: false });
  await indexed.ensureIndexes(COLLECTION, [['status']]);
  return [indexed, scan];
}

async function applyBoth(both: MemoryReadStore[], changes: DocumentChange[], position: number): Promise<void> {
  for (const s of both) await s.apply(changes, position);
}

async function assertSame(
  t: import('ava').ExecutionContext,
  indexed: MemoryReadStore,
  scan: MemoryReadStore,
  text: string,
): Promise<void> {
  for (const query of queriesFor(text)) {
    const sort = { id: 1 as const };
    const got = (await indexed.find(COLLECTION, query, { sort })).map((d) => d.id);
    const want = (await scan.find(COLLECTION, query, { sort })).map((d) => d.id);
    t.deepEqual(got, want, `${JSON.stringify(query)}`);
    t.is(await indexed.count(COLLECTION, query), want.length);
  }
}

test('literal regexes over random text: the trigram-narrowed answers equal the plain scan, through updates and deletes', async (t) => {
  const random = seededRandom(7);
  const [indexed, scan] = await stores();
  let pos = 0;
  const docs = Array.from({ length: 400 }, (_, i) => randomDoc(random, i + 1, ++pos));
  await applyBoth(
    [indexed, scan],
    docs.map((doc) => ({ collection: COLLECTION, id: doc.id as number, position: doc._pos as number, doc })),
    pos,
  );
  // Queries cut out of stored values (so they match something) and random ones, folded or not.
  const texts: string[] = [];
  for (let i = 0; i < 60; i++) {
    const source = String(docs[Math.floor(random() * docs.length)]!.dns_name ?? '');
    const from = Math.floor(random() * source.length);
    const cut = source.slice(from, from + 3 + Math.floor(random() * 4));
    texts.push(random() < 0.5 ? cut : cut.toUpperCase(), randomText(random, 6));
  }
  for (const text of texts) await assertSame(t, indexed, scan, text);

  // Updates (some to the same text), deletes and inserts keep the index right.
  for (let round = 0; round < 5; round++) {
    const changes: DocumentChange[] = [];
    for (let i = 0; i < 80; i++) {
      const id = 1 + Math.floor(random() * 450);
      const r = random();
      const doc = r < 0.3 ? null : randomDoc(random, id, ++pos);
      changes.push({ collection: COLLECTION, id, position: ++pos, doc: doc ? { ...doc, _pos: pos } : null });
    }
    await applyBoth([indexed, scan], changes, pos);
    for (const text of texts.slice(round * 20, round * 20 + 20)) await assertSame(t, indexed, scan, text);
  }
});

test('a replay (a batch of over 1,000 changes) leaves the trigram index to be rebuilt, with the same answers', async (t) => {
  const random = seededRandom(11);
  const [indexed, scan] = await stores();
  let pos = 0;
  const first = Array.from({ length: 50 }, (_, i) => randomDoc(random, i + 1, ++pos));
  await applyBoth(
    [indexed, scan],
    first.map((doc) => ({ collection: COLLECTION, id: doc.id as number, position: doc._pos as number, doc })),
    pos,
  );
  const probe = String(first[0]!.dns_name).slice(0, 3) || 'abk';
  await assertSame(t, indexed, scan, probe); // builds the indexes
  const many = Array.from({ length: 1500 }, (_, i) => randomDoc(random, 51 + i, ++pos));
  await applyBoth(
    [indexed, scan],
    many.map((doc) => ({ collection: COLLECTION, id: doc.id as number, position: doc._pos as number, doc })),
    pos,
  );
  await assertSame(t, indexed, scan, probe);
  await assertSame(t, indexed, scan, String(many[7]!.dns_name).slice(1, 5));
});

test('only literal patterns yield a literal, folded; case-insensitive ones only with Unicode folding', (t) => {
  t.is(foldedLiteralOf(new RegExp(regexCondition('ic', ['A.b(C)']).$regex as string, 'iu')), 'a.b(c)');
  t.is(foldedLiteralOf(new RegExp(regexCondition('ie', ['Straße\n']).$regex as string, 'iu')), 'straße\n');
  t.is(foldedLiteralOf(new RegExp(regexCondition('isw', ['ſK']).$regex as string, 'iu')), 'sk');
  t.is(foldedLiteralOf(new RegExp(regexCondition('ic', ['a', 'b']).$regex as string, 'iu')), null);
  t.is(foldedLiteralOf(/abc/i), null);
  t.is(foldedLiteralOf(/a.c/u), null);
  t.is(foldedLiteralOf(/ABC/), 'abc');
  // joined by 'iu' though neither is the other's case: one key, or the index would miss matches
  t.is(foldedLiteralOf(new RegExp('X\u1fd3\ufb05', 'iu')), foldedLiteralOf(new RegExp('x\u0390\ufb06', 'iu')));
  t.not(foldedLiteralOf(new RegExp('x\u0390\ufb06', 'iu')), null);
});

test('an update moves a document between trigrams, a delete takes it out, an array holding a document keeps it a candidate', async (t) => {
  const store = new MemoryReadStore();
  const doc = (id: number, pos: number, fields: Record<string, unknown>): DocumentChange => ({
    collection: COLLECTION,
    id,
    position: pos,
    doc: { id, _pos: pos, ...fields } as ReadDocument,
  });
  const filler = Array.from({ length: 40 }, (_, i) =>
    doc(100 + i, 1, { dns_name: `host-${i}.example`, address: `10.0.0.${i}/24` }),
  );
  await store.apply(
    [...filler, doc(1, 1, { dns_name: 'Core-Router.example' }), doc(2, 1, { address: ['10.0.0.7/24', { odd: true }] })],
    1,
  );
  const ids = async (field: string, text: string) =>
    (await store.find(COLLECTION, { [field]: regexCondition('ic', [text]) }, { sort: { id: 1 } })).map((d) => d.id);
  // The first searches of a field scan; the index is built at the third.
  for (let i = 0; i < 3; i++) for (const field of ['dns_name', 'address']) await ids(field, 'nothing here');
  t.deepEqual(await ids('dns_name', 'core-r'), [1]);
  t.deepEqual(await ids('address', '0.0.7/'), [2, 107]);
  await store.apply([doc(1, 2, { dns_name: 'edge-switch.example' })], 2);
  t.deepEqual(await ids('dns_name', 'core-r'), []);
  t.deepEqual(await ids('dns_name', 'EDGE-S'), [1]);
  await store.apply(
    [
      { collection: COLLECTION, id: 1, position: 3, doc: null },
      { collection: COLLECTION, id: 2, position: 3, doc: null },
    ],
    3,
  );
  t.deepEqual(await ids('dns_name', 'edge-s'), []);
  t.deepEqual(await ids('address', '0.0.7/'), [107]);
});

test('a field is scanned for its first two text searches and indexed at the third (a store read once never builds one)', async (t) => {
  const store = new MemoryReadStore();
  await store.apply(
    [
      {
        collection: COLLECTION,
        id: 1,
        position: 1,
        doc: { id: 1, _pos: 1, dns_name: 'alpha.example' } as ReadDocument,
      },
    ],
    1,
  );
  const indexed = () => [...((store as any).collections.get(COLLECTION).textIndexes as Map<string, unknown>).keys()];
  const search = {
    $or: [{ dns_name: regexCondition('ic', ['alpha']) }, { description: regexCondition('ic', ['alpha']) }],
  };
  for (let i = 1; i <= 3; i++) {
    t.is((await store.find(COLLECTION, search)).length, 1);
    t.deepEqual(indexed(), i < 3 ? [] : ['dns_name', 'description'], `after search ${i}`);
  }
});

test('a text match an indexed equality already narrows to a few documents neither uses nor builds a trigram index', async (t) => {
  const store = new MemoryReadStore();
  await store.ensureIndexes(COLLECTION, [['device']]);
  const changes: DocumentChange[] = Array.from({ length: 1200 }, (_, i) => ({
    collection: COLLECTION,
    id: i + 1,
    position: 1,
    doc: { id: i + 1, _pos: 1, device: i % 100, name: `eth${i}` } as ReadDocument,
  }));
  await store.apply(changes, 1);
  const textIndexes = () => [
    ...((store as any).collections.get(COLLECTION).textIndexes as Map<string, unknown>).keys(),
  ];
  for (let i = 0; i < 5; i++)
    t.is((await store.find(COLLECTION, { device: 7, name: regexCondition('ie', ['ETH107']) })).length, 1);
  t.deepEqual(textIndexes(), []);
  for (let i = 0; i < 3; i++)
    t.is((await store.find(COLLECTION, { name: regexCondition('ie', ['ETH107']) })).length, 1);
  t.deepEqual(textIndexes(), ['name']);
});
