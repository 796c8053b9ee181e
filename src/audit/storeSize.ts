import type { ModelRegistry } from '../models/registry.js';
import type { ReadStore } from '../projections/ReadStore.js';

/** Documents sampled per collection to estimate its average size. */
const SAMPLE = 16;
/**
 * Heap bytes per byte of a document's JSON in a MemoryReadStore (object and string
 * overheads plus the index entries): bench/auditBodies.bench.ts measured 1.7 for sites
 * (a past state of 20,000 sites: 15.7 MiB of heap for 9.1 MiB of JSON); 2 errs on the
 * large side.
 */
const HEAP_PER_JSON_BYTE = 2;

/**
 * The approximate memory a read store holds: per collection, its document count times the
 * average JSON size of a few of its documents, scaled to heap bytes. Cheap (a count and a
 * small sample per model), so a cache can weigh what it keeps.
 */
export async function approximateStoreBytes(store: ReadStore, registry: ModelRegistry): Promise<number> {
  let bytes = 0;
  for (const definition of registry.all()) {
    const count = await store.count(definition.key, {});
    if (count === 0) continue;
    const sample = await store.find(definition.key, {}, { limit: SAMPLE });
    let sampled = 0;
    for (const doc of sample) sampled += JSON.stringify(doc).length;
    bytes += (count * sampled) / Math.max(1, sample.length);
  }
  return Math.round(bytes * HEAP_PER_JSON_BYTE);
}
