import { randomUUID } from 'node:crypto';

import test from 'ava';
import { MongoBulkWriteError, MongoServerError, MongoTopologyClosedError } from 'mongodb';

import { errorResponses } from '../../src/api/middleware/errorResponses.js';
import type { ChangeEvent } from '../../src/events/ChangeEvent.js';
import { registry } from '../../src/models/registry.js';
import { StandaloneMongoRefusedError } from '../../src/projections/mongo/deployment.js';
import { isTransientMongoError, WriteConcernRefusedError } from '../../src/projections/mongo/mongoErrors.js';
import type { MongoReadStore } from '../../src/projections/mongo/MongoReadStore.js';
import { MAX_TRANSACTION_DOCUMENTS, READ_MODEL_FORMAT } from '../../src/projections/mongo/MongoReadStore.js';
import { caseInsensitiveFields } from '../../src/projections/mongo/shadowKeys.js';
import { Projector } from '../../src/projections/Projector.js';
import { ReadStoreUnavailableError } from '../../src/projections/ReadStoreUnavailableError.js';
import { RetriesExhaustedError } from '../../src/projections/retryTransient.js';
import { regexCondition } from '../../src/projections/textPatterns.js';
import { asDriverRaises, FakeMongo, mongoErrors } from '../support/fakeMongo.js';
import { change, openFakeStore } from '../support/fakeMongoStore.js';
import { makeEvent } from '../support/makeEvent.js';
import { MemoryEventLog, MemoryEventStorage } from '../support/MemoryEventLog.js';

/**
 * MongoReadStore through the faults a real deployment has (lost connections, elections,
 * write conflicts, commits whose outcome is unknown, write-concern timeouts, refused
 * commands, slow queries, a second projector during a rolling deploy), raised with the
 * driver's own error classes by the fake MongoDB at chosen moments. Each test checks
 * what the caller sees (the projector and its waiters, a reader) and that no change the
 * log acknowledged is lost.
 */

const SITE = 'dcim.site';
const REGION = 'dcim.region';
const PREFIX = 'ipam.prefix';

function event(
  position: number,
  objectType: string,
  objectId: number,
  action: 'create' | 'update' | 'delete',
  name = `${objectType}-${objectId}`,
): ChangeEvent {
  const object = { name, slug: name.toLowerCase().replace(/[^a-z0-9]+/g, '-'), description: '' };
  return {
    v: 3,
    eventId: randomUUID(),
    position,
    requestId: randomUUID(),
    time: '2026-01-01T00:00:00.000000Z',
    user: null,
    action,
    objectType,
    objectId,
    objectRepr: name,
    prechange: action === 'create' ? null : object,
    postchange: action === 'delete' ? null : object,
  };
}

/** One request creating `sites` sites and `regions` regions, from log position `from`. */
function request(from: number, sites: number[], regions: number[] = []): ChangeEvent[] {
  const requestId = randomUUID();
  const events = [...sites.map((id) => [SITE, id] as const), ...regions.map((id) => [REGION, id] as const)];
  return events.map(([type, id], i) => ({ ...event(from + i, type, id, 'create'), requestId }));
}

async function projectorOn(store: MongoReadStore, storage = new MemoryEventStorage()) {
  const log = new MemoryEventLog(storage);
  await log.open();
  const projector = new Projector(log, store, registry);
  await projector.start();
  return { log, projector, storage };
}

test('mongo fault: a network error during a batch write is retried; waitFor resolves and the whole request is there', async (t) => {
  const server = new FakeMongo();
  const retries: unknown[] = [];
  const store = await openFakeStore(server, { onRetry: (info) => retries.push(info.error) });
  const { log, projector } = await projectorOn(store);
  server.fail('bulkWrite', mongoErrors.network, { collection: SITE });
  await log.append(request(1, [1, 2, 3], [1]));
  await projector.waitFor(4);
  t.is(projector.failed, null);
  t.deepEqual(
    (await store.find(SITE, {}, { sort: { id: 1 } })).map((d) => d.id),
    [1, 2, 3],
  );
  t.is((await store.get(REGION, 1))?.name, `${REGION}-1`);
  t.is(await store.position(), 4);
  t.is(retries.length, 1);
  // The driver hands a bulk write's lost connection over wrapped, labelled by the transaction.
  t.is((retries[0] as Error).name, 'MongoBulkWriteError');
  t.regex((retries[0] as Error).message, /closed/);
  await log.close();
  await store.close();
});

