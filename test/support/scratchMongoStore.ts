import { MongoClient } from 'mongodb';
import { MongoReadStore } from '../../src/projections/MongoReadStore.js';

/** A MongoReadStore on a database of its own, dropped again by `cleanup`. */
export async function scratchMongoStore(url: string, dbName: string): Promise<{ store: MongoReadStore; cleanup(): Promise<void> }> {
  const store = new MongoReadStore({ url, dbName });
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
