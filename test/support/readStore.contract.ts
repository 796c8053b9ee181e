import test, { type ExecutionContext } from 'ava';

import { AddressSet } from '../../src/models/allocation/addressSet.js';
import type { FreeAddressQuery } from '../../src/models/lookupView.js';
import { addressSortKey, formatAddress, parseAddress } from '../../src/models/values/ipNetworks.js';
import type { DocumentChange, FindOptions, Query, ReadDocument, ReadStore } from '../../src/projections/ReadStore.js';
import { regexCondition } from '../../src/projections/textPatterns.js';
import { seededRandom } from './seededRandom.js';

/**
 * The ReadStore port's contract, shared by every adapter's spec file.
 *
 * `makeStore` returns a fresh, empty, already opened store on storage of its own;
 * `cleanup()` closes it and deletes that storage.
 *
 * Expected results are MongoDB's semantics (the reference the memory adapter
 * imitates through mingo and its own sort).
 */
export interface ReadStoreFixture {
  store: ReadStore;
  cleanup: () => Promise<void>;
}

const DEVICE = 'dcim.device';
const SITE = 'dcim.site';

type Fields = Record<string, unknown>;

/** Device fixtures: ids 1..8, written at positions 11..18. */
const DEVICES: Fields[] = [
  {
    id: 1,
    name: 'alpha',
    status: 'active',
    vrf: 1,
    tags: [1, 2],
    dns_name: 'Alpha.example.com',
    interfaces: [{ name: 'eth0', enabled: true }],
  },
  {
    id: 2,
    name: 'Bravo',
    status: 'planned',
    vrf: null,
    tags: [3],
    dns_name: 'bravo.EXAMPLE.org',
    interfaces: [
      { name: 'eth0', enabled: false },
      { name: 'eth1', enabled: true },
    ],
  },
  { id: 3, name: 'charlie', status: 'active', vrf: 2, tags: [], dns_name: null, interfaces: [] },
  { id: 4, name: 'delta', status: 'offline', tags: [2], dns_name: 'delta.example.com', serial: 'X1' },
  {
    id: 5,
    name: '_echo',
    status: 'active',
    vrf: 1,
    tags: [1],
    dns_name: 'ECHO.example.com',
    interfaces: [{ name: 'eth1', enabled: false }],
  },
  { id: 6, name: '\u00e9clair', status: 'planned', vrf: 3, tags: [2, 3], dns_name: 'x.test' },
  { id: 7, name: '\uff21wide', status: 'active', vrf: 2, tags: [5] },
  { id: 8, name: '\u{1f600}smile', status: 'offline', vrf: 3, tags: [1, 5] },
];

function change(collection: string, fields: Fields, position: number): DocumentChange {
  const id = fields.id as number;
  return { collection, id, position, doc: { ...fields, id, _pos: position } as ReadDocument };
}

function del(collection: string, id: number, position: number): DocumentChange {
  return { collection, id, position, doc: null };
}

function expected(collection: string, fields: Fields, position: number): ReadDocument {
  return change(collection, fields, position).doc!;
}

const deviceChanges = (): DocumentChange[] => DEVICES.map((d, i) => change(DEVICE, d, 11 + i));

/**
 * Seeds the devices, half before and half after declaring indexes (so both the
 * index build and its maintenance are exercised), plus three sites.
 */
async function seed(store: ReadStore): Promise<void> {
  const all = deviceChanges();
  await store.apply(all.slice(0, 4), 14);
  await store.ensureIndexes(DEVICE, [['status'], ['vrf', 'name'], ['tags']]);
  await store.apply(all.slice(4), 18);
  await store.apply(
    [1, 2, 3].map((id) => change(SITE, { id, name: `site-${id}`, slug: `site-${id}` }, 18 + id)),
    21,
  );
}

const ids = (docs: ReadDocument[]) => docs.map((d) => d.id);

function attempt(fn: () => void): void {
  try {
    fn();
  } catch {
    // frozen documents throw in strict mode: fine, the point is the store stays intact
  }
}