test('mongo fault: server selection failures through an election are retried until a primary is back', async (t) => {
  const server = new FakeMongo();
  let retries = 0;
  const store = await openFakeStore(server, {
    onRetry: () => {
      // The primary is back after the third failed attempt.
      if (++retries === 3) server.heal();
    },
  });
  const { log, projector } = await projectorOn(store);
  server.failAlways('bulkWrite', mongoErrors.serverSelection);
  await log.append(request(1, [1, 2]));
  await projector.waitFor(2);
  t.is(retries, 3);
  t.is(projector.failed, null);
  t.is(await store.count(SITE, {}), 2);
  await log.close();
  await store.close();
});

test("mongo fault: passing failures of the reads that prepare an apply (a prefix's neighbours, for depth and children) are retried; the projector keeps running", async (t) => {
  const server = new FakeMongo();
  const retries: string[] = [];
  const store = await openFakeStore(server, { onRetry: (info) => retries.push((info.error as Error).name) });
  const { log, projector } = await projectorOn(store);
  const prefix = (position: number, id: number, cidr: string) =>
    makeEvent(position, {
      objectType: PREFIX,
      objectId: id,
      objectRepr: cidr,
      postchange: { id, prefix: cidr, vrf: null, family: 4, status: 'active' },
    });
  await log.append([prefix(1, 1, '10.0.0.0/8')]);
  await projector.waitFor(1);
  // The next batch's reads of its neighbours meet a lost connection, then a query past its time limit.
  server.fail('find', mongoErrors.network, { collection: PREFIX });
  server.fail('find', mongoErrors.maxTimeExpired, { collection: PREFIX });
  await log.append([prefix(2, 2, '10.1.0.0/16')]);
  await projector.waitFor(2);
  t.is(projector.failed, null);
  t.deepEqual(retries, ['MongoNetworkError', 'ReadStoreUnavailableError']);
  t.is((await store.get(PREFIX, 1))?._children, 1);
  t.is((await store.get(PREFIX, 2))?._depth, 1);
  await log.close();
  await store.close();
});

test('mongo fault: a write conflict (TransientTransactionError) at commit is retried and the batch is applied once', async (t) => {
  const server = new FakeMongo();
  const store = await openFakeStore(server);
  const { log, projector } = await projectorOn(store);
  server.fail('commitTransaction', mongoErrors.writeConflict);
  await log.append(request(1, [1, 2]));
  await projector.waitFor(2);
  t.deepEqual(
    server.docs(SITE).map((d) => d.id),
    [1, 2],
  );
  t.is(await store.position(), 2);
  await log.close();
  await store.close();
});

test('mongo fault: UnknownTransactionCommitResult after the commit took effect: the retry finds it applied, nothing lost or doubled', async (t) => {
  const server = new FakeMongo();
  const store = await openFakeStore(server);
  const { log, projector } = await projectorOn(store);
  server.fail('commitTransaction', mongoErrors.unknownCommitResult, { when: 'after' });
  await log.append(request(1, [1, 2], [7]));
  await projector.waitFor(3);
  t.is(projector.failed, null);
  t.deepEqual(
    server.docs(SITE).map((d) => [d.id, d._pos]),
    [
      [1, 1],
      [2, 2],
    ],
  );
  t.deepEqual(await store.maxIds(), { [SITE]: 2, [REGION]: 7 });
  t.is(await store.position(), 3);
  await log.close();
  await store.close();
});

test('mongo fault: a write-concern timeout on the position write is retried', async (t) => {
  const server = new FakeMongo();
  const store = await openFakeStore(server);
  const { log, projector } = await projectorOn(store);
  server.fail('updateOne', mongoErrors.writeConcern, { times: 2 });
  await log.append(request(1, [1]));
  await projector.waitFor(1);
  t.is(await store.position(), 1);
  t.truthy(await store.get(SITE, 1));
  await log.close();
  await store.close();
});

