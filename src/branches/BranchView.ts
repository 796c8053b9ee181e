import { displayOf } from '../commands/decideObject.js';
import { Overlay } from '../commands/StagedView.js';
import { storedForm } from '../commands/storedForm.js';
import type { WriteTarget } from '../commands/WriteCoordinator.js';
import { type ChangeEvent, onMain } from '../events/ChangeEvent.js';
import type { EventLog } from '../events/EventLog.js';
import type { ModelRegistry } from '../models/registry.js';
import type { StoredObject } from '../models/storedObject.js';
import { evolve } from '../projections/evolve.js';
import { lookupView } from '../projections/lookupView.js';
import { withProjectedColumns } from '../projections/projectedColumns.js';
import type { DocumentChange, ReadDocument, ReadStore } from '../projections/ReadStore.js';
import { BRANCH, type BranchRecord } from './branchRecord.js';
import { changedFields } from './changedFields.js';
import { OverlaidReadStore } from './OverlaidReadStore.js';

/**
 * What one open branch reads and writes: main's read models overlaid with
 * - the fork-time versions of the objects main changed since the fork (the "undo"
 *   versions: kept as main is about to change them, from its projector's step), and
 * - the branch's own changes, projected by the same functions as main's (evolve, projected
 *   columns) against this view,
 * so the branch costs memory in proportion to its own changes and to main's changes since
 * the fork, never a copy of main. Its own events are kept too (diffs, merge).
 */
export class BranchView {
  readonly store: OverlaidReadStore;
  /** The writer's decided-but-not-yet-applied changes of this branch. */
  staged = new Overlay();
  /** The branch's own events, in log order. */
  readonly own: ChangeEvent[] = [];
  /**
   * '<collection>:<id>' → main's version of the object at the fork (null: absent then), for
   * every object main changed since: what a diff compares both sides with.
   */
  readonly mainAtFork = new Map<string, ReadDocument | null>();

  constructor(
    private readonly registry: ModelRegistry,
    readonly main: ReadStore,
    public record: BranchRecord,
  ) {
    this.store = new OverlaidReadStore(main);
  }

  get id(): string {
    return this.record.schema_id;
  }

  get fork(): number {
    return this.record.fork_position;
  }

  /** Where the writer decides this branch's requests. */
  target(): WriteTarget {
    return { id: this.id, store: this.store, staged: this.staged };
  }

  /**
   * Main is about to apply `changes` (its projector's step): the objects they touch that
   * this view does not hold yet are kept as they are now, which is as they were at the fork.
   */
  async keepBefore(changes: DocumentChange[]): Promise<void> {
    const byCollection = new Map<string, number[]>();
    for (const change of changes) {
      if (change.collection === BRANCH || change.position <= this.fork) continue;
      if (this.mainAtFork.has(`${change.collection}:${change.id}`)) continue;
      let ids = byCollection.get(change.collection);
      if (!ids) byCollection.set(change.collection, (ids = []));
      ids.push(change.id);
    }
    for (const [collection, ids] of byCollection) {
      const now = new Map((await this.main.getMany(collection, ids)).map((doc) => [doc.id, doc]));
      for (const id of ids) {
        const key = `${collection}:${id}`;
        if (this.mainAtFork.has(key)) continue;
        this.mainAtFork.set(key, now.get(id) ?? null);
        if (!this.store.holds(collection, id)) this.store.hide(collection, id, now.get(id) ?? null);
      }
    }
  }

  /** The branch's own events: projected onto this view as main's projector projects main's. */
  async applyOwn(events: ChangeEvent[]): Promise<void> {
    if (events.length === 0) return;
    this.own.push(...events);
    await projectBranchEvents(this.registry, this.store, events);
  }

  /**
   * Builds the view afresh from the log, with main's read models at `upTo` (a start, a sync,
   * a branch reopened by the revert of its merge): the fork-time version of each object main
   * changed after the fork is its first such change's prechange (its hidden columns worked
   * out again against this view), then the branch's own events are applied. Costs reading
   * the log from the branch's creation.
   */
  async rebuild(log: EventLog, upTo: number): Promise<void> {
    this.store.clear();
    this.own.length = 0;
    this.mainAtFork.clear();
    this.staged = new Overlay();
    const own: ChangeEvent[] = [];
    const firstOnMain = new Map<string, ChangeEvent>();
    if (upTo >= this.record.origin_position) {
      reading: for await (const batch of log.read(this.record.origin_position)) {
        for (const event of batch) {
          if (event.position > upTo) break reading;
          if (event.branch === this.id) own.push(event);
          else if (onMain(event) && event.position > this.fork && event.objectType !== BRANCH) {
            const key = `${event.objectType}:${event.objectId}`;
            if (!firstOnMain.has(key)) firstOnMain.set(key, event);
          }
        }
      }
    }
    const undo: DocumentChange[] = [];
    const view = lookupView(this.store);
    for (const event of firstOnMain.values()) {
      // Positioned after everything main holds, so the projected columns see a transition.
      const position = upTo + 1;
      if (!event.prechange) {
        undo.push({ collection: event.objectType, id: event.objectId, position, doc: null });
        continue;
      }
      const definition = this.registry.tryGet(event.objectType);
      const before = { ...event.prechange, id: event.objectId } as StoredObject;
      const repr =
        event.action === 'delete' || !definition ? event.objectRepr : await displayOf(definition, before, view);
      undo.push(evolve(this.registry, { ...event, position, objectRepr: repr, postchange: event.prechange }));
    }
    if (undo.length > 0) {
      const applied = await withProjectedColumns(this.registry, this.store, undo);
      // The version shown (ETag) is the fork's: the object's own version then is not in the event.
      for (const change of applied) if (change.doc) change.doc = { ...change.doc, _pos: this.fork };
      await this.store.apply(applied, upTo);
      for (const change of undo)
        this.mainAtFork.set(`${change.collection}:${change.id}`, await this.store.get(change.collection, change.id));
    }
    await this.applyOwn(own);
  }
}

/**
 * A branch's events projected onto an overlaid store (its live view, or its view at a past
 * position) as main's projector projects main's. An update carries over only the fields it
 * changed, onto the version the store holds: after a sync, main's changes to the other
 * fields stay.
 */
export async function projectBranchEvents(
  registry: ModelRegistry,
  store: OverlaidReadStore,
  events: ChangeEvent[],
): Promise<void> {
  if (events.length === 0) return;
  const changes: DocumentChange[] = [];
  const rebased = new Map<string, Record<string, unknown>>();
  for (const event of events) {
    const key = `${event.objectType}:${event.objectId}`;
    let postchange = event.postchange;
    if (event.action === 'update' && postchange) {
      const held = rebased.get(key) ?? (await store.get(event.objectType, event.objectId));
      if (held) postchange = { ...withoutId(storedForm(held)), ...changedFields(event) };
    }
    if (postchange) rebased.set(key, postchange);
    else rebased.delete(key);
    changes.push(evolve(registry, { ...event, postchange }));
  }
  const last = events[events.length - 1]!.position;
  await store.apply(await withProjectedColumns(registry, store, changes), last);
}

function withoutId(obj: Record<string, unknown>): Record<string, unknown> {
  const { id: _id, ...rest } = obj;
  return rest;
}
