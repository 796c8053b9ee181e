import type { ModelRegistry } from '../models/registry.js';
import { evolve } from '../projections/evolve.js';
import { MemoryReadStore } from '../projections/memory/MemoryReadStore.js';
import { readModelIndexes } from '../projections/readModelIndexes.js';
import type { ReadStore } from '../projections/ReadStore.js';
import type { AuditLog } from './AuditLog.js';

export interface PastStatesOptions {
  /** Past states kept (each is a full in-memory copy of the registry at that point). Default 3. */
  maxEntries?: number;
}

/**
 * The registry as it was at a log position (`?as_of=`): an in-memory read store
 * rebuilt by replaying the log up to that position with the projector's own
 * `evolve`, so a past state is exactly what the read models held then. The few most
 * recently used states are cached (bounded by `maxEntries`); concurrent requests for
 * the same position share one build. Replay yields to the event loop between chunks.
 */
export class PastStates {
  private readonly cache = new Map<number, Promise<ReadStore>>();
  private readonly maxEntries: number;
  /** Builds done (for tests and monitoring). */
  builds = 0;

  constructor(
    private readonly audit: AuditLog,
    private readonly registry: ModelRegistry,
    options: PastStatesOptions = {},
  ) {
    this.maxEntries = Math.max(1, options.maxEntries ?? 3);
  }

  at(position: number): Promise<ReadStore> {
    if (!Number.isInteger(position) || position < 0 || position > this.audit.head) {
      return Promise.reject(new RangeError(`no log position ${position}`));
    }
    const cached = this.cache.get(position);
    if (cached) {
      // Most recently used goes last.
      this.cache.delete(position);
      this.cache.set(position, cached);
      return cached;
    }
    const building = this.build(position);
    this.cache.set(position, building);
    building.catch(() => this.cache.delete(position));
    while (this.cache.size > this.maxEntries) {
      const oldest = this.cache.keys().next().value as number;
      const evicted = this.cache.get(oldest)!;
      this.cache.delete(oldest);
      evicted.then((store) => store.close(), () => undefined);
    }
    return building;
  }

  clear(): void {
    for (const store of this.cache.values()) store.then((s) => s.close(), () => undefined);
    this.cache.clear();
  }

  private async build(position: number): Promise<ReadStore> {
    this.builds++;
    const store = new MemoryReadStore();
    await store.open();
    for (const [collection, fields] of readModelIndexes(this.registry)) await store.ensureIndexes(collection, fields);
    for (const chunk of this.audit.range(1, position)) {
      await store.apply(chunk.map((event) => evolve(this.registry, event)), chunk[chunk.length - 1]!.position);
      await new Promise((resolve) => setImmediate(resolve));
    }
    return store;
  }
}