test('mongo fault: a non-transient error (Unauthorized) stops the projector at once: waiters are rejected, nothing is retried', async (t) => {
  const server = new FakeMongo();
  let retries = 0;
  const store = await openFakeStore(server, { onRetry: () => retries++ });
  const { log, projector } = await projectorOn(store);
  server.fail('bulkWrite', mongoErrors.unauthorized);
  const waiting = projector.waitFor(1);
  await log.append(request(1, [1]));
  const error = await t.throwsAsync(waiting);
  t.regex(error!.message, /not authorized/);
  t.is(retries, 0);
  t.truthy(projector.failed);
  await t.throwsAsync(projector.waitFor(1), { message: /not authorized/ });
  t.is(await store.position(), 0);
  await log.close();
  await store.close();
});

test('mongo fault: a refused document (bulk write error that is not a duplicate key) is not mistaken for a skipped stale upsert', async (t) => {
  const server = new FakeMongo();
  let retries = 0;
  const store = await openFakeStore(server, { onRetry: () => retries++ });
  server.fail('bulkWrite', mongoErrors.documentTooLarge);
  await t.throwsAsync(store.apply([change(SITE, 1, 1, { name: 'a' })], 1), { message: /too large/ });
  t.is(retries, 0);
  t.is(await store.position(), 0);
  await store.close();
});

test('mongo fault: an outage longer than the retry budget stops the projector (waiters get an answer); after a restart the acknowledged events are all applied', async (t) => {
  const server = new FakeMongo();
  const store = await openFakeStore(server, { retry: { firstDelayMs: 1, maxDelayMs: 2, budgetMs: 20 } });
  const { log, projector, storage } = await projectorOn(store);
  await log.append(request(1, [1]));
  await projector.waitFor(1);
  server.failAlways('bulkWrite', mongoErrors.network);
  const waiting = projector.waitFor(3);
  await log.append(request(2, [2, 3]));
  const error = await t.throwsAsync(waiting, { instanceOf: RetriesExhaustedError });
  t.regex(error!.message, /still failing after \d+ attempts/);
  t.is(await store.position(), 1, 'the position stays before the batch that was not written');
  await log.close();
  await store.close();

  // The database is back; the service restarts and catches up with the log.
  server.heal();
  const again = await openFakeStore(server);
  const restarted = await projectorOn(again, storage);
  await restarted.projector.waitFor(3);
  t.deepEqual(
    (await again.find(SITE, {}, { sort: { id: 1 } })).map((d) => d.id),
    [1, 2, 3],
  );
  await restarted.log.close();
  await again.close();
});

test('mongo fault: closing the store stops its retries (a shutdown during an outage does not hang)', async (t) => {
  const server = new FakeMongo();
  const store = await openFakeStore(server, {
    retry: { firstDelayMs: 1, maxDelayMs: 1, budgetMs: 3_600_000 },
    onRetry: ({ attempt }) => {
      if (attempt === 3) void store.close();
    },
  });
  server.failAlways('bulkWrite', mongoErrors.network);
  await t.throwsAsync(store.apply([change(SITE, 1, 1, { name: 'a' })], 1), { message: /closed/ });
});

test('mongo fault: a lost connection during a bulk write on a standalone server (wrapped by the driver, no label) is retried', async (t) => {
  const server = new FakeMongo('standalone');
  const retries: unknown[] = [];
  const store = await openFakeStore(server, { allowStandalone: true, onRetry: (info) => retries.push(info.error) });
  server.fail('bulkWrite', mongoErrors.network, { times: 2, collection: SITE });
  await store.apply([change(SITE, 1, 1, { name: 'a' }), change(SITE, 2, 2, { name: 'b' })], 2);
  t.is(retries.length, 2);
  t.deepEqual((retries[0] as { errorLabels: string[] }).errorLabels, []);
  t.deepEqual(
    server.docs(SITE).map((d) => d.id),
    [1, 2],
  );
  t.is(await store.position(), 2);
  await store.close();
});

test('mongo fault: a reader during a request write sees none of its documents, then all of them (replica set)', async (t) => {
  const server = new FakeMongo();
  const store = await openFakeStore(server);
  const reader = await openFakeStore(server);
  const { log, projector } = await projectorOn(store);
  const seen: Array<[number, number, number]> = [];
  const look = async () => {
    seen.push([await reader.count(SITE, {}), await reader.count(REGION, {}), await reader.position()]);
  };
  server.before('bulkWrite', look, REGION);
  server.before('updateOne', look);
  server.before('commitTransaction', look);
  await log.append(request(1, [1, 2, 3], [1, 2]));
  await projector.waitFor(5);
  await look();
  t.deepEqual(seen, [
    [0, 0, 0],
    [0, 0, 0],
    [0, 0, 0],
    [3, 2, 5],
  ]);
  await log.close();
  await store.close();
  await reader.close();
});

