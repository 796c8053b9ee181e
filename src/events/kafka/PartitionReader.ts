import type { Consumer, Kafka, KafkaMessage } from 'kafkajs';
import { Deferred } from '../Deferred.js';
import { PARTITION } from './messages.js';

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
 * beginning of the partition (or at `seekTo`).
 */
export class PartitionReader {
  private consumer: Consumer | undefined;
  private starting: Promise<void> | undefined;
  private stopping: Promise<void> | undefined;
  private failed = false;
  private inHandler = false;

  constructor(
    private readonly kafka: Pick<Kafka, 'consumer'>,
    private readonly topic: string,
    private readonly groupId: string,
    private readonly options: ReaderOptions,
  ) {}

  start(): Promise<void> {
    this.starting ??= this.doStart();
    return this.starting;
  }

  private async doStart(): Promise<void> {
    if (this.stopping) return;
    const consumer = this.kafka.consumer({
      groupId: this.groupId,
      readUncommitted: false,
      allowAutoTopicCreation: false,
      maxWaitTimeInMs: 500,
    });
    this.consumer = consumer;
    consumer.on(consumer.events.END_BATCH_PROCESS, (event) => {
      if (!this.failed && !this.stopping) this.options.onProgress(BigInt(event.payload.lastOffset) + 1n);
    });
    consumer.on(consumer.events.CRASH, (event) => {
      // Retriable errors restart the consumer from the beginning (no committed offsets);
      // the assembler skips what was already delivered.
      if (!event.payload.restart) this.fail(event.payload.error);
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
        const beat = setInterval(() => void heartbeat?.().catch(() => undefined), this.options.heartbeatMs ?? HEARTBEAT_MS);
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
    if (this.options.seekTo !== undefined) {
      consumer.seek({ topic: this.topic, partition: PARTITION, offset: this.options.seekTo.toString() });
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
        await this.consumer?.disconnect().catch(() => undefined);
      })();
    }
    return this.inHandler ? Promise.resolve() : this.stopping;
  }
}

export function toError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

/** Consumes [start, end) once (read_committed) with a reader from `makeReader`, then stops it; or stops early at `signal`. */
export async function consumeRange(
  makeReader: (options: ReaderOptions) => PartitionReader,
  start: bigint,
  end: bigint,
  onMessages: (messages: KafkaMessage[]) => Promise<void>,
  signal?: AbortSignal,
): Promise<void> {
  if (end <= start) return;
  const closed = () => new Error('KafkaEventLog: closed during a read');
  if (signal?.aborted) throw closed();
  const done = new Deferred();
  const abort = () => done.reject(closed());
  signal?.addEventListener('abort', abort, { once: true });
  const reader = makeReader({
    seekTo: start,
    onMessages,
    onProgress: (next) => {
      if (next >= end) done.resolve();
    },
    onError: (error) => done.reject(error),
  });
  try {
    await reader.start();
    await done.promise;
  } finally {
    signal?.removeEventListener('abort', abort);
    await reader.stop();
  }
}
