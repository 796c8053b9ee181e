import type { AuditIndex } from './AuditIndex.js';

/** One object of a past list ordered by `last_updated`: its id and `last_updated` then (microseconds; NaN: not known). */
export interface StampedObject {
  id: number;
  stamp: number;
}

/**
 * The objects of `type` that existed at `at`, in the order of their `last_updated` then
 * (-1: newest first), each once. An object's `last_updated` at `at` is that of its last change
 * on main at or before it; while the index says those never went backwards
 * (AuditIndex.lastUpdatedOrdered), that order is the order of those changes' positions, so
 * a page is read off the positions around `at` instead of sorting every object whose
 * `last_updated` moved since. Objects with equal `last_updated` come in position order:
 * the caller orders a tie by the rest of its sort. Lazy: a page takes what it needs.
 */
export function* objectsByLastUpdated(
  index: AuditIndex,
  type: string,
  at: number,
  direction: 1 | -1,
): Generator<StampedObject> {
  const code = index.typeCode(type);
  const last = Math.min(at, index.head);
  if (code === undefined || last < 1) return;
  if (direction === -1) {
    // Walking down from `at`, an object's first change met is its last one at or before `at`.
    const met = new Set<number>();
    for (let p = last; p >= 1; p--) {
      if (index.typeCodeAt(p) !== code || index.isBranchChange(p)) continue;
      const id = index.objectIdAt(p);
      if (met.has(id)) continue;
      met.add(id);
      if (index.actionAt(p) !== 'delete') yield { id, stamp: index.lastUpdatedMicrosAt(p) };
    }
    return;
  }
  // Walking up from the start, a change counts where it is the object's last one at or before `at`.
  for (let p = 1; p <= last; p++) {
    if (index.typeCodeAt(p) !== code || index.isBranchChange(p) || index.actionAt(p) === 'delete') continue;
    const id = index.objectIdAt(p);
    if (index.mainPositionAt(type, id, at) === p) yield { id, stamp: index.lastUpdatedMicrosAt(p) };
  }
}
