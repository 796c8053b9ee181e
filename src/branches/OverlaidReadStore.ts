import { Overlay, overlayCandidates, StagedView } from '../commands/StagedView.js';
import type { LogCursor, ResumePoint } from '../events/EventLog.js';
import type { AddressRun, FreeAddressQuery } from '../models/lookupView.js';
import { documentMatcher } from '../projections/querySemantics/documentMatcher.js';
import { documentOrder } from '../projections/querySemantics/sortOrder.js';
import type { DocumentChange, FindOptions, Query, ReadDocument, ReadStore } from '../projections/ReadStore.js';

/**
 * The most ids one query to the base names. A past view far back overlays about every object
 * of a collection, and a MongoDB query (a BSON document) may not pass 16 MB: some 1.3 million
 * ids. 400,000 is about 5 MB (7 MB were they sent as doubles).
 */
const MAX_IDS_PER_QUERY = 400_000;

/**
 * A read store made of another one (the base: main's read models) with some of its
 * documents replaced: each overlaid document (or its absence, null) hides the base's
 * version of that object. A branch's view is one: the fork-time versions of what main
 * changed since, and the branch's own changes (README: Branches).
 *
 * Every query is answered as if the overlay had been applied to the base: the base is
 * asked for as many more matches as there are overlaid objects, the hidden ones are
 * dropped, the overlaid matches merged in by the same order, and the page cut from the
 * merge. Counts subtract the hidden base matches and add the overlaid ones. Cost: the
 * base's answer plus a pass over the overlaid documents of the collection, never a copy
 * of the base.
 *
 * Ties of an ordering are broken by id (the base breaks them by insertion order, which is
 * id order but for imported objects).
 */
export class OverlaidReadStore implements ReadStore {
  /** collection → id → document (null: the object does not exist here). */
  readonly overlay = new Overlay();
  /** Highest id of each collection the overlay ever held a document of (ids are never reused, even after a delete). */
  private readonly highest = new Map<string, number>();
  /**
   * collection → the highest id of the objects this view shows (a past view: every object
   * above it was created later), in the base and in the overlay alike.
   */
  private readonly ceilings = new Map<string, number>();

  constructor(
    private readonly base: ReadStore,
    private readonly maxIdsPerQuery = MAX_IDS_PER_QUERY,
  ) {}

  async open(): Promise<void> {}
  async close(): Promise<void> {}

  /**
   * Puts changes into the overlay (never into the base): a column patch is made on the
   * version this view holds of the object.
   */
  async apply(changes: DocumentChange[], _position: number, _cursor?: LogCursor): Promise<void> {
    for (const change of changes) {
      if (!change.columns) {
        if (change.doc && change.id > (this.highest.get(change.collection) ?? 0))
          this.highest.set(change.collection, change.id);
        this.overlay.put(change);
        continue;
      }
      const current = await this.get(change.collection, change.id);
      if (current) this.overlay.put({ ...change, doc: { ...current, ...change.columns }, columns: undefined });
    }
  }

  /** Replaces the version of one object this view holds (null: absent here). */
  hide(collection: string, id: number, doc: ReadDocument | null): void {
    this.overlay.put({ collection, id, doc, position: doc?._pos ?? 0 });
  }

  /**
   * Hides every object of the collection whose id is above `maxId`: as an overlaid null each
   * would, without holding one per object (a past view hides all objects created since).
   */
  limitIds(collection: string, maxId: number): void {
    this.ceilings.set(collection, maxId);
  }

  /** Whether the overlay holds a version of the object. */
  holds(collection: string, id: number): boolean {
    return this.overlay.docs.get(collection)?.has(id) ?? false;
  }

  /** Forgets every overlaid document (not the ids it held: they stay taken). */
  clear(): void {
    for (const collection of [...this.overlay.docs.keys()]) this.forget(collection);
  }

  /** Forgets the overlaid documents of one collection (its base documents show again). */
  forget(collection: string): void {
    for (const [id, doc] of [...(this.overlay.docs.get(collection) ?? [])])
      this.overlay.settle({ collection, id, doc, position: doc?._pos ?? 0 });
  }

  /** How many objects the overlay holds a version of. */
  get size(): number {
    let n = 0;
    for (const docs of this.overlay.docs.values()) n += docs.size;
    return n;
  }

  position(): Promise<number> {
    return this.base.position();
  }

  async resumePoint(): Promise<ResumePoint | null> {
    return null;
  }

  /** Highest id of each collection the overlay ever held a document of. */
  overlaidMaxIds(): Record<string, number> {
    return Object.fromEntries(this.highest);
  }

