/**
 * The embedded read store: every collection is a Map id → document, rebuilt from
 * the event log at every start (nothing is written to disk).
 *
 * Query semantics are MongoDB's: filters are evaluated by mingo, sorting follows
 * MongoDB's sort order (BSON type order, null and missing first ascending, arrays
 * by their smallest element ascending / largest descending, strings compared
 * bytewise in UTF-8 like MongoDB's default "simple" collation).
 *
 * Speed (100,000 documents per collection):
 * - equality indexes (value → documents) for the fields declared with `ensureIndexes`,
 *   and `id` through the Map itself. A top-level (or top-level `$and`) equality
 *   or `$in` of scalars on an indexed field picks the smallest candidate set and
 *   mingo only runs over those candidates;
 * - cheap checks (scalar equality, `$in`, `$regex` on plain top-level fields) run
 *   before mingo; a top-level member they (or the driving index) decide exactly
 *   is taken out of the query mingo evaluates, everything else is mingo's call
 *   (a `$regex` meeting an array value hands the whole query to mingo);
 * - `find` with a sort and a small skip+limit keeps a bounded sorted buffer
 *   instead of sorting every match; without a sort a scan stops early;
 * - `count({})` is the Map size, `count` of one indexed equality/`$in` and
 *   `countBy` on an indexed field read the index sizes;
 * - sorted indexes: a compound declaration (e.g. ['_address', 'id'], from
 *   readModelIndexes) also keeps the documents in that order (plus one on `id`,
 *   always). A page in that order, or its exact reverse, is a walk of the index
 *   that stops when the page is full (a deep offset without filter is a slice);
 *   a range on the index's first field ($gt/$gte/$lt/$lte/equality, e.g. an IP
 *   `parent=` or a cursor's `id >= start`) is found by binary search, and counted
 *   from the positions alone when it is the whole query. The planner compares the
 *   walk with the candidate sets of the equality indexes and ranges by estimated
 *   documents touched;
 * - native matching: queries within the subset the list query compiler emits
 *   (equality, $in/$nin/$ne, ranges, $regex, $not $regex, $exists, $all, $and/$or/$nor)
 *   are compiled to a JavaScript predicate with MongoDB's semantics (array elements,
 *   missing values, type brackets); what it cannot decide (arrays of documents,
 *   paths through arrays) goes to mingo, document by document.
 * Plans are checked against the plain mingo scan on random data by
 * test/projections/memoryReadStore.int.spec.ts and memoryReadStore.sorted.int.spec.ts
 * (`{ planner: false }`).
 *
 * Immutability: a document is cloned and deep-frozen once when applied, and that
 * frozen object is what every read returns (no copy per read). A caller trying to
 * mutate a returned document gets a TypeError (ESM code is strict) and the store
 * is never corrupted. structuredClone per read costs several µs per document
 * (see bench/readStore.bench.ts), freezing costs nothing on reads.
 * Caveat: Date instances are frozen but `setTime` still works on them; documents
 * are expected to hold JSON values.
 *
 * Natural order (no sort given) is insertion order of the collection; ties in a
 * sort are broken by it too, so results are deterministic whichever plan ran.
 *
 * `limit: 0` (or negative) returns no documents; an absent limit means no limit.
 */

import { Query as MingoQuery } from 'mingo';
import type { DocumentChange, FindOptions, Query, ReadDocument, ReadStore, Sort } from './ReadStore.js';

export interface MemoryReadStoreOptions {
  /**
   * false: no index use, no pre-filters, no bounded sort, no early exit — mingo
   * over every document and a full sort. Reference behaviour for tests.
   */
  planner?: boolean;
}

type Scalar = string | number | boolean;
/** Entries under one index value: one entry, or a Set when several. */
type Posting = Entry | Set<Entry>;

interface Entry {
  doc: ReadDocument;
  /** Insertion sequence within the collection: natural order and sort tie-breaker. */
  seq: number;
}

/* ------------------------------------------------------------------ values */

const EMPTY_ARRAY = Symbol('emptyArray');

function isIndexable(v: unknown): v is Scalar {
  const t = typeof v;
  return t === 'string' || t === 'boolean' || (t === 'number' && !Number.isNaN(v));
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (v === null || typeof v !== 'object') return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

function isOperatorObject(v: unknown): v is Record<string, unknown> {
  if (!isPlainObject(v)) return false;
  const keys = Object.keys(v);
  if (keys.length === 0) return false;
  for (const k of keys) if (k.charCodeAt(0) !== 36 /* $ */) return false;
  return true;
}

/** Deep copy of JSON-like data, frozen; undefined object members are dropped (as MongoDB does). */
function freezeClone<T>(v: T): T {
  if (v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) {
    const out = new Array<unknown>(v.length);
    for (let i = 0; i < v.length; i++) out[i] = v[i] === undefined ? null : freezeClone(v[i]);
    return Object.freeze(out) as T;
  }
  if (v instanceof Date) return Object.freeze(new Date(v.getTime())) as T;
  if (isPlainObject(v)) {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v)) {
      const x = v[k];
      if (x !== undefined) out[k] = freezeClone(x);
    }
    return Object.freeze(out) as T;
  }
  // Typed arrays and other exotic values: a private copy (typed arrays cannot be frozen).
  return structuredClone(v);
}

/**
 * Values reachable at a dotted path, MongoDB style: arrays met on the way are
 * traversed, an array at the end contributes its elements.
 */
function collectPath(value: unknown, parts: string[], i: number, out: unknown[], st: { array: boolean }): void {
  if (i === parts.length) {
    if (Array.isArray(value)) {
      st.array = true;
      for (const el of value) out.push(el);
    } else out.push(value);
    return;
  }
  if (Array.isArray(value)) {
    st.array = true;
    const part = parts[i]!;
    if (/^\d+$/.test(part)) {
      collectPath(value[Number(part)], parts, i + 1, out, st);
      return;
    }
    for (const el of value) {
      if (el !== null && typeof el === 'object' && !Array.isArray(el)) {
        collectPath((el as Record<string, unknown>)[part], parts, i + 1, out, st);
      }
    }
    return;
  }
  if (value !== null && typeof value === 'object') {
    collectPath((value as Record<string, unknown>)[parts[i]!], parts, i + 1, out, st);
    return;
  }
  out.push(undefined);
}

/* ----------------------------------------------------------- comparisons */

function typeRank(v: unknown): number {
  if (v === EMPTY_ARRAY) return 0;
  if (v === null || v === undefined) return 1;
  switch (typeof v) {
    case 'number':
    case 'bigint':
      return 2;
    case 'string':
      return 3;
    case 'boolean':
      return 8;
    default:
      break;
  }
  if (Array.isArray(v)) return 5;
  if (v instanceof Date) return 9;
  if (v instanceof RegExp) return 11;
  if (ArrayBuffer.isView(v)) return 6;
  return 4;
}

