import { randomUUID } from 'node:crypto';

import { WriterUnavailableError } from '../errors/requestErrors.js';
import { TurnBudget } from '../eventLoopTurns.js';
import { AppendOutcomeUnknownError } from '../events/AppendOutcomeUnknownError.js';
import { type ChangeAction, type ChangeEvent, EVENT_SCHEMA_VERSION, type EventUser } from '../events/ChangeEvent.js';
import type { EventLog } from '../events/EventLog.js';
import { EventTooLargeError } from '../events/EventTooLargeError.js';
import type { LookupView } from '../models/lookupView.js';
import type { ModelRegistry } from '../models/registry.js';
import type { StoredObject } from '../models/storedObject.js';
import { evolve } from '../projections/evolve.js';
import { ProjectionTimeoutError, type Projector } from '../projections/Projector.js';
import type { DocumentChange, ReadDocument, ReadStore } from '../projections/ReadStore.js';
import type { Clock } from './clock.js';
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
  /** Set when a webhook delivery sent the request: how many deliveries led to it, stamped on every event. */
  webhookDepth?: number;
}

export interface RecordedChange {
  action: ChangeAction;
  objectType: string;
  objectId: number;
  objectRepr: string;
  prechange: StoredObject | null;
  postchange: StoredObject | null;
  related?: { type: string; id: number } | null;
  /**
   * A change made elsewhere before (an imported registry's history): its own time,
   * request and user instead of this request's.
   */
  past?: PastStamp;
}

/** When, in which request and by whom a past change was made. */
export interface PastStamp {
  time: string;
  requestId: string;
  user: EventUser | null;
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
  private readonly changes = new Map<ChangeEvent, DocumentChange>();

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

  /**
   * Takes a given id for a new object (an import keeping its source's ids): later
   * allocations continue after the highest id taken. The caller checks it is free.
   */
  claimId(model: string, id: number): number {
    if (!Number.isSafeInteger(id) || id < 1) throw new RangeError(`not an object id: ${id}`);
    const next = this.allocated.get(model) ?? this.nextIds.get(model) ?? 1;
    if (id >= next) this.allocated.set(model, id + 1);
    return id;
  }

  /** Who is writing (null for writes made without a user). */
  get user(): EventUser | null {
    return this.context.user;
  }

  get allocations(): ReadonlyMap<string, number> {
    return this.allocated;
  }

  record(change: RecordedChange): ChangeEvent {
    const event: ChangeEvent = {
      v: EVENT_SCHEMA_VERSION,
      eventId: randomUUID(),
      position: this.firstPosition + this.events.length,
      requestId: change.past?.requestId ?? this.context.requestId,
      time: change.past?.time ?? this.time,
      user: change.past ? change.past.user : this.context.user,
      action: change.action,
      objectType: change.objectType,
      objectId: change.objectId,
      objectRepr: change.objectRepr.slice(0, 200),
      prechange: change.prechange ? withoutId(change.prechange) : null,
      postchange: change.postchange ? withoutId(change.postchange) : null,
      related: change.related ?? null,
    };
    if (this.context.idempotency) event.idempotency = this.context.idempotency;
    if (this.context.webhookDepth) event.webhookDepth = this.context.webhookDepth;
    this.events.push(event);
    const made = evolve(this.registry, event);
    this.changes.set(event, made);
    this.local.put(made);
    return event;
  }

  /** The read document `event` leaves behind, with its position: what this request wrote, for its response. */
  documentOf(event: ChangeEvent): ReadDocument | null {
    return this.changeOf(event).doc;
  }

  /**
   * The document change `event` makes, worked out once when it was recorded (evolving
   * an event derives its hidden columns, e.g. an address's keys: the staged view, the
   * response and the settling of the staged state all need the same result).
   */
  changeOf(event: ChangeEvent): DocumentChange {
    return this.changes.get(event) ?? evolve(this.registry, event);
  }

  get overlay(): Overlay {
    return this.local;
  }
}

function withoutId(obj: StoredObject): Record<string, unknown> {
  const { id: _id, ...rest } = obj;
  return rest;
}

