import { OverlaidReadStore } from '../branches/OverlaidReadStore.js';
import { nextTurn, TurnBudget } from '../eventLoopTurns.js';
import type { ChangeEvent } from '../events/ChangeEvent.js';
import type { AddressRun, FreeAddressQuery } from '../models/lookupView.js';
import type { ModelRegistry } from '../models/registry.js';
import { orderedRelations } from '../models/relationOrder.js';
import { evolve } from '../projections/evolve.js';
import { withProjectedColumns } from '../projections/projectedColumns.js';
import { documentMatcher } from '../projections/querySemantics/documentMatcher.js';
import { documentOrder } from '../projections/querySemantics/sortOrder.js';
import type { DocumentChange, FindOptions, Query, ReadDocument, ReadStore } from '../projections/ReadStore.js';
import { NO_RELATION, orderKeyOf } from '../projections/relationOrderKeys.js';
import type { AuditIndex } from './AuditIndex.js';
import type { AuditLog } from './AuditLog.js';
import { ALL_FIELDS, type FieldMarks, LAST_UPDATED_MARK, queryFieldMarks } from './fieldMarks.js';
import { objectsByLastUpdated, type StampedObject } from './lastUpdatedOrder.js';
import { OverlayGate } from './OverlayGate.js';

/** The collections a free-address query reads (StagedView.freeAddresses). */
const ADDRESS_COLLECTIONS = ['ipam.prefix', 'ipam.ipaddress', 'ipam.iprange'];
/** Whether a query or a field reads the order keys documents keep of related objects (relationOrderKeys.ts). */
function keptKeysIn(query: Query | string): boolean {
  return JSON.stringify(query).includes('_ord_');
}

/**
 * Whether main's changes of the object in (from, upTo] were updates that moved none of the
 * `covering` fields but `last_updated` (fieldMarks.ts): its version then differs there only in that one.
 */
function onlyTimeMoved(
  index: AuditIndex,
  collection: string,
  id: number,
  from: number,
  upTo: number,
  covering: FieldMarks,
): boolean {
  const marks = index.marksOnMain(collection, id, from, upTo);
  // ALL_FIELDS: a create or a delete among them (or an update that may have moved every field).
  return marks !== ALL_FIELDS && (marks & covering & ~LAST_UPDATED_MARK) === 0;
}

/** Objects a page ordered by last_updated tests before it leaves the query to the overlay (a query few match). */
const MOST_TESTED = 5_000;
/** Deepest chain of relation orderings followed (as relationOrderKeys.ts). */
const MAX_DEPTH = 8;
/** Transitions to the past versions are newer than anything a store holds (projected columns then see them). */
const UNDO_POSITION = Number.MAX_SAFE_INTEGER;
/** Past events read from the log at once, and overlay changes applied at once, between turns of the event loop. */
const READ_SLICE = 5_000;
const APPLY_SLICE = 5_000;

/**
 * The read models as they were at a log position (`?as_of=`), without a copy of the
 * registry: the live read models overlaid (OverlaidReadStore, as a branch's view) with the
 * version at `at` of every object main changed after it. Which objects changed comes from
 * the audit index (a scan of its type column); the version at `at` of one is the projection
 * (evolve) of its last change on main at or before `at`, read from the log by position (no
 * such change, or a delete: absent then). The columns documents keep from their neighbours
 * (relation order keys, the prefix hierarchy) are worked out again by the projector's own
 * functions against this view, so they are what a replay up to `at` leaves (PastStates).
 *
 * A collection is overlaid at its first read (with the collections its order keys come
 * from), so a request pays for what it reads. A single object of a collection not overlaid
 * yet is worked out alone from its own chain of versions (an object page, related objects).
 *
 * The live read models move on while a request reads: each read is checked against the
 * live position afterwards, and when the live store got ahead of what the overlay covers,
 * the objects changed meanwhile are overlaid too and the read is made again.
 */
