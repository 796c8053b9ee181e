import type { ModelRegistry } from '../models/registry.js';
import type { ReadStore } from '../projections/ReadStore.js';

/** Documents sampled per collection to estimate its average size. */
const SAMPLE = 16;
/**
 * Heap bytes per byte of a document's JSON in a MemoryReadStore (object and string
 * overheads plus the index entries), measured with bench/auditBodies.bench.ts.
 */
const HEAP_PER_JSON_BYTE = 4;

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
