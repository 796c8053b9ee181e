import type { Consumer, Kafka, KafkaMessage } from 'kafkajs';

import { Deferred } from '../Deferred.js';
import { LogReadUnavailableError } from '../LogReadUnavailableError.js';
import { PARTITION } from './messages.js';
import { StallLimit } from './StallLimit.js';

export interface ReaderOptions {
  /** Start here instead of at the beginning of the partition. */
  seekTo?: bigint;
  /** The messages of one fetch (data only: commit markers and aborted records are filtered out). */
  onMessages: (messages: KafkaMessage[]) => Promise<void>;
  /** The offset after the last record (including commit markers) processed so far. */
  onProgress: (nextOffset: bigint) => void;
  onError: (error: Error) => void;
  /** While onMessages runs, tell the group coordinator this member is alive this often (ms). Default 3,000. */
  heartbeatMs?: number;
}

/** Below kafkajs's default session timeout (30 s) with room to spare. */
const HEARTBEAT_MS = 3_000;

/**
 * One read_committed consumer of the partition, in a fresh group of its own, with
 * autoCommit off: nothing relies on committed group offsets, a reader starts at the
 * beginning of the partition (or at `seekTo`). A consumer the client loses to a
 * retriable failure is replaced by one in a new group, from where it had got to.
 */
export class PartitionReader {
  private consumer: Consumer | undefined;
  private starting: Promise<void> | undefined;
  /** start() has resolved or rejected. */
  private startSettled = false;
  private stopping: Promise<void> | undefined;
  private failed = false;
  private inHandler = false;
  /** The offset after the last record processed, once one was. */
  private next: bigint | undefined;
  /** How many times the consumer was replaced after the client lost it. */
  private replacements = 0;
  private replacing: Promise<void> | undefined;

  constructor(
    private readonly kafka: Pick<Kafka, 'consumer'>,
    private readonly topic: string,
    private readonly groupId: string,
    private readonly options: ReaderOptions,
  ) {}

  start(): Promise<void> {
    this.starting ??= this.doStart().finally(() => (this.startSettled = true));
    return this.starting;
  }

  private doStart(): Promise<void> {
    return this.startConsumer(this.options.seekTo);
  }

  private async startConsumer(seekTo: bigint | undefined): Promise<void> {
    if (this.stopping) return;
    const consumer = this.kafka.consumer({
      // A replacement joins a group of its own: in the old group the lost member stays until
      // its session expires, and a new member would wait that long (30-60 s) to be assigned.
      groupId: this.replacements === 0 ? this.groupId : `${this.groupId}.${this.replacements}`,
      readUncommitted: false,
      allowAutoTopicCreation: false,
      maxWaitTimeInMs: 500,
      retry: {
        retries: 5, // the client's default for consumers, which this object replaces
        // Called for retriable failures only (the client has disconnected the consumer):
        // replace it instead of letting the client rejoin the same group.
        restartOnFailure: async () => {
          this.replacing = this.replace();
          return false;
        },
      },
    });
    this.consumer = consumer;
    consumer.on(consumer.events.END_BATCH_PROCESS, (event) => {
      if (this.failed || this.stopping) return;
      this.next = BigInt(event.payload.lastOffset) + 1n;
      this.options.onProgress(this.next);
    });
    consumer.on(consumer.events.CRASH, (event) => {
      // A retriable failure is being handled by replace(); any other ends this reader.
      if (!this.replacing && !event.payload.restart) this.fail(event.payload.error);
    });
    await consumer.connect();
    await consumer.subscribe({ topics: [this.topic], fromBeginning: true });
    await consumer.run({
      autoCommit: false,
      eachBatchAutoResolve: true,
      eachBatch: async ({ batch, heartbeat }) => {
        if (this.failed || this.stopping || batch.messages.length === 0) return;
        this.inHandler = true;
        // A long batch (a projector writing thousands of documents, a slow database) must not
        // outlast the group session: the coordinator would drop this member and the client
        // would rejoin and fetch again. kafkajs heartbeats only between batches unless told.
        const beat = setInterval(
          () => void heartbeat?.().catch(() => undefined),
          this.options.heartbeatMs ?? HEARTBEAT_MS,
        );
        try {
          await this.options.onMessages(batch.messages);
        } catch (error) {
          // Never let the client retry the handler: a failed delivery ends this reader.
          this.fail(toError(error));
        } finally {
          clearInterval(beat);
          this.inHandler = false;
        }
      },
    });
    // run() resolves also when joining the group failed: the client's crash handler has then
    // replaced this consumer (restartOnFailure) or failed the reader, and there is no group to seek in.
    if (this.consumer !== consumer || this.failed || this.stopping) return;
    if (seekTo !== undefined) {
      consumer.seek({ topic: this.topic, partition: PARTITION, offset: seekTo.toString() });
    }
  }

