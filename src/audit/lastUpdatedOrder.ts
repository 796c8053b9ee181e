import type { AuditIndex } from './AuditIndex.js';

/** One object of a past list ordered by `last_updated`: its id and `last_updated` then (microseconds; NaN: not known). */
export interface StampedObject {
  id: number;
  stamp: number;
}

/**
 * The objects of `type` that existed at `at`, in the order of their `last_updated` then
 * (-1: newest first), each once. An object's `last_updated` at `at` is that of its last change
 * on main at or before it. While the index keeps the stamps in order
 * (LastUpdatedStamps.ordered), they grow with the positions but for a few listed apart
 * (late), so a page is read off the positions around `at`, the late ones merged in by their
 * stamps, instead of sorting every object whose `last_updated` moved since. Objects with
 * equal `last_updated` come together, in no particular order: the caller orders a tie by the
 * rest of its sort. Lazy: a page takes what it needs.
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
  // The object whose version at `at` position p made (its last change on main at or before `at`,
  // not a delete), each object's worked out once: an object changed many times
  // would otherwise walk its chain again at each of its changes.
  const lastChange = new Map<number, number>();
  const lastVersionAt = (p: number): number | undefined => {
    if (index.typeCodeAt(p) !== code || index.isBranchChange(p) || index.actionAt(p) === 'delete') return undefined;
    const id = index.objectIdAt(p);
    let position = lastChange.get(id);
    if (position === undefined) lastChange.set(id, (position = index.mainPositionAt(type, id, at)));
    return position === p ? id : undefined;
  };
  const lateAt = new Set<number>();
  const late: StampedObject[] = [];
  for (const p of index.stamps.late) {
    if (p > last) break;
    lateAt.add(p);
    const id = lastVersionAt(p);
    if (id !== undefined) late.push({ id, stamp: index.stamps.micros(p) });
  }
  late.sort((a, b) => (a.stamp - b.stamp) * direction);
  const first = (a: number, b: number) => (direction === -1 ? a > b : a < b);
  let next = 0;
  const step = direction === -1 ? -1 : 1;
  for (let p = direction === -1 ? last : 1; p >= 1 && p <= last; p += step) {
    if (lateAt.has(p)) continue;
    const id = lastVersionAt(p);
    if (id === undefined) continue;
    const stamp = index.stamps.micros(p);
    while (next < late.length && first(late[next]!.stamp, stamp)) yield late[next++]!;
    yield { id, stamp };
  }
  while (next < late.length) yield late[next++]!;
}
