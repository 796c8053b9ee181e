import { Overlay } from '../commands/StagedView.js';
import type { BranchDecisions } from '../commands/WriteCoordinator.js';
import { ConflictError } from '../errors/requestErrors.js';
import type { ChangeEvent } from '../events/ChangeEvent.js';
import type { EventLog } from '../events/EventLog.js';
import type { ModelRegistry } from '../models/registry.js';
import type { DocumentChange, ReadStore } from '../projections/ReadStore.js';
import { BRANCH, type BranchRecord, isOpen } from './branchRecord.js';
import { BranchView } from './BranchView.js';

/**
 * The open branches and their views, kept in step with main by main's projector: each of
 * its steps hands the batch here before main's read models apply it (Projector.beforeApply),
 * so a branch never sees a main change after its fork, and a branch's own events are in its
 * view once the projector has passed them (a write inside a branch waits for that, as a
 * write on main waits for main's read models).
 */
export class Branches implements BranchDecisions {
  private readonly views = new Map<string, BranchView>();
  /** schema_id → the action under way (a merge, revert or sync: nothing may come between its requests). */
  private readonly busy = new Map<string, string>();

  constructor(
    private readonly registry: ModelRegistry,
    private readonly main: ReadStore,
    private readonly log: EventLog,
  ) {}

  /** At start, before the projector resumes: the open branches' views, built from the log up to main's position. */
  async load(): Promise<void> {
    const upTo = await this.main.position();
    for (const record of (await this.main.find(BRANCH, { status: 'ready' })) as unknown as BranchRecord[]) {
      const view = new BranchView(this.registry, this.main, record);
      await view.rebuild(this.log, upTo);
      this.views.set(view.id, view);
    }
  }

  /**
   * Runs a multi-request action on a branch (merge: its changes, then its status) with the
   * branch held: another action, a deletion or a write inside it meanwhile is refused (409).
   */
  async holding<T>(schemaId: string, action: string, work: () => Promise<T>): Promise<T> {
    this.assertIdle(schemaId);
    this.busy.set(schemaId, action);
    try {
      return await work();
    } finally {
      this.busy.delete(schemaId);
    }
  }

  /** 409 while a merge or revert of the branch is under way. */
  assertIdle(schemaId: string): void {
    const action = this.busy.get(schemaId);
    if (action) throw new ConflictError(`A ${action} of branch ${schemaId} is in progress; try again once it is done.`);
  }

  /** The open branch of that schema_id, or undefined. */
  view(schemaId: string): BranchView | undefined {
    return this.views.get(schemaId);
  }

  /** One step of main's projector, before main's read models apply `changes` (main's part of `events`). */
  async observe(events: ChangeEvent[], changes: DocumentChange[]): Promise<void> {
    const before = events[0] ? events[0].position - 1 : 0;
    for (const event of events) if (event.objectType === BRANCH && !event.branch) await this.lifecycle(event, before);
    for (const view of this.views.values()) await view.keepBefore(changes);
    const own = new Map<string, ChangeEvent[]>();
    for (const event of events) {
      if (!event.branch) continue;
      let list = own.get(event.branch);
      if (!list) own.set(event.branch, (list = []));
      list.push(event);
    }
    for (const [id, list] of own) await this.views.get(id)?.applyOwn(list);
  }

  /** A branch created, changed or deleted on main: its view opened, rebuilt (sync, reopened) or dropped. */
  private async lifecycle(event: ChangeEvent, mainAt: number): Promise<void> {
    const after = event.postchange ? ({ ...event.postchange, id: event.objectId } as unknown as BranchRecord) : null;
    const before = event.prechange as unknown as BranchRecord | null;
    const id = (after ?? before)?.schema_id;
    if (!id) return;
    const existing = this.views.get(id);
    if (!after || !isOpen(after)) {
      this.views.delete(id);
      return;
    }
    if (existing && existing.fork === after.fork_position) {
      existing.record = after; // a new name or description
      return;
    }
    const view = new BranchView(this.registry, this.main, after);
    // A new branch has nothing to build; a synced or reopened one is built again from the log.
    if (before) await view.rebuild(this.log, mainAt);
    this.views.set(id, view);
  }

  async reservedIds(): Promise<Record<string, number>> {
    const ids: Record<string, number> = {};
    for (const view of this.views.values())
      for (const [collection, id] of Object.entries(view.store.overlaidMaxIds()))
        if (id > (ids[collection] ?? 0)) ids[collection] = id;
    return ids;
  }

  forgetStaged(): void {
    for (const view of this.views.values()) view.staged = new Overlay();
  }
}