/** UTF-16 code unit → a key that orders like UTF-8 bytes (code point order). */
function fixSurrogate(c: number): number {
  return c >= 0xe000 ? c - 0x800 : c + 0x2000;
}

/** Bytewise UTF-8 order, i.e. code point order (MongoDB's simple collation). */
export function compareStrings(a: string, b: string): number {
  if (a === b) return 0;
  const n = a.length < b.length ? a.length : b.length;
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) {
      if (x >= 0xd800 && y >= 0xd800) return fixSurrogate(x) < fixSurrogate(y) ? -1 : 1;
      return x < y ? -1 : 1;
    }
  }
  return a.length < b.length ? -1 : a.length > b.length ? 1 : 0;
}

/** MongoDB comparison of two BSON-like values (sort order). */
export function compareValues(a: unknown, b: unknown): number {
  const ra = typeRank(a);
  const rb = typeRank(b);
  if (ra !== rb) return ra < rb ? -1 : 1;
  switch (ra) {
    case 0:
    case 1:
      return 0;
    case 2: {
      const x = Number(a);
      const y = Number(b);
      if (Number.isNaN(x)) return Number.isNaN(y) ? 0 : -1;
      if (Number.isNaN(y)) return 1;
      return x < y ? -1 : x > y ? 1 : 0;
    }
    case 3:
      return compareStrings(a as string, b as string);
    case 8:
      return a === b ? 0 : a ? 1 : -1;
    case 9: {
      const x = (a as Date).getTime();
      const y = (b as Date).getTime();
      return x < y ? -1 : x > y ? 1 : 0;
    }
    case 5: {
      const x = a as unknown[];
      const y = b as unknown[];
      const n = Math.min(x.length, y.length);
      for (let i = 0; i < n; i++) {
        const r = compareValues(x[i] === undefined ? null : x[i], y[i] === undefined ? null : y[i]);
        if (r !== 0) return r;
      }
      return x.length < y.length ? -1 : x.length > y.length ? 1 : 0;
    }
    case 11: {
      const x = a as RegExp;
      const y = b as RegExp;
      return compareStrings(x.source, y.source) || compareStrings(x.flags, y.flags);
    }
    case 6: {
      const x = new Uint8Array((a as ArrayBufferView).buffer, (a as ArrayBufferView).byteOffset, (a as ArrayBufferView).byteLength);
      const y = new Uint8Array((b as ArrayBufferView).buffer, (b as ArrayBufferView).byteOffset, (b as ArrayBufferView).byteLength);
      if (x.length !== y.length) return x.length < y.length ? -1 : 1;
      for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return x[i]! < y[i]! ? -1 : 1;
      return 0;
    }
    default: {
      // Embedded documents: field by field — value type, then field name, then value.
      const x = a as Record<string, unknown>;
      const y = b as Record<string, unknown>;
      const kx = Object.keys(x).filter((k) => x[k] !== undefined);
      const ky = Object.keys(y).filter((k) => y[k] !== undefined);
      const n = Math.min(kx.length, ky.length);
      for (let i = 0; i < n; i++) {
        const vx = x[kx[i]!];
        const vy = y[ky[i]!];
        const tr = typeRank(vx) - typeRank(vy);
        if (tr !== 0) return tr < 0 ? -1 : 1;
        const kr = compareStrings(kx[i]!, ky[i]!);
        if (kr !== 0) return kr;
        const vr = compareValues(vx, vy);
        if (vr !== 0) return vr;
      }
      return kx.length < ky.length ? -1 : kx.length > ky.length ? 1 : 0;
    }
  }
}

interface SortKeySpec {
  field: string;
  parts: string[];
  simple: boolean;
  dir: 1 | -1;
}

function compileSort(sort: Sort | undefined): SortKeySpec[] {
  if (!sort) return [];
  return Object.entries(sort).map(([field, dir]) => {
    if (dir !== 1 && dir !== -1) throw new Error(`invalid sort direction for ${field}: ${String(dir)}`);
    const parts = field.split('.');
    return { field, parts, simple: parts.length === 1, dir };
  });
}