  /**
   * A new consumer, in a new group, from the record after the last one processed (the
   * assembler skips repeats). Retried while the cluster is unreachable, as the client
   * restarts a crashed consumer for as long as the failure is retriable.
   */
  private async replace(): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      if (this.stopping || this.failed) return;
      this.replacements++;
      try {
        await this.startConsumer(this.next ?? this.options.seekTo);
        this.replacing = undefined;
        return;
      } catch (error) {
        if (!isRetriable(error)) {
          this.replacing = undefined;
          this.fail(toError(error));
          return;
        }
        await this.consumer?.disconnect().catch(() => undefined);
        await new Promise((resolve) => setTimeout(resolve, Math.min(100 * 2 ** attempt, 5_000)));
      }
    }
  }

  private fail(error: Error): void {
    if (this.failed) return;
    this.failed = true;
    this.options.onError(error);
  }

  /** True while onMessages runs. */
  get delivering(): boolean {
    return this.inHandler;
  }

  /** Safe to call from inside onMessages (then it does not wait for the consumer to finish). */
  stop(): Promise<void> {
    if (!this.stopping) {
      this.stopping = (async () => {
        await this.starting?.catch(() => undefined);
        await this.replacing?.catch(() => undefined);
        await this.consumer?.disconnect().catch(() => undefined);
      })();
    }
    return this.inHandler ? Promise.resolve() : this.stopping;
  }

  /**
   * stop(), waited for only once start() has settled: a consumer still connecting or joining
   * its group (under the client's own retries, minutes while the cluster is away) is stopped
   * in the background, so a read ended by a time limit is answered at the limit.
   */
  stopPromptly(): Promise<void> {
    const stopped = this.stop();
    return this.starting !== undefined && !this.startSettled ? Promise.resolve() : stopped;
  }
}

/** What the client would restart a consumer after: retries used up, or a retriable cause. */
function isRetriable(error: unknown): boolean {
  let e = error as { name?: string; retriable?: boolean; cause?: unknown } | undefined;
  if (e?.name === 'KafkaJSNumberOfRetriesExceeded') return true;
  while (e && typeof e === 'object' && e.cause) e = e.cause as typeof e;
  return e?.retriable === true;
}

export function toError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

/** How a consumeRange() ends early: at `signal` (the log closing, or a time limit: AbortSignal.timeout), or after `stallMs` without a fetch. */
export interface RangeLimits {
  signal?: AbortSignal;
  stallMs?: number;
}

/**
 * Consumes [start, end) once (read_committed) with a reader from `makeReader`, then stops it;
 * or stops early as `limits` say, since a reader whose consumer the client keeps losing (the
 * partition's leader unreachable) would otherwise wait for the broker forever. A time limit
 * or a stall is a LogReadUnavailableError: the caller's request is answered 503, not left hanging.
 */
export async function consumeRange(
  makeReader: (options: ReaderOptions) => PartitionReader,
  start: bigint,
  end: bigint,
  onMessages: (messages: KafkaMessage[]) => Promise<void>,
  limits: RangeLimits = {},
): Promise<void> {
  const { signal, stallMs } = limits;
  if (end <= start) return;
  const unreachable = (what: string) =>
    new LogReadUnavailableError(
      `KafkaEventLog: a read of offsets ${start}-${end} ${what} (the partition's leader is unreachable?)`,
    );
  const ended = () =>
    (signal?.reason as Error | undefined)?.name === 'TimeoutError'
      ? unreachable('did not finish in time')
      : new Error('KafkaEventLog: closed during a read');
  if (signal?.aborted) throw ended();
  const done = new Deferred();
  const abort = () => done.reject(ended());
  signal?.addEventListener('abort', abort, { once: true });
  const stall =
    stallMs === undefined
      ? undefined
      : new StallLimit(stallMs, () => done.reject(unreachable(`received nothing for ${stallMs} ms`)));
  /** The read is over: a handler still running when it ended must not set the limit again (a timer holding shutdown). */
  let settled = false;
  const reader = makeReader({
    seekTo: start,
    onMessages: async (messages) => {
      stall?.pause();
      await onMessages(messages);
      if (!settled) stall?.wait();
    },
    onProgress: (next) => {
      stall?.progress();
      if (next >= end) done.resolve();
    },
    onError: (error) => done.reject(error),
  });
  try {
    stall?.wait();
    // The start (connect, subscribe, join the group: under the client's own retries) is under
    // the limits too: raced against `done`, which they reject.
    await Promise.race([reader.start().then(() => done.promise), done.promise]);
  } finally {
    settled = true;
    stall?.pause();
    signal?.removeEventListener('abort', abort);
    await reader.stopPromptly();
  }
}