const FIND_CASES: [string, Query, number[]][] = [
  ['equality', { status: 'active' }, [1, 3, 5, 7]],
  ['$eq', { status: { $eq: 'planned' } }, [2, 6]],
  ['equality on two indexed fields', { status: 'active', vrf: 2 }, [3, 7]],
  ['$in', { status: { $in: ['planned', 'offline'] } }, [2, 4, 6, 8]],
  ['$in with no values', { status: { $in: [] } }, []],
  ['$ne', { status: { $ne: 'active' } }, [2, 4, 6, 8]],
  ['$nin (missing and null fields match)', { vrf: { $nin: [1, 2] } }, [2, 4, 6, 8]],
  ['$gt/$lt (type bracketed: null never matches)', { vrf: { $gt: 1, $lt: 3 } }, [3, 7]],
  ['$gte', { vrf: { $gte: 2 } }, [3, 6, 7, 8]],
  ['$lt excludes null', { vrf: { $lt: 2 } }, [1, 5]],
  ['null matches null and missing', { vrf: null }, [2, 4]],
  ['$exists false', { vrf: { $exists: false } }, [4]],
  ['$exists true', { serial: { $exists: true } }, [4]],
  ['$regex with i option', { dns_name: { $regex: 'EXAMPLE', $options: 'i' } }, [1, 2, 4, 5]],
  ['$regex is case sensitive without i', { dns_name: { $regex: 'example' } }, [1, 4, 5]],
  ['$regex contains, escaped dot', { dns_name: { $regex: 'o\\.ex', $options: 'i' } }, [2, 5]],
  ['RegExp literal', { dns_name: /^alpha/i }, [1]],
  ['$or', { $or: [{ status: 'planned' }, { vrf: 1 }] }, [1, 2, 5, 6]],
  ['$and', { $and: [{ status: 'active' }, { tags: 1 }] }, [1, 5]],
  [
    '$and of $or',
    { $and: [{ $or: [{ vrf: 1 }, { vrf: 3 }] }, { $or: [{ status: 'offline' }, { tags: 2 }] }] },
    [1, 6, 8],
  ],
  ['$elemMatch', { interfaces: { $elemMatch: { name: 'eth1', enabled: true } } }, [2]],
  ['dotted path into an array of documents', { 'interfaces.name': 'eth1' }, [2, 5]],
  ['array field equality (element)', { tags: 2 }, [1, 4, 6]],
  ['array field $in', { tags: { $in: [3, 5] } }, [2, 6, 7, 8]],
  ['array field whole-array equality', { tags: [1, 2] }, [1]],
  ['$size', { tags: { $size: 0 } }, [3]],
  ['id equality', { id: 3 }, [3]],
  ['id $in', { id: { $in: [4, 2, 99] } }, [2, 4]],
  ['string $gt is bytewise', { name: { $gt: 'a' } }, [1, 3, 4, 6, 7, 8]],
  ['no match', { status: 'decommissioning' }, []],
  ['empty query', {}, [1, 2, 3, 4, 5, 6, 7, 8]],
];

const SORT_CASES: [string, FindOptions, number[]][] = [
  ['strings bytewise (not locale; astral after BMP)', { sort: { name: 1 } }, [2, 5, 1, 3, 4, 6, 7, 8]],
  ['strings bytewise descending', { sort: { name: -1 } }, [8, 7, 6, 4, 3, 1, 5, 2]],
  ['null and missing first ascending, multi-key', { sort: { vrf: 1, id: 1 } }, [2, 4, 1, 5, 3, 7, 6, 8]],
  ['null and missing last descending', { sort: { vrf: -1, id: 1 } }, [6, 8, 3, 7, 1, 5, 2, 4]],
  ['three keys, mixed directions', { sort: { status: 1, vrf: -1, id: 1 } }, [3, 7, 1, 5, 8, 4, 6, 2]],
  ['arrays ascending by smallest element, [] first', { sort: { tags: 1, id: 1 } }, [3, 1, 5, 8, 4, 6, 2, 7]],
  ['arrays descending by largest element, [] last', { sort: { tags: -1, id: 1 } }, [7, 8, 2, 6, 1, 4, 5, 3]],
  ['id descending', { sort: { id: -1 } }, [8, 7, 6, 5, 4, 3, 2, 1]],
  ['skip and limit', { sort: { id: 1 }, skip: 2, limit: 3 }, [3, 4, 5]],
  ['skip past the end', { sort: { id: 1 }, skip: 6, limit: 5 }, [7, 8]],
  ['skip only', { sort: { id: 1 }, skip: 5 }, [6, 7, 8]],
  ['limit with a multi-key sort', { sort: { vrf: 1, id: -1 }, limit: 3 }, [4, 2, 5]],
];

/**
 * Case folding, the same in every store (simple case folding: 'ſ' ~ 's', Kelvin sign ~ 'k',
 * 'ẞ' ~ 'ß', never 'ß' ~ 'ss'), through the conditions the query compiler and the
 * uniqueness checks build. Device names are matched by MongoReadStore through its
 * folded shadow keys (exact and starts-with matches), serials too, dns names (not
 * shadowed) through the regex.
 */