export class PastView implements ReadStore {
  private readonly overlaid: OverlaidReadStore;
  /**
   * collection → the fields (fieldMarks.ts) in which the overlay holds the version at `at` of
   * every object whose live version may differ there (up to `covered`). ALL_FIELDS: every
   * changed object is overlaid, the overlay reads as the past whole. Fewer: lists select by
   * those fields over the overlay, then show each object's own past version (pastVersions).
   */
  private readonly coveredFields = new Map<string, FieldMarks>();
  /**
   * The overlaid collections hold the version at `at` of every object main changed between
   * the live position they were overlaid at (or `at`, the lower) and this one (-1: none yet).
   */
  private covered = -1;
  /** collection → the highest id that existed at `at` (the objects above it are hidden without an overlay entry each). */
  private readonly ceilings = new Map<string, number>();
  /** Overlaid collections whose kept order keys may be wrong: overlaid for a count, before their key sources. */
  private readonly keyless = new Set<string>();
  /** collection → ids whose version at `at` is in the overlay. */
  private readonly undone = new Map<string, Set<number>>();
  private changedTypes: { from: number; upTo: number; types: Set<string> } | undefined;
  /** One overlay change at a time (a request's reads may run together). */
  private building: Promise<void> = Promise.resolve();
  /** Past events read from the log (for tests and the bench). */
  eventsRead = 0;
  /** Objects overlaid with their past `last_updated` alone (restamp; for tests and the bench). */
  objectsRestamped = 0;
  /** Pages ordered by `last_updated` read off the audit index's positions (pageByLastUpdated; for tests and the bench). */
  pagesByLastUpdated = 0;

  constructor(
    private readonly registry: ModelRegistry,
    private readonly audit: AuditLog,
    private readonly live: ReadStore,
    /** The log position this view shows. */
    readonly at: number,
    /** Shared by the views of one service: large overlays take turns (OverlayGate). */
    private readonly gate: OverlayGate = new OverlayGate(),
  ) {
    this.overlaid = new OverlaidReadStore(live);
  }

  async open(): Promise<void> {}
  async close(): Promise<void> {}

  async apply(): Promise<void> {
    throw new Error('a past state is read-only');
  }

  async position(): Promise<number> {
    return this.at;
  }

  async resumePoint(): Promise<null> {
    return null;
  }

  maxIds(): Promise<Record<string, number>> {
    return this.overlaid.maxIds();
  }

  async get(collection: string, id: number): Promise<ReadDocument | null> {
    if (this.full(collection) || !this.pointReadable(collection))
      return this.consistent([collection], () => this.overlaid.get(collection, id));
    return this.pointVersion(collection, id, 0);
  }

  async getMany(collection: string, ids: number[]): Promise<ReadDocument[]> {
    if (this.full(collection) || !this.pointReadable(collection))
      return this.consistent([collection], () => this.overlaid.getMany(collection, ids));
    // Each object from its own chain: what a request asks by id is far fewer than what changed since.
    const past = await this.pastVersions(collection, ids);
    return ids.map((id) => past.get(id)).filter((doc): doc is ReadDocument => doc !== undefined);
  }

  async find(collection: string, query: Query, options?: FindOptions): Promise<ReadDocument[]> {
    const id = query.id;
    if (typeof id === 'number' && !this.full(collection) && this.pointReadable(collection)) {
      // One object by id (an object page): its own chain, not its whole collection.
      const doc = await this.pointVersion(collection, id, 0);
      return doc && documentMatcher(query)(doc) && !options?.skip && options?.limit !== 0 ? [doc] : [];
    }
    const byLastUpdated = await this.pageByLastUpdated(collection, query, options);
    if (byLastUpdated) return byLastUpdated;
    const fields = this.fieldsRead(collection, query, options?.sort);
    if (fields === ALL_FIELDS)
      return this.consistent([collection], () => this.overlaid.find(collection, query, options));
    const selected = await this.consistent(
      [collection],
      () => this.overlaid.find(collection, query, options),
      false,
      fields,
    );
    return this.shownAsOf(collection, selected);
  }

