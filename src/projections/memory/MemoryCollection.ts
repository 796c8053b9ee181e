import type { Entry } from '../querySemantics/Entry.js';
import type { ReadDocument } from '../ReadStore.js';
import { AddressOccupancy } from './AddressOccupancy.js';
import { EqualityIndex } from './EqualityIndex.js';
import { SortedIndex } from './SortedIndex.js';
import { TrigramIndex } from './TrigramIndex.js';

/** Most trigram indexes one collection keeps (the fields searched by text first); others are scanned. */
const MAX_TEXT_INDEXES = 8;
/**
 * Text searches of a field answered by scanning before its trigram index is built: building
 * costs about a dozen scans, so a store read once (a past state for `?as_of=`) never pays
 * for it, while a field a live service is asked about repeatedly gets its index quickly.
 */
const SCANS_BEFORE_TEXT_INDEX = 2;

/**
 * One collection of the memory store: its documents by id (insertion order is the
 * natural order), and the equality, sorted and address-occupancy indexes kept up to
 * date change by change.
 */
export class MemoryCollection {
  readonly docs = new Map<number, Entry>();
  /** Equality indexes by field; read them through `index` (a stale one is built there first). */
  private readonly indexes = new Map<string, EqualityIndex>();
  /** Sorted indexes by their field list joined with ','; 'id' always exists. */
  readonly sorted = new Map<string, SortedIndex>([['id', new SortedIndex(['id'])]]);
  /** Address occupancy indexes by field and scope field, created by the first query that needs one. */
  private readonly occupancies = new Map<string, AddressOccupancy>();
  /** Trigram indexes by field, created by the first query with a literal text match on the field. */
  readonly textIndexes = new Map<string, TrigramIndex>();
  /** Text searches per field not yet indexed. */
  private readonly textSearches = new Map<string, number>();
  seq = 0;

  /**
   * The trigram index of a plain field, ready to read (built at the third search of the
   * field, rebuilt when stale), or null: not searched often enough yet, or the collection
   * keeps as many as it may.
   */
  textIndex(field: string): TrigramIndex | null {
    let index = this.textIndexes.get(field);
    if (!index) {
      if (this.textIndexes.size >= MAX_TEXT_INDEXES) return null;
      const searches = (this.textSearches.get(field) ?? 0) + 1;
      this.textSearches.set(field, searches);
      if (searches <= SCANS_BEFORE_TEXT_INDEX) return null;
      this.textSearches.delete(field);
      this.textIndexes.set(field, (index = new TrigramIndex(field)));
    }
    if (index.stale || index.size !== this.docs.size) index.rebuild(this.docs.values());
    return index;
  }

  /** The occupancy index of an address field (grouped by `scopeField`), ready to read. */
  occupancy(field: string, scopeField: string | null): AddressOccupancy {
    const name = `${field}\u0000${scopeField ?? ''}`;
    let index = this.occupancies.get(name);
    if (!index) this.occupancies.set(name, (index = new AddressOccupancy(field, scopeField)));
    if (index.stale) index.rebuild([...this.docs.values()].map((e) => e.doc));
    return index;
  }

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
    for (const index of this.occupancies.values()) index.clear();
    for (const index of this.textIndexes.values()) {
      index.clear();
      index.stale = true;
    }
  }

  /**
   * The equality index of a field, ready to read, or undefined when the field has none.
   * One left stale by a restore is built here, in one pass over the documents.
   */
  index(field: string): EqualityIndex | undefined {
    const index = this.indexes.get(field);
    if (index?.stale) index.build(this.docs, Infinity);
    return index;
  }

  /**
   * Files up to `most` documents into the stale equality indexes (a build in the
   * background, between turns of the event loop); the number filed, 0 when all are built.
   */
  buildIndexes(most: number): number {
    let left = most;
    for (const index of this.indexes.values()) {
      while (index.stale && left > 0) {
        const slice = Math.min(left, 1000);
        index.build(this.docs, slice);
        left -= slice;
      }
      if (left <= 0) break;
    }
    return most - left;
  }

  hasIndex(field: string): boolean {
    return field === 'id' || this.indexes.has(field);
  }

  /**
   * Replaces the documents with a whole collection's (a loaded snapshot, ids distinct), in
   * natural order. The equality indexes are left stale and built at their first read:
   * a start-up does not pay for indexes of collections no request reads by value (see
   * BENCHMARKS.md, "Start-up"); sorted, occupancy and text indexes are rebuilt at their
   * next read, as after a replay.
   */
  load(docs: readonly ReadDocument[]): void {
    this.clear();
    this.staleSorted();
    for (const doc of docs) this.docs.set(doc.id, { doc, seq: this.seq++ });
    for (const index of this.indexes.values()) {
      index.clear();
      index.stale = this.docs.size > 0;
    }
  }

  addIndex(field: string): void {
    if (field === 'id' || this.indexes.has(field)) return;
    const index = new EqualityIndex(field);
    for (const e of this.docs.values()) index.add(e, index.keysOf(e.doc));
    this.indexes.set(field, index);
  }

  put(id: number, doc: ReadDocument): void {
    const existing = this.docs.get(id);
    if (existing) {
      for (const index of this.indexes.values()) {
        if (!index.follows(existing)) continue;
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
      for (const index of this.occupancies.values()) {
        if (index.stale || !index.changes(previous, doc)) continue;
        index.remove(previous);
        index.add(doc);
      }
      for (const index of this.textIndexes.values()) if (!index.stale) index.update(existing, previous);
    } else {
      const entry: Entry = { doc, seq: this.seq++ };
      this.docs.set(id, entry);
      for (const index of this.indexes.values()) if (index.follows(entry)) index.add(entry, index.keysOf(doc));
      for (const index of this.sorted.values()) index.insert(entry);
      for (const index of this.occupancies.values()) if (!index.stale) index.add(doc);
      for (const index of this.textIndexes.values()) if (!index.stale) index.add(entry);
    }
  }

  delete(id: number): void {
    const existing = this.docs.get(id);
    if (!existing) return;
    for (const index of this.indexes.values())
      if (index.follows(existing)) index.remove(existing, index.keysOf(existing.doc));
    for (const index of this.sorted.values()) index.remove(existing, existing.doc);
    for (const index of this.occupancies.values()) if (!index.stale) index.remove(existing.doc);
    for (const index of this.textIndexes.values()) if (!index.stale) index.remove(existing, existing.doc);
    this.docs.delete(id);
  }

  clear(): void {
    this.docs.clear();
    this.seq = 0;
    for (const index of this.indexes.values()) index.clear();
    for (const index of this.sorted.values()) {
      index.entries = [];
      index.stale = true;
      index.multiValued = false;
    }
    for (const index of this.occupancies.values()) index.clear();
    for (const index of this.textIndexes.values()) {
      index.clear();
      index.stale = true;
    }
  }
}
