import test from 'ava';

import { FakeMongo, type FakeOp, type OpRecord } from '../support/fakeMongo.js';
import { change, openFakeStore } from '../support/fakeMongoStore.js';

/**
 * Issue 15: every query the MongoDB read store sends carries the configured time limit
 * (MONGODB_QUERY_TIMEOUT), the reads that prepare and guard an apply as much as a
 * client's list: a query without one can hold the projector, and every write waiting
 * on it, for as long as an overloaded server takes.
 */

const SITE = 'dcim.site';
const IP = 'ipam.ipaddress';
const READS: FakeOp[] = ['find', 'findOne', 'countDocuments', 'estimatedDocumentCount', 'aggregate'];

const described = (o: OpRecord) => `${o.op} ${o.collection}`;

for (const kind of ['replicaSet', 'standalone'] as const) {
  test(`mongo time limit: every read of open, apply, list, count and get carries the configured maxTimeMS (${kind})`, async (t) => {
    const server = new FakeMongo(kind);
    const first = await openFakeStore(server, { allowStandalone: true, maxTimeMS: 1234 });
    await first.close();
    // Opened again on a database with progress: the meta read at open finds a document.
    const store = await openFakeStore(server, { allowStandalone: true, maxTimeMS: 1234 });
    await store.apply(
      [
        change(SITE, 1, 1, { name: 'a', tags: [7] }),
        change(SITE, 2, 2, { name: 'b' }),
        change(IP, 1, 3, { _address: 0x0a000001 }),
      ],
      3,
    );
    // A delete (tombstone look-up) beside an upsert (looked for again after, on a standalone server).
    await store.apply([change(SITE, 1, 4, null), change(SITE, 2, 5, { name: 'b2' })], 5);
    await store.get(SITE, 2);
    await store.getMany(SITE, [2, 3]);
    await store.find(SITE, { name: 'b2' }, { sort: { id: 1 }, skip: 0, limit: 5 });
    await store.count(SITE, {});
    await store.count(SITE, { name: 'b2' });
    await store.findWithCount(SITE, { name: 'x' }, { limit: 1 });
    await store.countBy(SITE, 'tags', [7]);
    await store.freeAddresses({
      collection: IP,
      field: '_address',
      family: 4,
      first: 0x0a000000n,
      last: 0x0a0000ffn,
      taken: [],
      limit: 3,
    });
    await store.position();
    await store.resumePoint();
    await store.maxIds();

    const reads = server.ops.filter((o) => READS.includes(o.op));
    t.deepEqual(reads.filter((o) => o.options?.maxTimeMS !== 1234).map(described), []);
    // Each kind of read was there to be checked.
    const seen = new Set(reads.map(described));
    const expected = [
      'findOne netledger_meta',
      `find ${SITE}`,
      'find netledger_tombstones',
      `countDocuments ${SITE}`,
      `aggregate ${SITE}`,
      `find ${IP}`,
    ];
    if (kind === 'standalone') expected.push(`estimatedDocumentCount ${SITE}`);
    for (const read of expected) t.true(seen.has(read), read);
    // Two look-ups of tombstones per apply without transactions (before the writes, and the re-check after).
    t.is(reads.filter((o) => o.collection === 'netledger_tombstones').length, kind === 'standalone' ? 4 : 2);
    await store.close();
  });
}