  count(collection: string, query: Query): Promise<number> {
    const fields = this.fieldsRead(collection, query);
    return this.consistent([collection], () => this.overlaid.count(collection, query), keptKeysIn(query), fields);
  }

  async findWithCount(
    collection: string,
    query: Query,
    options?: FindOptions,
  ): Promise<{ count: number; docs: ReadDocument[] }> {
    const byLastUpdated = await this.pageByLastUpdated(collection, query, options);
    if (byLastUpdated) return { count: await this.count(collection, query), docs: byLastUpdated };
    const fields = this.fieldsRead(collection, query, options?.sort);
    const read = () => this.overlaid.findWithCount(collection, query, options);
    if (fields === ALL_FIELDS) return this.consistent([collection], read);
    const { count, docs } = await this.consistent([collection], read, false, fields);
    return { count, docs: await this.shownAsOf(collection, docs) };
  }

  countBy(collection: string, field: string, values: number[]): Promise<Map<number, number>> {
    const fields = this.fieldsRead(collection, {}, field);
    const read = () => this.overlaid.countBy(collection, field, values);
    return this.consistent([collection], read, keptKeysIn(field), fields);
  }

  freeAddresses(query: FreeAddressQuery): Promise<AddressRun[]> {
    return this.consistent(ADDRESS_COLLECTIONS, () => this.overlaid.freeAddresses(query));
  }

  async ensureIndexes(): Promise<void> {}

  async drop(): Promise<void> {}

  /**
   * A page ordered by `last_updated` first, read off the audit index's positions around `at`
   * (lastUpdatedOrder.ts) rather than by overlaying every object whose `last_updated` moved
   * since: the objects in that order, each at its version then (pastVersions), tested against
   * the query, ties ordered by the rest of the sort. Undefined when it does not apply (no
   * limit, columns counted over the whole collection, `last_updated` not known or not in
   * order) or would test too many objects (a query few match): the overlay answers then.
   */
  private async pageByLastUpdated(
    collection: string,
    query: Query,
    options: FindOptions | undefined,
  ): Promise<ReadDocument[] | undefined> {
    const sort = options?.sort;
    const direction = sort?.last_updated;
    if (!sort || Object.keys(sort)[0] !== 'last_updated' || options?.limit === undefined) return undefined;
    if (direction === undefined || !this.pointReadable(collection)) return undefined;
    const skip = Math.max(0, options.skip ?? 0);
    const want = skip + Math.max(0, options.limit);
    if (want > MOST_TESTED) return undefined;
    const live = await this.live.position();
    if (this.audit.head < live) await this.audit.waitFor(live);
    const index = this.audit.index;
    // An index behind the position (a live store behind it) leaves the page to the overlay.
    if (!index.stamps.ordered || index.head < this.at) return undefined;
    const order = documentOrder(sort);
    const matches = documentMatcher(query);
    const out: ReadDocument[] = [];
    let batch: StampedObject[] = [];
    let tested = 0;
    const testBatch = async () => {
      const past = await this.pastVersions(
        collection,
        batch.map((o) => o.id),
      );
      // A batch ends where last_updated changes: its objects sort among themselves only.
      const found = batch.map((o) => past.get(o.id)).filter((doc): doc is ReadDocument => !!doc && matches(doc));
      out.push(...found.sort(order));
      tested += batch.length;
      batch = [];
    };
    for (const object of objectsByLastUpdated(index, collection, this.at, direction)) {
      if (Number.isNaN(object.stamp)) return undefined;
      if (batch.length >= Math.max(16, want - out.length) && object.stamp !== batch[batch.length - 1]!.stamp) {
        await testBatch();
        if (out.length >= want) break;
        if (tested >= MOST_TESTED) return undefined;
      }
      batch.push(object);
    }
    await testBatch();
    this.pagesByLastUpdated++;
    return out.slice(skip, want);
  }

  /** How many objects the overlay holds a version of (for tests and the bench). */
  get overlaidObjects(): number {
    return this.overlaid.size;
  }

