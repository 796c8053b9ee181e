import { Query as MingoQuery } from 'mingo';
import type { LookupView, StoredObject } from '../models/types.js';
import type { DocumentChange, ReadDocument, ReadStore } from '../projections/ReadStore.js';

/**
 * What the writer sees: the read models plus changes decided but not yet projected,
 * layered in order (store, then the writer's staged batches, then the current
 * request's own changes). This lets the writer decide request N+1 while request N
 * is still waiting for its fsync, which is what makes group commit possible.
 */
export class Overlay {
  /** collection → id → document (null: deleted) */
  readonly docs = new Map<string, Map<number, ReadDocument | null>>();

  put(change: DocumentChange): void {
    let collection = this.docs.get(change.collection);
    if (!collection) this.docs.set(change.collection, (collection = new Map()));
    collection.set(change.id, change.doc);
  }

  /** Forget a staged change once the read model holds it (unless a later one replaced it). */
  settle(change: DocumentChange): void {
    const collection = this.docs.get(change.collection);
    if (!collection || !collection.has(change.id)) return;
    const current = collection.get(change.id);
    const currentPosition = current === null ? null : current?._pos;
    if (current === change.doc || currentPosition === change.position) collection.delete(change.id);
    if (collection.size === 0) this.docs.delete(change.collection);
  }

  mergeInto(other: Overlay): void {
    for (const [name, collection] of this.docs) {
      for (const [id, doc] of collection) other.put({ collection: name, id, doc, position: doc?._pos ?? 0 });
    }
  }
}

export class StagedView implements LookupView {
  constructor(
    private readonly store: ReadStore,
    private readonly layers: Overlay[],
  ) {}

  async get(model: string, id: number): Promise<StoredObject | null> {
    for (let i = this.layers.length - 1; i >= 0; i--) {
      const collection = this.layers[i].docs.get(model);
      if (collection?.has(id)) return (collection.get(id) as StoredObject | null) ?? null;
    }
    return (await this.store.get(model, id)) as StoredObject | null;
  }

  async find(model: string, query: Record<string, unknown>, limit?: number): Promise<StoredObject[]> {
    const shadowed = new Map<number, ReadDocument | null>();
    for (const layer of this.layers) {
      for (const [id, doc] of layer.docs.get(model) ?? []) shadowed.set(id, doc);
    }
    const storeLimit = limit === undefined ? undefined : limit + shadowed.size;
    const fromStore = await this.store.find(model, query, storeLimit === undefined ? {} : { limit: storeLimit });
    const results: StoredObject[] = fromStore.filter((d) => !shadowed.has(d.id)) as StoredObject[];
    if (shadowed.size > 0) {
      const matcher = new MingoQuery(query);
      for (const doc of shadowed.values()) {
        if (doc && matcher.test(doc)) results.push(doc as StoredObject);
      }
      results.sort((a, b) => a.id - b.id);
    }
    return limit === undefined ? results : results.slice(0, limit);
  }
}
