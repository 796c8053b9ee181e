import { randomUUID } from 'node:crypto';
import { EVENT_SCHEMA_VERSION, type ChangeAction, type ChangeEvent, type EventUser } from '../events/ChangeEvent.js';
import type { EventLog } from '../events/EventLog.js';
import type { ModelRegistry } from '../models/registry.js';
import type { LookupView, StoredObject } from '../models/types.js';
import { evolve } from '../projections/evolve.js';
import type { Projector } from '../projections/Projector.js';
import type { ReadDocument, ReadStore } from '../projections/ReadStore.js';
import type { Clock } from './clock.js';
import { WriterUnavailableError } from './errors.js';
import { Overlay, StagedView } from './StagedView.js';

/** Who is writing, and under which request id. */
export interface WriteContext {
  requestId: string;
  user: EventUser | null;
  /**
   * Called for each recorded change once the decision is complete, before it commits;
   * throwing refuses the whole request and nothing is appended (the post-write
   * permission check).
   */
  authorize?(event: ChangeEvent, view: LookupView): Promise<void>;
  /** The client's Idempotency-Key and request fingerprint, stamped on every event. */
  idempotency?: { key: string; fingerprint: string };
}

export interface RecordedChange {
  action: ChangeAction;
  objectType: string;
  objectId: number;
  objectRepr: string;
  prechange: StoredObject | null;
  postchange: StoredObject | null;
  related?: { type: string; id: number } | null;
}

/**
 * One request's write, being decided. Changes recorded here are visible to the
 * rest of the same request through `view` and become events only if the whole
 * decision succeeds: a failed request leaves no trace.
 */
export class WriteTransaction {
  readonly view: StagedView;
  readonly events: ChangeEvent[] = [];
  readonly time: string;
  private readonly local = new Overlay();
  private readonly allocated = new Map<string, number>();

  constructor(
    private readonly registry: ModelRegistry,
    private readonly context: WriteContext,
    private readonly firstPosition: number,
    private readonly nextIds: ReadonlyMap<string, number>,
    store: ReadStore,
    staged: Overlay,
    clock: Clock,
  ) {
    this.view = new StagedView(store, [staged, this.local]);
    this.time = clock.now();
  }

  /** A fresh id for a new object; ids are never reused, even after a delete. */
  allocateId(model: string): number {
    const id = this.allocated.get(model) ?? this.nextIds.get(model) ?? 1;
    this.allocated.set(model, id + 1);
    return id;
  }

  get allocations(): ReadonlyMap<string, number> {
    return this.allocated;
  }

  record(change: RecordedChange): ChangeEvent {
    const event: ChangeEvent = {
      v: EVENT_SCHEMA_VERSION,
      eventId: randomUUID(),
      position: this.firstPosition + this.events.length,
      requestId: this.context.requestId,
      time: this.time,
      user: this.context.user,
      action: change.action,
      objectType: change.objectType,
      objectId: change.objectId,
      objectRepr: change.objectRepr.slice(0, 200),
      prechange: change.prechange ? withoutId(change.prechange) : null,
      postchange: change.postchange ? withoutId(change.postchange) : null,
      related: change.related ?? null,
    };
    if (this.context.idempotency) event.idempotency = this.context.idempotency;
    this.events.push(event);
    this.local.put(evolve(this.registry, event));
    return event;
  }

  /** The read document `event` leaves behind, with its position: what this request wrote, for its response. */
  documentOf(event: ChangeEvent): ReadDocument | null {
    return evolve(this.registry, event).doc;
  }

  get overlay(): Overlay {
    return this.local;
  }
}

function withoutId(obj: StoredObject): Record<string, unknown> {
  const { id: _id, ...rest } = obj;
  return rest;
}

/**
 * The single writer. Requests are decided one at a time against the read models
 * plus everything already decided; their events are then appended without holding
 * the decision lock, so concurrent requests share fsyncs (group commit). A request
 * is answered only once its events are durable and projected (read-your-writes).
 */
export class WriteCoordinator {
  private queue: Promise<unknown> = Promise.resolve();
  private readonly staged = new Overlay();
  private nextPosition = 1;
  private readonly nextIds = new Map<string, number>();
  private failure: Error | null = null;
  onFatal: (error: Error) => void = () => {};

  constructor(
    private readonly log: EventLog,
    private readonly store: ReadStore,
    private readonly projector: Projector,
    private readonly registry: ModelRegistry,
    private readonly clock: Clock,
  ) {}

  /** Call once the projector has caught up with the log. */
  async init(): Promise<void> {
    this.nextPosition = this.log.head() + 1;
    for (const [model, max] of Object.entries(await this.store.maxIds())) this.nextIds.set(model, max + 1);
  }

  async execute<T>(context: WriteContext, decide: (tx: WriteTransaction) => Promise<T>): Promise<{ result: T; events: ChangeEvent[] }> {
    const decided = this.queue.then(() => this.decide(context, decide));
    this.queue = decided.catch(() => undefined);
    const { result, tx, durable } = await decided;
    if (tx.events.length === 0) return { result, events: [] };
    await durable;
    const last = tx.events[tx.events.length - 1].position;
    await this.projector.waitFor(last);
    for (const event of tx.events) this.staged.settle(evolve(this.registry, event));
    return { result, events: tx.events };
  }

  private async decide<T>(context: WriteContext, decide: (tx: WriteTransaction) => Promise<T>) {
    if (this.failure) throw new WriterUnavailableError(`writer stopped: ${this.failure.message}`);
    // Read models out of step with the log: a write would be made durable and then answered
    // with an error (its projection never comes), inviting a retry that writes it twice.
    const stale = this.projector.failed;
    if (stale) throw new WriterUnavailableError(`writer stopped: read models failed: ${stale.message}`);
    const tx = new WriteTransaction(this.registry, context, this.nextPosition, this.nextIds, this.store, this.staged, this.clock);
    const result = await decide(tx);
    if (context.authorize) for (const event of tx.events) await context.authorize(event, tx.view);
    if (tx.events.length === 0) return { result, tx, durable: Promise.resolve() };
    // Commit the decision: later requests decide against it while it is being made durable.
    this.nextPosition += tx.events.length;
    for (const [model, next] of tx.allocations) this.nextIds.set(model, next);
    tx.overlay.mergeInto(this.staged);
    const durable = this.log.append(tx.events).catch((error: Error) => {
      // Staged state may now hold changes that never became durable: fail-stop.
      this.failure = error;
      this.onFatal(error);
      throw new WriterUnavailableError(`event log append failed: ${error.message}`);
    });
    return { result, tx, durable };
  }
}