  async maxIds(): Promise<Record<string, number>> {
    const ids = await this.base.maxIds();
    for (const [collection, id] of this.highest) if (id > (ids[collection] ?? 0)) ids[collection] = id;
    return ids;
  }

  async get(collection: string, id: number): Promise<ReadDocument | null> {
    if (id > (this.ceilings.get(collection) ?? Infinity)) return null;
    const docs = this.overlay.docs.get(collection);
    if (docs?.has(id)) return docs.get(id) ?? null;
    return this.base.get(collection, id);
  }

  async getMany(collection: string, ids: number[]): Promise<ReadDocument[]> {
    const docs = this.overlay.docs.get(collection);
    const ceiling = this.ceilings.get(collection) ?? Infinity;
    if (!docs?.size && ceiling === Infinity) return this.base.getMany(collection, ids);
    if (ceiling !== Infinity) ids = ids.filter((id) => id <= ceiling);
    const fromBase = new Map(
      (
        await this.base.getMany(
          collection,
          ids.filter((id) => !docs?.has(id)),
        )
      ).map((doc) => [doc.id, doc]),
    );
    const out: ReadDocument[] = [];
    for (const id of ids) {
      const doc = docs?.has(id) ? docs.get(id) : fromBase.get(id);
      if (doc) out.push(doc);
    }
    return out;
  }

  async find(collection: string, query: Query, options: FindOptions = {}): Promise<ReadDocument[]> {
    const docs = this.overlay.docs.get(collection);
    if (!docs?.size) return this.base.find(collection, this.baseQuery(collection, query), options);
    const skip = Math.max(0, options.skip ?? 0);
    const want = options.limit === undefined ? Infinity : skip + Math.max(0, options.limit);
    if (want === 0) return [];
    const kept = await this.baseMatches(collection, query, options.sort, want, docs);
    const matches = this.overlaidMatches(docs, collection, query);
    if (matches.length === 0) return kept.slice(skip, want);
    const order = documentOrder(options.sort);
    return mergeSorted(kept, firstInOrder(matches, order, want), order).slice(skip, want);
  }

  /**
   * The base's first `want` matches the overlay does not hide, in order: asked for a few more
   * than `want` first; when hidden ones leave too few (a past view hides most of a
   * collection's first matches when most objects changed since, ordered by `last_updated`
   * all of them), asked once more without the overlaid ids, rather than for ever more
   * matches, each time sorted again. Overlaid ids too many to name in one query: the base is
   * read on from where the first read stopped instead, in growing steps, the hidden ones dropped.
   */
  private async baseMatches(
    collection: string,
    query: Query,
    sort: FindOptions['sort'],
    want: number,
    docs: Map<number, ReadDocument | null>,
  ): Promise<ReadDocument[]> {
    const shown = this.baseQuery(collection, query);
    if (want === Infinity)
      return (await this.base.find(collection, shown, { sort })).filter((doc) => !docs.has(doc.id));
    const limit = Math.min(want + docs.size, want * 4 + 16);
    const fromBase = await this.base.find(collection, shown, { sort, limit });
    const kept = fromBase.filter((doc) => !docs.has(doc.id));
    if (kept.length >= want || fromBase.length < limit) return kept;
    if (docs.size <= this.maxIdsPerQuery)
      return this.base.find(collection, { $and: [shown, { id: { $nin: [...docs.keys()] } }] }, { sort, limit: want });
    for (let skip = limit, step = limit; kept.length < want; skip += step, step *= 2) {
      const more = await this.base.find(collection, shown, { sort, skip, limit: step });
      for (const doc of more) if (!docs.has(doc.id)) kept.push(doc);
      if (more.length < step) break;
    }
    return kept;
  }

  async count(collection: string, query: Query): Promise<number> {
    const docs = this.overlay.docs.get(collection);
    const shown = this.baseQuery(collection, query);
    if (!docs?.size) return this.base.count(collection, shown);
    const [all, ...hidden] = await Promise.all([
      this.base.count(collection, shown),
      ...this.idChunks(docs.keys()).map((ids) => this.base.count(collection, { $and: [shown, { id: { $in: ids } }] })),
    ]);
    return all! - hidden.reduce((sum, n) => sum + n, 0) + this.overlaidMatches(docs, collection, query).length;
  }

  async findWithCount(
    collection: string,
    query: Query,
    options?: FindOptions,
  ): Promise<{ count: number; docs: ReadDocument[] }> {
    const [count, docs] = await Promise.all([this.count(collection, query), this.find(collection, query, options)]);
    return { count, docs };
  }