  /**
   * A read of the overlaid store once `collections` are overlaid up to the live position,
   * made again if the live store moved past what the overlay covers meanwhile.
   */
  private async consistent<T>(
    collections: string[],
    read: () => Promise<T>,
    withKeys = true,
    fields: FieldMarks = ALL_FIELDS,
  ): Promise<T> {
    for (;;) {
      await this.overlay(collections, withKeys, fields);
      const answer = await read();
      if ((await this.live.position()) <= this.covered) return answer;
    }
  }

  /**
   * Overlays `collections` up to the live position, with those their order keys come from
   * when `withKeys` (the documents are read, or their kept keys are: a count of other fields
   * needs neither; a collection overlaid without them is redone when read with them, redoKeys).
   */
  private overlay(collections: string[], withKeys: boolean, fields: FieldMarks): Promise<void> {
    const next = this.building.then(() =>
      this.overlayNow(withKeys ? this.withKeySources(collections) : new Set(collections), withKeys, fields),
    );
    this.building = next.catch(() => undefined);
    return next;
  }

  private async overlayNow(collections: Set<string>, withKeys: boolean, fields: FieldMarks): Promise<void> {
    const live = await this.live.position();
    if (this.audit.head < live) await this.audit.waitFor(live);
    const index = this.audit.index;
    const objects = new Map<string, number[]>();
    // What the overlaid collections changed since they were overlaid (a live store behind
    // `at` holds versions at or before it of everything it holds: nothing to add then) ...
    if (this.covered >= 0 && live > this.covered) {
      const changed = index.typesChangedOnMain(this.covered, live);
      for (const [collection, covering] of this.coveredFields) {
        if (!changed.has(collection)) continue;
        if (!this.pointReadable(collection)) {
          // Columns counted over the whole collection (the prefix hierarchy) are patched by
          // differences, which the live projector's own patches meanwhile would skew: the
          // collection is overlaid afresh against the live store as it is now.
          this.overlaid.forget(collection);
          this.undone.delete(collection);
          objects.set(
            collection,
            index.objectsChangedOnMain(collection, Math.min(this.at, live), Math.max(this.at, live)),
          );
          continue;
        }
        const ceiling = this.ceilings.get(collection);
        const ids = index.objectsChangedOnMain(collection, this.covered, live, ceiling, covering);
        if (ids.length > 0) objects.set(collection, ids);
        await this.again(collection, ids);
      }
    }
    const upTo = Math.max(this.at, live, this.covered);
    // ... and the collections asked for now: every object whose live version may differ from
    // its version at `at` in the fields read (the key sources and the prefix hierarchy: whole).
    const from = Math.min(this.at, live);
    let changed: Set<string> | undefined;
    for (const collection of collections) {
      const want = this.pointReadable(collection) ? fields : ALL_FIELDS;
      const had = this.coveredFields.get(collection);
      if (had !== undefined) {
        if (withKeys && this.keyless.delete(collection)) this.redoKeys(collection, objects);
        const missing = (want & ~had) >>> 0;
        if (missing === 0) continue;
        this.coveredFields.set(collection, (had | want) >>> 0);
        changed ??= this.typesChanged(from, upTo);
        if (!changed.has(collection)) continue;
        const more = index.objectsChangedOnMain(collection, from, upTo, this.ceilings.get(collection), missing);
        if (more.length > 0) objects.set(collection, [...new Set([...(objects.get(collection) ?? []), ...more])]);
        continue;
      }
      this.coveredFields.set(collection, want);
      if (!withKeys) this.keyless.add(collection);
      // Which types changed at all: one scan for every collection a request counts or reads.
      changed ??= this.typesChanged(from, upTo);
      if (!changed.has(collection)) continue;
      let ceiling: number | undefined;
      if (this.hidesByCeiling(collection)) {
        ceiling = index.maxIdCreatedOnMain(collection, this.at);
        this.ceilings.set(collection, ceiling);
        this.overlaid.limitIds(collection, ceiling);
      }
      const ids = index.objectsChangedOnMain(collection, from, upTo, ceiling, want);
      if (ids.length > 0) objects.set(collection, ids);
    }
    this.covered = upTo;
    await this.undo(objects, from, upTo);
  }

