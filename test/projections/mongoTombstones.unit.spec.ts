import test from 'ava';

import { loadConfig } from '../../src/config.js';
import type { MongoReadStore } from '../../src/projections/mongo/MongoReadStore.js';
import { TOMBSTONES } from '../../src/projections/mongo/tombstones.js';
import { FakeMongo } from '../support/fakeMongo.js';
import { change, openFakeStore } from '../support/fakeMongoStore.js';

/**
 * Tombstones expire: each carries the time it was written, a TTL index removes it after
 * MONGODB_TOMBSTONE_RETENTION, and within that time a deletion still cannot be undone by a
 * projector applying older events. Every clock is injected; expiry is the fake's TTL
 * monitor, run when the test says.
 */

const SITE = 'dcim.site';
const HOUR = 3600;
const T0 = new Date('2026-01-01T00:00:00Z');

function later(seconds: number): Date {
  return new Date(T0.getTime() + seconds * 1000);
}

/** A clock the test moves. */
function clock(start = T0) {
  let now = start;
  return { now: () => now, set: (to: Date) => (now = to) };
}

function expiryIndexes(server: FakeMongo) {
  return (server.indexes.get(TOMBSTONES) ?? []).filter(
    (spec) => JSON.stringify(spec.key) === JSON.stringify({ _at: 1 }),
  );
}

async function open(server: FakeMongo, retentionSeconds?: number, now = () => T0): Promise<MongoReadStore> {
  return openFakeStore(server, {
    allowStandalone: true,
    now,
    ...(retentionSeconds === undefined ? {} : { tombstoneRetentionMs: retentionSeconds * 1000 }),
  });
}

for (const kind of ['replicaSet', 'standalone'] as const) {
  test(`the tombstones' TTL index is created at open with the configured retention, and again after a drop (${kind})`, async (t) => {
    const server = new FakeMongo(kind);
    const store = await open(server, 2 * HOUR);
    t.deepEqual(expiryIndexes(server), [{ key: { _at: 1 }, name: '_at_1', expireAfterSeconds: 2 * HOUR }]);
    // A rebuild drops every collection, the tombstones' with its index.
    await store.drop();
    t.deepEqual(expiryIndexes(server), [{ key: { _at: 1 }, name: '_at_1', expireAfterSeconds: 2 * HOUR }]);
    await store.close();
  });

  test(`without a setting tombstones are kept 7 days (${kind})`, async (t) => {
    const server = new FakeMongo(kind);
    const store = await open(server);
    t.is(expiryIndexes(server)[0]?.expireAfterSeconds, 604_800);
    await store.close();
  });

  test(`a deletion's tombstone carries the time it was written, as a date (${kind})`, async (t) => {
    const server = new FakeMongo(kind);
    const time = clock();
    const store = await open(server, HOUR, time.now);
    await store.apply([change(SITE, 1, 1, { name: 'a' })], 1);
    time.set(later(90));
    await store.apply([change(SITE, 1, 2, null)], 2);
    const [tomb] = server.docs(TOMBSTONES);
    t.is(tomb?._id, `${SITE}#1`);
    t.is(tomb?._pos, 2);
    t.true(tomb?._at instanceof Date);
    t.deepEqual(tomb?._at, later(90));
    await store.close();
  });

  test(`a delete cannot be brought back by an older change within the retention; the TTL monitor removes its tombstone after it (${kind})`, async (t) => {
    const server = new FakeMongo(kind);
    const current = await open(server, HOUR);
    const lagging = await open(server, HOUR);
    await current.apply([change(SITE, 1, 1, { name: 'a' }), change(SITE, 1, 2, null)], 2);
    // Just inside the retention the monitor removes nothing, and the older change is refused.
    t.is(server.expireTtl(later(HOUR - 1)), 0);
    await lagging.apply([change(SITE, 1, 1, { name: 'a' })], 1);
    t.is(await current.get(SITE, 1), null);
    t.is(server.docs(TOMBSTONES).length, 1);
    // Past it the tombstone goes, and only the tombstone.
    t.is(server.expireTtl(later(HOUR + 1)), 1);
    t.deepEqual(server.docs(TOMBSTONES), []);
    t.is(await current.position(), 2);
    t.is(await current.count(SITE, {}), 0);
    await current.close();
    await lagging.close();
  });

  test(`a projector lagging longer than the retention could bring a deleted object back: the limit tombstones.ts documents (${kind})`, async (t) => {
    const server = new FakeMongo(kind);
    const current = await open(server, HOUR);
    const lagging = await open(server, HOUR);
    await current.apply([change(SITE, 1, 1, { name: 'a' }), change(SITE, 1, 2, null)], 2);
    server.expireTtl(later(HOUR + 1));
    await lagging.apply([change(SITE, 1, 1, { name: 'a' })], 1);
    t.is((await current.get(SITE, 1))?.name, 'a');
    await current.close();
    await lagging.close();
  });
}