/** The writer's state, for health checks and metrics. */
export interface WriterHealth {
  /**
   * up: writes are accepted. unavailable: the event log's storage refuses writes (full
   * disk, I/O error); writes answer 503 and the writer retries by itself. stopped: a
   * failure the writer cannot recover from; the process must restart.
   */
  state: 'up' | 'unavailable' | 'stopped';
  reason?: string;
  /** When the current outage began (ISO 8601). */
  since?: string;
  /** Seconds until the writer next tries to recover. */
  retryInSeconds?: number;
}

/** Back-off between recovery attempts while the log is unavailable: doubles from firstMs up to maxMs. */
export interface WriterRetry {
  firstMs: number;
  maxMs: number;
}

const DEFAULT_RETRY: WriterRetry = { firstMs: 1_000, maxMs: 30_000 };
/** How long a committed write waits to become visible in the read models before it is answered 503. */
const DEFAULT_PROJECTION_TIMEOUT_MS = 30_000;
/** Retry-After for a write that is committed but not yet visible. */
const COMMITTED_RETRY_AFTER_SECONDS = 5;
/** Retry-After for a writer that stopped for good (an operator has to restart it). */
const STOPPED_RETRY_AFTER_SECONDS = 60;

/** One incident of the event log refusing writes, from the first failure to the first durable append after it. */
interface Outage {
  error: Error;
  since: number;
  attempts: number;
  nextAttemptAt: number;
  timer: NodeJS.Timeout | null;
  /** recover() succeeded; a failure before the next durable append continues this incident. */
  recovered: boolean;
}

/**
 * The single writer. Requests are decided one at a time against the read models
 * plus everything already decided; their events are then appended without holding
 * the decision lock, so concurrent requests share fsyncs (group commit). A request
 * is answered only once its events are durable and projected (read-your-writes).
 *
 * When the event log says its storage refuses writes (a full disk: `log.unavailable()`
 * is set after a failed append), every decided-but-not-durable change is void: writes
 * are refused with 503 and a Retry-After while the writer retries, on the next write or
 * on a timer with back-off. A retry waits until every append in flight has settled and
 * the read models hold every durable event, lets the log cut its failed appends
 * (`log.recover()`), then forgets the void changes and decides afresh from the read
 * models. Any other append failure stops the writer for good (fail-stop).
 */
export class WriteCoordinator {
  private queue: Promise<unknown> = Promise.resolve();
  private staged = new Overlay();
  private nextPosition = 1;
  private readonly nextIds = new Map<string, number>();
  private failure: Error | null = null;
  private outage: Outage | null = null;
  private readonly inflight = new Set<Promise<void>>();
  private closed = false;
  private readonly retry: WriterRetry;
  private readonly projectionTimeoutMs: number;
  /** Called once when the writer stops for good. */
  onFatal: (error: Error) => void = () => {};
  /** Called once per outage of the log's storage, when it begins. */
  onOutage: (error: Error) => void = () => {};
  /** Called when writes are accepted again after an outage. */
  onRecovered: (outage: { since: string; attempts: number; error: Error }) => void = () => {};
  /**
   * Called with a request's events once they are durable and in the read models, before
   * the request is answered: what may only follow a committed change (deleting the files
   * it stopped naming). It must not throw: the write has succeeded whatever it does.
   */
  onCommitted: (events: ChangeEvent[]) => Promise<void> = async () => {};

  constructor(
    private readonly log: EventLog,
    private readonly store: ReadStore,
    private readonly projector: Projector,
    private readonly registry: ModelRegistry,
    private readonly clock: Clock,
    options: { retry?: WriterRetry; projectionTimeoutMs?: number } = {},
  ) {
    this.retry = options.retry ?? DEFAULT_RETRY;
    this.projectionTimeoutMs = options.projectionTimeoutMs ?? DEFAULT_PROJECTION_TIMEOUT_MS;
  }

  /** Call once the projector has caught up with the log. */
  async init(): Promise<void> {
    await this.resetDecisions();
    // The log may have opened on a full disk: readable, not writable.
    if (this.log.unavailable?.()) this.onAppendFailed(this.log.unavailable()!);
  }

