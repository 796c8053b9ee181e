/**
 * Strings numbered in the order they were first added (a request id → its ordinal), with a
 * hash table of their ordinals over one Int32Array instead of a Map.
 *
 * Why not a Map: at start-up the audit index takes over a snapshot's million request ids, and
 * filling a Map with them took about 0.9 s of the main thread (hashing each string, growing
 * the table step by step); filling this table, sized once, takes a fraction of that. Look-ups
 * compare the candidate string itself, so they are exact whatever the strings are.
 */
import { stringHash } from './stringHash.js';

const EMPTY = 0;
const MIN_SLOTS = 1024;
/**
 * Names stringHash (stringHash.ts): a snapshot's slots are adopted only when made with the same function (a
 * changed hash would otherwise send look-ups to the wrong slots). Change it with stringHash.
 */
export const STRING_TABLE_HASH = 'fnv1a32-mix1';

export class StringTable {
  /** The strings, by ordinal. */
  readonly values: string[] = [];
  /** Open addressing, linear probing: each slot holds ordinal + 1, or EMPTY. At most half full. */
  private slots = new Int32Array(MIN_SLOTS);
  private mask = MIN_SLOTS - 1;

  get size(): number {
    return this.values.length;
  }

  /** The ordinal of `value`, or undefined. */
  find(value: string): number | undefined {
    const slots = this.slots;
    for (let at = stringHash(value) & this.mask; ; at = (at + 1) & this.mask) {
      const held = slots[at]!;
      if (held === EMPTY) return undefined;
      if (this.values[held - 1] === value) return held - 1;
    }
  }

  /** Adds a string not yet held; returns its ordinal. */
  add(value: string): number {
    const ordinal = this.values.length;
    this.values.push(value);
    if (this.values.length * 2 > this.slots.length) this.rehash(this.values.length * 2);
    else this.place(ordinal);
    return ordinal;
  }

  /** Takes `values` as the table's (a loaded snapshot, into an empty table): each gets its index as ordinal. */
  load(values: readonly string[]): void {
    if (this.values.length > 0) throw new Error('StringTable.load(): the table is not empty');
    for (const value of values) this.values.push(value);
    // A repeated string would get a second ordinal that find() never returns: the image was not ours.
    if (!this.rehash(this.values.length)) throw new RangeError('StringTable.load(): repeated values');
  }

  /** The slots as they are (a copy: later adds write into them), for a snapshot beside the values. */
  slotsImage(): Int32Array<ArrayBuffer> {
    return this.slots.slice();
  }

  /**
   * Takes `values` and the slots a snapshot held for them (slotsImage(), made with the
   * STRING_TABLE_HASH the caller checked) into this empty table: nothing is hashed, which is
   * the point at start-up. The slots are checked to hold each ordinal once; where each sits
   * was the writer's doing (the snapshot's checksum vouches for it).
   */
  adopt(values: readonly string[], slots: Int32Array<ArrayBuffer>): void {
    if (this.values.length > 0) throw new Error('StringTable.adopt(): the table is not empty');
    const length = slots.length;
    if (length < MIN_SLOTS || (length & (length - 1)) !== 0 || values.length * 2 > length)
      throw new RangeError('StringTable.adopt(): the slots do not fit the values');
    const placed = new Uint8Array(values.length);
    let count = 0;
    for (let at = 0; at < length; at++) {
      const held = slots[at]!;
      if (held === EMPTY) continue;
      if (held < 0 || held > values.length || placed[held - 1] === 1)
        throw new RangeError('StringTable.adopt(): the slots do not fit the values');
      placed[held - 1] = 1;
      count++;
    }
    if (count !== values.length) throw new RangeError('StringTable.adopt(): the slots do not fit the values');
    for (const value of values) this.values.push(value);
    this.slots = slots;
    this.mask = length - 1;
  }

  /** Sizes the slots for `count` strings (at most half full) and places every string held; false if one repeats. */
  private rehash(count: number): boolean {
    let length = MIN_SLOTS;
    while (length < count * 2) length *= 2;
    this.slots = new Int32Array(length);
    this.mask = length - 1;
    let unique = true;
    for (let ordinal = 0; ordinal < this.values.length; ordinal++) unique = this.place(ordinal) && unique;
    return unique;
  }

  /** Places a string's ordinal; false when an equal string was placed before (it is placed all the same). */
  private place(ordinal: number): boolean {
    const slots = this.slots;
    const value = this.values[ordinal]!;
    let unique = true;
    let at = stringHash(value) & this.mask;
    for (let held = slots[at]!; held !== EMPTY; held = slots[at]!) {
      if (this.values[held - 1] === value) unique = false;
      at = (at + 1) & this.mask;
    }
    slots[at] = ordinal + 1;
    return unique;
  }
}
