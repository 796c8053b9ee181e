import test from 'ava';
import { readStoreContract } from './readStore.contract.js';
import { scratchMongoStore } from '../support/scratchMongoStore.js';

/**
 * Runs the ReadStore contract against a real MongoDB when MONGODB_URL is set
 * (e.g. MONGODB_URL=mongodb://localhost:27017 npx ava test/projections/).
 * Every test gets a database of its own, dropped afterwards.
 */
const url = process.env.MONGODB_URL;

if (!url) {
  test('MongoReadStore contract skipped: MONGODB_URL not set', (t) => {
    t.log('skipped: MONGODB_URL not set; set it to a MongoDB server to run the MongoReadStore contract');
    t.pass();
  });
} else {
  let counter = 0;
  const run = `${process.pid}_${Date.now().toString(36)}`;

  readStoreContract('MongoReadStore', () => scratchMongoStore(url, `netledger_test_${run}_${counter++}`));
}
