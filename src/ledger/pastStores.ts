import type { PastStoreFactory } from '../audit/PastStates.js';
import type { ModelRegistry } from '../models/registry.js';
import { MemoryReadStore, type ReadModelCapture } from '../projections/memory/MemoryReadStore.js';
import { readModelIndexes } from '../projections/readModelIndexes.js';

/** Read models saved at earlier positions (snapshots): a replay starts from the nearest one. */
export interface PastStartingPoints {
  /** The newest usable saved state at or before `position`, or null. */
  nearest(position: number): Promise<{ capture: ReadModelCapture } | null>;
}

/**
 * Past states (`?as_of=`) are in-memory read stores whatever serves the live read models: one
 * is a whole copy read by a few requests and dropped when evicted, and read-model snapshots
 * (`startingPoints`, null: every replay from position 1) are captures of the memory store.
 */
export function memoryPastStores(
  registry: ModelRegistry,
  startingPoints: PastStartingPoints | null = null,
): PastStoreFactory {
  return {
    async startAt(position) {
      const store = new MemoryReadStore();
      await store.open();
      for (const [collection, fields] of readModelIndexes(registry)) await store.ensureIndexes(collection, fields);
      const start = await startingPoints?.nearest(position);
      if (start) store.restore(start.capture);
      return { store, position: start?.capture.position ?? 0 };
    },
  };
}
