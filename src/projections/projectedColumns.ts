import type { LookupView } from '../models/lookupView.js';
import type { ColumnTransition } from '../models/modelHooks.js';
import type { ModelRegistry } from '../models/registry.js';
import type { StoredObject } from '../models/storedObject.js';
import type { DocumentChange, ReadStore } from './ReadStore.js';
import { withRelationOrderKeys } from './relationOrderKeys.js';

/**
 * A batch of projected changes with the columns models keep from their neighbours (see
 * ProjectedColumns): each changed document carries its columns' values after the batch,
 * and every other document whose values the batch changes gets a column patch, in the
 * same list, so both go to the store in the same apply. Changes the store already holds
 * (a batch applied again) are no transition: applying a batch twice leaves the same state.
 */
export async function withProjectedColumns(
  registry: ModelRegistry,
  store: ReadStore,
  batch: DocumentChange[],
): Promise<DocumentChange[]> {
  // the order keys of relations in default orderings, which documents keep from other models
  const changes = await withRelationOrderKeys(registry, store, batch);
  const collections = new Set<string>();
  for (const change of changes)
    if (!change.columns && registry.tryGet(change.collection)?.projectedColumns) collections.add(change.collection);
  if (collections.size === 0) return changes;
  let out = changes;
  for (const collection of collections) out = await projectCollection(registry, store, out, collection);
  return out;
}

async function projectCollection(
  registry: ModelRegistry,
  store: ReadStore,
  changes: DocumentChange[],
  collection: string,
): Promise<DocumentChange[]> {
  const columns = registry.get(collection).projectedColumns!;
  const last = new Map<number, DocumentChange>();
  for (const change of changes) if (change.collection === collection && !change.columns) last.set(change.id, change);
  const stored = new Map((await store.getMany(collection, [...last.keys()])).map((d) => [d.id, d]));
  const transitions: ColumnTransition[] = [];
  for (const [id, change] of last) {
    const before = stored.get(id) ?? null;
    if (before && before._pos >= change.position) continue;
    transitions.push({ id, before: before as StoredObject | null, after: change.doc as StoredObject | null });
  }
  if (transitions.length === 0) return changes;
  const values = await columns.project(transitions, storeView(store));
  const moving = new Set(transitions.map((t) => t.id));
  const position = changes.reduce((highest, c) => Math.max(highest, c.position), 0);
  const out = changes.map((change) => {
    const own =
      change.collection === collection && change.doc && moving.has(change.id) ? values.get(change.id) : undefined;
    return own ? { ...change, doc: { ...change.doc!, ...own } } : change;
  });
  for (const [id, patch] of values) {
    if (!last.has(id)) out.push({ collection, id, position, doc: null, columns: patch });
  }
  return out;
}

/** The read models as a LookupView (as they are before the batch is applied). */
function storeView(store: ReadStore): LookupView {
  return {
    get: async (model, id) => (await store.get(model, id)) as StoredObject | null,
    find: async (model, query, limit) =>
      (await store.find(model, query, limit === undefined ? {} : { limit })) as StoredObject[],
    count: (model, query) => store.count(model, query),
  };
}