test('mongo fault: a standalone server is refused at open, saying what is lost and how to allow it', async (t) => {
  const server = new FakeMongo('standalone');
  const error = await t.throwsAsync(openFakeStore(server), { instanceOf: StandaloneMongoRefusedError });
  t.regex(error!.message, /replica set/);
  t.regex(error!.message, /one document at a time/);
  t.regex(error!.message, /MONGODB_ALLOW_STANDALONE=1/);
  const allowed = await openFakeStore(server, { allowStandalone: true });
  t.false(allowed.transactional);
  await allowed.close();
});

test('mongo fault: a list count and its page agree when a batch commits between the two queries', async (t) => {
  const server = new FakeMongo();
  const store = await openFakeStore(server);
  const writer = await openFakeStore(server);
  await writer.apply([change(SITE, 1, 1, { name: 'a' }), change(SITE, 2, 2, { name: 'b' })], 2);
  // Between the count and the page, another request adds a site and removes one.
  server.before('find', () => writer.apply([change(SITE, 3, 3, { name: 'c' }), change(SITE, 1, 4, null)], 4), SITE);
  const { count, docs } = await store.findWithCount(SITE, {}, { sort: { id: 1 } });
  t.is(count, docs.length);
  t.deepEqual(
    docs.map((d) => d.id),
    [1, 2],
  );
  t.deepEqual(
    (await store.find(SITE, {}, { sort: { id: 1 } })).map((d) => d.id),
    [2, 3],
    'the next read sees the new state',
  );
  await store.close();
  await writer.close();
});

for (const kind of ['replicaSet', 'standalone'] as const) {
  test(`mongo fault: a second projector applying an older batch after a delete does not resurrect the object (${kind})`, async (t) => {
    const server = new FakeMongo(kind);
    const current = await openFakeStore(server, { allowStandalone: true });
    const lagging = await openFakeStore(server, { allowStandalone: true });
    await current.apply([change(SITE, 1, 1, { name: 'a' }), change(SITE, 2, 2, { name: 'b' })], 2);
    await current.apply([change(SITE, 1, 3, null), change(SITE, 2, 4, { name: 'b2' })], 4);
    // The old process of a rolling deploy, still behind, applies the first batch again.
    await lagging.apply([change(SITE, 1, 1, { name: 'a' }), change(SITE, 2, 2, { name: 'b' })], 2);
    t.is(await current.get(SITE, 1), null);
    t.is((await current.get(SITE, 2))?.name, 'b2');
    t.is(await current.position(), 4);
    await current.close();
    await lagging.close();
  });
}

test('mongo fault: a query past its time limit becomes a ReadStoreUnavailableError (503 with Retry-After)', async (t) => {
  const server = new FakeMongo();
  const store = await openFakeStore(server, { maxTimeMS: 1234 });
  server.fail('find', mongoErrors.maxTimeExpired, { collection: SITE });
  const error = await t.throwsAsync(store.find(SITE, { name: { $regex: 'a', $options: 'i' } }), {
    instanceOf: ReadStoreUnavailableError,
  });
  t.is(error!.status, 503);
  t.true(error!.retryAfterSeconds > 0);
  t.regex(error!.message, /time limit of 1234 ms/);
  await store.close();
});

test("mongo fault: an apply's look-up of stored positions past its time limit (an overloaded server) is retried, not a stop", async (t) => {
  const server = new FakeMongo();
  const retries: unknown[] = [];
  const store = await openFakeStore(server, { maxTimeMS: 1234, onRetry: (info) => retries.push(info.error) });
  server.fail('find', mongoErrors.maxTimeExpired, { collection: 'netledger_tombstones' });
  await store.apply([change(SITE, 1, 1, null)], 1);
  t.is(retries.length, 1);
  t.regex((retries[0] as Error).message, /time limit/);
  t.is(await store.position(), 1);
  await store.close();
});

