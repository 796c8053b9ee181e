import test from 'ava';

import { MemoryReadStore } from '../../src/projections/memory/MemoryReadStore.js';
import { loadDataset, runQuery } from '../support/queryDataset.js';
import { CASES } from '../support/queryTable.js';

/** The query table on the embedded read store: exact ids, in order, or NetBox's 400 body. */
const store = new MemoryReadStore();
const ready = loadDataset(store);

for (const c of CASES) {
  const title = `${c.model} ?${c.query.length > 80 ? `${c.query.slice(0, 60)}…(${c.query.length} chars)` : c.query}${c.note ? ` — ${c.note}` : ''}`;
  test(title, async (t) => {
    await ready;
    const result = await runQuery(store, c.model, c.query);
    if (c.error) t.deepEqual(result, { error: c.error });
    else t.deepEqual(result, { ids: c.ids });
  });
}