  /** The types main changed in (from, upTo], remembered for the last range asked. */
  private typesChanged(from: number, upTo: number): Set<string> {
    if (this.changedTypes?.from !== from || this.changedTypes.upTo !== upTo)
      this.changedTypes = { from, upTo, types: this.audit.index.typesChangedOnMain(from, upTo) };
    return this.changedTypes.types;
  }

  /**
   * A collection overlaid for a count, before the models its order keys come from: the keys
   * its past versions took then came from the live related objects (one deleted since gave
   * none, and its coming back patches no one: nothing kept its key when it was created). Its
   * past versions are worked out again, in the same batch as the sources' now.
   */
  private redoKeys(collection: string, objects: Map<string, number[]>): void {
    const done = this.undone.get(collection);
    if (!done || done.size === 0) return;
    objects.set(collection, [...new Set([...(objects.get(collection) ?? []), ...done])]);
    done.clear();
  }

  /**
   * Objects already overlaid that the live store changed again: their version at `at` stays,
   * but the live projector moved the columns their neighbours keep from them (a site renamed
   * again: its power panels' order keys). Each is put back as the live store holds it and
   * undone afresh, so the projected columns see that transition and patch the neighbours.
   */
  private async again(collection: string, ids: number[]): Promise<void> {
    const done = this.undone.get(collection);
    const again = done ? ids.filter((id) => done.has(id)) : [];
    if (again.length === 0) return;
    const now = new Map((await this.live.getMany(collection, again)).map((doc) => [doc.id, doc]));
    for (const id of again) {
      done!.delete(id);
      this.overlaid.hide(collection, id, now.get(id) ?? null);
    }
  }

  /** `collections` and, transitively, the models whose order keys their documents keep. */
  private withKeySources(collections: string[]): Set<string> {
    const out = new Set<string>();
    const visit = (collection: string) => {
      if (out.has(collection)) return;
      out.add(collection);
      const definition = this.registry.tryGet(collection);
      if (definition) for (const r of orderedRelations(definition)) visit(r.target);
    };
    for (const collection of collections) visit(collection);
    return out;
  }

  /**
   * Puts the version at `at` of each object into the overlay, with the columns kept from
   * neighbours worked out as the projector does (neighbours' patches included). `from` and
   * `upTo`: the range in which the objects' versions here and at `at` may differ.
   */
  private async undo(objects: Map<string, number[]>, from: number, upTo: number): Promise<void> {
    const index = this.audit.index;
    const changes: DocumentChange[] = [];
    const reads: Array<{ collection: string; id: number; position: number }> = [];
    const stamps = new Map<string, Array<{ id: number; position: number; stamp: string }>>();
    for (const [collection, ids] of objects) {
      let done = this.undone.get(collection);
      if (!done) this.undone.set(collection, (done = new Set()));
      const ceiling = this.ceilings.get(collection) ?? Infinity;
      const covering = this.coveredFields.get(collection) ?? ALL_FIELDS;
      const restamped: Array<{ id: number; position: number; stamp: string }> = [];
      for (const id of ids) {
        if (done.has(id) || id > ceiling) continue;
        const position = index.mainPositionAt(collection, id, this.at);
        const stamp = position === 0 ? undefined : index.stamps.text(position);
        if (
          stamp !== undefined &&
          covering !== ALL_FIELDS &&
          onlyTimeMoved(index, collection, id, from, upTo, covering)
        ) {
          // Not marked done: a later read that covers more fields works out its whole version.
          restamped.push({ id, position, stamp });
          continue;
        }
        done.add(id);
        if (position === 0 || index.actionAt(position) === 'delete')
          changes.push({ collection, id, position: UNDO_POSITION, doc: null });
        else reads.push({ collection, id, position });
      }
      if (restamped.length > 0) stamps.set(collection, restamped);
    }
    if (changes.length === 0 && reads.length === 0 && stamps.size === 0) return;
    let restamps = 0;
    for (const entries of stamps.values()) restamps += entries.length;
    await this.gate.run(changes.length + reads.length + restamps, async () => {
      // First, as the others' projected columns may patch these (their kept order keys).
      await this.restamp(stamps);
      const budget = new TurnBudget();
      const events = await this.pastEventsInTurns(reads.map((r) => r.position));
      for (const event of events) {
        changes.push(this.versionFrom(event));
        if (budget.due()) await budget.pause();
      }
      const applied = await withProjectedColumns(this.registry, this.overlaid, changes);
      // Each document's own version is that of its event (its ETag then), as a replay leaves it.
      const own = new Map(events.map((event) => [`${event.objectType}:${event.objectId}`, event.position]));
      for (const change of applied) {
        if (!change.doc) continue;
        const position = own.get(`${change.collection}:${change.id}`);
        if (position !== undefined) change.doc = { ...change.doc, _pos: position };
      }
      // In slices, the event loop getting turns between them: the view's own reads wait for
      // the whole overlay (`building`), others go on.
      for (let i = 0; i < applied.length; i += APPLY_SLICE) {
        await this.overlaid.apply(applied.slice(i, i + APPLY_SLICE), this.at);
        if (budget.due()) await budget.pause();
      }
    });
  }