const FOLDING: Fields[] = [
  { id: 101, name: '\u017ftar', serial: '\u017ftar', dns_name: '\u017ftar' },
  { id: 102, name: 'STAR', serial: 'STAR', dns_name: 'STAR' },
  { id: 103, name: '\u212aelvin', serial: '\u212aelvin', dns_name: '\u212aelvin' },
  { id: 104, name: 'kelvin', serial: 'kelvin', dns_name: 'kelvin' },
  { id: 105, name: 'STRA\u1e9eE', serial: 'STRA\u1e9eE', dns_name: 'STRA\u1e9eE' },
  { id: 106, name: 'stra\u00dfe', serial: 'stra\u00dfe', dns_name: 'stra\u00dfe' },
  { id: 107, name: 'strasse', serial: 'strasse', dns_name: 'strasse' },
  { id: 108, name: 'a-b#c/d', serial: 'A-B#C/D', dns_name: 'a-b#c/d' },
];

const FOLDING_CASES: [string, 'ie' | 'ic' | 'isw' | 'iew', string[], number[]][] = [
  ['ie: long s folds to s', 'ie', ['star'], [101, 102]],
  ['ie: s matches long s', 'ie', ['\u017fTAR'], [101, 102]],
  ['ie: Kelvin sign folds to k', 'ie', ['KELVIN'], [103, 104]],
  ['ie: capital sharp s folds to sharp s, never to ss', 'ie', ['STRASSE'], [107]],
  ['ie: sharp s matches capital sharp s', 'ie', ['stra\u00dfe'], [105, 106]],
  ['ie: several values', 'ie', ['kelvin', 'strasse'], [103, 104, 107]],
  ['ie: escaped punctuation', 'ie', ['A-B#C/D'], [108]],
  ['ic: sharp s', 'ic', ['\u00df'], [105, 106]],
  ['ic: long s', 'ic', ['\u017f'], [101, 102, 105, 106, 107]],
  ['isw: Kelvin sign', 'isw', ['\u212a'], [103, 104]],
  ['isw: long s matches s, S and itself', 'isw', ['\u017f'], [101, 102, 105, 106, 107]],
  ['isw: capital sharp s matches sharp s, never ss', 'isw', ['STRA\u1e9e'], [105, 106]],
  ['isw: several values', 'isw', ['KEL', 'strass'], [103, 104, 107]],
  ['isw: escaped punctuation', 'isw', ['A-B#C/'], [108]],
  ['isw: the whole text is a prefix of itself, a longer one is not', 'isw', ['STAR', 'kelvins'], [101, 102]],
  ['iew: capital sharp s', 'iew', ['\u1e9ee'], [105, 106]],
];