test('mongo fault: a count is computed once per position and query, and again after the position moves', async (t) => {
  const server = new FakeMongo();
  const store = await openFakeStore(server);
  await store.apply([change(SITE, 1, 1, { name: 'a' }), change(SITE, 2, 2, { name: 'b' })], 2);
  const counted = () => server.ops.filter((o) => o.op === 'countDocuments').length;
  t.is(await store.count(SITE, { name: 'a' }), 1);
  t.is((await store.findWithCount(SITE, { name: 'a' }, { limit: 1 })).count, 1);
  t.is(await store.count(SITE, { name: 'a' }), 1);
  t.is(counted(), 1);
  t.is(await store.count(SITE, { name: 'b' }), 1);
  t.is(counted(), 2);
  await store.apply([change(SITE, 3, 3, { name: 'a' })], 3);
  t.is(await store.count(SITE, { name: 'a' }), 2);
  t.is(counted(), 3);
  await store.close();
});

test('mongo fault: which driver errors are transient', (t) => {
  t.true(isTransientMongoError(mongoErrors.network()));
  t.true(isTransientMongoError(mongoErrors.serverSelection()));
  t.true(isTransientMongoError(mongoErrors.writeConflict()));
  t.true(isTransientMongoError(mongoErrors.unknownCommitResult()));
  t.true(isTransientMongoError(mongoErrors.writeConcern()));
  t.true(isTransientMongoError(mongoErrors.steppedDown()));
  t.false(isTransientMongoError(mongoErrors.unauthorized()));
  t.false(isTransientMongoError(mongoErrors.documentTooLarge()));
  t.false(isTransientMongoError(mongoErrors.maxTimeExpired()), 'a read past its time limit is answered, not retried');
  t.false(isTransientMongoError(new Error('socket hang up')), 'only the driver classes are judged');
  // What stops a bulk write's command comes wrapped in a MongoBulkWriteError: judged by what it wraps.
  const inBulkWrite = (error: Error) => asDriverRaises(error, 'bulkWrite', false);
  t.true(isTransientMongoError(inBulkWrite(mongoErrors.network())));
  t.true(isTransientMongoError(inBulkWrite(mongoErrors.serverSelection())));
  t.true(isTransientMongoError(inBulkWrite(mongoErrors.writeConflict())));
  t.true(isTransientMongoError(inBulkWrite(mongoErrors.steppedDown())));
  t.true(isTransientMongoError(inBulkWrite(mongoErrors.writeConcern())));
  t.false(isTransientMongoError(inBulkWrite(mongoErrors.unauthorized())));
  t.false(isTransientMongoError(inBulkWrite(new MongoTopologyClosedError())), 'a client closed on shutdown');
  // A write-concern error by its code, as raised by a command, by a bulk write (which drops its labels) and at commit.
  const { writeConcernWith } = mongoErrors;
  const passing = [
    writeConcernWith(91, 'ShutdownInProgress', 'Replication is being shut down'),
    writeConcernWith(189, 'PrimarySteppedDown', 'Primary stepped down while waiting for replication'),
    writeConcernWith(11600, 'InterruptedAtShutdown', 'interrupted at shutdown'),
    writeConcernWith(11602, 'InterruptedDueToReplStateChange', 'operation was interrupted'),
  ];
  const permanent = [mongoErrors.unknownWriteConcernMode, mongoErrors.unsatisfiableWriteConcern];
  const atCommit = (error: Error) => asDriverRaises(error, 'commitTransaction', false);
  for (const raised of [(e: Error) => e, inBulkWrite, atCommit]) {
    for (const error of passing)
      t.true(isTransientMongoError(raised(error)), `${error.message} (${raised.name || 'a command'})`);
    for (const error of permanent)
      t.false(isTransientMongoError(raised(error())), `${error().message} (${raised.name || 'a command'})`);
  }
  // A code not known to pass is not retried (at commit the driver calls any other outcome unknown, and that is retried).
  const malformed = () => writeConcernWith(9, 'FailedToParse', 'w has to be a number or a string');
  t.false(isTransientMongoError(malformed()));
  t.false(isTransientMongoError(inBulkWrite(malformed())));
  t.true(
    isTransientMongoError(writeConcernWith(1234, 'SomethingNew', 'not yet', ['RetryableWriteError'])),
    "the server's RetryableWriteError label",
  );
  // A skipped stale upsert beside a write-concern timeout: the timeout decides.
  const staleAndTimeout = new MongoBulkWriteError(
    {
      message: 'E11000 duplicate key error',
      code: 11000,
      writeErrors: [{ code: 11000 }],
    } as unknown as ConstructorParameters<typeof MongoBulkWriteError>[0],
    {
      getWriteConcernError: () => ({ code: 64, errmsg: 'waiting for replication timed out' }),
    } as unknown as ConstructorParameters<typeof MongoBulkWriteError>[1],
  );
  t.true(isTransientMongoError(staleAndTimeout));
});