  /**
   * Objects whose fields the overlay covers kept their values since `at` but for
   * `last_updated`: each as this view holds it now with the `last_updated` it had then (the
   * audit index keeps it), not read from the log. Reads of more fields work out the rest.
   */
  private async restamp(stamps: Map<string, Array<{ id: number; position: number; stamp: string }>>): Promise<void> {
    const budget = new TurnBudget();
    for (const [collection, entries] of stamps) {
      for (let i = 0; i < entries.length; i += APPLY_SLICE) {
        const slice = entries.slice(i, i + APPLY_SLICE);
        const now = new Map(
          (
            await this.overlaid.getMany(
              collection,
              slice.map((e) => e.id),
            )
          ).map((d) => [d.id, d]),
        );
        const changes: DocumentChange[] = [];
        for (const { id, position, stamp } of slice) {
          const doc = now.get(id);
          if (doc)
            changes.push({
              collection,
              id,
              position: UNDO_POSITION,
              doc: { ...doc, last_updated: stamp, _pos: position },
            });
        }
        await this.overlaid.apply(changes, this.at);
        this.objectsRestamped += changes.length;
        if (budget.due()) await budget.pause();
      }
    }
  }

  /** Past events by position, read from the log a slice at a time with a turn of the event loop between. */
  private async pastEventsInTurns(positions: number[]): Promise<ChangeEvent[]> {
    const sorted = [...positions].sort((a, b) => a - b);
    const out: ChangeEvent[] = [];
    for (let i = 0; i < sorted.length; i += READ_SLICE) {
      for (const event of await this.pastEvents(sorted.slice(i, i + READ_SLICE))) out.push(event);
      if (i + READ_SLICE < sorted.length) await nextTurn();
    }
    return out;
  }

  /** The projection of one past event, positioned as a transition newer than what the stores hold. */
  private versionFrom(event: ChangeEvent): DocumentChange {
    return { ...evolve(this.registry, event), position: UNDO_POSITION };
  }

  private async pastEvents(positions: number[]): Promise<ChangeEvent[]> {
    if (positions.length === 0) return [];
    this.eventsRead += positions.length;
    return this.audit.events([...positions].sort((a, b) => a - b));
  }

  /**
   * Whether the objects created after `at` are hidden by an id ceiling rather than one
   * overlaid null each: not for a collection whose projected columns must see them go (the
   * prefix hierarchy), nor for those free-address queries read (their overlay is read as is).
   */
  private hidesByCeiling(collection: string): boolean {
    return this.pointReadable(collection) && !ADDRESS_COLLECTIONS.includes(collection);
  }

