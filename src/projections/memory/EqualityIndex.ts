import { foldCase } from '../caseFolding.js';
import { collectPath } from '../querySemantics/dottedPaths.js';
import type { Entry } from '../querySemantics/Entry.js';
import { isIndexable, type Scalar } from '../querySemantics/queryShapes.js';
import type { ReadDocument } from '../ReadStore.js';

/** Entries under one index value: one entry, or a Set when several. */
type Posting = Entry | Set<Entry>;

/**
 * An equality index on one field (value → documents): scalar values only, an array
 * value files its document under each of its elements.
 */
export class EqualityIndex {
  readonly parts: string[];
  readonly postings = new Map<Scalar, Posting>();
  /** Set once a document held an array at this path (one doc may then sit under several values). */
  multiValued = false;
  /** Its postings do not follow the documents (a snapshot was loaded): `build` before reading. */
  stale = false;
  /**
   * A build under way, in slices: the collection's documents in natural (= `seq`) order,
   * and the highest `seq` filed so far. Entries up to it are filed and their changes
   * followed; later ones are filed, as they are then, when the build reaches them.
   */
  private building: Iterator<Entry> | null = null;
  private filedUpTo = -1;
  /**
   * Folded form → the string values filed under it, built by the first case-insensitive
   * look-up and kept from then on: an exact case-insensitive match (a uniqueness rule
   * on a name) reaches its few candidates instead of scanning the collection.
   */
  private folded: Map<string, Set<string>> | null = null;

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
      if (p === undefined) {
        this.postings.set(k, entry);
        if (this.folded && typeof k === 'string') this.fileFolded(k);
      } else if (p instanceof Set) p.add(entry);
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
        else if (p.size === 0) this.forget(k);
      } else if (p === entry) this.forget(k);
    }
  }

  /** The entries whose value is a string equal to one of `texts` under case folding (each once). */
  collectFolded(texts: string[], out: Entry[]): void {
    if (!this.folded) {
      this.folded = new Map();
      for (const k of this.postings.keys()) if (typeof k === 'string') this.fileFolded(k);
    }
    const seen = this.multiValued ? new Set<Entry>() : null;
    for (const key of new Set(texts.map(foldCase))) {
      for (const value of this.folded.get(key) ?? []) this.collect(value, out, seen);
    }
  }

  private fileFolded(value: string): void {
    const key = foldCase(value);
    const values = this.folded!.get(key);
    if (values) values.add(value);
    else this.folded!.set(key, new Set([value]));
  }

  private forget(k: Scalar): void {
    this.postings.delete(k);
    if (!this.folded || typeof k !== 'string') return;
    const key = foldCase(k);
    const values = this.folded.get(key);
    values?.delete(k);
    if (values?.size === 0) this.folded.delete(key);
  }

  /** Drops every value (the collection was cleared). */
  clear(): void {
    this.postings.clear();
    this.folded = null;
    this.multiValued = false;
    this.stale = false;
    this.building = null;
    this.filedUpTo = -1;
  }

  /** Whether a change to this entry is to be filed now: the index is built, or its build reached the entry. */
  follows(entry: Entry): boolean {
    return !this.stale || entry.seq <= this.filedUpTo;
  }

  /**
   * Files up to `most` more of a stale index's documents (all of them with Infinity),
   * continuing a build under way; true once the index is built. `docs` is the collection's
   * Map, iterated live: entries added meanwhile come after, deleted ones are not met.
   */
  build(docs: Map<number, Entry>, most: number): boolean {
    if (!this.stale) return true;
    if (!this.building) {
      this.postings.clear();
      this.folded = null;
      this.multiValued = false;
      this.building = docs.values();
    }
    for (let n = 0; n < most; n++) {
      const next = this.building.next();
      if (next.done) {
        this.building = null;
        this.filedUpTo = -1;
        this.stale = false;
        return true;
      }
      this.add(next.value, this.keysOf(next.value.doc));
      this.filedUpTo = next.value.seq;
    }
    return false;
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
