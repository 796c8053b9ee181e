import type { ChangeEvent } from '../ChangeEvent.js';
import { Deferred } from '../Deferred.js';
import type { Subscription } from '../EventLog.js';
import { BatchAssembler } from './BatchAssembler.js';
import type { RawMessage } from './messages.js';
import { toError, type PartitionReader, type ReaderOptions } from './PartitionReader.js';

/** A subscription: one reader delivering assembled batches to onBatch. */
export class KafkaSubscription implements Subscription {
  readonly caughtUp: Promise<void>;
  /** Settles when delivery has ended: resolves after stop(), rejects if delivery failed. */
  readonly done: Promise<void>;
  private readonly caughtUpSignal = new Deferred();
  private readonly doneSignal = new Deferred();
  private readonly reader: PartitionReader;
  private readonly assembler: BatchAssembler;
  private target: bigint | undefined;
  private isCaughtUp = false;
  private finished = false;
  private failure: Error | undefined;
  private started: Promise<void> = Promise.resolve();
  private stopping: Promise<void> | undefined;

  /** @internal created by KafkaEventLog.subscribe() */
  constructor(
    makeReader: (options: ReaderOptions) => PartitionReader,
    private readonly offsets: () => Promise<{ low: bigint; high: bigint }>,
    from: number,
    private readonly onBatch: (events: ChangeEvent[]) => Promise<void>,
    private readonly onLateError: (error: Error) => void,
    private readonly onEnd: () => void,
    onEvent?: (event: ChangeEvent, message: RawMessage) => void,
  ) {
    this.caughtUp = this.caughtUpSignal.promise;
    this.done = this.doneSignal.promise;
    this.assembler = new BatchAssembler(from, onEvent);
    this.reader = makeReader({
      onMessages: async (messages) => {
        for (const batch of this.assembler.push(messages)) {
          if (this.finished) return;
          await this.onBatch(batch);
        }
      },
      onProgress: (next) => {
        if (this.target !== undefined && next >= this.target) this.markCaughtUp();
      },
      onError: (error) => this.fail(error),
    });
  }

  /** @internal */
  start(): void {
    this.started = (async () => {
      const { low, high } = await this.offsets();
      this.target = high; // the last stable offset at subscribe time
      if (high <= low) this.markCaughtUp();
      await this.reader.start();
    })().catch((error: unknown) => this.fail(toError(error)));
  }

  /** Ends delivery. Safe to call from inside onBatch (then it does not wait for itself). */
  stop(): Promise<void> {
    if (!this.finished) {
      this.finished = true;
      if (!this.isCaughtUp) this.caughtUpSignal.reject(new Error('KafkaEventLog: subscription stopped before it caught up'));
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
