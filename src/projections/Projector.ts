import { TurnBudget } from '../eventLoopTurns.js';
import { type ChangeEvent, onMain } from '../events/ChangeEvent.js';
import type { EventLog, LogCursor, Subscription } from '../events/EventLog.js';
import { PositionWaiters } from '../events/PositionWaiters.js';
import type { ModelRegistry } from '../models/registry.js';
import { evolve } from './evolve.js';
import { withProjectedColumns } from './projectedColumns.js';
import type { DocumentChange, ReadStore } from './ReadStore.js';

/**
 * Applies the event log, in order, to the read models. It resumes after the last
 * position the store recorded; re-applying an event is harmless (documents carry
 * the position that last wrote them).
 */
export class Projector {
  private applied = 0;
  private startedFrom = 0;
  private subscription: Subscription | null = null;
  private readonly waiters = new PositionWaiters();
  private failure: unknown = null;
  /** The last position at which each collection changed, for what caches renderings. */
  private readonly changed = new Map<string, number>();
  /** Called once when projection stops for good (a read model could not be written). */
  onFailed: (error: unknown) => void = () => {};
  /** Called synchronously after each apply, before the next can start (a snapshot captures the store there). */
  onApplied: (position: number) => void = () => {};
  /** Events applied by this projector (a start after a snapshot applies only the tail). */
  appliedEvents = 0;
  /**
   * Awaited with each batch (every event, branches' included) and the changes it makes to
   * main's read models, before they are applied: what must see main as it was just before
   * (the branches' views keep the fork-time versions of the objects main is about to change).
   */
  beforeApply: (events: ChangeEvent[], changes: DocumentChange[]) => Promise<void> = async () => {};

  constructor(
    private readonly log: EventLog,
    private readonly store: ReadStore,
    private readonly registry: ModelRegistry,
  ) {}

  /** The last log position applied to the read models. */
  get position(): number {
    return this.applied;
  }

  /**
   * The position the read models had reached when this projector had caught up at start:
   * what cached renderings were made of before it (and under which configuration) is not known.
   */
  get startPosition(): number {
    return this.startedFrom;
  }

  /** The last position at which the collection changed in the read models (0: not since this projector started). */
  changedAt(collection: string): number {
    return this.changed.get(collection) ?? 0;
  }

  /** Why projection stopped (a read model could not be written), or null while it runs. */
  get failed(): Error | null {
    return this.failure === null
      ? null
      : this.failure instanceof Error
        ? this.failure
        : new Error(String(this.failure));
  }

  /** Catch up with the log, then keep following it. Resolves once caught up. */
  async start(): Promise<void> {
    this.applied = await this.store.position();
    const resume = await this.store.resumePoint();
    this.subscription = this.log.subscribe(this.applied + 1, (events, cursor) => this.apply(events, cursor), resume);
    // Delivery can also end after the catch-up (the log's consumer gave up): waiting writers must hear of it.
    this.subscription.done?.catch((error: unknown) => this.fail(error));
    await this.subscription.caughtUp;
    this.startedFrom = this.applied;
  }

  /**
   * Resolves once every event up to `position` is visible in the read models; rejects if
   * projection stops, with a ProjectionTimeoutError after `timeoutMs` (no limit when left
   * out), or with the signal's reason once it aborts.
   */
  waitFor(position: number, limits: { timeoutMs?: number; signal?: AbortSignal } = {}): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    if (position <= this.applied) return Promise.resolve();
    const { timeoutMs, signal } = limits;
    if (timeoutMs === undefined) return this.waiters.wait(position, signal);
    const timeout = new AbortController();
    const timer = setTimeout(
      () => timeout.abort(new ProjectionTimeoutError(position, this.applied, timeoutMs)),
      timeoutMs,
    );
    timer.unref();
    return this.waiters
      .wait(position, signal ? AbortSignal.any([signal, timeout.signal]) : timeout.signal)
      .finally(() => clearTimeout(timer));
  }

  async stop(): Promise<void> {
    await this.subscription?.stop();
    this.subscription = null;
  }

  private fail(error: unknown): void {
    if (this.failure) return;
    this.failure = error;
    this.waiters.failAll(error);
    this.onFailed(error);
  }

  private async apply(events: ChangeEvent[], cursor?: LogCursor): Promise<void> {
    const fresh = events.filter((e) => e.position > this.applied);
    if (fresh.length === 0) return;
    try {
      const last = fresh[fresh.length - 1].position;
      // A slice of the event loop at a time: a bulk request's 1,000 events held reads for tens of ms.
      const changes: DocumentChange[] = [];
      const budget = new TurnBudget();
      for (const event of fresh) {
        if (budget.due()) await budget.pause();
        // A change made inside a branch is not main's: only the branch's view applies it.
        if (onMain(event)) changes.push(evolve(this.registry, event));
      }
      // Projected columns (a prefix's depth and children) ride along, for the batch's own
      // documents and as patches of their neighbours.
      const project = () => withProjectedColumns(this.registry, this.store, changes);
      const applied = await (this.store.retrying ? this.store.retrying(project) : project());
      await this.beforeApply(fresh, applied);
      await this.store.apply(applied, last, cursor);
      for (const change of applied) this.changed.set(change.collection, last);
      this.applied = last;
      this.appliedEvents += fresh.length;
    } catch (error) {
      // A read model that cannot be written is out of step with the log: stop serving writes.
      this.fail(error);
      throw error;
    }
    this.onApplied(this.applied);
    this.waiters.reached(this.applied);
  }
}

/** The read models did not reach a position in time (projection is slow or stuck). */
export class ProjectionTimeoutError extends Error {
  constructor(
    readonly position: number,
    readonly applied: number,
    timeoutMs: number,
  ) {
    super(`read models reached position ${applied}, not ${position}, within ${timeoutMs} ms`);
  }
}
