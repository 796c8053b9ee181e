import test from 'ava';

import { relationOrderedPage, requestedRelations } from '../../src/api/query/relationOrder.js';
import { compileSort } from '../../src/api/query/sort.js';
import { registry } from '../../src/models/registry.js';
import { MemoryReadStore } from '../../src/projections/memory/MemoryReadStore.js';
import { MongoReadStore } from '../../src/projections/mongo/MongoReadStore.js';
import { caseInsensitiveFields } from '../../src/projections/mongo/shadowKeys.js';
import type { ReadStore } from '../../src/projections/ReadStore.js';
import { FakeMongo } from '../support/fakeMongo.js';
import { DATASET, loadDataset, runQuery } from '../support/queryDataset.js';
import { CASES } from '../support/queryTable.js';

/**
 * `?ordering=<relation>` orders by the related objects' own order on both read stores (the
 * MongoDB one on the in-process fake), and follows the relations of the related model's
 * ordering (a rack: site, then location, then name).
 */

// Two more racks whose ids run against their sites' and locations' order, and devices in them.
const RACKS = {
  ...DATASET,
  'dcim.rack': [
    { id: 1, name: 'R1', site: 1, location: 2, status: 'active' }, // DC-1, Cage 1
    { id: 2, name: 'R0', site: 2, location: null, status: 'active' }, // DC-10
    { id: 3, name: 'R9', site: 1, location: 1, status: 'active' }, // DC-1, Hall A
    { id: 4, name: 'R2', site: 1, location: 2, status: 'active' }, // DC-1, Cage 1
  ],
  'dcim.device': DATASET['dcim.device']!.map((d) => ({
    ...d,
    rack: { 1: 1, 2: 2, 3: 3, 4: 4, 5: null }[d.id as number],
  })),
};

const stores: Array<[string, () => Promise<ReadStore>]> = [
  ['MemoryReadStore', async () => new MemoryReadStore()],
  [
    'MongoReadStore (fake)',
    async () => {
      const server = new FakeMongo('replicaSet');
      const store = new MongoReadStore({
        url: 'mongodb://fake',
        dbName: 'netledger',
        connect: () => server.client(),
        caseInsensitiveFields: caseInsensitiveFields(registry),
      });
      await store.open();
      return store;
    },
  ],
];

const relationCases = CASES.filter((c) => /ordering=[^&]*\b(site|tenant|rack|device|vrf)\b/.test(c.query));

for (const [name, open] of stores) {
  test(`${name}: the query table's relation orderings`, async (t) => {
    const store = await open();
    await loadDataset(store);
    t.true(relationCases.length >= 10);
    for (const c of relationCases)
      t.deepEqual(await runQuery(store, c.model, c.query), { ids: c.ids }, `${c.model} ?${c.query}`);
    await store.close();
  });

  test(`${name}: devices by rack follow the rack's own order (site, location, name), with offset and limit`, async (t) => {
    const store = await open();
    await loadDataset(store, RACKS);
    // racks in order: DC-1/Cage 1/R1 (1), DC-1/Cage 1/R2 (4), DC-1/Hall A/R9 (3), DC-10/R0 (2); device 5 has none
    t.deepEqual(await runQuery(store, 'dcim.device', 'ordering=rack'), { ids: [1, 4, 3, 2, 5] });
    t.deepEqual(await runQuery(store, 'dcim.device', 'ordering=-rack'), { ids: [5, 2, 3, 4, 1] });
    const definition = registry.get('dcim.device');
    const sort = compileSort(definition, 'rack');
    const page = await relationOrderedPage(
      store,
      definition,
      {},
      sort,
      requestedRelations(definition, 'rack', sort),
      1,
      2,
      registry,
    );
    t.deepEqual({ count: page.count, ids: page.docs.map((d) => d.id) }, { count: 5, ids: [4, 3] });
    await store.close();
  });
}

test('only relations the request names are ordered by their related objects; a relation in brief mode needs to be a brief field', (t) => {
  const device = registry.get('dcim.device');
  t.deepEqual(
    [...requestedRelations(device, 'site,-tenant,name', compileSort(device, 'site,-tenant,name'))],
    [
      ['site', 'dcim.site'],
      ['tenant', 'tenancy.tenant'],
    ],
  );
  t.deepEqual([...requestedRelations(device, 'name', compileSort(device, 'name'))], []);
  t.deepEqual([...requestedRelations(device, 'site', compileSort(device, 'site', { brief: true }))], []);
});
