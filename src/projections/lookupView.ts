import type { LookupView } from '../models/lookupView.js';
import type { StoredObject } from '../models/storedObject.js';
import type { ReadStore } from './ReadStore.js';

/**
 * Read access to what the read models hold: every acknowledged write, and nothing the
 * writer has decided but not yet made durable.
 */
export function lookupView(store: ReadStore): LookupView {
  return {
    get: (model, id) => store.get(model, id) as Promise<StoredObject | null>,
    find: (model, query, limit) =>
      store.find(model, query, limit === undefined ? {} : { limit }) as Promise<StoredObject[]>,
    count: (model, query) => store.count(model, query),
    countBy: (model, field, values) => store.countBy(model, field, values),
    freeAddresses: (query) => store.freeAddresses(query),
  };
}
