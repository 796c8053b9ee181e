import type { ChangeEvent } from '../ChangeEvent.js';
import { Deferred } from '../Deferred.js';
import type { BatchHandler, Subscription } from '../EventLog.js';
import { BatchAssembler } from './BatchAssembler.js';
import { cursorAt } from './kafkaCursor.js';
import type { RawMessage } from './messages.js';
import { type PartitionReader, type ReaderOptions, toError } from './PartitionReader.js';

/** Where a subscription may start instead of the partition's beginning. */
export interface SeekPoint {
  /** The position of the last event before `offset`: reading there must yield position + 1 first. */
  position: number;
  offset: bigint;
}

/** What a subscription needs of its log. */
export interface SubscriptionSource {
  makeReader(options: ReaderOptions): PartitionReader;
  offsets(): Promise<{ low: bigint; high: bigint }>;
  /** The last committed position the log knows of (a seek at the end is caught up only at it). */
  head(): number;
  /** Every event consumed, with its message (position → offset, body cache). */
  onEvent?: (event: ChangeEvent, message: RawMessage) => void;
  /** A seek that did not land where its cursor said: the subscription reads from the beginning instead. */
  onSeekMissed?: (seek: SeekPoint, found: number) => void;
}

/**
 * A commit returns before the coordinator has written its markers, so for a moment the
 * partition's last stable offset can leave out the newest committed transaction. Before a
 * cursor is taken for a foreign one by that offset, it is read again once, this long after.
 */
const END_RECHECK_MS = 200;

/** The cursor led past the wanted event: read from the beginning instead. */
class SeekMissed extends Error {
  constructor(readonly found: number) {
    super(`seek landed at position ${found}`);
  }
}

/**
 * A subscription: one reader delivering assembled batches to onBatch. With a seek point it
 * starts reading there; if the first event found there is later than the one after the
 * seek point (a stale cursor, a recreated topic), it starts over from the beginning, so a
 * bad cursor costs a scan and never an event.
 */
export class KafkaSubscription implements Subscription {
  readonly caughtUp: Promise<void>;
  /** Settles when delivery has ended: resolves after stop(), rejects if delivery failed. */
  readonly done: Promise<void>;
  private readonly caughtUpSignal = new Deferred();
  private readonly doneSignal = new Deferred();
  private reader: PartitionReader;
  private assembler: BatchAssembler;
  /** Bumped when the reader is replaced: what the old one still delivers is dropped. */
  private generation = 0;
  private seek: SeekPoint | undefined;
  /** An event was read since the seek, so the seek was checked. */
  private seekChecked = false;
  /** The log's head when delivery started: every event up to it lies before `target`. */
  private headAtStart = 0;
  private target: bigint | undefined;
  private isCaughtUp = false;
  /** The partition's end was read again before judging the seek (once per subscription): 'running' meanwhile. */
  private endRecheck: 'no' | 'running' | 'done' = 'no';
  /** The current reader's last reported progress (its next offset), kept while a re-check drops it. */
  private lastNext: bigint | undefined;
  private finished = false;
  private failure: Error | undefined;
  private started: Promise<void> = Promise.resolve();
  private stopping: Promise<void> | undefined;

  /** @internal created by KafkaEventLog.subscribe() */
  constructor(
    private readonly source: SubscriptionSource,
    private readonly from: number,
    private readonly onBatch: BatchHandler,
    private readonly onLateError: (error: Error) => void,
    private readonly onEnd: () => void,
    seek?: SeekPoint,
  ) {
    this.caughtUp = this.caughtUpSignal.promise;
    this.done = this.doneSignal.promise;
    this.seek = seek && seek.position < from ? seek : undefined;
    this.assembler = this.newAssembler();
    this.reader = this.newReader();
  }

  private newAssembler(): BatchAssembler {
    this.seekChecked = false;
    const seek = this.seek;
    return new BatchAssembler(this.from, (event, message) => {
      if (!this.seekChecked && seek && event.position > seek.position + 1) throw new SeekMissed(event.position);
      this.seekChecked = true;
      this.source.onEvent?.(event, message);
    });
  }

  private newReader(): PartitionReader {
    const generation = this.generation;
    const current = () => generation === this.generation && !this.finished;
    this.lastNext = undefined;
    return this.source.makeReader({
      seekTo: this.seek?.offset,
      onMessages: async (messages) => {
        if (!current()) return;
        let batches;
        try {
          batches = this.assembler.push(messages);
        } catch (error) {
          if (error instanceof SeekMissed) return this.startOver(error.found);
          throw error;
        }
        for (const batch of batches) {
          if (!current()) return;
          await this.onBatch(batch.events, cursorAt(batch.nextOffset));
        }
      },
      onProgress: (next) => {
        if (!current()) return;
        this.lastNext = next;
        this.progressed(next);
      },
      onError: (error) => {
        if (current()) this.fail(error);
      },
    });
  }