/** The value a document sorts by for one key (MongoDB rules for arrays and missing). */
function sortValue(doc: ReadDocument, key: SortKeySpec): unknown {
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

function terminalIsEmptyArray(doc: ReadDocument, parts: string[]): boolean {
  let v: unknown = doc;
  for (const p of parts) {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return false;
    v = (v as Record<string, unknown>)[p];
  }
  return Array.isArray(v) && v.length === 0;
}

interface Keyed {
  entry: Entry;
  keys: unknown[];
}

const HIGH_UNITS = /[\ud800-\uffff]/;
const HIGH_UNITS_G = /[\ud800-\uffff]/g;

/**
 * A sort key ready for the comparator: a string holding UTF-16 units >= 0xD800
 * is rewritten so that plain `<` on it gives code point (= UTF-8 byte) order.
 */
function sortKey(v: unknown): unknown {
  if (typeof v === 'string' && HIGH_UNITS.test(v)) {
    return v.replace(HIGH_UNITS_G, (c) => String.fromCharCode(fixSurrogate(c.charCodeAt(0))));
  }
  return v;
}

/** compareValues on sortKey()s, with fast paths for strings and numbers. */
function compareKeys(a: unknown, b: unknown): number {
  if (typeof a === 'string') {
    if (typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  } else if (typeof a === 'number' && typeof b === 'number' && a === a && b === b) {
    return a < b ? -1 : a > b ? 1 : 0;
  }
  return compareValues(a, b);
}

function makeComparator(spec: SortKeySpec[]): (a: Keyed, b: Keyed) => number {
  return (a, b) => {
    for (let i = 0; i < spec.length; i++) {
      const r = compareKeys(a.keys[i], b.keys[i]);
      if (r !== 0) return r * spec[i]!.dir;
    }
    return a.entry.seq - b.entry.seq;
  };
}

/* --------------------------------------------------------------- indexes */

class FieldIndex {
  readonly parts: string[];
  readonly postings = new Map<Scalar, Posting>();
  /** Set once a document held an array at this path (one doc may then sit under several values). */
  multiValued = false;

  constructor(readonly field: string) {
    this.parts = field.split('.');
  }

  keysOf(doc: ReadDocument): Scalar[] {
    if (this.parts.length === 1) {
      const v = doc[this.field];
      if (isIndexable(v)) return [v];
      if (!Array.isArray(v)) return [];
    }
    const out: unknown[] = [];
    const st = { array: false };
    collectPath(doc, this.parts, 0, out, st);
    if (st.array) this.multiValued = true;
    const keys: Scalar[] = [];
    for (const v of out) if (isIndexable(v) && !keys.includes(v)) keys.push(v);
    return keys;
  }

  add(entry: Entry, keys: Scalar[]): void {
    for (const k of keys) {
      const p = this.postings.get(k);
      if (p === undefined) this.postings.set(k, entry);
      else if (p instanceof Set) p.add(entry);
      else if (p !== entry) this.postings.set(k, new Set([p, entry]));
    }
  }

  remove(entry: Entry, keys: Scalar[]): void {
    for (const k of keys) {
      const p = this.postings.get(k);
      if (p === undefined) continue;
      if (p instanceof Set) {
        p.delete(entry);
        if (p.size === 1) this.postings.set(k, p.values().next().value as Entry);
        else if (p.size === 0) this.postings.delete(k);
      } else if (p === entry) this.postings.delete(k);
    }
  }

  size(k: Scalar): number {
    const p = this.postings.get(k);
    return p === undefined ? 0 : p instanceof Set ? p.size : 1;
  }

  has(k: Scalar, entry: Entry): boolean {
    const p = this.postings.get(k);
    return p === undefined ? false : p instanceof Set ? p.has(entry) : p === entry;
  }

  /** Appends the entries under `k` to `out`. */
  collect(k: Scalar, out: Entry[], seen: Set<Entry> | null): void {
    const p = this.postings.get(k);
    if (p === undefined) return;
    if (p instanceof Set) {
      if (seen) {
        for (const e of p) if (!seen.has(e)) (seen.add(e), out.push(e));
      } else for (const e of p) out.push(e);
    } else if (!seen || !seen.has(p)) {
      seen?.add(p);
      out.push(p);
    }
  }
}

/**
 * The documents in the order of a list of fields (ascending, then insertion order):
 * a page in that order (or its reverse) is a walk with early exit, and a range on the
 * first field is a binary search. Kept up to date change by change, or rebuilt at the
 * next read after a large batch (a replay). Unusable (and left alone) once a document
 * held an array in one of its fields: MongoDB sorts arrays by their smallest element
 * ascending but their largest descending, which one order cannot serve.
 */
class SortedIndex {
  readonly specs: SortKeySpec[];
  entries: Keyed[] = [];
  stale = true;
  multiValued = false;
  private readonly cmp: (a: Keyed, b: Keyed) => number;

  constructor(readonly fields: string[]) {
    this.specs = compileSort(Object.fromEntries(fields.map((f) => [f, 1 as const])));
    this.cmp = makeComparator(this.specs);
  }

  keyed(e: Entry): Keyed {
    const keys = new Array<unknown>(this.specs.length);
    for (let i = 0; i < this.specs.length; i++) {
      const spec = this.specs[i]!;
      const raw = spec.simple ? e.doc[spec.field] : undefined;
      if (Array.isArray(raw) || (!spec.simple && hasArrayOnPath(e.doc, spec.parts))) this.multiValued = true;
      keys[i] = sortKey(sortValue(e.doc, spec));
    }
    return { entry: e, keys };
  }

  rebuild(docs: Iterable<Entry>): void {
    const all: Keyed[] = [];
    for (const e of docs) all.push(this.keyed(e));
    all.sort(this.cmp);
    this.entries = all;
    this.stale = false;
  }

  /** Position of `k` (exact match by keys and entry), or of where it would go. */
  private search(k: Keyed): number {
    let lo = 0;
    let hi = this.entries.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.cmp(this.entries[mid]!, k) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  insert(e: Entry): void {
    if (this.stale) return;
    const k = this.keyed(e);
    const n = this.entries.length;
    if (n === 0 || this.cmp(this.entries[n - 1]!, k) < 0) this.entries.push(k);
    else this.entries.splice(this.search(k), 0, k);
  }

  /** Removes the entry as it was indexed with the document `doc`. */
  remove(e: Entry, doc: ReadDocument): void {
    if (this.stale) return;
    const k = this.keyed({ doc, seq: e.seq });
    const i = this.search(k);
    if (this.entries[i]?.entry === e) this.entries.splice(i, 1);
    else this.stale = true; // not where expected: rebuild at the next read
  }

  sameKeys(a: ReadDocument, b: ReadDocument): boolean {
    for (const spec of this.specs) {
      if (!spec.simple) return false;
      const x = a[spec.field];
      const y = b[spec.field];
      if (x !== y && !(x == null && y == null)) return false;
    }
    return true;
  }

  /** First position whose first key is >= (or > when `exclusive`) `bound`. */
  lowerBound(bound: unknown, exclusive: boolean): number {
    let lo = 0;
    let hi = this.entries.length;
    const b = sortKey(bound);
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const r = compareKeys(this.entries[mid]!.keys[0], b);
      if (r < 0 || (exclusive && r === 0)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

function hasArrayOnPath(doc: ReadDocument, parts: string[]): boolean {
  let v: unknown = doc;
  for (const p of parts) {
    if (Array.isArray(v)) return true;
    if (v === null || typeof v !== 'object') return false;
    v = (v as Record<string, unknown>)[p];
  }
  return Array.isArray(v);
}

class MemCollection {
  readonly docs = new Map<number, Entry>();
  readonly indexes = new Map<string, FieldIndex>();
  /** Sorted indexes by their field list joined with ','; 'id' always exists. */
  readonly sorted = new Map<string, SortedIndex>([['id', new SortedIndex(['id'])]]);
  seq = 0;

  addSorted(fields: string[]): void {
    const name = fields.join(',');
    if (!this.sorted.has(name)) this.sorted.set(name, new SortedIndex(fields));
  }

  /** A sorted index ready to read (rebuilt when stale), or null when unusable. */
  fresh(index: SortedIndex): SortedIndex | null {
    if (index.stale) index.rebuild(this.docs.values());
    return index.multiValued ? null : index;
  }

  /** Marks every sorted index for a rebuild at the next read (before a large batch). */
  staleSorted(): void {
    for (const index of this.sorted.values()) {
      index.stale = true;
      index.entries = [];
    }
  }

  addIndex(field: string): void {
    if (field === 'id' || this.indexes.has(field)) return;
    const index = new FieldIndex(field);
    for (const e of this.docs.values()) index.add(e, index.keysOf(e.doc));
    this.indexes.set(field, index);
  }

  put(id: number, doc: ReadDocument): void {
    const existing = this.docs.get(id);
    if (existing) {
      for (const index of this.indexes.values()) {
        const before = index.keysOf(existing.doc);
        const after = index.keysOf(doc);
        if (before.length === 1 && after.length === 1 && before[0] === after[0]) continue;
        index.remove(existing, before);
        index.add(existing, after);
      }
      const previous = existing.doc;
      existing.doc = doc;
      for (const index of this.sorted.values()) {
        if (index.stale || index.sameKeys(previous, doc)) continue;
        index.remove(existing, previous);
        index.insert(existing);
      }
    } else {
      const entry: Entry = { doc, seq: this.seq++ };
      this.docs.set(id, entry);
      for (const index of this.indexes.values()) index.add(entry, index.keysOf(doc));
      for (const index of this.sorted.values()) index.insert(entry);
    }
  }

  delete(id: number): void {
    const existing = this.docs.get(id);
    if (!existing) return;
    for (const index of this.indexes.values()) index.remove(existing, index.keysOf(existing.doc));
    for (const index of this.sorted.values()) index.remove(existing, existing.doc);
    this.docs.delete(id);
  }

  clear(): void {
    this.docs.clear();
    this.seq = 0;
    for (const index of this.indexes.values()) {
      index.postings.clear();
      index.multiValued = false;
    }
    for (const index of this.sorted.values()) {
      index.entries = [];
      index.stale = true;
      index.multiValued = false;
    }
  }
}

/* --------------------------------------------------------------- planner */

/**
 * A condition on a field: the document's `field` equals (or, as an array, has an
 * element equal to) one of `values`. `exact` when it is a whole top-level member
 * of the query on a plain (undotted) field: the condition is then exactly that
 * member's meaning in MongoDB, and it can be taken out of what mingo evaluates.
 */
interface EqConstraint {
  field: string;
  values: Scalar[];
  exact: boolean;
}

interface RegexConstraint {
  field: string;
  re: RegExp;
  exact: boolean;
}

/** 0: the document fails; 1: passes (exactly, or as far as this check can tell); 2: undecided, mingo must judge the whole query. */
type Prefilter = (e: Entry) => 0 | 1 | 2;

interface Plan {
  /** Candidate entries, or null to scan the whole collection (in natural order). */
  candidates: Entry[] | null;
  /** Cheap checks run before mingo. */
  prefilters: Prefilter[];
  /** mingo over the query minus the members the prefilters (or the index) decide exactly; null: nothing left. */
  residual: MingoQuery | null;
  /** mingo over the whole query, for documents a prefilter left undecided. */
  full: MingoQuery | null;
}

/** Values of an equality/$in member; `pure` when the member is nothing else. */
function equalityValues(v: unknown): { values: Scalar[]; pure: boolean } | null {
  if (isIndexable(v)) return { values: [v], pure: true };
  if (isOperatorObject(v)) {
    const pure = Object.keys(v).length === 1;
    if ('$eq' in v && isIndexable(v.$eq)) return { values: [v.$eq], pure };
    const list = v.$in;
    if (Array.isArray(list) && list.every(isIndexable)) return { values: list as Scalar[], pure };
  }
  return null;
}

/** A stateless RegExp for a `$regex` member; `pure` when the member is nothing else. */
function regexOf(v: unknown): { re: RegExp; pure: boolean } | null {
  let re: RegExp | null = null;
  let pure = true;
  try {
    if (v instanceof RegExp) re = v;
    else if (isOperatorObject(v) && '$regex' in v) {
      const src = v.$regex;
      const opts = v.$options;
      if (opts !== undefined && (typeof opts !== 'string' || !/^[imsu]*$/.test(opts))) return null;
      if (typeof src === 'string' || src instanceof RegExp) re = new RegExp(src, opts as string | undefined);
      pure = Object.keys(v).every((k) => k === '$regex' || k === '$options');
    }
  } catch {
    return null;
  }
  if (!re) return null;
  // A private copy without g/y, which make test() stateful.
  return { re: new RegExp(re.source, re.flags.replace(/[gy]/g, '')), pure };
}

function collectConstraints(query: Query, topLevel: boolean, eq: EqConstraint[], regexes: RegexConstraint[]): void {
  for (const key of Object.keys(query)) {
    const v = query[key];
    if (key === '$and') {
      if (Array.isArray(v)) for (const sub of v) if (isPlainObject(sub)) collectConstraints(sub, false, eq, regexes);
      continue;
    }
    if (key.charCodeAt(0) === 36) continue;
    const plain = key.indexOf('.') === -1;
    const e = equalityValues(v);
    if (e) eq.push({ field: key, values: e.values, exact: topLevel && plain && e.pure });
    if (plain) {
      const r = regexOf(v);
      if (r) regexes.push({ field: key, re: r.re, exact: topLevel && r.pure });
    }
  }
}

/**
 * MongoDB equality on a plain field: the value itself, or an element of an array
 * value (not of a nested array). Exact for an exact constraint, a necessary
 * condition otherwise.
 */
function eqPrefilter(c: EqConstraint): Prefilter {
  const f = c.field;
  if (c.values.length === 1) {
    const x = c.values[0];
    return (e) => {
      const v = e.doc[f];
      return v === x || (Array.isArray(v) && v.includes(x)) ? 1 : 0;
    };
  }
  const set = new Set<unknown>(c.values);
  return (e) => {
    const v = e.doc[f];
    if (set.has(v)) return 1;
    if (Array.isArray(v)) for (const el of v) if (set.has(el)) return 1;
    return 0;
  };
}

/** $regex on a plain field: decided for strings and non-arrays, arrays go to mingo. */
function regexPrefilter(c: RegexConstraint): Prefilter {
  const { field, re } = c;
  const onArray = c.exact ? 2 : 1;
  return (e) => {
    const v = e.doc[field];
    if (typeof v === 'string') return re.test(v) ? 1 : 0;
    return Array.isArray(v) ? onArray : 0;
  };
}

/* ---------------------------------------------------------- native match */

/**
 * A query compiled into a plain JavaScript predicate, for the MongoDB subset the query
 * compiler produces: field conditions with scalar equality, $eq $ne $in $nin $gt $gte
 * $lt $lte $regex $not($regex) $exists $all, combined with $and $or $nor. It answers
 * 1 (matches), 0 (does not) or 2 (cannot tell: an array of arrays or documents, a path
 * through an array, a Date ... — mingo then judges the whole query). Queries using
 * anything else compile to null and go to mingo entirely. Semantics are MongoDB's:
 * equality and comparisons reach into array elements, each operator of a condition may
 * be satisfied by a different element, negations are the complement (missing included),
 * comparisons only between values of the same type class (numbers, strings).
 */
type Tri = 0 | 1 | 2;
type NativeMatch = (doc: ReadDocument) => Tri;

const UNDECIDED = Symbol('undecided');

/** The value at a dotted path; UNDECIDED when the path crosses an array. */
function valueAt(doc: ReadDocument, parts: string[]): unknown {
  let v: unknown = doc;
  for (const p of parts) {
    if (Array.isArray(v)) return UNDECIDED;
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string, unknown>)[p];
  }
  return v;
}

/** The candidates an operator looks at: the value, or the elements of an array of scalars. */
function elementsOf(v: unknown): unknown[] | typeof UNDECIDED {
  if (v === UNDECIDED) return UNDECIDED;
  if (Array.isArray(v)) {
    for (const el of v) if (el !== null && typeof el === 'object') return UNDECIDED;
    return v;
  }
  if (v !== null && typeof v === 'object') return UNDECIDED; // embedded documents, Dates
  return [v];
}

type ElementTest = (el: unknown) => boolean;
/** One operator over a field: positive tests are "some element", negated ones "no element". */
interface OpTest {
  test: ElementTest;
  negated: boolean;
  /** Equality with null (informative: the element test already accepts null and missing). */
  nullMatches: boolean;
  /** $exists: whether the field must be present (the test is then not used). */
  exists?: boolean;
}

function scalarOperand(x: unknown): x is Scalar | null {
  return x === null || isIndexable(x);
}

function equalsTest(x: Scalar | null): { test: ElementTest; nullMatches: boolean } {
  if (x === null) return { test: (el) => el === null || el === undefined, nullMatches: true };
  return { test: (el) => el === x, nullMatches: false };
}

function rangeTest(op: string, bound: unknown): ElementTest | null {
  if (typeof bound === 'number' && !Number.isNaN(bound)) {
    switch (op) {
      case '$gt': return (el) => typeof el === 'number' && el > bound;
      case '$gte': return (el) => typeof el === 'number' && el >= bound;
      case '$lt': return (el) => typeof el === 'number' && el < bound;
      case '$lte': return (el) => typeof el === 'number' && el <= bound;
    }
  }
  if (typeof bound === 'string' && !HIGH_UNITS.test(bound)) {
    // UTF-16 order is code point order here: at the first difference the bound's unit is
    // below 0xD800, so a surrogate or a unit >= 0xE000 in the value is greater either way.
    switch (op) {
      case '$gt': return (el) => typeof el === 'string' && el > bound;
      case '$gte': return (el) => typeof el === 'string' && el >= bound;
      case '$lt': return (el) => typeof el === 'string' && el < bound;
      case '$lte': return (el) => typeof el === 'string' && el <= bound;
    }
  }
  if (typeof bound === 'string') {
    switch (op) {
      case '$gt': return (el) => typeof el === 'string' && compareStrings(el, bound) > 0;
      case '$gte': return (el) => typeof el === 'string' && compareStrings(el, bound) >= 0;
      case '$lt': return (el) => typeof el === 'string' && compareStrings(el, bound) < 0;
      case '$lte': return (el) => typeof el === 'string' && compareStrings(el, bound) <= 0;
    }
  }
  return null;
}

function regexTest(v: unknown): ElementTest | null {
  const r = regexOf(v);
  if (!r || !r.pure) return null;
  const re = r.re;
  return (el) => typeof el === 'string' && re.test(el);
}

/** The tests of one field condition, or null when it is outside the subset. */
function compileCondition(cond: unknown): OpTest[] | null {
  if (scalarOperand(cond)) return [{ negated: false, ...equalsTest(cond) }];
  if (cond instanceof RegExp) {
    const t = regexTest(cond);
    return t ? [{ test: t, negated: false, nullMatches: false }] : null;
  }
  if (!isOperatorObject(cond)) return null;
  const tests: OpTest[] = [];
  for (const [op, arg] of Object.entries(cond)) {
    switch (op) {
      case '$eq':
      case '$ne':
        if (!scalarOperand(arg)) return null;
        tests.push({ negated: op === '$ne', ...equalsTest(arg) });
        break;
      case '$in':
      case '$nin': {
        if (!Array.isArray(arg) || !arg.every(scalarOperand)) return null;
        const values = new Set<unknown>(arg.filter((x) => x !== null));
        const withNull = arg.includes(null);
        tests.push({
          negated: op === '$nin',
          test: withNull ? (el) => el === null || el === undefined || values.has(el) : (el) => values.has(el),
          nullMatches: withNull,
        });
        break;
      }
      case '$all': {
        if (!Array.isArray(arg) || arg.length === 0 || !arg.every(isIndexable)) return null;
        for (const x of arg) tests.push({ negated: false, ...equalsTest(x) });
        break;
      }
      case '$gt':
      case '$gte':
      case '$lt':
      case '$lte': {
        const t = rangeTest(op, arg);
        if (!t) return null;
        tests.push({ test: t, negated: false, nullMatches: false });
        break;
      }
      case '$regex': {
        const t = regexTest({ $regex: arg, ...(cond.$options !== undefined ? { $options: cond.$options } : {}) });
        if (!t) return null;
        tests.push({ test: t, negated: false, nullMatches: false });
        break;
      }
      case '$options':
        if (!('$regex' in cond)) return null;
        break;
      case '$not': {
        const t = arg instanceof RegExp ? regexTest(arg) : isOperatorObject(arg) && '$regex' in arg ? regexTest(arg) : null;
        if (!t) return null;
        tests.push({ test: t, negated: true, nullMatches: false });
        break;
      }
      case '$exists':
        if (typeof arg !== 'boolean') return null;
        tests.push({ test: () => true, negated: false, nullMatches: false, exists: arg });
        break;
      default:
        return null;
    }
  }
  return tests;
}

function compileNative(query: Query): NativeMatch | null {
  const parts: NativeMatch[] = [];
  for (const [key, value] of Object.entries(query)) {
    if (key === '$and' || key === '$or' || key === '$nor') {
      if (!Array.isArray(value) || value.length === 0) return null;
      const subs: NativeMatch[] = [];
      for (const sub of value) {
        if (!isPlainObject(sub)) return null;
        const m = compileNative(sub);
        if (!m) return null;
        subs.push(m);
      }
      if (key === '$and') parts.push((doc) => andTri(subs, doc));
      else if (key === '$or') parts.push((doc) => orTri(subs, doc));
      else parts.push((doc) => notTri(orTri(subs, doc)));
      continue;
    }
    if (key.charCodeAt(0) === 36 || key === '') return null;
    const tests = compileCondition(value);
    if (!tests) return null;
    const path = key.split('.');
    const simple = path.length === 1;
    parts.push((doc) => {
      const raw = simple ? doc[key] : valueAt(doc, path);
      let els: unknown[] | null = null; // null: the scalar `raw` itself
      if (raw !== null && typeof raw === 'object') {
        const list = elementsOf(raw);
        if (list === UNDECIDED) return 2;
        els = list;
      } else if (raw === UNDECIDED) return 2;
      for (const t of tests) {
        if (t.exists !== undefined) {
          if ((raw !== undefined) !== t.exists) return 0;
          continue;
        }
        let any = false;
        if (els === null) any = t.test(raw);
        else {
          for (const el of els) {
            if (t.test(el)) {
              any = true;
              break;
            }
          }
        }
        if (any === t.negated) return 0;
      }
      return 1;
    });
  }
  if (parts.length === 1) return parts[0]!;
  return (doc) => andTri(parts, doc);
}

function andTri(subs: NativeMatch[], doc: ReadDocument): Tri {
  let r: Tri = 1;
  for (const m of subs) {
    const x = m(doc);
    if (x === 0) return 0;
    if (x === 2) r = 2;
  }
  return r;
}

function orTri(subs: NativeMatch[], doc: ReadDocument): Tri {
  let r: Tri = 0;
  for (const m of subs) {
    const x = m(doc);
    if (x === 1) return 1;
    if (x === 2) r = 2;
  }
  return r;
}

function notTri(x: Tri): Tri {
  return x === 2 ? 2 : x === 1 ? 0 : 1;
}

/** A range on one field from a query member (top level or in a top-level $and). */
interface RangeBound {
  value: Scalar;
  exclusive: boolean;
}
interface FieldRange {
  lo?: RangeBound;
  hi?: RangeBound;
  /** The member is nothing but this range (so the range decides it exactly, for strings). */
  pure: boolean;
}

function rangeOn(query: Query, field: string): FieldRange | null {
  const members: unknown[] = [];
  if (field in query) members.push(query[field]);
  const and = query.$and;
  if (Array.isArray(and)) for (const sub of and) if (isPlainObject(sub) && field in sub) members.push(sub[field]);
  let best: FieldRange | null = null;
  for (const m of members) {
    const range: FieldRange = { pure: true };
    if (isIndexable(m)) {
      range.lo = { value: m, exclusive: false };
      range.hi = { value: m, exclusive: false };
    } else if (isOperatorObject(m)) {
      for (const [op, arg] of Object.entries(m)) {
        if (!isIndexable(arg) || typeof arg === 'boolean') {
          range.pure = false;
          continue;
        }
        if (op === '$gt' || op === '$gte') range.lo = { value: arg, exclusive: op === '$gt' };
        else if (op === '$lt' || op === '$lte') range.hi = { value: arg, exclusive: op === '$lt' };
        else if (op === '$eq') range.lo = range.hi = { value: arg, exclusive: false };
        else range.pure = false;
      }
    } else continue;
    if (range.lo || range.hi) {
      // the tightest member wins: prefer two bounds
      if (!best || (range.lo && range.hi && !(best.lo && best.hi))) best = range;
    }
  }
  return best;
}

interface Walk {
  index: SortedIndex;
  /** Positions [from, to) of the index's entries. */
  from: number;
  to: number;
  reverse: boolean;
}

interface Access {
  matches: (e: Entry) => boolean;
  /** Every document reached matches (no test needed). */
  matchesAll: boolean;
  walk: Walk | null;
  /** Candidate entries when not walking; null = every document. */
  candidates: Entry[] | null;
}

/* ------------------------------------------------------------------ store */

export class MemoryReadStore implements ReadStore {
  private readonly collections = new Map<string, MemCollection>();
  private pos = 0;
  private maxIdsByCollection: Record<string, number> = {};
  private readonly planner: boolean;

  constructor(options: MemoryReadStoreOptions = {}) {
    this.planner = options.planner ?? true;
  }

  async open(): Promise<void> {}

  async close(): Promise<void> {}

  async apply(changes: DocumentChange[], position: number): Promise<void> {
    if (changes.length > 1000) {
      // A large batch (a replay): sorted indexes are rebuilt once, at their next read.
      for (const name of new Set(changes.map((c) => c.collection))) this.collection(name).staleSorted();
    }
    for (const change of changes) {
      const col = this.collection(change.collection);
      if (change.doc !== null) {
        const prev = this.maxIdsByCollection[change.collection];
        if (prev === undefined || change.id > prev) this.maxIdsByCollection[change.collection] = change.id;
      }
      const existing = col.docs.get(change.id);
      if (existing && existing.doc._pos >= change.position) continue;
      if (change.doc === null) {
        col.delete(change.id);
      } else {
        col.put(change.id, freezeClone({ ...change.doc, id: change.id, _pos: change.position }));
      }
    }
    if (position > this.pos) this.pos = position;
  }

  async position(): Promise<number> {
    return this.pos;
  }

  async maxIds(): Promise<Record<string, number>> {
    return { ...this.maxIdsByCollection };
  }

  async get(collection: string, id: number): Promise<ReadDocument | null> {
    return this.collections.get(collection)?.docs.get(id)?.doc ?? null;
  }

  async getMany(collection: string, ids: number[]): Promise<ReadDocument[]> {
    const col = this.collections.get(collection);
    if (!col) return [];
    const out: ReadDocument[] = [];
    for (const id of ids) {
      const e = col.docs.get(id);
      if (e) out.push(e.doc);
    }
    return out;
  }

  async find(collection: string, query: Query, options: FindOptions = {}): Promise<ReadDocument[]> {
    const col = this.collections.get(collection);
    const skip = Math.max(0, options.skip ?? 0);
    const limit = options.limit === undefined ? Infinity : Math.max(0, options.limit);
    if (!col || limit === 0) {
      if (!col) new MingoQuery(query); // still reject malformed queries
      return [];
    }
    const want = skip + limit;
    const spec = compileSort(options.sort);

    if (!this.planner) {
      const plan = this.plan(col, query);
      const all: Keyed[] = [];
      for (const e of col.docs.values()) if (matchEntry(plan, e)) all.push({ entry: e, keys: spec.map((k) => sortKey(sortValue(e.doc, k))) });
      all.sort(makeComparator(spec));
      return all.slice(skip, want).map((k) => k.entry.doc);
    }

    const access = this.access(col, query, spec, want);
    const matches = access.matches;

    if (access.walk) {
      // A walk of a sorted index in the requested order, stopping when the page is full.
      const { index, from, to, reverse } = access.walk;
      const entries = index.entries;
      if (access.matchesAll) {
        const a = reverse ? Math.max(from, to - want) : from + skip;
        const b = reverse ? to - skip : Math.min(to, from + want);
        const page = entries.slice(Math.max(a, from), Math.max(Math.min(b, to), from)).map((k) => k.entry.doc);
        return reverse ? page.reverse() : page;
      }
      const out: ReadDocument[] = [];
      let seen = 0;
      for (let i = reverse ? to - 1 : from; reverse ? i >= from : i < to; reverse ? i-- : i++) {
        const e = entries[i]!.entry;
        if (!matches(e)) continue;
        if (seen++ >= skip) out.push(e.doc);
        if (seen >= want) break;
      }
      return out;
    }

    const candidates = access.candidates;
    if (spec.length === 0) {
      if (candidates === null) {
        // Natural order scan: stop as soon as the page is complete.
        const out: ReadDocument[] = [];
        let seen = 0;
        for (const e of col.docs.values()) {
          if (!matches(e)) continue;
          if (seen++ >= skip) out.push(e.doc);
          if (seen >= want) break;
        }
        return out;
      }
      const hits = candidates.filter(matches);
      hits.sort((a, b) => a.seq - b.seq);
      return hits.slice(skip, want).map((e) => e.doc);
    }

    const cmp = makeComparator(spec);
    const source: Iterable<Entry> = candidates ?? col.docs.values();
    const keyed = (e: Entry): Keyed => {
      const keys = new Array<unknown>(spec.length);
      for (let i = 0; i < spec.length; i++) keys[i] = sortKey(sortValue(e.doc, spec[i]!));
      return { entry: e, keys };
    };

    if (want <= 1000) {
      // Bounded sorted buffer of the best `want` matches.
      const buf: Keyed[] = [];
      for (const e of source) {
        if (!matches(e)) continue;
        const k = keyed(e);
        insertBounded(buf, k, want, cmp);
      }
      return buf.slice(skip).map((k) => k.entry.doc);
    }

    const all: Keyed[] = [];
    for (const e of source) if (matches(e)) all.push(keyed(e));
    all.sort(cmp);
    return all.slice(skip, want).map((k) => k.entry.doc);
  }

  async count(collection: string, query: Query): Promise<number> {
    const col = this.collections.get(collection);
    if (!col) {
      new MingoQuery(query);
      return 0;
    }
    const keys = Object.keys(query);
    if (keys.length === 0) return col.docs.size;
    if (!this.planner) {
      const plan = this.plan(col, query);
      let n = 0;
      for (const e of col.docs.values()) if (matchEntry(plan, e)) n++;
      return n;
    }
    if (keys.length === 1) {
      const exact = this.exactCount(col, keys[0]!, query[keys[0]!]);
      if (exact !== null) return exact;
    }
    const access = this.access(col, query, [], Infinity, true);
    if (access.matchesAll && access.walk) return access.walk.to - access.walk.from;
    const matches = access.matches;
    let n = 0;
    // Counting tests documents where they are; nothing is copied or materialised.
    if (access.walk) {
      const { index, from, to } = access.walk;
      for (let i = from; i < to; i++) if (matches(index.entries[i]!.entry)) n++;
      return n;
    }
    for (const e of access.candidates ?? col.docs.values()) if (matches(e)) n++;
    return n;
  }

  /**
   * How to reach the documents of a query: a walk of a sorted index (in the sort's
   * order, possibly limited to a range of its first field) or a candidate list (from an
   * equality index or a range of a sorted index; null = every document), and the
   * predicate deciding each document (native when the query allows, else mingo).
   */
  private access(col: MemCollection, query: Query, spec: SortKeySpec[], want: number, forCount = false): Access {
    const plan = this.plan(col, query);
    const native = Object.keys(query).length === 0 ? null : compileNative(query);
    let full: MingoQuery | null = null;
    const matches = native
      ? (e: Entry) => {
          const r = native(e.doc);
          if (r !== 2) return r === 1;
          full ??= new MingoQuery(query);
          return full.test(e.doc);
        }
      : (e: Entry) => matchEntry(plan, e);
    const n = col.docs.size;
    const eqSize = plan.candidates ? plan.candidates.length : n;

    // The narrowest range of a sorted index's first field the query states.
    let range: { index: SortedIndex; from: number; to: number; pure: boolean } | null = null;
    for (const candidate of col.sorted.values()) {
      const r = rangeOn(query, candidate.fields[0]!);
      if (!r) continue;
      const index = col.fresh(candidate);
      if (!index) continue;
      const from = r.lo ? index.lowerBound(r.lo.value, r.lo.exclusive) : 0;
      const to = r.hi ? index.lowerBound(r.hi.value, !r.hi.exclusive) : index.entries.length;
      const sameType = r.lo && r.hi && typeof r.lo.value === typeof r.hi.value;
      // pure: the query is nothing but this range (then every entry in it matches)
      const keys = Object.keys(query);
      const pure = r.pure && !!sameType && keys.length === 1 && keys[0] === candidate.fields[0];
      if (!range || to - from < range.to - range.from) range = { index, from, to: Math.max(from, to), pure };
    }

    // A sorted index serving the requested order (all ascending or all descending, ending with id).
    let walk: Walk | null = null;
    if (spec.length > 0 && spec[spec.length - 1]!.field === 'id' && spec.every((k) => k.dir === spec[0]!.dir)) {
      const named = col.sorted.get(spec.map((k) => k.field).join(','));
      const index = named ? col.fresh(named) : null;
      if (index) {
        const reverse = spec[0]!.dir === -1;
        walk = range && range.index === index
          ? { index, from: range.from, to: range.to, reverse }
          : { index, from: 0, to: index.entries.length, reverse };
      }
    }
    const matchesAll = Object.keys(query).length === 0 || (range !== null && range.pure && walk?.index === range.index);
    const rangeSize = range ? range.to - range.from : n;
    const sourceSize = Math.min(eqSize, rangeSize);

    if (forCount && range?.pure) {
      // count() of a pure range: the range's size
      return { matches, matchesAll: true, walk: { index: range.index, from: range.from, to: range.to, reverse: false }, candidates: null };
    }

    if (walk) {
      const domain = walk.to - walk.from;
      const otherConditions = Object.keys(query).length > (plan.candidates ? 1 : 0) + (range && walk.index === range.index ? 1 : 0);
      const eqFraction = plan.candidates ? eqSize / Math.max(n, 1) : 1;
      const rangeFraction = range && range.index !== walk.index ? rangeSize / Math.max(n, 1) : 1;
      const selectivity = Math.max(1 / Math.max(n, 1), Math.min(eqFraction, rangeFraction) * (otherConditions ? 0.25 : 1));
      const walkCost = matchesAll ? Math.min(domain, want) : Math.min(domain, want / selectivity);
      if (walkCost <= sourceSize * 2 || want === Infinity && domain <= sourceSize) {
        return { matches, matchesAll, walk, candidates: null };
      }
    }
    if (range && rangeSize < eqSize) {
      const candidates = range.index.entries.slice(range.from, range.to).map((k) => k.entry);
      return { matches, matchesAll: false, walk: null, candidates };
    }
    return { matches, matchesAll: false, walk: null, candidates: plan.candidates };
  }

  /**
   * A page and the count of all matches in one pass: every match is counted, the page
   * kept in a bounded sorted buffer on the way. Counts the indexes answer alone (no
   * filter, one indexed equality, a pure range) are taken from them and the page
   * walked separately.
   */
  async findWithCount(collection: string, query: Query, options: FindOptions = {}): Promise<{ count: number; docs: ReadDocument[] }> {
    const col = this.collections.get(collection);
    const keys = Object.keys(query);
    const separately = async () => {
      const [count, docs] = await Promise.all([this.count(collection, query), this.find(collection, query, options)]);
      return { count, docs };
    };
    if (!col || !this.planner || keys.length === 0) return separately();
    if (keys.length === 1 && this.exactCount(col, keys[0]!, query[keys[0]!]) !== null) return separately();
    const access = this.access(col, query, [], Infinity, true);
    if (access.matchesAll) return separately();
    const skip = Math.max(0, options.skip ?? 0);
    const limit = options.limit === undefined ? Infinity : Math.max(0, options.limit);
    const want = skip + limit;
    const spec = compileSort(options.sort);
    const matches = access.matches;
    const source: Iterable<Entry> = access.candidates ?? col.docs.values();
    // with no sort, the page is in insertion order: the sequence number is the key
    const cmp = spec.length ? makeComparator(spec) : (a: Keyed, b: Keyed) => a.entry.seq - b.entry.seq;
    const keyed = (e: Entry): Keyed => {
      const k = new Array<unknown>(spec.length);
      for (let i = 0; i < spec.length; i++) k[i] = sortKey(sortValue(e.doc, spec[i]!));
      return { entry: e, keys: k };
    };
    let count = 0;
    const bounded = want <= 1000;
    const buf: Keyed[] = [];
    for (const e of source) {
      if (!matches(e)) continue;
      count++;
      if (want === 0) continue;
      const k = keyed(e);
      if (!bounded) {
        buf.push(k);
        continue;
      }
      insertBounded(buf, k, want, cmp);
    }
    if (!bounded) buf.sort(cmp);
    return { count, docs: buf.slice(skip, want).map((k) => k.entry.doc) };
  }

  async countBy(collection: string, field: string, values: number[]): Promise<Map<number, number>> {
    const result = new Map<number, number>();
    for (const v of values) result.set(v, 0);
    const col = this.collections.get(collection);
    if (!col || values.length === 0) return result;
    if (field === 'id') {
      for (const v of result.keys()) result.set(v, col.docs.has(v) ? 1 : 0);
      return result;
    }
    const index = this.planner ? col.indexes.get(field) : undefined;
    if (index) {
      for (const v of result.keys()) result.set(v, index.size(v));
      return result;
    }
    const probe = new FieldIndex(field);
    for (const e of col.docs.values()) {
      for (const k of probe.keysOf(e.doc)) {
        if (typeof k === 'number') {
          const n = result.get(k);
          if (n !== undefined) result.set(k, n + 1);
        }
      }
    }
    return result;
  }

  /**
   * Every field of a declaration gets an equality index, except the hidden derived keys
   * (leading '_', e.g. '_address') of a compound one; a compound declaration (two fields
   * or more) also gets a sorted index in that field order, used for pages in that order
   * and for ranges (and equalities) of its first field.
   */
  async ensureIndexes(collection: string, fields: string[][]): Promise<void> {
    const col = this.collection(collection);
    for (const compound of fields) {
      for (const field of compound) if (compound.length === 1 || !field.startsWith('_')) col.addIndex(field);
      if (compound.length > 1) col.addSorted(compound);
    }
  }

  async drop(): Promise<void> {
    for (const col of this.collections.values()) col.clear();
    this.pos = 0;
    this.maxIdsByCollection = {};
  }

  /* -------------------------------------------------------------- private */

  private collection(name: string): MemCollection {
    let col = this.collections.get(name);
    if (!col) {
      col = new MemCollection();
      this.collections.set(name, col);
    }
    return col;
  }

  private plan(col: MemCollection, query: Query): Plan {
    const keys = Object.keys(query);
    if (keys.length === 0) return { candidates: null, prefilters: [], residual: null, full: null };
    if (!this.planner) {
      const full = new MingoQuery(query);
      return { candidates: null, prefilters: [], residual: full, full };
    }

    const eq: EqConstraint[] = [];
    const regexes: RegexConstraint[] = [];
    collectConstraints(query, true, eq, regexes);

    // Driving constraint: the indexed one with the fewest candidates.
    let best: EqConstraint | null = null;
    let bestCost = Infinity;
    for (const c of eq) {
      let cost: number;
      if (c.field === 'id') {
        cost = c.values.length;
      } else {
        const index = col.indexes.get(c.field);
        if (!index) continue;
        cost = 0;
        for (const v of c.values) cost += index.size(v);
      }
      if (cost < bestCost) {
        best = c;
        bestCost = cost;
      }
    }
    if (best && bestCost >= col.docs.size) best = null;

    let candidates: Entry[] | null = null;
    if (best) {
      candidates = [];
      if (best.field === 'id') {
        const seen = new Set<number>();
        for (const v of best.values) {
          if (typeof v !== 'number' || seen.has(v)) continue;
          seen.add(v);
          const e = col.docs.get(v);
          if (e) candidates.push(e);
        }
      } else {
        const index = col.indexes.get(best.field)!;
        const values = best.values.length > 1 ? [...new Set(best.values)] : best.values;
        const seen = values.length > 1 && index.multiValued ? new Set<Entry>() : null;
        for (const v of values) index.collect(v, candidates, seen);
      }
    }

    // Members decided exactly (by the driving index or by a prefilter) leave mingo's query.
    const decided = new Set<string>();
    const prefilters: Prefilter[] = [];
    if (best?.exact) decided.add(best.field);
    for (const c of eq) {
      if (c === best) continue;
      if (c.field.indexOf('.') === -1) {
        prefilters.push(eqPrefilter(c));
        if (c.exact) decided.add(c.field);
      } else {
        const index = col.indexes.get(c.field);
        if (index) {
          const values = c.values;
          prefilters.push((e) => (values.some((v) => index.has(v, e)) ? 1 : 0));
        }
      }
    }
    let undecidable = false;
    for (const r of regexes) {
      if (decided.has(r.field)) continue;
      prefilters.push(regexPrefilter(r));
      if (r.exact) {
        decided.add(r.field);
        undecidable = true;
      }
    }
    // Cheapest first: equality checks before regexes (already in that order).

    const residualQuery: Query = {};
    let residualKeys = 0;
    for (const k of keys) {
      if (decided.has(k)) continue;
      residualQuery[k] = query[k];
      residualKeys++;
    }
    const full = residualKeys === keys.length ? null : undecidable ? new MingoQuery(query) : null;
    const residual = residualKeys > 0 ? new MingoQuery(residualQuery) : null;
    return { candidates, prefilters, residual, full: full ?? residual };
  }

  /** count() of a single-key query answered from an index alone, or null. */
  private exactCount(col: MemCollection, field: string, value: unknown): number | null {
    if (field.indexOf('.') !== -1 || field.charCodeAt(0) === 36) return null;
    const values = isIndexable(value) ? [value] : null;
    let list = values;
    if (!list && isOperatorObject(value) && Object.keys(value).length === 1 && Array.isArray(value.$in) && value.$in.every(isIndexable)) {
      list = value.$in as Scalar[];
    }
    if (!list) return null;
    if (field === 'id') {
      const ids = new Set(list.filter((v): v is number => typeof v === 'number'));
      let n = 0;
      for (const id of ids) if (col.docs.has(id)) n++;
      return n;
    }
    const index = col.indexes.get(field);
    if (!index) return null;
    const distinct = [...new Set(list)];
    if (distinct.length === 1) return index.size(distinct[0]!);
    if (!index.multiValued) return distinct.reduce<number>((n, v) => n + index.size(v), 0);
    const entries = new Set<Entry>();
    const out: Entry[] = [];
    for (const v of distinct) index.collect(v, out, entries);
    return entries.size;
  }
}

function matchEntry(plan: Plan, e: Entry): boolean {
  const doc = e.doc;
  let undecided = false;
  for (let i = 0; i < plan.prefilters.length; i++) {
    const r = plan.prefilters[i]!(e);
    if (r === 0) return false;
    if (r === 2) undecided = true;
  }
  const q = undecided ? plan.full : plan.residual;
  return q === null || q.test(doc);
}

/**
 * Keep `buf` as the `want` smallest items seen so far, in order: a binary-search
 * insert that drops the largest once the buffer is full.
 */
function insertBounded<T>(buf: T[], item: T, want: number, cmp: (a: T, b: T) => number): void {
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
