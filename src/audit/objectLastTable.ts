/**
 * Each object's last position, by (type code, id): a dense column per type, indexed by id,
 * with a Map beside it for ids too far beyond the others to be worth a column's room.
 *
 * Why not one Map keyed by type * 2^40 + id: at start-up the audit index takes over a
 * snapshot's million objects, and filling that Map (a boxed number per key) took about half a
 * second of the main thread; filling columns is a tight loop. Ids are handed out one after
 * another, so the columns are mostly full.
 */
import { Column } from './columns.js';

/** Keys (in the snapshot, and in `sparse`) are type * ID_SPACE + id; ids stay below it. */
export const ID_SPACE = 2 ** 40;
/** Slots a column may hold beyond a few per object it holds: room for the first ids of a type. */
const SLACK = 1 << 16;
/** Slots per object a column may hold at most (so a few objects with huge ids do not cost gigabytes). */
const SLOTS_PER_OBJECT = 8;

export class ObjectLastTable {
  /** Per type code: the last position of id i at [i] (0: none), and how many objects it holds. */
  private readonly dense: Array<{ lasts: Float64Array; count: number } | undefined> = [];
  private readonly sparse = new Map<number, number>();
  private objects = 0;

  /** Objects held. */
  get size(): number {
    return this.objects;
  }

  /** The object's last position (0 when none). `id` is below ID_SPACE. */
  get(type: number, id: number): number {
    const column = this.dense[type];
    if (column !== undefined && id < column.lasts.length && isIndex(id)) return column.lasts[id]!;
    return this.sparse.get(type * ID_SPACE + id) ?? 0;
  }

  set(type: number, id: number, position: number): void {
    const column = this.dense[type] ?? (this.dense[type] = { lasts: new Float64Array(0), count: 0 });
    // The event schema makes ids whole numbers from 1; any other number is kept exactly all the same.
    if (!isIndex(id) || (id >= column.lasts.length && !this.widen(type, column, id))) {
      const key = type * ID_SPACE + id;
      if (!this.sparse.has(key)) this.objects++;
      this.sparse.set(key, position);
      return;
    }
    if (column.lasts[id] === 0) {
      column.count++;
      this.objects++;
    }
    column.lasts[id] = position;
  }

  /** Every object as two parallel columns of keys (type * ID_SPACE + id) and last positions. */
  entries(): { keys: Float64Array<ArrayBuffer>; lasts: Float64Array<ArrayBuffer> } {
    const keys = new Column(Float64Array, this.objects);
    const lasts = new Column(Float64Array, this.objects);
    this.dense.forEach((column, type) => {
      if (column === undefined) return;
      for (let id = 1; id < column.lasts.length; id++) {
        if (column.lasts[id] === 0) continue;
        keys.push(type * ID_SPACE + id);
        lasts.push(column.lasts[id]!);
      }
    });
    for (const [key, last] of this.sparse) {
      keys.push(key);
      lasts.push(last);
    }
    return { keys: keys.used(), lasts: lasts.used() };
  }

  /** Takes the pairs of a snapshot (as entries() gives them) into this empty table. */
  load(keys: Float64Array, lasts: Float64Array): void {
    if (this.objects > 0) throw new Error('ObjectLastTable.load(): the table is not empty');
    // Columns sized first from each type's count and highest id: the pairs may come in any order.
    const highest: number[] = [];
    const counts: number[] = [];
    for (let i = 0; i < keys.length; i++) {
      const type = Math.floor(keys[i]! / ID_SPACE);
      highest[type] = Math.max(highest[type] ?? 0, keys[i]! - type * ID_SPACE);
      counts[type] = (counts[type] ?? 0) + 1;
    }
    highest.forEach((id, type) => {
      if (id + 1 <= SLACK + SLOTS_PER_OBJECT * counts[type]!)
        this.dense[type] = { lasts: new Float64Array(id + 1), count: 0 };
    });
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i]!;
      const type = Math.floor(key / ID_SPACE);
      this.set(type, key - type * ID_SPACE, lasts[i]!);
    }
  }

  /**
   * Grows the type's column to hold `id` when that keeps it dense enough (at most SLOTS_PER_OBJECT
   * slots per object, beyond the first SLACK), moving the Map's objects of the type it now covers.
   */
  private widen(type: number, column: { lasts: Float64Array; count: number }, id: number): boolean {
    const length = Math.max(id + 1, column.lasts.length * 2, 1024);
    if (length > SLACK + SLOTS_PER_OBJECT * (column.count + 1)) return false;
    const lasts = new Float64Array(length);
    lasts.set(column.lasts);
    column.lasts = lasts;
    if (this.sparse.size > 0) {
      const low = type * ID_SPACE;
      for (const [key, last] of this.sparse) {
        if (key <= low || key >= low + length) continue;
        this.sparse.delete(key);
        lasts[key - low] = last;
        column.count++;
      }
    }
    return true;
  }
}

function isIndex(id: number): boolean {
  return id >= 1 && Math.floor(id) === id;
}
