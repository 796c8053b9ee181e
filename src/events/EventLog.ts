import type { ChangeEvent } from './ChangeEvent.js';

/**
 * The event log port: the single source of truth. Both adapters (the embedded
 * FileEventLog and KafkaEventLog) implement it and pass the same contract tests.
 */
/** What a log that keeps its events in a local file tells about its storage (/metrics, the API root). */
export interface EventLogStorageStats {
  /** Bytes of the log file, or null if it cannot be read. */
  sizeBytes: number | null;
  /** Batches appended by this process. */
  appends: number;
  /** fsyncs made by this process (group commit shares them). */
  syncs: number;
}

export interface EventLog {
  /** Open the log; recover from a torn tail; learn the last durable position. */
  open(): Promise<void>;

  /** Storage figures of a log kept in a local file; absent for a log elsewhere (Kafka). */
  storageStats?(): Promise<EventLogStorageStats>;

  /**
   * Durably append one request's events as one atomic batch: a reader sees all of
   * them or none. Positions are assigned by the writer and must continue the log
   * (the first is head() + 1, then dense). Resolves once the batch is durable.
   * Concurrent calls may be committed together (group commit) but keep call order.
   */
  append(events: ChangeEvent[]): Promise<void>;

  /** The last durable position this instance knows of (0 for an empty log). */
  head(): number;

  /**
   * The committed events at these positions (each 1..head(); any order, repeats allowed),
   * in the order asked: random access for the audit side. Each adapter documents its cost.
   * `near` is a resume point the caller was handed (a snapshot's): an adapter that finds
   * events by cursor (Kafka) reads its position there first, checked, instead of scanning
   * for it; the file log finds positions by its own index and ignores it.
   */
  readPositions(positions: readonly number[], near?: ResumePoint | null): Promise<ChangeEvent[]>;

  /** Every committed event with position >= from, in order, as committed batches. */
  read(from: number): AsyncIterable<ChangeEvent[]>;

  /**
   * Deliver every committed batch with position >= from, in order, first the
   * existing ones and then each new one as it commits. `onBatch` is awaited
   * before the next batch is delivered. Adapters that cannot find a position by
   * themselves (Kafka) hand each batch a cursor; a subscriber that keeps it beside the
   * position it reached passes both back as `resume` to start reading there.
   */
  subscribe(from: number, onBatch: BatchHandler, resume?: ResumePoint | null): Subscription;

  close(): Promise<void>;

  /**
   * Why appends are refused for now although the log is consistent (the embedded file
   * log on a full disk or after an I/O error), or null. Adapters without such a state
   * leave it out.
   */
  unavailable?(): Error | null;

  /** Tries to end the unavailable() state; throws if the storage still refuses writes. */
  recover?(): Promise<void>;

  /**
   * The largest event, as JSON bytes, an append takes (null until open). A larger one
   * would fail the whole append: the writer refuses such a request before appending.
   * Adapters without a limit leave it out.
   */
  maxEventBytes?(): number | null;

  /**
   * How long ago (ms) this instance last confirmed head() with the log's source of truth:
   * how stale head() may be. A follower that cannot reach the source keeps its last head,
   * which alone would read as "caught up" forever; readiness uses this to tell. 0 for a
   * writer (it makes the head) and for a follower that sees the log directly (a local
   * file); such adapters may leave it out, which means 0.
   */
  headConfirmedAgoMs?(): number;
}

/** Receives one committed batch, and where it ends in the log's own storage when the adapter says. */
export type BatchHandler = (events: ChangeEvent[], cursor?: LogCursor) => Promise<void>;

/**
 * Where a batch ends in the log's own storage (Kafka: the offset after its last message),
 * opaque to everyone but the adapter that made it. The file log finds positions by its own
 * index and makes none.
 */
export type LogCursor = string;

/**
 * A position a subscriber reached and the cursor it was handed there. Only a hint: the
 * adapter checks that reading from the cursor yields `position + 1` (or earlier events) and
 * reads from the beginning if not, so a stale or foreign cursor costs time, never events.
 */
export interface ResumePoint {
  position: number;
  cursor: LogCursor;
}

export interface Subscription {
  /** Resolves when the subscriber has caught up with the head known at subscribe time. */
  readonly caughtUp: Promise<void>;
  /**
   * Settles when delivery has ended: resolves after stop(), rejects if delivery failed
   * (also after the catch-up, when nobody awaits caughtUp any more).
   */
  readonly done?: Promise<void>;
  stop(): Promise<void>;
}
