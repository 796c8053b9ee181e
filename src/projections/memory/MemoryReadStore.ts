/**
 * The embedded read store: every collection is a Map id → document, rebuilt from
 * the event log at every start (nothing is written to disk).
 *
 * Query semantics are MongoDB's: filters are evaluated by mingo (or by a compiled
 * predicate with the same semantics, nativeMatch), sorting follows MongoDB's sort order
 * (compareValues, sortOrder).
 *
 * Speed (100,000 documents per collection):
 * - equality indexes (EqualityIndex) for the fields declared with `ensureIndexes`, and
 *   `id` through the Map itself; sorted indexes (SortedIndex) for compound declarations
 *   (e.g. ['_address', 'id'], from readModelIndexes) plus one on `id`, always;
 * - the QueryPlanner picks how to reach the documents (a walk of a sorted index, a
 *   range of one, the candidates of an equality index, or every document) by estimated
 *   documents touched, and pages are read with early exit or a bounded sorted buffer
 *   (pages);
 * - free addresses (`freeAddresses`) from an AddressOccupancy index of the address
 *   field: its distinct values sorted, so the next free one is a binary search away;
 * - `count({})` is the Map size, `count` of one indexed equality/`$in` and `countBy` on
 *   an indexed field read the index sizes, `count` of a pure range its positions.
 * Plans are checked against the plain mingo scan on random data by
 * test/projections/memoryReadStore.int.spec.ts and memoryReadStore.sorted.int.spec.ts
 * (`{ planner: false }`).
 *
 * Documents are frozen once when applied and returned as they are (freezeClone).
 *
 * Natural order (no sort given) is insertion order of the collection; ties in a
 * sort are broken by it too, so results are deterministic whichever plan ran.
 *
 * `limit: 0` (or negative) returns no documents; an absent limit means no limit.
 */
import { Query as MingoQuery } from 'mingo';

import { TurnBudget } from '../../eventLoopTurns.js';
import type { LogCursor, ResumePoint } from '../../events/EventLog.js';
import { findFreeRuns, sortedUsed } from '../../models/allocation/freeAddresses.js';
import type { AddressRun, FreeAddressQuery } from '../../models/lookupView.js';
import { compileSort, type Keyed, keyedBy, makeComparator } from '../querySemantics/sortOrder.js';
import type { DocumentChange, FindOptions, Query, ReadDocument, ReadStore } from '../ReadStore.js';
import { AddressOccupancy } from './AddressOccupancy.js';
import { EqualityIndex } from './EqualityIndex.js';
import { freezeClone } from './freezeClone.js';
import { MemoryCollection } from './MemoryCollection.js';
import { naturalOrderPage, pageWithCount, sortedPage, walkPage } from './pages.js';
import { matchEntry, QueryPlanner } from './QueryPlanner.js';

/** Documents filed into an index between two looks at the clock during a background build. */
const INDEX_SLICE_DOCS = 2000;

export interface MemoryReadStoreOptions {
  /**
   * false: no index use, no pre-filters, no bounded sort, no early exit — mingo
   * over every document and a full sort. Reference behaviour for tests.
   */
  planner?: boolean;
}

/** A store's content at one position (see MemoryReadStore.capture): what a snapshot holds. */
export interface ReadModelCapture {
  position: number;
  /** Where the projector resumes reading a log that needs a cursor (EventLog.subscribe). */
  resume?: ResumePoint | null;
  maxIds: Record<string, number>;
  /** Each collection's documents in natural (insertion) order; frozen, so shared, never copied. */
  collections: Array<{ name: string; docs: ReadDocument[] }>;
}

export class MemoryReadStore implements ReadStore {
  private readonly collections = new Map<string, MemoryCollection>();
  private pos = 0;
  private resume: ResumePoint | null = null;
  private maxIdsByCollection: Record<string, number> = {};
  private readonly planner: QueryPlanner;
  /** The next slice of a background build of equality indexes (buildIndexesInBackground). */
  private building: { cancel(): void } | null = null;

  constructor(options: MemoryReadStoreOptions = {}) {
    this.planner = new QueryPlanner(options.planner ?? true);
  }

  async open(): Promise<void> {}

  async close(): Promise<void> {
    this.stopBuilding();
  }