  /** Whether the collection's overlay reads as the past whole (every changed object overlaid). */
  private full(collection: string): boolean {
    return this.coveredFields.get(collection) === ALL_FIELDS;
  }

  /**
   * The fields a list reads to select and order (fieldMarks.ts), or ALL_FIELDS when it is
   * read from the overlay whole: the collection is overlaid whole already, or its columns
   * depend on the whole collection, or the query reads what no field mark follows.
   */
  private fieldsRead(collection: string, query: Query, sort?: FindOptions['sort'] | string): FieldMarks {
    if (this.full(collection) || !this.pointReadable(collection)) return ALL_FIELDS;
    return queryFieldMarks(query, sort);
  }

  /**
   * The objects a list selected over an overlay that covers only the fields it reads: each
   * as its own version at `at` (the live document where main did not change it since).
   */
  private async shownAsOf(collection: string, selected: ReadDocument[]): Promise<ReadDocument[]> {
    return this.getMany(
      collection,
      selected.map((doc) => doc.id),
    );
  }

  /**
   * Objects' versions at `at`, each from its own chain: the live document where main did not
   * change it since (its kept order keys worked out again, as its related objects may have
   * changed), else the projection of its last change at or before `at` (none, or a delete:
   * absent then). The past events of those main changed since are read from the log together.
   */
  private async pastVersions(collection: string, ids: number[], depth = 0): Promise<Map<number, ReadDocument>> {
    if (depth > MAX_DEPTH) throw new Error(`relation orderings deeper than ${MAX_DEPTH} at ${collection}`);
    const out = new Map<number, ReadDocument>();
    for (;;) {
      const live = await this.live.position();
      if (this.audit.head < live) await this.audit.waitFor(live);
      const index = this.audit.index;
      const positions: number[] = [];
      const unchanged: number[] = [];
      for (const id of ids) {
        if (!index.changedOnMain(collection, id, Math.min(this.at, live), Math.max(this.at, live))) unchanged.push(id);
        else {
          const position = index.mainPositionAt(collection, id, this.at);
          if (position !== 0 && index.actionAt(position) !== 'delete') positions.push(position);
        }
      }
      const docs = await this.live.getMany(collection, unchanged);
      if ((await this.live.position()) > live) continue; // changed meanwhile: look again
      for (const event of await this.pastEvents(positions)) docs.push(evolve(this.registry, event).doc!);
      for (const doc of docs) out.set(doc.id, await this.withPastOrderKeys(collection, doc, depth));
      return out;
    }
  }

  /** Whether an object of the collection can be worked out alone (no column depends on its whole collection). */
  private pointReadable(collection: string): boolean {
    return !this.registry.tryGet(collection)?.projectedColumns;
  }

  /** One object's version at `at`: from the overlay when it reads as the past whole, else from its own chain. */
  private async pointVersion(collection: string, id: number, depth: number): Promise<ReadDocument | null> {
    if (this.full(collection) || !this.pointReadable(collection))
      return this.consistent([collection], () => this.overlaid.get(collection, id));
    return (await this.pastVersions(collection, [id], depth)).get(id) ?? null;
  }

  /** The document with the order keys of its related objects as they were at `at` (relationOrderKeys.ts). */
  private async withPastOrderKeys(collection: string, doc: ReadDocument, depth: number): Promise<ReadDocument> {
    const definition = this.registry.tryGet(collection);
    const relations = definition ? orderedRelations(definition) : [];
    if (relations.length === 0) return doc;
    const columns: Record<string, unknown> = {};
    for (const r of relations) {
      const id = doc[r.field];
      const target = this.registry.tryGet(r.target);
      const related = typeof id === 'number' && target ? await this.pointVersion(r.target, id, depth + 1) : null;
      columns[r.column] = related && target ? orderKeyOf(target, related) : NO_RELATION;
    }
    return { ...doc, ...columns };
  }
}
