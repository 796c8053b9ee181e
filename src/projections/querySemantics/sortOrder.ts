/**
 * Sorting documents as MongoDB does: a compiled sort specification, the value a
 * document sorts by (arrays by their smallest element ascending, largest descending;
 * missing as null), comparable keys, and a comparator that breaks ties by insertion
 * order so results are deterministic whichever plan ran.
 */
import type { ReadDocument, Sort } from '../ReadStore.js';
import { compareValues, EMPTY_ARRAY, fixSurrogate, HIGH_UNITS } from './compareValues.js';
import { collectPath, terminalIsEmptyArray } from './dottedPaths.js';
import type { Entry } from './Entry.js';

export interface SortKeySpec {
  field: string;
  parts: string[];
  simple: boolean;
  dir: 1 | -1;
}

/** An entry with its sort keys computed once. */
export interface Keyed {
  entry: Entry;
  keys: unknown[];
}

export type KeyedComparator = (a: Keyed, b: Keyed) => number;

export function compileSort(sort: Sort | undefined): SortKeySpec[] {
  if (!sort) return [];
  return Object.entries(sort).map(([field, dir]) => {
    if (dir !== 1 && dir !== -1) throw new Error(`invalid sort direction for ${field}: ${String(dir)}`);
    const parts = field.split('.');
    return { field, parts, simple: parts.length === 1, dir };
  });
}

/** The value a document sorts by for one key (MongoDB rules for arrays and missing). */
export function sortValue(doc: ReadDocument, key: SortKeySpec): unknown {
  if (key.simple) {
    const v = doc[key.field];
    if (v === undefined) return null;
    if (!Array.isArray(v)) return v;
  }
  const out: unknown[] = [];
  const st = { array: false };
  collectPath(doc, key.parts, 0, out, st);
  if (!st.array) return out[0] === undefined ? null : out[0];
  if (out.length === 0) {
    // A terminal empty array sorts before null; a path through an empty array is missing.
    return terminalIsEmptyArray(doc, key.parts) ? EMPTY_ARRAY : null;
  }
  let best: unknown = out[0] === undefined ? null : out[0];
  for (let i = 1; i < out.length; i++) {
    const v = out[i] === undefined ? null : out[i];
    const r = compareValues(v, best);
    if (key.dir === 1 ? r < 0 : r > 0) best = v;
  }
  return best;
}

const HIGH_UNITS_G = /[\ud800-\uffff]/g;

/**
 * A sort key ready for the comparator: a string holding UTF-16 units >= 0xD800
 * is rewritten so that plain `<` on it gives code point (= UTF-8 byte) order.
 */
export function sortKey(v: unknown): unknown {
  if (typeof v === 'string' && HIGH_UNITS.test(v)) {
    return v.replace(HIGH_UNITS_G, (c) => String.fromCharCode(fixSurrogate(c.charCodeAt(0))));
  }
  return v;
}

/** compareValues on sortKey()s, with fast paths for strings and numbers. */
export function compareKeys(a: unknown, b: unknown): number {
  if (typeof a === 'string') {
    if (typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  } else if (typeof a === 'number' && typeof b === 'number' && a === a && b === b) {
    return a < b ? -1 : a > b ? 1 : 0;
  }
  return compareValues(a, b);
}

export function makeComparator(spec: SortKeySpec[]): KeyedComparator {
  return (a, b) => {
    for (let i = 0; i < spec.length; i++) {
      const r = compareKeys(a.keys[i], b.keys[i]);
      if (r !== 0) return r * spec[i]!.dir;
    }
    return a.entry.seq - b.entry.seq;
  };
}

/** The sort keys of an entry under `spec`, ready for makeComparator. */
export function keyedBy(spec: SortKeySpec[]): (e: Entry) => Keyed {
  return (e) => {
    const keys = new Array<unknown>(spec.length);
    for (let i = 0; i < spec.length; i++) keys[i] = sortKey(sortValue(e.doc, spec[i]!));
    return { entry: e, keys };
  };
}

/** Natural order: insertion order (what a page with no sort follows). */
export function compareBySequence(a: Keyed, b: Keyed): number {
  return a.entry.seq - b.entry.seq;
}

/**
 * Keep `buf` as the `want` smallest items seen so far, in order: a binary-search
 * insert that drops the largest once the buffer is full.
 */
export function insertBounded<T>(buf: T[], item: T, want: number, cmp: (a: T, b: T) => number): void {
  if (buf.length === want && cmp(item, buf[want - 1]!) >= 0) return;
  let lo = 0;
  let hi = buf.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (cmp(item, buf[mid]!) < 0) hi = mid;
    else lo = mid + 1;
  }
  buf.splice(lo, 0, item);
  if (buf.length > want) buf.pop();
}

/** MongoDB's order of a sort specification over documents, ties broken by id (no insertion order to go by). */
export function documentOrder(sort: Sort | undefined): (a: ReadDocument, b: ReadDocument) => number {
  const spec = compileSort(sort);
  return (a, b) => {
    for (const key of spec) {
      const r = compareKeys(sortKey(sortValue(a, key)), sortKey(sortValue(b, key)));
      if (r !== 0) return r * key.dir;
    }
    return a.id - b.id;
  };
}