  private stopBuilding(): void {
    this.building?.cancel();
    this.building = null;
  }

  async apply(changes: DocumentChange[], position: number, cursor?: LogCursor): Promise<void> {
    // The copies are made first, a slice of the event loop at a time; the batch is then
    // applied in one go, so no read sees part of it.
    const frozen: (ReadDocument | null)[] = [];
    const budget = new TurnBudget();
    for (const change of changes) {
      if (budget.due()) await budget.pause();
      frozen.push(
        change.doc === null || change.columns
          ? null
          : freezeClone({ ...change.doc, id: change.id, _pos: change.position }),
      );
    }
    if (changes.length > 1000) {
      // A large batch (a replay): sorted indexes are rebuilt once, at their next read.
      for (const name of new Set(changes.map((c) => c.collection))) this.collection(name).staleSorted();
    }
    for (let i = 0; i < changes.length; i++) {
      const change = changes[i]!;
      const col = this.collection(change.collection);
      if (change.columns) {
        patchColumns(col, change.id, change.columns);
        continue;
      }
      if (change.doc !== null) {
        const prev = this.maxIdsByCollection[change.collection];
        if (prev === undefined || change.id > prev) this.maxIdsByCollection[change.collection] = change.id;
      }
      const existing = col.docs.get(change.id);
      if (existing && existing.doc._pos >= change.position) continue;
      if (change.doc === null) {
        col.delete(change.id);
      } else {
        col.put(change.id, frozen[i]!);
      }
    }
    if (position > this.pos) this.pos = position;
    if (cursor !== undefined && position >= (this.resume?.position ?? 0)) this.resume = { position, cursor };
  }

  async position(): Promise<number> {
    return this.pos;
  }

  async resumePoint(): Promise<ResumePoint | null> {
    return this.resume;
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

    if (!this.planner.enabled) {
      const plan = this.planner.filterPlan(col, query);
      const keyed = keyedBy(spec);
      const all: Keyed[] = [];
      for (const e of col.docs.values()) if (matchEntry(plan, e)) all.push(keyed(e));
      all.sort(makeComparator(spec));
      return all.slice(skip, want).map((k) => k.entry.doc);
    }

    const { matches, matchesAll, walk, candidates } = this.planner.access(col, query, spec, want);
    if (walk) return walkPage(walk, matches, matchesAll, skip, want);
    if (spec.length === 0) return naturalOrderPage(col.docs.values(), candidates, matches, skip, want);
    return sortedPage(candidates ?? col.docs.values(), matches, spec, skip, want);
  }