export function readStoreContract(name: string, makeStore: () => Promise<ReadStoreFixture>): void {
  const contract = (title: string, body: (t: ExecutionContext, store: ReadStore) => Promise<void>) =>
    test(`${name} contract: ${title}`, async (t) => {
      const fx = await makeStore();
      try {
        await body(t, fx.store);
      } finally {
        await fx.cleanup();
      }
    });

  contract('an empty store: position 0, no maxIds, nothing found', async (t, store) => {
    t.is(await store.position(), 0);
    t.deepEqual(await store.maxIds(), {});
    t.is(await store.get(DEVICE, 1), null);
    t.deepEqual(await store.getMany(DEVICE, [1, 2]), []);
    t.deepEqual(await store.find(DEVICE, {}), []);
    t.is(await store.count(DEVICE, {}), 0);
    t.deepEqual(await store.countBy(DEVICE, 'vrf', [1]), new Map([[1, 0]]));
  });

  contract('apply then get / getMany', async (t, store) => {
    await seed(store);
    t.deepEqual(await store.get(DEVICE, 1), expected(DEVICE, DEVICES[0]!, 11));
    t.deepEqual(await store.get(DEVICE, 8), expected(DEVICE, DEVICES[7]!, 18));
    t.deepEqual(await store.get(SITE, 2), expected(SITE, { id: 2, name: 'site-2', slug: 'site-2' }, 20));
    t.is(await store.get(DEVICE, 99), null);
    t.is(await store.get(SITE, 5), null, 'collections are separate');
    t.is(await store.get('dcim.rack', 1), null, 'unknown collection');
    const many = await store.getMany(DEVICE, [3, 99, 1]);
    t.deepEqual(ids(many), [3, 1], 'in the order asked, missing ids left out');
    t.deepEqual(many[0], expected(DEVICE, DEVICES[2]!, 13));
    t.deepEqual(await store.getMany(DEVICE, []), []);
  });

  contract('apply: later changes in one batch win, an update replaces the whole document', async (t, store) => {
    await store.apply(
      [
        change(DEVICE, { id: 1, name: 'a', serial: 'S' }, 1),
        change(DEVICE, { id: 1, name: 'b' }, 2),
        change(DEVICE, { id: 2, name: 'x' }, 2),
      ],
      2,
    );
    t.deepEqual(await store.get(DEVICE, 1), expected(DEVICE, { id: 1, name: 'b' }, 2));
    await store.apply([change(DEVICE, { id: 2, name: 'y', status: 'active' }, 3)], 3);
    t.deepEqual(await store.get(DEVICE, 2), expected(DEVICE, { id: 2, name: 'y', status: 'active' }, 3));
  });

  contract('re-applying the same batches is idempotent', async (t, store) => {
    await seed(store);
    const snapshot = async () => ({
      devices: await store.find(DEVICE, {}, { sort: { id: 1 } }),
      sites: await store.find(SITE, {}, { sort: { id: 1 } }),
      position: await store.position(),
      maxIds: await store.maxIds(),
      active: await store.count(DEVICE, { status: 'active' }),
    });
    const before = await snapshot();
    await seed(store);
    await store.apply(deviceChanges(), 18);
    t.deepEqual(await snapshot(), before);
  });

  contract('an older change after a newer one is skipped', async (t, store) => {
    await store.apply([change(DEVICE, { id: 1, name: 'new', status: 'active' }, 10)], 10);
    await store.apply([change(DEVICE, { id: 1, name: 'old', status: 'planned' }, 5)], 11);
    t.deepEqual(await store.get(DEVICE, 1), expected(DEVICE, { id: 1, name: 'new', status: 'active' }, 10));
    await store.apply([change(DEVICE, { id: 1, name: 'same position' }, 10)], 11);
    t.is((await store.get(DEVICE, 1))!.name, 'new', 'a change at the stored position is skipped too');
    await store.apply([del(DEVICE, 1, 9)], 11);
    t.truthy(await store.get(DEVICE, 1), 'an older delete is skipped');
    t.deepEqual(ids(await store.find(DEVICE, { status: 'planned' })), []);
    t.is(await store.count(DEVICE, { status: 'active' }), 1);
    // Within one batch as well.
    await store.apply([change(DEVICE, { id: 2, name: 'v2' }, 20), change(DEVICE, { id: 2, name: 'v1' }, 19)], 20);
    t.is((await store.get(DEVICE, 2))!.name, 'v2');
  });

  contract(
    'a column patch sets columns of a stored document and keeps its version; an absent document stays absent',
    async (t, store) => {
      await store.apply([change(DEVICE, { id: 1, name: 'one', status: 'active' }, 10)], 10);
      await store.apply(
        [
          { collection: DEVICE, id: 1, position: 12, doc: null, columns: { _kept: 3 } },
          { collection: DEVICE, id: 2, position: 12, doc: null, columns: { _kept: 1 } },
        ],
        12,
      );
      t.deepEqual(await store.get(DEVICE, 1), {
        ...expected(DEVICE, { id: 1, name: 'one', status: 'active' }, 10),
        _kept: 3,
      });
      t.is(await store.get(DEVICE, 2), null);
      t.deepEqual(ids(await store.find(DEVICE, { _kept: { $gte: 2 } })), [1]);
      t.is(await store.position(), 12);
      // A later change of the document itself still applies (its version is unchanged) and a patch after it in the same batch too.
      await store.apply(
        [
          change(DEVICE, { id: 1, name: 'uno' }, 13),
          { collection: DEVICE, id: 1, position: 13, doc: null, columns: { _kept: 4 } },
        ],
        13,
      );
      t.like(await store.get(DEVICE, 1), { name: 'uno', _kept: 4, _pos: 13 });
    },
  );

  contract('delete', async (t, store) => {
    await seed(store);
    await store.apply([del(DEVICE, 3, 30), del(DEVICE, 99, 30)], 30);
    t.is(await store.get(DEVICE, 3), null);
    t.deepEqual(ids(await store.getMany(DEVICE, [2, 3, 4])), [2, 4]);
    t.deepEqual(ids(await store.find(DEVICE, { status: 'active' }, { sort: { id: 1 } })), [1, 5, 7]);
    t.is(await store.count(DEVICE, {}), 7);
    t.is(await store.count(DEVICE, { status: 'active' }), 3);
    t.deepEqual(await store.countBy(DEVICE, 'vrf', [2]), new Map([[2, 1]]));
    // Created and deleted within one batch: gone.
    await store.apply([change(DEVICE, { id: 9, name: 'tmp' }, 31), del(DEVICE, 9, 32)], 32);
    t.is(await store.get(DEVICE, 9), null);
    t.is(await store.count(DEVICE, {}), 7);
  });

  contract('position and maxIds; maxIds survive deletes', async (t, store) => {
    await seed(store);
    t.is(await store.position(), 21);
    t.deepEqual(await store.maxIds(), { [DEVICE]: 8, [SITE]: 3 });
    await store.apply([del(DEVICE, 8, 22), del(SITE, 3, 23)], 23);
    t.is(await store.position(), 23);
    t.deepEqual(await store.maxIds(), { [DEVICE]: 8, [SITE]: 3 });
    await store.apply([change(DEVICE, { id: 20, name: 'late' }, 24), del(DEVICE, 20, 25)], 25);
    t.deepEqual(await store.maxIds(), { [DEVICE]: 20, [SITE]: 3 });
    await store.apply([change('ipam.ip-address', { id: 5 }, 26)], 26);
    t.deepEqual(await store.maxIds(), { [DEVICE]: 20, [SITE]: 3, 'ipam.ip-address': 5 });
    t.is(await store.position(), 26);
    await store.apply([], 27);
    t.is(await store.position(), 27, 'an empty batch still records the position');
  });

  contract(
    'the resume point: the last position applied with a log cursor, kept with it; dropped with the rest',
    async (t, store) => {
      t.is(await store.resumePoint(), null, 'none before any cursor');
      await store.apply([change(DEVICE, { id: 1, name: 'one' }, 5)], 5);
      t.is(await store.resumePoint(), null, 'a batch without a cursor (the file log) records none');
      await store.apply([change(DEVICE, { id: 2, name: 'two' }, 6)], 6, 'kafka:17');
      t.deepEqual(await store.resumePoint(), { position: 6, cursor: 'kafka:17' });
      await store.apply([change(DEVICE, { id: 3, name: 'three' }, 7)], 7);
      t.deepEqual(
        await store.resumePoint(),
        { position: 6, cursor: 'kafka:17' },
        'an older pair stays: reading from it only reads more',
      );
      t.is(await store.position(), 7);
      await store.apply([change(DEVICE, { id: 4, name: 'four' }, 9)], 9, 'kafka:23');
      t.deepEqual(await store.resumePoint(), { position: 9, cursor: 'kafka:23' });
      await store.drop();
      t.is(await store.resumePoint(), null);
    },
  );

  for (const [title, query, want] of FIND_CASES) {
    contract(`find: ${title}`, async (t, store) => {
      await seed(store);
      t.deepEqual(ids(await store.find(DEVICE, query, { sort: { id: 1 } })), want, 'find');
      t.is(await store.count(DEVICE, query), want.length, 'count');
      const unsorted = ids(await store.find(DEVICE, query));
      t.deepEqual(
        [...unsorted].sort((a, b) => a - b),
        want,
        'find without sort',
      );
    });
  }

  for (const [title, options, want] of SORT_CASES) {
    contract(`sort: ${title}`, async (t, store) => {
      await seed(store);
      t.deepEqual(ids(await store.find(DEVICE, {}, options)), want);
    });
  }

  contract('find: sort, skip and limit combined with a query', async (t, store) => {
    await seed(store);
    t.deepEqual(ids(await store.find(DEVICE, { status: 'active' }, { sort: { name: -1 }, limit: 2 })), [7, 3]);
    t.deepEqual(ids(await store.find(DEVICE, { status: 'active' }, { sort: { name: -1 }, skip: 2, limit: 2 })), [1, 5]);
    t.deepEqual(
      ids(await store.find(DEVICE, { tags: { $in: [1, 2] } }, { sort: { vrf: 1, id: 1 }, skip: 1 })),
      [1, 5, 6, 8],
    );
    const page = ids(await store.find(DEVICE, { status: 'active' }, { limit: 3 }));
    t.is(page.length, 3);
    t.true(page.every((id) => [1, 3, 5, 7].includes(id)));
    t.is(new Set(page).size, 3);
    t.deepEqual(await store.find(DEVICE, {}, { sort: { id: 1 }, skip: 100 }), []);
    t.deepEqual(ids(await store.find(SITE, { name: 'site-2' })), [2]);
  });

  for (const [title, lookup, values, want] of FOLDING_CASES) {
    contract(`case folding: ${title}`, async (t, store) => {
      await store.apply(
        FOLDING.map((d, i) => change(DEVICE, d, 100 + i)),
        110,
      );
      for (const field of ['name', 'serial', 'dns_name']) {
        const found = ids(await store.find(DEVICE, { [field]: regexCondition(lookup, values) }, { sort: { id: 1 } }));
        t.deepEqual(found, want, field);
        t.is(await store.count(DEVICE, { [field]: regexCondition(lookup, values) }), want.length, `${field} count`);
      }
      // As the uniqueness check asks: other objects with this name, whatever its case.
      if (lookup === 'ie' && values.length === 1) {
        const others = ids(
          await store.find(DEVICE, { id: { $ne: want[0] }, name: regexCondition('ie', values) }, { sort: { id: 1 } }),
        );
        t.deepEqual(others, want.slice(1));
      }
    });
  }

  contract('count', async (t, store) => {
    await seed(store);
    t.is(await store.count(DEVICE, {}), 8);
    t.is(await store.count(SITE, {}), 3);
    t.is(await store.count('dcim.rack', {}), 0);
    t.is(await store.count(DEVICE, { status: 'active' }), 4);
    t.is(await store.count(DEVICE, { status: { $in: ['active', 'planned', 'active'] } }), 6);
    t.is(await store.count(DEVICE, { tags: { $in: [1, 2] } }), 5);
    t.is(await store.count(DEVICE, { id: { $in: [1, 2, 2, 99] } }), 2);
    t.is(await store.count(DEVICE, { status: 'active', name: { $regex: 'A', $options: 'i' } }), 2);
  });

  contract('countBy', async (t, store) => {
    await seed(store);
    t.deepEqual(
      await store.countBy(DEVICE, 'vrf', [1, 2, 3, 4]),
      new Map([
        [1, 2],
        [2, 2],
        [3, 2],
        [4, 0],
      ]),
    );
    t.deepEqual(
      await store.countBy(DEVICE, 'tags', [1, 2, 5]),
      new Map([
        [1, 3],
        [2, 3],
        [5, 2],
      ]),
      'array fields count each element',
    );
    await store.ensureIndexes(SITE, [['region']]);
    await store.apply(
      [
        change(SITE, { id: 4, name: 'x', region: 7 }, 40),
        change(SITE, { id: 5, name: 'y', region: 7 }, 40),
        change(SITE, { id: 6, name: 'z', region: 8 }, 40),
      ],
      40,
    );
    t.deepEqual(
      await store.countBy(SITE, 'region', [7, 8, 9]),
      new Map([
        [7, 2],
        [8, 1],
        [9, 0],
      ]),
      'indexed',
    );
    t.deepEqual(await store.countBy(DEVICE, 'serial', [1]), new Map([[1, 0]]), 'unindexed, no match');
    t.deepEqual(await store.countBy(DEVICE, 'vrf', []), new Map());
  });

  contract('an updated document moves between index values', async (t, store) => {
    await seed(store);
    await store.apply([change(DEVICE, { ...DEVICES[0]!, status: 'offline', tags: [7] }, 50)], 50);
    t.deepEqual(ids(await store.find(DEVICE, { status: 'active' }, { sort: { id: 1 } })), [3, 5, 7]);
    t.deepEqual(ids(await store.find(DEVICE, { status: 'offline' }, { sort: { id: 1 } })), [1, 4, 8]);
    t.deepEqual(ids(await store.find(DEVICE, { tags: 2 }, { sort: { id: 1 } })), [4, 6]);
    t.deepEqual(ids(await store.find(DEVICE, { tags: 7 }, { sort: { id: 1 } })), [1]);
    t.deepEqual(
      await store.countBy(DEVICE, 'tags', [1, 7]),
      new Map([
        [1, 2],
        [7, 1],
      ]),
    );
  });

  contract('returned documents cannot corrupt the store when mutated', async (t, store) => {
    await seed(store);
    const original = expected(DEVICE, DEVICES[0]!, 11);
    const viaGet = (await store.get(DEVICE, 1))!;
    attempt(() => ((viaGet as Fields).name = 'hacked'));
    attempt(() => ((viaGet as Fields).status = 'planned'));
    attempt(() => (viaGet.tags as number[]).push(99));
    attempt(() => ((viaGet.interfaces as Fields[])[0]!.name = 'hacked'));
    attempt(() => delete (viaGet as Fields).vrf);
    const [viaFind] = await store.find(DEVICE, { id: 1 });
    attempt(() => ((viaFind as Fields).name = 'hacked'));
    attempt(() => (viaFind!.tags as number[]).splice(0));
    const [viaMany] = await store.getMany(DEVICE, [1]);
    attempt(() => ((viaMany as Fields)._pos = 0));
    t.deepEqual(await store.get(DEVICE, 1), original);
    t.deepEqual(ids(await store.find(DEVICE, { status: 'active' }, { sort: { id: 1 } })), [1, 3, 5, 7]);
    t.deepEqual(ids(await store.find(DEVICE, { tags: 99 })), []);
  });

  contract('mutating a document after applying it does not change the store', async (t, store) => {
    const c = change(DEVICE, { id: 1, name: 'n', status: 'active', tags: [1] }, 1);
    await store.ensureIndexes(DEVICE, [['status']]);
    await store.apply([c], 1);
    (c.doc as Fields).status = 'planned';
    (c.doc!.tags as number[]).push(2);
    t.deepEqual(await store.get(DEVICE, 1), expected(DEVICE, { id: 1, name: 'n', status: 'active', tags: [1] }, 1));
    t.deepEqual(ids(await store.find(DEVICE, { status: 'active' })), [1]);
  });

  contract('findWithCount, where offered, is count and find together', async (t, store) => {
    await seed(store);
    if (!store.findWithCount) {
      t.pass('not offered');
      return;
    }
    const cases: Array<[Query, FindOptions]> = [
      [{}, { sort: { name: 1, id: 1 }, limit: 3 }],
      [{ status: 'active' }, { sort: { vrf: -1, name: -1, id: -1 }, skip: 1, limit: 2 }],
      [{ status: { $in: ['active', 'planned'] }, vrf: { $ne: 2 } }, { sort: { name: 1 } }],
      [{ dns_name: { $regex: 'example', $options: 'i' } }, { limit: 2 }],
      [{ $or: [{ tags: 5 }, { vrf: null }] }, { sort: { id: -1 }, skip: 10 }],
      [{ 'interfaces.enabled': false }, { sort: { name: -1, id: 1 }, limit: 0 }],
    ];
    for (const [query, options] of cases) {
      const both = await store.findWithCount(DEVICE, query, options);
      t.is(both.count, await store.count(DEVICE, query), JSON.stringify(query));
      t.deepEqual(ids(both.docs), ids(await store.find(DEVICE, query, options)), JSON.stringify([query, options]));
    }
  });

  contract('drop removes every document and the position; the store is usable again', async (t, store) => {
    await seed(store);
    await store.drop();
    t.is(await store.position(), 0);
    t.deepEqual(await store.maxIds(), {});
    t.is(await store.get(DEVICE, 1), null);
    t.deepEqual(await store.find(DEVICE, {}), []);
    t.is(await store.count(DEVICE, {}), 0);
    t.is(await store.count(DEVICE, { status: 'active' }), 0);
    t.deepEqual(await store.countBy(DEVICE, 'vrf', [1]), new Map([[1, 0]]));
    await store.apply(deviceChanges().slice(0, 2), 12);
    t.is(await store.position(), 12);
    t.deepEqual(await store.maxIds(), { [DEVICE]: 2 });
    t.deepEqual(ids(await store.find(DEVICE, { status: 'active' })), [1]);
    t.deepEqual(await store.get(DEVICE, 2), expected(DEVICE, DEVICES[1]!, 12));
  });

  contract(
    'freeAddresses: the lowest free runs of a range, the scope and taken runs honoured, through creates, moves, deletes and repeats',
    async (t, store) => {
      const at = (id: number, address: string, vrf: number | null, position: number) =>
        change(IP, { id, _address: addressSortKey(4, ip(address)), vrf }, position);
      await store.apply(
        [
          at(1, '10.0.0.1', null, 1),
          at(2, '10.0.0.2', null, 2),
          at(3, '10.0.0.3', 7, 3),
          at(4, '10.0.0.5', null, 4),
          at(5, '10.0.0.2', null, 5),
          at(6, '10.0.1.1', null, 6),
        ],
        6,
      );
      const free = async (scope: number | null | 'any', limit = Infinity, taken: string[] = []) =>
        runs(await store.freeAddresses(ipQuery('10.0.0.0', '10.0.0.7', scope, limit, taken)));
      t.deepEqual(await free(null), ['10.0.0.0', '10.0.0.3-10.0.0.4', '10.0.0.6-10.0.0.7'], 'the global table');
      t.deepEqual(await free(7), ['10.0.0.0-10.0.0.2', '10.0.0.4-10.0.0.7'], 'a VRF');
      t.deepEqual(await free('any'), ['10.0.0.0', '10.0.0.4', '10.0.0.6-10.0.0.7'], 'every document');
      t.deepEqual(await free(null, 2), ['10.0.0.0', '10.0.0.3'], 'limited');
      t.deepEqual(await free(null, 0), [], 'limit 0');
      t.deepEqual(
        await free(null, Infinity, ['10.0.0.0', '10.0.0.7']),
        ['10.0.0.3-10.0.0.4', '10.0.0.6'],
        'taken addresses',
      );
      t.deepEqual(
        runs(await store.freeAddresses(ipQuery('10.0.2.0', '10.0.2.1', null, 5, []))),
        ['10.0.2.0-10.0.2.1'],
        'a range nobody uses',
      );
      t.deepEqual(
        runs(
          await store.freeAddresses({ ...ipQuery('10.0.0.0', '10.0.0.7', null, 5, []), collection: 'ipam.nothing' }),
        ),
        ['10.0.0.0-10.0.0.4'],
      );
      // One of two documents on 10.0.0.2 goes: still used. Then the other moves to another VRF.
      await store.apply([del(IP, 2, 7)], 7);
      t.deepEqual(await free(null, 3), ['10.0.0.0', '10.0.0.3-10.0.0.4']);
      await store.apply([at(5, '10.0.0.2', 7, 8), at(1, '10.0.0.6', null, 9)], 9);
      t.deepEqual(await free(null), ['10.0.0.0-10.0.0.4', '10.0.0.7']);
      t.deepEqual(await free(7), ['10.0.0.0-10.0.0.1', '10.0.0.4-10.0.0.7']);
      await store.drop();
      t.deepEqual(await free(null), ['10.0.0.0-10.0.0.7'], 'after drop');
      await store.apply([at(9, '10.0.0.4', null, 1)], 1);
      t.deepEqual(await free(null), ['10.0.0.0-10.0.0.3', '10.0.0.5-10.0.0.7'], 'usable again after drop');
    },
  );

  contract(
    'freeAddresses: random creates, moves and deletes, some in batches of over 1,000 (a replay), agree with the set difference',
    async (t, store) => {
      const random = seededRandom(424242);
      const int = (n: number) => Math.floor(random() * n);
      const held = new Map<number, { value: bigint; vrf: number | null }>();
      let position = 0;
      let nextId = 1;
      const base = ip('10.9.0.0');
      const randomChange = (): DocumentChange => {
        position++;
        const ids = [...held.keys()];
        if (ids.length > 0 && random() < 0.3) {
          const id = ids[int(ids.length)]!;
          held.delete(id);
          return del(IP, id, position);
        }
        const id = ids.length > 0 && random() < 0.3 ? ids[int(ids.length)]! : nextId++;
        const value = base + BigInt(int(3000));
        const vrf = random() < 0.7 ? null : 1 + int(2);
        held.set(id, { value, vrf });
        return change(IP, { id, _address: addressSortKey(4, value), vrf }, position);
      };
      const check = async (label: string) => {
        for (const scope of [null, 1, 'any'] as const) {
          for (const limit of [1, 10, Infinity]) {
            const q = ipQuery('10.9.0.0', '10.9.11.255', scope, limit, ['10.9.0.0', '10.9.11.255']);
            const used = [...held.values()]
              .filter((h) => scope === 'any' || h.vrf === scope)
              .map((h) => ({ first: h.value, last: h.value }));
            const want = AddressSet.span(4, q.first, q.last)
              .without([...used, ...q.taken])
              .lowest(limit);
            t.deepEqual(await store.freeAddresses(q), [...want.intervals], `${label}, scope ${scope}, limit ${limit}`);
          }
        }
      };
      await check('empty');
      for (let round = 0; round < 12; round++) {
        const size = round % 4 === 3 ? 1_200 : 1 + int(30);
        const changes = Array.from({ length: size }, randomChange);
        await store.apply(changes, position);
        await check(`round ${round} (${size} changes)`);
      }
    },
  );
}

const IP = 'ipam.ipaddress';

function ip(text: string): bigint {
  return parseAddress(text)!.value;
}

/** Runs as 'a' or 'a-b'. */
function runs(found: Array<{ first: bigint; last: bigint }>): string[] {
  return found.map((r) =>
    r.first === r.last ? formatAddress(4, r.first) : `${formatAddress(4, r.first)}-${formatAddress(4, r.last)}`,
  );
}

function ipQuery(
  first: string,
  last: string,
  scope: number | null | 'any',
  limit: number,
  taken: string[],
): FreeAddressQuery {
  return {
    collection: IP,
    field: '_address',
    family: 4,
    first: ip(first),
    last: ip(last),
    ...(scope === 'any' ? {} : { scope: { field: 'vrf', value: scope } }),
    taken: taken.map((a) => ({ first: ip(a), last: ip(a) })),
    limit,
  };
}
