import { registry } from '../../src/models/registry.js';
import { MongoReadStore } from '../../src/projections/mongo/MongoReadStore.js';
import { caseInsensitiveFields } from '../../src/projections/mongo/shadowKeys.js';
import { FakeMongo } from '../support/fakeMongo.js';
import { readStoreContract } from '../support/readStore.contract.js';

/**
 * The ReadStore contract against MongoReadStore on the in-process fake MongoDB (a
 * replica set, so every apply is a transaction and every list read a snapshot): the
 * adapter's own logic, without a server. The real server runs the same contract in
 * mongoReadStore.int.spec.ts when MONGODB_URL is set.
 */
readStoreContract('MongoReadStore on a fake replica set', async () => {
  const server = new FakeMongo('replicaSet');
  const store = new MongoReadStore({
    url: 'mongodb://fake',
    dbName: 'netledger',
    connect: () => server.client(),
    caseInsensitiveFields: caseInsensitiveFields(registry),
  });
  await store.open();
  return { store, cleanup: () => store.close() };
});

readStoreContract('MongoReadStore on a fake standalone server', async () => {
  const server = new FakeMongo('standalone');
  const store = new MongoReadStore({
    url: 'mongodb://fake',
    dbName: 'netledger',
    connect: () => server.client(),
    allowStandalone: true,
    caseInsensitiveFields: caseInsensitiveFields(registry),
  });
  await store.open();
  return { store, cleanup: () => store.close() };
});
