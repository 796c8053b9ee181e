import test from 'ava';

import { MemoryReadStore } from '../../src/projections/memory/MemoryReadStore.js';
import type { ReadStore } from '../../src/projections/ReadStore.js';
import { loadDataset, runQuery } from '../support/queryDataset.js';
import { CASES } from '../support/queryTable.js';
import { scratchMongoStore } from '../support/scratchMongoStore.js';

/**
 * One semantics: the same query table (the same compiled MongoDB query documents and
 * sorts) against every read store. filters.spec.ts runs it on MemoryReadStore with its
 * planner; here on MemoryReadStore without planner (plain mingo scan and full sort) and
 * on MongoDB when MONGODB_URL is set.
 */
function runTable(name: string, open: () => Promise<{ store: ReadStore; cleanup: () => Promise<void> }>) {
  test(`${name}: the query table gives the expected ids, in order`, async (t) => {
    const { store, cleanup } = await open();
    t.teardown(cleanup);
    await loadDataset(store);
    for (const c of CASES) {
      const result = await runQuery(store, c.model, c.query);
      t.deepEqual(result, c.error ? { error: c.error } : { ids: c.ids }, `${c.model} ?${c.query.slice(0, 120)}`);
    }
    t.log(`${CASES.length} queries`);
  });
}

runTable('MemoryReadStore (planner off)', async () => {
  const store = new MemoryReadStore({ planner: false });
  return { store, cleanup: () => store.close() };
});

const url = process.env.MONGODB_URL;
if (!url) {
  test('MongoReadStore query table skipped: MONGODB_URL not set', (t) => {
    t.log('skipped: MONGODB_URL not set; set it to a MongoDB server to run the query table against MongoReadStore');
    t.pass();
  });
} else {
  runTable('MongoReadStore', () => scratchMongoStore(url, `netledger_query_${process.pid}_${Date.now().toString(36)}`));
}
