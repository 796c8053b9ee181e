import test from 'ava';
import { type Document, MongoClient } from 'mongodb';

import { registry } from '../../src/models/registry.js';
import { caseInsensitiveFields, useShadowKeys } from '../../src/projections/mongo/shadowKeys.js';
import { readModelIndexes } from '../../src/projections/readModelIndexes.js';
import type { DocumentChange, Query, ReadDocument } from '../../src/projections/ReadStore.js';
import { regexCondition } from '../../src/projections/textPatterns.js';
import { readStoreContract } from '../support/readStore.contract.js';
import { scratchMongoStore } from '../support/scratchMongoStore.js';

/**
 * Runs the ReadStore contract against a real MongoDB when MONGODB_URL is set
 * (e.g. MONGODB_URL=mongodb://localhost:27017 npx ava test/projections/).
 * Every test gets a database of its own, dropped afterwards. The cases on atomic
 * visibility need a replica set (a single node is enough, see README).
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
  const dbName = () => `netledger_test_${run}_${counter++}`;

  readStoreContract('MongoReadStore', () => scratchMongoStore(url, dbName()));

  /** Every stage name in an explain() answer, whatever the engine's nesting. */
  function stages(plan: unknown, out: string[] = []): string[] {
    if (Array.isArray(plan)) for (const p of plan) stages(p, out);
    else if (plan && typeof plan === 'object') {
      for (const [key, value] of Object.entries(plan as Document)) {
        if (key === 'stage' && typeof value === 'string') out.push(value);
        else if (key !== 'rejectedPlans') stages(value, out);
      }
    }
    return out;
  }

  const shadowed = caseInsensitiveFields(registry);
  // The main filters of bench/query.bench.ts, as the query compiler writes them.
  const FILTERS: Array<[string, string, Query]> = [
    [
      'IP addresses ?vrf_id=&status=&dns_name__ic=',
      'ipam.ipaddress',
      { vrf: { $in: [3] }, status: { $in: ['active'] }, dns_name: regexCondition('ic', ['core']) },
    ],
    [
      'prefixes ?site_id=&status=&description__ic=',
      'ipam.prefix',
      { site: { $in: [7] }, status: { $in: ['active'] }, description: regexCondition('ic', ['core']) },
    ],
    [
      'devices ?site_id=&status=&name__ic=',
      'dcim.device',
      { site: { $in: [7] }, status: { $in: ['active'] }, name: regexCondition('ic', ['edge']) },
    ],
    ['devices ?name= (iexact, through the shadow key)', 'dcim.device', { name: regexCondition('ie', ['Edge-1']) }],
    ['devices ?name__isw= (a prefix of the shadow key)', 'dcim.device', { name: regexCondition('isw', ['Edge-1']) }],
    [
      'the device name uniqueness check',
      'dcim.device',
      { id: { $ne: 1 }, name: regexCondition('ie', ['edge-1']), site: { $eq: 7 }, tenant: null },
    ],
  ];

  test('MongoReadStore: the main list filters of the query benchmark are answered through an index (explain)', async (t) => {
    const name = dbName();
    const { store, cleanup } = await scratchMongoStore(url, name);
    t.teardown(cleanup);
    for (const [collection, fields] of readModelIndexes(registry)) await store.ensureIndexes(collection, fields);
    const changes: DocumentChange[] = [];
    for (let id = 1; id <= 200; id++) {
      const doc = {
        id,
        name: `edge-${id}`,
        site: id % 10,
        status: id % 3 ? 'active' : 'planned',
        vrf: id % 5,
        tenant: null,
        dns_name: `h${id}.core`,
        description: 'core',
      };
      for (const collection of ['ipam.ipaddress', 'ipam.prefix', 'dcim.device'])
        changes.push({ collection, id, position: id, doc: { ...doc, _pos: id } as ReadDocument });
    }
    await store.apply(changes, 200);
    const client = new MongoClient(url);
    await client.connect();
    t.teardown(() => client.close());
    for (const [title, collection, query] of FILTERS) {
      const plan = await client
        .db(name)
        .collection(collection)
        .find(useShadowKeys(query, shadowed.get(collection)))
        .explain('queryPlanner');
      const used = stages(plan.queryPlanner);
      t.true(used.includes('IXSCAN'), `${title}: ${used.join(' > ')}`);
      t.false(used.includes('COLLSCAN'), `${title}: ${used.join(' > ')}`);
    }
  });

  test('MongoReadStore: a reader during a 1,000-document apply sees none or all of it (replica set)', async (t) => {
    const { store, cleanup } = await scratchMongoStore(url, dbName());
    t.teardown(cleanup);
    if (!(store as unknown as { transactional: boolean }).transactional) {
      t.log('skipped: the server is standalone; atomic visibility needs a replica set');
      t.pass();
      return;
    }
    const changes: DocumentChange[] = Array.from({ length: 1000 }, (_, i) => ({
      collection: 'dcim.site',
      id: i + 1,
      position: i + 1,
      doc: { id: i + 1, name: `site-${i + 1}`, _pos: i + 1 } as ReadDocument,
    }));
    let done = false;
    const applying = store.apply(changes, 1000).finally(() => (done = true));
    const seen = new Set<string>();
    while (!done) {
      const { count, docs } = await store.findWithCount!('dcim.site', {}, { limit: 1000 });
      seen.add(`${count}/${docs.length}`);
    }
    await applying;
    const { count, docs } = await store.findWithCount!('dcim.site', {}, { limit: 1000 });
    seen.add(`${count}/${docs.length}`);
    t.true(
      [...seen].every((s) => s === '0/0' || s === '1000/1000'),
      [...seen].join(', '),
    );
    t.is(await store.position(), 1000);
  });
}