for (const [what, op, kind] of [
  ['at commit', 'commitTransaction', 'replicaSet'],
  ['on a bulk write of a standalone server', 'bulkWrite', 'standalone'],
] as const) {
  test(`mongo fault: a write concern the deployment can never satisfy (79 UnknownReplWriteConcern, 100 UnsatisfiableWriteConcern) stops the projector at once, saying what to check (${what})`, async (t) => {
    for (const refusal of [mongoErrors.unknownWriteConcernMode, mongoErrors.unsatisfiableWriteConcern]) {
      const server = new FakeMongo(kind);
      let retries = 0;
      const store = await openFakeStore(server, { allowStandalone: true, onRetry: () => retries++ });
      const { log, projector } = await projectorOn(store);
      server.fail(op, refusal);
      const waiting = projector.waitFor(1);
      await log.append(request(1, [1]));
      const error = await t.throwsAsync(waiting, { instanceOf: WriteConcernRefusedError });
      t.is(error!.code, refusal().result.writeConcernError.code);
      t.regex(error!.message, new RegExp(refusal().message));
      t.regex(error!.message, /not retried/);
      t.regex(error!.message, /MONGODB_URL/);
      t.is(retries, 0);
      t.is(await store.position(), 0);
      await log.close();
      await store.close();
    }
  });
}

test('mongo fault: the API answers a read past its time limit with 503, Retry-After and a NetBox-shaped detail', async (t) => {
  const headers: Record<string, string> = {};
  const logged: Array<Record<string, unknown>> = [];
  const ctx = {
    status: 200,
    body: undefined as unknown,
    state: { requestId: 'r1' },
    set: (k: string, v: string) => (headers[k] = v),
  };
  const middleware = errorResponses((entry) => logged.push(entry));
  await middleware(ctx as unknown as Parameters<typeof middleware>[0], async () => {
    throw new ReadStoreUnavailableError('read model query exceeded its time limit of 10000 ms', 5);
  });
  t.is(ctx.status, 503);
  t.is(headers['Retry-After'], '5');
  t.deepEqual(ctx.body, { detail: 'The read models did not answer in time; retry shortly.' });
  t.regex(String(logged[0]?.msg), /time limit/);
});

test('mongo fault: exact and starts-with case-insensitive matches on shadowed fields query the folded, indexed key; documents come back without it', async (t) => {
  const server = new FakeMongo();
  const store = await openFakeStore(server, { caseInsensitiveFields: caseInsensitiveFields(registry) });
  const DEVICE = 'dcim.device';
  await store.ensureIndexes(DEVICE, [['name']]);
  t.true(server.indexes.get(DEVICE)!.some((spec) => JSON.stringify(spec.key) === JSON.stringify({ '_lc.name': 1 })));
  await store.apply(
    [change(DEVICE, 1, 1, { name: 'Edge-\u017f1', site: 3 }), change(DEVICE, 2, 2, { name: 'core', site: 3 })],
    2,
  );
  t.deepEqual(server.docs(DEVICE)[0]!._lc, { name: 'edge-s1' });
  // The uniqueness check's question: another device named so in this site, whatever the case?
  const found = await store.find(
    DEVICE,
    { id: { $ne: 9 }, name: regexCondition('ie', ['EDGE-S1']), site: { $eq: 3 } },
    { limit: 1 },
  );
  t.deepEqual(
    found.map((d) => d.id),
    [1],
  );
  t.false('_lc' in found[0]!);
  const asked = server.ops.filter((o) => o.op === 'find' && o.collection === DEVICE).at(-1)!.filter!;
  t.deepEqual(asked, { id: { $ne: 9 }, '_lc.name': 'edge-s1', site: { $eq: 3 } });
  // Starts-with is a prefix of the folded key, which the index bounds: case-sensitive there.
  t.deepEqual(
    (await store.find(DEVICE, { name: regexCondition('isw', ['EDGE-\u017f']) })).map((d) => d.id),
    [1],
  );
  t.deepEqual(server.ops.filter((o) => o.op === 'find' && o.collection === DEVICE).at(-1)!.filter, {
    '_lc.name': { $regex: '^edge-s' },
  });
  // Contains is still a regex (no index answers it), on the field itself.
  await store.find(DEVICE, { name: regexCondition('ic', ['dge']) });
  t.deepEqual(Object.keys(server.ops.filter((o) => o.op === 'find' && o.collection === DEVICE).at(-1)!.filter!), [
    'name',
  ]);
  await store.close();
});