  /** The writer's state, truthful from start-up on. */
  health(): WriterHealth {
    if (this.failure) return { state: 'stopped', reason: this.failure.message };
    const outage = this.outage;
    if (outage && !outage.recovered) {
      return {
        state: 'unavailable',
        reason: outage.error.message,
        since: new Date(outage.since).toISOString(),
        retryInSeconds: this.retryAfterSeconds(),
      };
    }
    return { state: 'up' };
  }

  /** Stops the retry timer (the service is shutting down). */
  close(): void {
    this.closed = true;
    this.clearTimer();
  }

  async execute<T>(
    context: WriteContext,
    decide: (tx: WriteTransaction) => Promise<T>,
  ): Promise<{ result: T; events: ChangeEvent[] }> {
    const decided = this.queue.then(() => this.decide(context, decide));
    this.queue = decided.catch(() => undefined);
    const { result, tx, durable } = await decided;
    if (tx.events.length === 0) return { result, events: [] };
    await durable;
    const last = tx.events[tx.events.length - 1].position;
    await this.projector.waitFor(last, { timeoutMs: this.projectionTimeoutMs }).catch((error: Error) => {
      // The write is durable: the client must not repeat it, only read it again later.
      throw new WriterUnavailableError(
        `write committed at position ${last} but not visible in the read models: ${error.message}`,
        COMMITTED_RETRY_AFTER_SECONDS,
        false,
        `The write was committed (request ${context.requestId}) but cannot be shown yet: do not repeat it; read it again shortly.`,
      );
    });
    for (const event of tx.events) this.staged.settle(tx.changeOf(event));
    await this.onCommitted(tx.events).catch(() => undefined);
    return { result, events: tx.events };
  }

  private async decide<T>(context: WriteContext, decide: (tx: WriteTransaction) => Promise<T>) {
    if (this.outage && !this.outage.recovered && !this.failure && Date.now() >= this.outage.nextAttemptAt)
      await this.attemptRecovery();
    if (this.failure)
      throw new WriterUnavailableError(`writer stopped: ${this.failure.message}`, STOPPED_RETRY_AFTER_SECONDS, true);
    if (this.outage && !this.outage.recovered)
      throw new WriterUnavailableError(
        `event log unavailable: ${this.outage.error.message}`,
        this.retryAfterSeconds(),
        true,
      );
    // Read models out of step with the log: a write would be made durable and then answered
    // with an error (its projection never comes), inviting a retry that writes it twice.
    const stale = this.projector.failed;
    if (stale)
      throw new WriterUnavailableError(
        `writer stopped: read models failed: ${stale.message}`,
        STOPPED_RETRY_AFTER_SECONDS,
      );
    const tx = new WriteTransaction(
      this.registry,
      context,
      this.nextPosition,
      this.nextIds,
      this.store,
      this.staged,
      this.clock,
    );
    const result = await decide(tx);
    if (context.authorize) {
      const budget = new TurnBudget();
      for (const event of tx.events) {
        if (budget.due()) await budget.pause();
        await context.authorize(event, tx.view);
      }
    }
    if (tx.events.length === 0) return { result, tx, durable: Promise.resolve() };
    this.refuseOversizedEvents(tx.events);
    // Commit the decision: later requests decide against it while it is being made durable.
    this.nextPosition += tx.events.length;
    for (const [model, next] of tx.allocations) this.nextIds.set(model, next);
    tx.overlay.mergeInto(this.staged);
    const durable = this.log.append(tx.events).then(
      () => {
        if (this.outage?.recovered) this.outage = null; // the first durable append ends the incident
      },
      (error: Error) => {
        // Staged state now holds changes that never became durable: no write is decided
        // against it again (fail-stop, or a fresh start after the outage).
        this.onAppendFailed(error);
        const retryAfter = this.failure ? STOPPED_RETRY_AFTER_SECONDS : this.retryAfterSeconds();
        if (error instanceof AppendOutcomeUnknownError) {
          // Neither "not written, retry" nor success: a blind repeat could write it twice.
          throw new WriterUnavailableError(
            `event log append outcome unknown: ${error.message}`,
            retryAfter,
            true,
            `The write may or may not have been committed (request ${context.requestId}): the event log could not be reached to find out. ` +
              'Check whether it took effect before repeating it, or repeat it with the same Idempotency-Key.',
          );
        }
        throw new WriterUnavailableError(`event log append failed: ${error.message}`, retryAfter, true);
      },
    );
    this.inflight.add(durable);
    durable.then(
      () => this.inflight.delete(durable),
      () => this.inflight.delete(durable),
    );
    return { result, tx, durable };
  }

