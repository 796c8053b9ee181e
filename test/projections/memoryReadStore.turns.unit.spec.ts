import test from 'ava';

import { MemoryReadStore } from '../../src/projections/memory/MemoryReadStore.js';
import type { DocumentChange } from '../../src/projections/ReadStore.js';

test('the memory store applies a large batch in one go after preparing it in turns: a read sees all of it or none', async (t) => {
  const store = new MemoryReadStore();
  const n = 30_000;
  const changes: DocumentChange[] = Array.from({ length: n }, (_, i) => ({
    collection: 'dcim.site',
    id: i + 1,
    position: 1,
    doc: { id: i + 1, _pos: 1, name: `site ${i}`, tags: [{ name: 'x' }], custom_fields: { a: i } },
  }));
  const seen: number[] = [];
  let done = false;
  const read = async () => {
    seen.push((await store.find('dcim.site', {})).length);
    if (!done) setImmediate(read);
  };
  setImmediate(read);
  await store.apply(changes, 1);
  done = true;
  t.true(seen.length >= 1, 'reads ran while the batch was being prepared');
  t.deepEqual([...new Set(seen)], [0], 'no read saw part of the batch');
  t.is((await store.find('dcim.site', {})).length, n);
});
