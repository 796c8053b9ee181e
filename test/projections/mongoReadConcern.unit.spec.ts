import test from 'ava';
import { MongoClient } from 'mongodb';

import { readModelDatabases } from '../../src/projections/mongo/readModelDatabases.js';
import { FakeMongo } from '../support/fakeMongo.js';
import { change, openFakeStore } from '../support/fakeMongoStore.js';

/**
 * A read concern in the connection string (readConcernLevel=... in MONGODB_URL) reaches
 * every handle the driver's client makes. The read store states its own on each, so that a
 * list's count and page still come from one snapshot, and the next list from a newer one.
 */

const SITE = 'dcim.site';
const level = (db: { collection(name: string): { readConcern?: { level: string } } }) =>
  db.collection(SITE).readConcern?.level;

test("mongo read concern: the store's database handles keep their own read concern whatever the client was given (the driver's own inheritance)", async (t) => {
  for (const [url, options] of [
    ['mongodb://127.0.0.1:1/?readConcernLevel=majority', {}],
    ['mongodb://127.0.0.1:1/?readConcernLevel=snapshot', {}],
    ['mongodb://127.0.0.1:1/', { readConcern: { level: 'local' as const } }],
  ] as const) {
    // Never connected: the handles are built from the parsed options alone.
    const client = new MongoClient(url, options);
    t.not(level(client.db('netledger')), undefined, `${url}: every handle would inherit it`);
    const replicaSet = readModelDatabases(client, 'netledger', true);
    t.is(level(replicaSet.db), 'majority');
    t.is(level(replicaSet.snapshotDb), undefined, 'a snapshot session then sends level snapshot itself');
    t.is(level(readModelDatabases(client, 'netledger', false).db), 'local');
    await client.close();
  }
});

for (const concern of ['majority', 'local', 'available', 'snapshot', 'linearizable']) {
  test(`mongo read concern: readConcernLevel=${concern} in the connection string leaves a list's count and page one snapshot, the next list a newer one, and the batch transactions as they are`, async (t) => {
    const server = new FakeMongo();
    const store = await openFakeStore(server, { url: `mongodb://fake/?readConcernLevel=${concern}` });
    const writer = await openFakeStore(server);
    await store.apply([change(SITE, 1, 1, { name: 'a' }), change(SITE, 2, 2, { name: 'b' })], 2);
    // Between the count and the page, another request adds a site.
    server.before('find', () => writer.apply([change(SITE, 3, 3, { name: 'c' })], 3), SITE);
    const first = await store.findWithCount(SITE, {}, { sort: { id: 1 } });
    t.deepEqual([first.count, first.docs.map((d) => d.id)], [2, [1, 2]]);
    await store.apply([change(SITE, 1, 4, null)], 4);
    const next = await store.findWithCount(SITE, {}, { sort: { id: 1 } });
    t.deepEqual([next.count, next.docs.map((d) => d.id)], [2, [2, 3]]);
    t.is(await store.position(), 4);
    await store.close();
    await writer.close();
  });
}
