import { WriterUnavailableError } from '../errors/requestErrors.js';
import type { ChangeEvent } from '../events/ChangeEvent.js';
import type { EventLog, LogCursor, ResumePoint, Subscription } from '../events/EventLog.js';
import { PositionWaiters } from '../events/PositionWaiters.js';
import type { ModelRegistry } from '../models/registry.js';
import { AuditIndex } from './AuditIndex.js';
import { IdempotencyIndex } from './IdempotencyIndex.js';

/** Events a range() chunk gathers before it is handed over (callers yield between chunks). */
const RANGE_CHUNK_EVENTS = 1024;
/** How long a read waits for the index to reach the log's head before it is answered 503. */
const SYNC_TIMEOUT_MS = 30_000;

/**
 * The event log as the audit side reads it: the secondary indexes (AuditIndex), fed by
 * the log's committed batches through an ordinary subscription from position 1, and the
 * event bodies, read from the log itself by position (EventLog.readPositions) or in
 * order (EventLog.read): no copy of the log is kept. It therefore works over any EventLog
 * adapter (file or Kafka): the indexes are rebuilt on open by the catch-up and
 * maintained on every append by the live delivery.
 *
 * Reads that must see every acknowledged write call `sync()` first: it waits until
 * the index has reached the log's durable head (a write is acknowledged only once
 * durable, so a request that follows it always finds its events).
 */
export class AuditLog {
  private indexes: { index: AuditIndex; idempotency: IdempotencyIndex };
  private subscription: Subscription | null = null;
  private readonly waiters = new PositionWaiters();
  private readonly listeners = new Set<() => void>();
  private failure: Error | null = null;
  private closed = false;
  private resume: ResumePoint | null = null;

  constructor(
    private readonly log: EventLog,
    registry: ModelRegistry,
  ) {
    this.indexes = { index: new AuditIndex(registry), idempotency: new IdempotencyIndex() };
  }

  /** The secondary indexes of the audit queries. */
  get index(): AuditIndex {
    return this.indexes.index;
  }

  /** Idempotency-Key → request, for retries after a restart. */
  get idempotency(): IdempotencyIndex {
    return this.indexes.idempotency;
  }

  /**
   * Starts from indexes loaded from a snapshot instead of empty ones (before open(),
   * which then reads the log only after the index's head).
   */
  adopt(index: AuditIndex, idempotency: IdempotencyIndex, resume: ResumePoint | null = null): void {
    if (this.subscription || this.index.head > 0) throw new Error('AuditLog.adopt(): the indexes are in use already');
    this.indexes = { index, idempotency };
    this.resume = resume && resume.position <= index.head ? resume : null;
  }

  /** The last position indexed with the log's cursor there (see EventLog.subscribe), kept in snapshots. */
  get resumePoint(): ResumePoint | null {
    return this.resume;
  }

  /** Indexes the whole log (the rebuild), then follows it. Resolves once caught up. */
  async open(): Promise<void> {
    if (this.subscription) throw new Error('AuditLog.open(): already open');
    this.subscription = this.log.subscribe(
      this.index.head + 1,
      async (batch, cursor) => this.ingest(batch, cursor),
      this.resume,
    );
    // Delivery can end after the catch-up (the log's consumer gave up): waiting reads must hear of it.
    this.subscription.done?.catch((error: unknown) => {
      if (!this.closed && !this.failure) this.fail(error instanceof Error ? error : new Error(String(error)));
    });
    await this.subscription.caughtUp;
  }

  /**
   * Indexes one committed batch (in log order), and the log's cursor after it when handed one.
   * open() feeds it from the log; it is public so that a caller holding batches already (a
   * bench, a tee) can feed it directly.
   */
  ingest(batch: readonly ChangeEvent[], cursor?: LogCursor): void {
    if (this.closed) return;
    if (this.failure) throw this.failure;
    try {
      this.indexes.index.add(batch);
      this.indexes.idempotency.add(batch);
    } catch (error) {
      this.fail(error as Error);
      throw error;
    }
    // Before the listeners: a snapshot captured by one keeps the cursor at the indexes' head,
    // so its check at the next start reads the event there instead of scanning for it.
    if (cursor !== undefined && batch.length > 0) this.resume = { position: batch[batch.length - 1]!.position, cursor };
    this.waiters.reached(this.index.head);
    for (const listener of this.listeners) listener();
  }

  /** The last position indexed. */
  get head(): number {
    return this.index.head;
  }

  /** Resolves once every event up to `position` is indexed; rejects if indexing stops, or with the signal's reason once it aborts. */
  waitFor(position: number, signal?: AbortSignal): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    if (position <= this.index.head) return Promise.resolve();
    if (this.closed) return Promise.reject(new Error('AuditLog is closed'));
    return this.waiters.wait(position, signal);
  }

  /**
   * Resolves once the index holds every event the log has made durable so far. A 503
   * (WriterUnavailableError) when the index stopped following the log or lags too long.
   */
  sync(timeoutMs = SYNC_TIMEOUT_MS): Promise<void> {
    const head = this.log.head();
    if (head <= this.index.head && !this.failure) return Promise.resolve();
    const unavailable = (reason: string) =>
      new WriterUnavailableError(
        `change history ${reason}`,
        5,
        false,
        'The change history is behind the event log; retry shortly.',
      );
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(unavailable(`reached position ${this.index.head}, not ${head}, within ${timeoutMs} ms`)),
        timeoutMs,
      );
      timer.unref();
      this.waitFor(head).then(
        () => (clearTimeout(timer), resolve()),
        (error: Error) => (
          clearTimeout(timer),
          reject(this.closed ? error : unavailable(`stopped following the event log: ${error.message}`))
        ),
      );
    });
  }

  /** Events by position (each indexed already), in the order asked. */
  async events(positions: readonly number[]): Promise<ChangeEvent[]> {
    for (const p of positions) {
      if (!Number.isInteger(p) || p < 1 || p > this.index.head)
        throw new RangeError(`AuditLog: no event at position ${p}`);
    }
    if (positions.length === 0) return [];
    return this.log.readPositions(positions);
  }

  /**
   * Events from..to (inclusive, clamped to the indexed head), in order, in chunks of
   * about a thousand events. Ending the iteration early releases the log reader.
   */
  async *range(from: number, to: number): AsyncGenerator<ChangeEvent[]> {
    const last = Math.min(to, this.index.head);
    const first = Math.max(1, from);
    if (first > last) return;
    let chunk: ChangeEvent[] = [];
    for await (const batch of this.log.read(first)) {
      for (const event of batch) {
        if (event.position >= first && event.position <= last) chunk.push(event);
      }
      const done = batch[batch.length - 1]!.position >= last;
      if (chunk.length >= RANGE_CHUNK_EVENTS || (done && chunk.length > 0)) {
        yield chunk;
        chunk = [];
      }
      if (done) return;
    }
    if (chunk.length > 0) yield chunk;
  }

  /** Called after each indexed batch, and once at close. Returns the unsubscribe function. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** Why the index stopped following the log, if it did. */
  get error(): Error | null {
    return this.failure;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const listener of [...this.listeners]) listener();
    this.listeners.clear();
    await this.subscription?.stop();
    this.subscription = null;
    this.waiters.failAll(new Error('AuditLog is closed'));
  }

  private fail(error: Error): void {
    this.failure = error;
    this.waiters.failAll(error);
    for (const listener of this.listeners) listener();
  }
}