test('mongo fault: a batch too large for one transaction is written in parts, the position with the last; a failure between parts is replayed', async (t) => {
  const server = new FakeMongo();
  const store = await openFakeStore(server);
  const reader = await openFakeStore(server);
  const n = MAX_TRANSACTION_DOCUMENTS * 2 + 10;
  const positions: number[] = [];
  // After the first part commits, a reader still sees the old position; the second part's commit is lost once.
  server.before('commitTransaction', () =>
    server.before('commitTransaction', async () => {
      positions.push(await reader.position());
      server.fail('commitTransaction', mongoErrors.network);
    }),
  );
  await store.apply(
    Array.from({ length: n }, (_, i) => change(SITE, i + 1, i + 1, { name: `s${i + 1}` })),
    n,
  );
  t.deepEqual(positions, [0]);
  t.is(await store.position(), n);
  t.is(await store.count(SITE, {}), n);
  t.deepEqual(await store.maxIds(), { [SITE]: n });
  t.true(server.ops.filter((o) => o.op === 'commitTransaction').length >= 4);
  await store.close();
  await reader.close();
});

test('mongo fault: read models of an older layout (no shadow keys) are dropped at open, and the projector rebuilds them from the log', async (t) => {
  const server = new FakeMongo();
  const first = await openFakeStore(server);
  const { log, projector, storage } = await projectorOn(first);
  await log.append(request(1, [1, 2]));
  await projector.waitFor(2);
  await log.close();
  await first.close();
  t.is(server.docs('netledger_meta')[0]!.format, READ_MODEL_FORMAT);
  // As an older version left it: no layout recorded.
  server.state.get('netledger_meta')!.set('projection', { _id: 'projection', position: 2, maxIds: {} });
  const told: string[] = [];
  const again = await openFakeStore(server, { onRebuild: (message) => told.push(message) });
  t.is(await again.position(), 0);
  t.regex(told[0] ?? '', /older layout/);
  const restarted = await projectorOn(again, storage);
  await restarted.projector.waitFor(2);
  t.is(await again.count(SITE, {}), 2);
  await restarted.log.close();
  await again.close();
});

for (const kind of ['replicaSet', 'standalone'] as const) {
  test(`mongo fault: a second projector's older write racing a delete does not resurrect the object (${kind})`, async (t) => {
    const server = new FakeMongo(kind);
    const current = await openFakeStore(server, { allowStandalone: true });
    const lagging = await openFakeStore(server, { allowStandalone: true });
    // The lagging projector has looked for the site and its tombstone (neither there yet) when
    // the current one applies a batch creating and deleting it; then it writes its old version.
    server.before(
      'bulkWrite',
      () => current.apply([change(SITE, 1, 1, { name: 'a' }), change(SITE, 1, 2, null)], 2),
      SITE,
    );
    await lagging.apply([change(SITE, 1, 1, { name: 'a' })], 1);
    t.is(await current.get(SITE, 1), null);
    t.is(await current.count(SITE, {}), 0);
    t.is(await current.position(), 2);
    await current.close();
    await lagging.close();
  });
}

test("mongo fault: the store names the driver's and server's errors its own failures (refused credentials, a closed client), never an error of the data", async (t) => {
  const store = await openFakeStore(new FakeMongo());
  t.teardown(() => store.close());
  const unauthorized = new MongoServerError({
    message: 'command find requires authentication',
    code: 13,
    codeName: 'Unauthorized',
  });
  t.true(store.isStoreFailure(unauthorized));
  t.true(store.isStoreFailure(new MongoTopologyClosedError()));
  t.false(store.isStoreFailure(new TypeError('cannot read properties of undefined')));
  t.false(
    store.isStoreFailure(new RetriesExhaustedError(3, 1_000, unauthorized)),
    'the wrapper is judged by its cause, by whoever walks the chain',
  );
});