  /** An event the log would refuse would fail the whole append: refuse the request (413) before anything is decided on it. */
  private refuseOversizedEvents(events: ChangeEvent[]): void {
    const limit = this.log.maxEventBytes?.();
    if (!limit) return;
    for (const event of events) {
      const bytes = Buffer.byteLength(JSON.stringify(event));
      if (bytes > limit)
        throw new EventTooLargeError(
          bytes,
          limit,
          `${event.objectType} ${event.objectRepr ? `'${event.objectRepr}'` : event.objectId}`,
        );
    }
  }

  private onAppendFailed(error: Error): void {
    if (this.failure) return;
    const down = this.log.unavailable?.();
    if (!down || !this.log.recover) {
      this.stop(error);
      return;
    }
    const outage = this.outage;
    if (outage) {
      if (outage.recovered) {
        outage.recovered = false;
        outage.error = down;
        this.schedule(outage);
      }
      return;
    }
    this.outage = { error: down, since: Date.now(), attempts: 0, nextAttemptAt: 0, timer: null, recovered: false };
    this.schedule(this.outage);
    this.onOutage(down);
  }

  private stop(error: Error): void {
    if (this.failure) return;
    this.failure = error;
    this.clearTimer();
    this.onFatal(error);
  }

  /** Runs on the decision queue, so no request is decided while it works. */
  private async attemptRecovery(): Promise<void> {
    const outage = this.outage;
    if (!outage || outage.recovered || this.failure || this.closed) return;
    this.clearTimer();
    outage.attempts++;
    try {
      await Promise.allSettled([...this.inflight]);
      // Bounded: writes queue behind this attempt and must be answered (503) if the read models stall.
      await this.projector.waitFor(this.log.head(), { timeoutMs: this.projectionTimeoutMs });
      await this.log.recover!();
      // Recovery may have learnt of events whose commit answer was lost (the Kafka log):
      // ids continue from the read models, so they must hold those events first.
      await this.projector.waitFor(this.log.head(), { timeoutMs: this.projectionTimeoutMs });
      await this.resetDecisions();
      outage.recovered = true;
      this.onRecovered({ since: new Date(outage.since).toISOString(), attempts: outage.attempts, error: outage.error });
    } catch (error) {
      // Read models behind the log: the outage goes on until they catch up (not a reason to stop).
      const down = error instanceof ProjectionTimeoutError ? error : this.log.unavailable?.();
      if (!down) {
        this.stop(error as Error);
        return;
      }
      outage.error = down;
      this.schedule(outage);
    }
  }

  /** Forgets every decided change that is not durable and continues from the read models. */
  private async resetDecisions(): Promise<void> {
    this.staged = new Overlay();
    this.nextPosition = this.log.head() + 1;
    this.nextIds.clear();
    for (const [model, max] of Object.entries(await this.store.maxIds())) this.nextIds.set(model, max + 1);
  }

  private schedule(outage: Outage): void {
    this.clearTimer();
    if (this.closed) return;
    const delay = Math.min(this.retry.maxMs, this.retry.firstMs * 2 ** Math.min(outage.attempts, 30));
    outage.nextAttemptAt = Date.now() + delay;
    outage.timer = setTimeout(() => {
      outage.timer = null;
      const run = this.queue.then(() => this.attemptRecovery());
      this.queue = run.catch(() => undefined);
    }, delay);
    outage.timer.unref();
  }

  private clearTimer(): void {
    if (this.outage?.timer) {
      clearTimeout(this.outage.timer);
      this.outage.timer = null;
    }
  }

  private retryAfterSeconds(): number {
    const next = this.outage?.nextAttemptAt ?? 0;
    return Math.max(1, Math.ceil((next - Date.now()) / 1000));
  }
}
