import { MongoClient } from 'mongodb';

import { registry } from '../../src/models/registry.js';
import { MongoReadStore } from '../../src/projections/mongo/MongoReadStore.js';
import { caseInsensitiveFields } from '../../src/projections/mongo/shadowKeys.js';

/** A MongoReadStore on a database of its own, dropped again by `cleanup`. */
export async function scratchMongoStore(
  url: string,
  dbName: string,
): Promise<{ store: MongoReadStore; cleanup(): Promise<void> }> {
  // A test server may be a standalone one; the adapter's tests run there too.
  const store = new MongoReadStore({
    url,
    dbName,
    allowStandalone: true,
    caseInsensitiveFields: caseInsensitiveFields(registry),
  });
  await store.open();
  return {
    store,
    cleanup: async () => {
      await store.close();
      const client = new MongoClient(url);
      try {
        await client.connect();
        await client.db(dbName).dropDatabase();
      } finally {
        await client.close();
      }
    },
  };
}
