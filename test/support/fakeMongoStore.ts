import { MongoReadStore, type MongoReadStoreOptions } from '../../src/projections/mongo/MongoReadStore.js';
import type { DocumentChange, ReadDocument } from '../../src/projections/ReadStore.js';
import type { FakeMongo } from './fakeMongo.js';

/** Retries fast, with a budget no slow machine runs out of: the tests wait on the projector, not on the clock. */
export const FAST_RETRIES = { firstDelayMs: 1, maxDelayMs: 2, budgetMs: 60_000 };

/** A MongoReadStore opened on the fake deployment, connected as the driver would be (its URL and client options). */
export async function openFakeStore(
  server: FakeMongo,
  options: Partial<MongoReadStoreOptions> = {},
): Promise<MongoReadStore> {
  const store = new MongoReadStore({
    url: 'mongodb://fake',
    dbName: 'netledger',
    connect: (url, client) => server.client(url, client),
    retry: FAST_RETRIES,
    ...options,
  });
  await store.open();
  return store;
}

/** A projected change of one document (`null`: its deletion) at a log position. */
export function change(
  collection: string,
  id: number,
  position: number,
  fields: Record<string, unknown> | null,
): DocumentChange {
  return {
    collection,
    id,
    position,
    doc: fields === null ? null : ({ ...fields, id, _pos: position } as ReadDocument),
  };
}
