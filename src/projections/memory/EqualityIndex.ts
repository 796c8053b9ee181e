import type { ReadDocument } from '../ReadStore.js';
import { collectPath } from './dottedPaths.js';
import type { Entry } from './Entry.js';
import { isIndexable, type Scalar } from './queryShapes.js';

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
