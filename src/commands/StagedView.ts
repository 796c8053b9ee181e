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
    const layers = this.layers.map((layer) => layer.docs.get(model)).filter((c): c is Map<number, ReadDocument | null> => !!c && c.size > 0);
    const shadowCount = layers.reduce((n, c) => n + c.size, 0);
    const storeLimit = limit === undefined ? undefined : limit + shadowCount;
    const fromStore = await this.store.find(model, query, storeLimit === undefined ? {} : { limit: storeLimit });
    if (shadowCount === 0) return (limit === undefined ? fromStore : fromStore.slice(0, limit)) as StoredObject[];
    const results = fromStore.filter((d) => !layers.some((c) => c.has(d.id))) as StoredObject[];
    // Staged documents: the newest layer's version wins. Plain equalities reject most
    // of them before the general matcher is even compiled (a bulk request checks
    // uniqueness once per item against every item staged before it).
    const equalities = plainEqualities(query);
    const seen = new Set<number>();
    let matcher: MingoQuery | null = null;
    for (let i = layers.length - 1; i >= 0; i--) {
      for (const [id, doc] of layers[i]) {
        if (seen.has(id)) continue;
        seen.add(id);
        if (!doc || !equalities.every(([key, value]) => equals(doc[key], value))) continue;
        matcher ??= new MingoQuery(query);
        if (matcher.test(doc)) results.push(doc as StoredObject);
      }
    }
    results.sort((a, b) => a.id - b.id);
    return limit === undefined ? results : results.slice(0, limit);
  }
}

type Scalar = string | number | boolean;

function isScalar(value: unknown): value is Scalar {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}

/** Top-level `field: scalar` and `field: {$eq: scalar}` terms of a query: necessary conditions for a match. */
function plainEqualities(query: Record<string, unknown>): Array<[string, Scalar]> {
  const terms: Array<[string, Scalar]> = [];
  for (const [key, value] of Object.entries(query)) {
    if (key.startsWith('$') || key.includes('.')) continue;
    if (isScalar(value)) terms.push([key, value]);
    else if (value && typeof value === 'object' && !Array.isArray(value)) {
      const keys = Object.keys(value);
      const eq = (value as Record<string, unknown>).$eq;
      if (keys.length === 1 && keys[0] === '$eq' && isScalar(eq)) terms.push([key, eq]);
    }
  }
  return terms;
}

/** MongoDB equality on one value: the field equals it, or is an array holding it. */
function equals(field: unknown, value: Scalar): boolean {
  return field === value || (Array.isArray(field) && field.includes(value));
}