  async count(collection: string, query: Query): Promise<number> {
    const col = this.collections.get(collection);
    if (!col) {
      new MingoQuery(query);
      return 0;
    }
    const keys = Object.keys(query);
    if (keys.length === 0) return col.docs.size;
    if (!this.planner.enabled) {
      const plan = this.planner.filterPlan(col, query);
      let n = 0;
      for (const e of col.docs.values()) if (matchEntry(plan, e)) n++;
      return n;
    }
    if (keys.length === 1) {
      const exact = this.planner.exactCount(col, keys[0]!, query[keys[0]!]);
      if (exact !== null) return exact;
    }
    const access = this.planner.access(col, query, [], Infinity, true);
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
   * A page and the count of all matches in one pass: every match is counted, the page
   * kept in a bounded sorted buffer on the way. Counts the indexes answer alone (no
   * filter, one indexed equality, a pure range) are taken from them and the page
   * walked separately.
   */
  async findWithCount(
    collection: string,
    query: Query,
    options: FindOptions = {},
  ): Promise<{ count: number; docs: ReadDocument[] }> {
    const col = this.collections.get(collection);
    const keys = Object.keys(query);
    const separately = async () => {
      const [count, docs] = await Promise.all([this.count(collection, query), this.find(collection, query, options)]);
      return { count, docs };
    };
    if (!col || !this.planner.enabled || keys.length === 0) return separately();
    if (keys.length === 1 && this.planner.exactCount(col, keys[0]!, query[keys[0]!]) !== null) return separately();
    const access = this.planner.access(col, query, [], Infinity, true);
    if (access.matchesAll) return separately();
    const skip = Math.max(0, options.skip ?? 0);
    const limit = options.limit === undefined ? Infinity : Math.max(0, options.limit);
    return pageWithCount(
      access.candidates ?? col.docs.values(),
      access.matches,
      compileSort(options.sort),
      skip,
      skip + limit,
    );
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
    const index = this.planner.enabled ? col.index(field) : undefined;
    if (index) {
      for (const v of result.keys()) result.set(v, index.size(v));
      return result;
    }
    const probe = new EqualityIndex(field);
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

  async freeAddresses(query: FreeAddressQuery): Promise<AddressRun[]> {
    const col = this.collections.get(query.collection);
    const scopeField = query.scope?.field ?? null;
    let index: AddressOccupancy;
    if (!col) {
      index = new AddressOccupancy(query.field, scopeField);
      index.rebuild([]);
    } else if (this.planner.enabled) {
      index = col.occupancy(query.field, scopeField);
    } else {
      // The reference: built afresh from every document, never maintained.
      index = new AddressOccupancy(query.field, scopeField);
      index.rebuild([...col.docs.values()].map((e) => e.doc));
    }
    return findFreeRuns(sortedUsed(index.used(query.scope?.value, query.family)), query);
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

  /**
   * The content as it stands, for a snapshot. Synchronous, so no apply can tear it;
   * cheap, since stored documents are frozen: their references are taken, not copies.
   */
  capture(): ReadModelCapture {
    const collections: ReadModelCapture['collections'] = [];
    for (const [name, col] of this.collections) {
      const docs = new Array<ReadDocument>(col.docs.size);
      let i = 0;
      for (const e of col.docs.values()) docs[i++] = e.doc;
      collections.push({ name, docs });
    }
    return { position: this.pos, resume: this.resume, maxIds: { ...this.maxIdsByCollection }, collections };
  }

  /**
   * Replaces the whole content with a capture (a loaded snapshot), whose documents must
   * be frozen already. Declared indexes stay declared and are built at their first read
   * (MemoryCollection.load): a start-up serves before it indexed what nobody asked for.
   */
  restore(capture: ReadModelCapture): void {
    for (const col of this.collections.values()) col.clear();
    for (const { name, docs } of capture.collections) this.collection(name).load(docs);
    this.pos = capture.position;
    this.resume = capture.resume ?? null;
    this.maxIdsByCollection = { ...capture.maxIds };
  }

  /**
   * Builds the equality indexes a restore left stale, in slices of a few milliseconds
   * between turns of the event loop (a service after its start-up), so that the first
   * filtered list or uniqueness check rarely builds one itself; one that comes first
   * still does (MemoryCollection.index), continuing where the background build was.
   * It starts `afterMs` later: the first requests after a start (a client reconnecting, a
   * health check, the first page, whose sorted index is built in that request) do not
   * share the CPU with it.
   */
  buildIndexesInBackground(afterMs = 0): void {
    if (this.building) return;
    const step = () => {
      this.building = null;
      const budget = new TurnBudget();
      for (const col of this.collections.values()) {
        while (col.buildIndexes(INDEX_SLICE_DOCS) > 0) {
          if (budget.due()) {
            this.building = nextSlice(step, 0);
            return;
          }
        }
      }
    };
    this.building = nextSlice(step, afterMs);
  }

  async drop(): Promise<void> {
    this.stopBuilding();
    for (const col of this.collections.values()) col.clear();
    this.pos = 0;
    this.resume = null;
    this.maxIdsByCollection = {};
  }

  private collection(name: string): MemoryCollection {
    let col = this.collections.get(name);
    if (!col) {
      col = new MemoryCollection();
      this.collections.set(name, col);
    }
    return col;
  }
}

/** `step` at the next turn of the event loop, or `afterMs` later; neither keeps the process alive. */
function nextSlice(step: () => void, afterMs: number): { cancel(): void } {
  if (afterMs > 0) {
    const timer = setTimeout(step, afterMs).unref();
    return { cancel: () => clearTimeout(timer) };
  }
  const immediate = setImmediate(step).unref();
  return { cancel: () => clearImmediate(immediate) };
}

/** A column patch: the stored document with those columns set, at its own `_pos`. */
function patchColumns(col: MemoryCollection, id: number, columns: Record<string, unknown>): void {
  const existing = col.docs.get(id);
  if (existing) col.put(id, freezeClone({ ...existing.doc, ...columns }));
}