  /** The reader has read up to `next`: caught up once it reaches the target. */
  private progressed(next: bigint): void {
    if (this.target === undefined || next < this.target) return;
    // At the end without one event read since the seek (only commit markers or aborted records
    // there): right only if the log holds nothing after the seek's position, or if the end
    // read at the start left out the newest transaction (END_RECHECK_MS): asked once.
    if (this.seek && !this.seekChecked && this.headAtStart > this.seek.position) {
      if (this.endRecheck === 'done') return this.startOver(this.headAtStart);
      return this.recheckEnd();
    }
    this.markCaughtUp();
  }

  /** onProgress() found no event after the seek: reads the end again before the cursor is taken for a foreign one. */
  private recheckEnd(): void {
    if (this.endRecheck === 'running') return;
    const generation = this.generation;
    const target = this.target!;
    this.endAgain(target).then(
      (high) => {
        if (generation !== this.generation || this.finished || this.seekChecked) return;
        if (high > target) {
          this.target = high; // the newest transaction's events are there: the reader reads on to them
          // Unless the reader passed that end already while its progress was dropped (the end
          // moved by an aborted transaction only): no progress will come, so it is judged now.
          if (this.lastNext !== undefined && this.lastNext >= high) this.progressed(this.lastNext);
        } else this.startOver(this.headAtStart);
      },
      (error: unknown) => {
        if (generation === this.generation) this.fail(toError(error));
      },
    );
  }

  /** The partition's last stable offset read again after END_RECHECK_MS (once), or `high` if it did not move. */
  private async endAgain(high: bigint): Promise<bigint> {
    this.endRecheck = 'running';
    try {
      await new Promise((resolve) => setTimeout(resolve, END_RECHECK_MS));
      if (this.finished) return high;
      const again = (await this.source.offsets()).high;
      return again > high ? again : high;
    } finally {
      this.endRecheck = 'done';
    }
  }

  /** Drops the seek: a new reader and assembler from the partition's beginning. */
  private startOver(found: number): void {
    const missed = this.seek!;
    this.seek = undefined;
    this.seekChecked = true;
    this.source.onSeekMissed?.(missed, found);
    const old = this.reader;
    this.generation++;
    this.assembler = this.newAssembler();
    this.reader = this.newReader();
    const next = this.reader;
    this.started = this.started
      .then(() => old.stop())
      .then(() => (this.finished ? undefined : next.start()))
      .catch((error: unknown) => this.fail(toError(error)));
  }

  /** @internal */
  start(): void {
    this.started = (async () => {
      // Read before the offsets: every event up to this head is then below `high`.
      this.headAtStart = this.source.head();
      const offsets = await this.source.offsets();
      const low = offsets.low;
      let high = offsets.high;
      const seek = this.seek;
      // A cursor beyond the committed end, or at it while the log has events after its position,
      // is not of this log (a recreated topic): read from the beginning. Unless the end, read
      // again once, has moved (the newest transaction's markers had not been written).
      const foreign = (end: bigint) =>
        seek !== undefined && (seek.offset > end || (seek.offset === end && this.headAtStart > seek.position));
      if (foreign(high)) high = await this.endAgain(high);
      this.target = high; // the last stable offset at subscribe time
      if (seek && foreign(high)) {
        this.seek = undefined;
        this.source.onSeekMissed?.(seek, this.headAtStart);
        this.assembler = this.newAssembler();
        this.reader = this.newReader();
      }
      // Seeked to the end of what is committed: nothing to read.
      if (high <= low || this.seek?.offset === high) this.markCaughtUp();
      await this.reader.start();
    })().catch((error: unknown) => this.fail(toError(error)));
  }

  /** Ends delivery. Safe to call from inside onBatch (then it does not wait for itself). */
  stop(): Promise<void> {
    if (!this.finished) {
      this.finished = true;
      if (!this.isCaughtUp)
        this.caughtUpSignal.reject(new Error('KafkaEventLog: subscription stopped before it caught up'));
    }
    this.stopping ??= (async () => {
      this.onEnd();
      await this.started;
      await this.reader.stop();
      if (this.failure) this.doneSignal.reject(this.failure);
      else this.doneSignal.resolve();
    })();
    if (this.reader.delivering) return Promise.resolve(); // called from inside onBatch: don't wait for itself
    return this.stopping.then(() => this.reader.stop());
  }

  private markCaughtUp(): void {
    if (this.isCaughtUp || this.finished) return;
    this.isCaughtUp = true;
    this.caughtUpSignal.resolve();
  }

  private fail(error: Error): void {
    if (this.finished) return;
    this.failure = error;
    if (this.isCaughtUp) this.onLateError(error);
    else this.caughtUpSignal.reject(error);
    this.isCaughtUp = true;
    void this.stop();
  }
}