test('tombstones written before they carried a time get one at open, then expire a retention later; the others keep theirs', async (t) => {
  const server = new FakeMongo();
  const first = await open(server, HOUR);
  await first.apply([change(SITE, 1, 1, { name: 'a' }), change(SITE, 1, 2, null)], 2);
  await first.close();
  // As an older version left them: no time.
  server.state.get(TOMBSTONES)!.set(`${SITE}#7`, { _id: `${SITE}#7`, _pos: 1 });
  const reopened = await open(server, HOUR, () => later(10 * HOUR));
  const byId = new Map(server.docs(TOMBSTONES).map((tomb) => [tomb._id, tomb._at]));
  t.deepEqual(byId.get(`${SITE}#7`), later(10 * HOUR));
  t.deepEqual(byId.get(`${SITE}#1`), T0);
  t.is(server.expireTtl(later(11 * HOUR - 1)), 1);
  t.deepEqual(
    server.docs(TOMBSTONES).map((tomb) => tomb._id),
    [`${SITE}#7`],
  );
  t.is(server.expireTtl(later(11 * HOUR + 1)), 1);
  await reopened.close();
});

test('a changed retention re-creates the TTL index with it: one index, its tombstones kept; an unchanged one is left alone', async (t) => {
  const server = new FakeMongo();
  const first = await open(server, HOUR);
  await first.apply([change(SITE, 1, 1, { name: 'a' }), change(SITE, 1, 2, null)], 2);
  await first.close();
  const longer = await open(server, 3 * HOUR);
  t.deepEqual(expiryIndexes(server), [{ key: { _at: 1 }, name: '_at_1', expireAfterSeconds: 3 * HOUR }]);
  t.is(server.ops.filter((o) => o.op === 'dropIndex').length, 1);
  t.is(server.docs(TOMBSTONES).length, 1);
  t.is(server.expireTtl(later(2 * HOUR)), 0);
  await longer.close();
  const same = await open(server, 3 * HOUR);
  t.is(server.ops.filter((o) => o.op === 'dropIndex').length, 1);
  await same.close();
});

test('mongo fault: a process changing the retention finds the TTL index already dropped by another doing the same, and still opens with it', async (t) => {
  const server = new FakeMongo();
  await (await open(server, HOUR)).close();
  // The other process drops it between this one's refused creation and its own drop.
  server.before('dropIndex', () => void server.dropIndex(TOMBSTONES, '_at_1'));
  const store = await open(server, 3 * HOUR);
  t.deepEqual(expiryIndexes(server), [{ key: { _at: 1 }, name: '_at_1', expireAfterSeconds: 3 * HOUR }]);
  await store.close();
});

test('the fake refuses an index with the same key and other options as the server does (IndexOptionsConflict, 85); dropped, it can be created anew', async (t) => {
  const server = new FakeMongo();
  const db = server.client().db('netledger');
  await db.collection(TOMBSTONES).createIndexes([{ key: { _at: 1 }, expireAfterSeconds: 60 }]);
  // The same index again is no change.
  t.deepEqual(await db.collection(TOMBSTONES).createIndexes([{ key: { _at: 1 }, expireAfterSeconds: 60 }]), ['_at_1']);
  const conflict = await t.throwsAsync(
    db.collection(TOMBSTONES).createIndexes([{ key: { _at: 1 }, expireAfterSeconds: 120 }]),
  );
  t.like(conflict, { name: 'MongoServerError', code: 85, codeName: 'IndexOptionsConflict' });
  await db.collection(TOMBSTONES).dropIndex('_at_1');
  t.deepEqual(await db.collection(TOMBSTONES).createIndexes([{ key: { _at: 1 }, expireAfterSeconds: 120 }]), ['_at_1']);
  t.like(server.indexes.get(TOMBSTONES)![0], { name: '_at_1', expireAfterSeconds: 120 });
  t.like(await t.throwsAsync(db.collection(TOMBSTONES).dropIndex('gone_1')), { code: 27, codeName: 'IndexNotFound' });
  t.like(await t.throwsAsync(db.collection('never').dropIndex('_at_1')), { code: 26, codeName: 'NamespaceNotFound' });
});

test('MONGODB_TOMBSTONE_RETENTION is in seconds, 7 days when not set, at least one second', (t) => {
  const env = { SECRET_KEY: 'k' };
  t.is(loadConfig(env).mongodbTombstoneRetentionMs, 604_800_000);
  t.is(loadConfig({ ...env, MONGODB_TOMBSTONE_RETENTION: '3600' }).mongodbTombstoneRetentionMs, 3_600_000);
  t.throws(() => loadConfig({ ...env, MONGODB_TOMBSTONE_RETENTION: '0' }), {
    message: /MONGODB_TOMBSTONE_RETENTION must be between 1 and/,
  });
  t.throws(() => loadConfig({ ...env, MONGODB_TOMBSTONE_RETENTION: 'a week' }), {
    message: /not a non-negative number of seconds/,
  });
});
