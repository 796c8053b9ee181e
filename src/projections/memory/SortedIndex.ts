import { hasArrayOnPath } from '../querySemantics/dottedPaths.js';
import type { Entry } from '../querySemantics/Entry.js';
import {
  compareKeys,
  compileSort,
  type Keyed,
  type KeyedComparator,
  makeComparator,
  sortKey,
  type SortKeySpec,
  sortValue,
} from '../querySemantics/sortOrder.js';
import type { ReadDocument } from '../ReadStore.js';

/**
 * The documents in the order of a list of fields (ascending, then insertion order):
 * a page in that order (or its reverse) is a walk with early exit, and a range on the
 * first field is a binary search. Kept up to date change by change, or rebuilt at the
 * next read after a large batch (a replay). Unusable (and left alone) once a document
 * held an array in one of its fields: MongoDB sorts arrays by their smallest element
 * ascending but their largest descending, which one order cannot serve.
 */
export class SortedIndex {
  readonly specs: SortKeySpec[];
  entries: Keyed[] = [];
  stale = true;
  multiValued = false;
  private readonly cmp: KeyedComparator;

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
