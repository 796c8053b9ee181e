import type { ReadStore } from '../../projections/ReadStore.js';

/**
 * The store, noting the collection of every read made through it: what a rendering
 * read is what can make it stale. Writes are not expected through it (renders only read).
 */
export function recordReads(store: ReadStore, read: Set<string>): ReadStore {
  const note =
    <A extends unknown[], R>(method: (collection: string, ...rest: A) => R) =>
    (collection: string, ...rest: A): R => {
      read.add(collection);
      return method.call(store, collection, ...rest);
    };
  return {
    open: () => store.open(),
    close: () => store.close(),
    apply: (changes, position, cursor) => store.apply(changes, position, cursor),
    position: () => store.position(),
    resumePoint: () => store.resumePoint(),
    maxIds: () => store.maxIds(),
    drop: () => store.drop(),
    ensureIndexes: (collection, fields) => store.ensureIndexes(collection, fields),
    get: note(store.get),
    getMany: note(store.getMany),
    find: note(store.find),
    count: note(store.count),
    countBy: note(store.countBy),
    findWithCount: store.findWithCount ? note(store.findWithCount) : undefined,
    freeAddresses: (query) => {
      read.add(query.collection);
      return store.freeAddresses(query);
    },
  };
}