  async countBy(collection: string, field: string, values: number[]): Promise<Map<number, number>> {
    const counts = await this.base.countBy(collection, field, values);
    const docs = this.overlay.docs.get(collection);
    const ceiling = this.ceilings.get(collection);
    if (!docs?.size && ceiling === undefined) return counts;
    const tally = (doc: ReadDocument | null | undefined, step: number) => {
      if (!doc) return;
      const value = field === 'id' ? doc.id : doc[field];
      for (const key of Array.isArray(value) ? value : [value]) {
        const n = typeof key === 'number' ? counts.get(key) : undefined;
        if (n !== undefined) counts.set(key as number, n + step);
      }
    };
    const shown = (id: number) => ceiling === undefined || id <= ceiling;
    if (ceiling !== undefined) {
      // No object above the ceiling is shown.
      const above = await this.base.find(collection, {
        $and: [{ id: { $gt: ceiling } }, { [field]: { $in: values } }],
      });
      for (const doc of above) tally(doc, -1);
    }
    if (!docs?.size) return counts;
    const overlaid = [...docs.keys()].filter(shown);
    for (const ids of this.idChunks(overlaid))
      for (const hidden of await this.base.getMany(collection, ids)) tally(hidden, -1);
    for (const id of overlaid) tally(docs.get(id), 1);
    return counts;
  }

  /** Ids in parts small enough to be named in one query to the base (MAX_IDS_PER_QUERY). */
  private idChunks(ids: Iterable<number>): number[][] {
    const all = [...ids];
    const parts: number[][] = [];
    for (let i = 0; i < all.length; i += this.maxIdsPerQuery) parts.push(all.slice(i, i + this.maxIdsPerQuery));
    return parts;
  }

  /** The base's free addresses corrected by the overlay, as the writer's staged view corrects the store's (id ceilings are not applied: set none on address collections). */
  freeAddresses(query: FreeAddressQuery): Promise<AddressRun[]> {
    return new StagedView(this.base, [this.overlay]).freeAddresses(query);
  }

  async ensureIndexes(): Promise<void> {}

  async drop(): Promise<void> {
    this.clear();
  }

  /** `query` as the base is asked it: restricted to the ids shown when the collection has a ceiling. */
  private baseQuery(collection: string, query: Query): Query {
    const ceiling = this.ceilings.get(collection);
    return ceiling === undefined ? query : { $and: [query, { id: { $lte: ceiling } }] };
  }

  /** The overlaid documents matching `query`: those the overlay's indexes pick, then tested. */
  private overlaidMatches(docs: Map<number, ReadDocument | null>, collection: string, query: Query): ReadDocument[] {
    const candidates = overlayCandidates(this.overlay, collection, query);
    const ceiling = this.ceilings.get(collection) ?? Infinity;
    const test = documentMatcher(query);
    const matches = (doc: ReadDocument) => doc.id <= ceiling && test(doc);
    const out: ReadDocument[] = [];
    if (candidates) {
      for (const id of candidates) {
        const doc = docs.get(id);
        if (doc && matches(doc)) out.push(doc);
      }
      return out;
    }
    for (const doc of docs.values()) if (doc && matches(doc)) out.push(doc);
    return out;
  }
}

type Order = (a: ReadDocument, b: ReadDocument) => number;

/** The first `want` of `docs` in `order` (a selection, not a sort of them all, when `want` is small). */
function firstInOrder(docs: ReadDocument[], order: Order, want: number): ReadDocument[] {
  if (docs.length <= want * 4) return docs.sort(order).slice(0, want);
  const top: ReadDocument[] = [];
  for (const doc of docs) {
    if (top.length >= want && order(doc, top[top.length - 1]!) >= 0) continue;
    let lo = 0;
    let hi = top.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (order(top[mid]!, doc) <= 0) lo = mid + 1;
      else hi = mid;
    }
    top.splice(lo, 0, doc);
    if (top.length > want) top.pop();
  }
  return top;
}

/** Two lists each in `order`, as one; `first`'s item goes first on a tie. */
function mergeSorted(first: ReadDocument[], second: ReadDocument[], order: Order): ReadDocument[] {
  const out: ReadDocument[] = [];
  let i = 0;
  let j = 0;
  while (i < first.length && j < second.length)
    out.push(order(first[i]!, second[j]!) <= 0 ? first[i++]! : second[j++]!);
  while (i < first.length) out.push(first[i++]!);
  while (j < second.length) out.push(second[j++]!);
  return out;
}
