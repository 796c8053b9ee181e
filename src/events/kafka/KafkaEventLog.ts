/**
 * KafkaEventLog: the EventLog port on Apache Kafka.
 *
 * Every use of the Kafka client library (kafkajs, which is no longer maintained)
 * is confined to this file, so switching clients later means rewriting this file
 * only. Nothing kafkajs-shaped leaks through the constructor options or the port.
 *
 * Layout. One topic with exactly ONE partition, so the log has a total order. One
 * Kafka message per event: key `<objectType>:<objectId>`, value = the event as
 * JSON, headers `request-id`, `action`, `object-type`, `position`,
 * `schema-version`, plus `batch-last-position` (the position of the last event of
 * the append the event belongs to, so readers rebuild the appended batches
 * exactly, even when one transaction spans several fetches). The log's position
 * lives inside the event and is NOT the Kafka offset: the commit markers (control
 * records) of transactions occupy offsets too.
 *
 * Writing. An idempotent, transactional producer; each append is one Kafka
 * transaction, so a read_committed reader sees all of its events or none. Appends
 * queued while a transaction is in flight are committed together in the next one
 * (group commit, in call order), each keeping its own batch boundary. Large
 * appends are sent in several produce requests inside the transaction (a record
 * batch must stay under the broker's message.max.bytes, 1 MiB by default); one
 * single event larger than that is rejected by the broker.
 *
 * Single writer, fenced. All writers share one transactional id (default
 * 'netledger-writer'). open() registers it with the transaction coordinator
 * (InitProducerId), which bumps the producer epoch: an older writer holding the
 * same id is fenced (its open transaction is aborted, its later transactions fail
 * with PRODUCER_FENCED / INVALID_PRODUCER_EPOCH) before this instance reads the
 * head. So only the most recently opened instance can commit and positions stay
 * dense. Give every replica the SAME transactionalId: two writers with different
 * ids would not fence each other (appends would then be rejected only by the
 * readers' density check, too late).
 *
 * Reading. A consumer with isolation read_committed and a fresh, unique group id
 * per read()/subscribe()/head lookup; autoCommit is off and nothing relies on
 * committed group offsets. It starts at the beginning of the partition and skips
 * events below `from` (and, after a client restart, what it already delivered).
 * Every consumed event is validated against the envelope schema and positions
 * must be dense. Future work: keep a position -> offset index to seek close to
 * `from` instead of scanning from the start.
 *
 * Random reads (readPositions, for the audit side). First a cache of recently used
 * event bodies (bodyCacheBytes, 16 MiB by default, fed by every message this instance
 * consumes, so the tail of the log is usually there). Otherwise the offsets of the
 * wanted positions come from a position → offset table (8 bytes per event) learned from
 * the messages this instance's readers and subscriptions consumed, and each run of
 * nearby offsets is fetched by one short-lived consumer seeked to the run's start: a
 * group join plus a fetch, typically 0.1-0.5 s against a local broker, so an uncached
 * page of object changes costs that per run. Positions no reader of this instance has
 * consumed yet (nothing subscribed from position 1) cost a scan from the partition's
 * start.
 *
 * Offsets. head() comes from the end of the log at open(): the last stable offset
 * (ListOffsets under read_committed), then a short read of the tail, widened while
 * it holds only commit markers or aborted records. `caughtUp` and the end of
 * read() are measured in offsets against the last stable offset at call time.
 *
 * Broker settings that matter: `group.initial.rebalance.delay.ms=0` (otherwise
 * every read()/subscribe() waits ~3 s to join its fresh group) and, on a single
 * broker, `transaction.state.log.replication.factor=1`,
 * `transaction.state.log.min.isr=1`, `offsets.topic.replication.factor=1`.
 * kafkajs 2.2 speaks only old protocol versions: use a Kafka 3.x broker, since
 * Kafka 4.0 removed them (KIP-896).
 */
import { randomUUID } from 'node:crypto';
import {
  Kafka,
  Partitioners,
  logLevel as KafkaLogLevel,
  type Admin,
  type Consumer,
  type IHeaders,
  type KafkaMessage,
  type Message,
  type Producer,
} from 'kafkajs';
import type { ChangeEvent } from '../ChangeEvent.js';
import { EventBodyCache } from './EventBodyCache.js';
import type { EventLog, Subscription } from '../EventLog.js';
import { PositionOffsets } from './PositionOffsets.js';
import { assertValidEvents } from '../validateEvents.js';
import { Deferred } from '../Deferred.js';

export interface KafkaEventLogOptions {
  brokers: string[];
  /** Default 'netledger.changes'. */
  topic?: string;
  /** Default 'netledger'. */
  clientId?: string;
  /** Shared by every writer replica; it is what fences a second writer. Default 'netledger-writer'. */
  transactionalId?: string;
  /** Replication factor used when open() creates the topic. Default 1. */
  replicationFactor?: number;
  /** Client library log level. Default 'warn'. */
  logLevel?: 'nothing' | 'error' | 'warn' | 'info' | 'debug';
  /** Where a subscription's failure after it caught up is reported. Default: console.error. */
  onSubscriptionError?: (error: Error) => void;
  /** Bytes of recently used event bodies kept for readPositions(). Default 16 MiB. */
  bodyCacheBytes?: number;
}

/** The writer lost its transactional id to a newer writer (or the head could not be re-established). */
export class EventLogWriteError extends Error {}

const PARTITION = 0;
/** Upper bound of one produce request inside a transaction (the broker's default limit is 1 MiB per record batch). */
const MAX_REQUEST_BYTES = 512 * 1024;
/** Upper bound of one group-committed transaction. */
const MAX_GROUP_EVENTS = 5_000;
/** How far back from the end open() first looks for the last event (doubles until found). */
const HEAD_WINDOW = 64n;
/** readPositions(): wanted offsets at most this far apart are fetched by one consumer. */
const RUN_GAP_OFFSETS = 256;
/** readPositions(): one consumer fetches at most this many offsets. */
const MAX_RUN_OFFSETS = 4096;

const LOG_LEVELS = {
  nothing: KafkaLogLevel.NOTHING,
  error: KafkaLogLevel.ERROR,
  warn: KafkaLogLevel.WARN,
  info: KafkaLogLevel.INFO,
  debug: KafkaLogLevel.DEBUG,
} as const;

interface PendingAppend {
  events: ChangeEvent[];
  resolve: () => void;
  reject: (error: unknown) => void;
}

export class KafkaEventLog implements EventLog {
  private readonly brokers: string[];
  private readonly topic: string;
  private readonly clientId: string;
  private readonly transactionalId: string;
  private readonly replicationFactor: number;
  private readonly logLevel: KafkaLogLevel;
  private readonly onSubscriptionError: (error: Error) => void;

  private kafka: Kafka | undefined;
  private admin: Admin | undefined;
  private producer: Producer | undefined;
  private opening: Promise<void> | undefined;
  private closed = false;

  private lastPosition = 0;
  /** Set when a transaction failed ambiguously: re-read the head from the log before the next append. */
  private headUnknown = false;
  private fenced: Error | undefined;
  private readonly queue: PendingAppend[] = [];
  /** Cleared synchronously when the drain loop ends, so an append made right after never waits on a finished drain. */
  private draining = false;
  private writing: Promise<void> = Promise.resolve();
  /** Stoppers of the open reads and subscriptions, for close(). */
  private readonly readers = new Set<() => Promise<void>>();
  private readonly offsetsByPosition = new PositionOffsets();
  private readonly bodies: EventBodyCache;
  /** Every event this instance consumes passes here: it teaches readPositions() where events are. */
  private readonly seen = (event: ChangeEvent, message: RawMessage): void => {
    this.offsetsByPosition.record(event.position, Number(message.offset));
    if (message.value) this.bodies.put(event.position, message.value);
  };

  constructor(options: KafkaEventLogOptions) {
    if (!options.brokers?.length) throw new Error('KafkaEventLog: at least one broker is required');
    this.brokers = options.brokers;
    this.topic = options.topic ?? 'netledger.changes';
    this.clientId = options.clientId ?? 'netledger';
    this.transactionalId = options.transactionalId ?? 'netledger-writer';
    this.replicationFactor = options.replicationFactor ?? 1;
    this.logLevel = LOG_LEVELS[options.logLevel ?? 'warn'];
    this.onSubscriptionError =
      options.onSubscriptionError ?? ((error) => console.error(`KafkaEventLog subscription failed: ${error.message}`));
    this.bodies = new EventBodyCache(options.bodyCacheBytes ?? 16 << 20);
  }

  open(): Promise<void> {
    if (this.closed) return Promise.reject(new Error('KafkaEventLog is closed'));
    this.opening ??= this.doOpen().catch(async (error: unknown) => {
      this.opening = undefined;
      await this.disconnectClients();
      throw error;
    });
    return this.opening;
  }

  private async doOpen(): Promise<void> {
    this.kafka = new Kafka({ clientId: this.clientId, brokers: this.brokers, logLevel: this.logLevel });
    this.admin = this.kafka.admin();
    await this.admin.connect();
    await this.ensureTopic();

    this.producer = this.kafka.producer({
      idempotent: true,
      maxInFlightRequests: 1,
      transactionalId: this.transactionalId,
      allowAutoTopicCreation: false,
      createPartitioner: Partitioners.DefaultPartitioner,
    });
    await this.producer.connect();
    // Register the transactional id now (InitProducerId): this fences any older writer
    // and completes (aborts) its unfinished transaction, so the head read below is final.
    // An empty transaction sends nothing to the broker when aborted.
    const init = await this.producer.transaction();
    await init.abort();

    this.lastPosition = await this.findHead();
  }

  private async ensureTopic(): Promise<void> {
    const admin = this.admin!;
    await admin.createTopics({
      waitForLeaders: true,
      topics: [
        {
          topic: this.topic,
          numPartitions: 1,
          replicationFactor: this.replicationFactor,
          configEntries: [
            // The log is the source of truth: never expire it.
            { name: 'cleanup.policy', value: 'delete' },
            { name: 'retention.ms', value: '-1' },
            { name: 'retention.bytes', value: '-1' },
            { name: 'min.insync.replicas', value: String(Math.min(2, this.replicationFactor)) },
          ],
        },
      ],
    }); // resolves false when the topic already exists
    const { topics } = await admin.fetchTopicMetadata({ topics: [this.topic] });
    const partitions = topics.find((t) => t.name === this.topic)?.partitions.length ?? 0;
    if (partitions !== 1) {
      throw new Error(`KafkaEventLog: topic ${this.topic} has ${partitions} partitions; the log needs exactly 1`);
    }
  }

  /** [low, high) of the committed part of the partition; high is the last stable offset (read_committed). */
  private async offsets(): Promise<{ low: bigint; high: bigint }> {
    const partitions = await this.admin!.fetchTopicOffsets(this.topic);
    const p = partitions.find((x) => x.partition === PARTITION);
    if (!p) throw new Error(`KafkaEventLog: topic ${this.topic} has no partition ${PARTITION}`);
    return { low: BigInt(p.low), high: BigInt(p.high) };
  }

  /**
   * The position of the last committed event: read the tail [high - window, high)
   * and widen the window while it holds only commit markers or aborted records.
   */
  private async findHead(): Promise<number> {
    const { low, high } = await this.offsets();
    for (let window = HEAD_WINDOW; ; window *= 2n) {
      const start = high - window > low ? high - window : low;
      if (start >= high) return 0;
      let head = 0;
      await this.consumeRange(start, high, async (messages) => {
        for (const message of messages) {
          if (BigInt(message.offset) >= high) continue;
          head = Math.max(head, decode(message).position);
        }
      });
      if (head > 0 || start === low) return head;
    }
  }

  /** Consume [start, end) once (read_committed) and stop. */
  private async consumeRange(
    start: bigint,
    end: bigint,
    onMessages: (messages: KafkaMessage[]) => Promise<void>,
    purpose = 'head',
  ): Promise<void> {
    let settle!: { resolve: () => void; reject: (e: Error) => void };
    const done = new Promise<void>((resolve, reject) => (settle = { resolve, reject }));
    const reader = new PartitionReader(this.kafka!, this.topic, this.groupId(purpose), {
      seekTo: start,
      onMessages,
      onProgress: (next) => {
        if (next >= end) settle.resolve();
      },
      onError: (error) => settle.reject(error),
    });
    try {
      await reader.start();
      await done;
    } finally {
      await reader.stop();
    }
  }

  head(): number {
    return this.lastPosition;
  }

  append(events: ChangeEvent[]): Promise<void> {
    if (!this.producer || this.closed) return Promise.reject(new Error('KafkaEventLog is not open'));
    try {
      if (events.length === 0) throw new Error('KafkaEventLog: an append needs at least one event');
      assertValidEvents(events);
      for (let i = 1; i < events.length; i++) {
        if (events[i]!.position !== events[0]!.position + i) {
          throw new Error(`KafkaEventLog: positions in a batch must be dense (${events[i - 1]!.position} then ${events[i]!.position})`);
        }
      }
    } catch (error) {
      return Promise.reject(error);
    }
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ events: [...events], resolve, reject });
      if (!this.draining) {
        this.draining = true;
        this.writing = this.drain();
      }
    });
  }

  /** Commit queued appends, several per transaction when they queued up meanwhile, in call order. */
  private async drain(): Promise<void> {
    // The flag must be cleared in the same synchronous step as the loop's last check:
    // a caller resuming from its resolved append may append again right away.
    try {
      while (this.queue.length > 0) {
        const taken: PendingAppend[] = [];
        let count = 0;
        while (this.queue.length > 0 && (taken.length === 0 || count + this.queue[0]!.events.length <= MAX_GROUP_EVENTS)) {
          const next = this.queue.shift()!;
          taken.push(next);
          count += next.events.length;
        }

        if (this.fenced) {
          for (const p of taken) p.reject(this.fenced);
          continue;
        }
        if (this.headUnknown) {
          try {
            this.lastPosition = await this.findHead();
            this.headUnknown = false;
          } catch (error) {
            for (const p of taken) p.reject(error);
            continue;
          }
        }

        // Each append must continue the log exactly; a rejected one does not stop the others.
        const accepted: PendingAppend[] = [];
        let expected = this.lastPosition + 1;
        for (const p of taken) {
          const first = p.events[0]?.position ?? expected;
          if (first !== expected) {
            p.reject(new Error(`KafkaEventLog: batch starts at position ${first}, expected ${expected} (head ${expected - 1})`));
            continue;
          }
          accepted.push(p);
          expected += p.events.length;
        }
        if (accepted.length === 0) continue;

        try {
          await this.commit(accepted.map((p) => p.events));
          this.lastPosition = expected - 1;
          for (const p of accepted) p.resolve();
        } catch (error) {
          // A failed commit may still have been applied (e.g. a lost EndTxn response).
          this.headUnknown = true;
          if (isFencing(error)) {
            this.fenced = new EventLogWriteError(
              `KafkaEventLog: this writer was fenced by another one using transactional id '${this.transactionalId}'`,
            );
          }
          for (const p of accepted) p.reject(this.fenced ?? error);
        }
      }
    } finally {
      this.draining = false;
    }
  }

  /** One Kafka transaction holding every given batch. */
  private async commit(batches: ChangeEvent[][]): Promise<void> {
    const messages: Message[] = [];
    for (const batch of batches) {
      const last = batch.at(-1)?.position;
      for (const event of batch) messages.push(encode(event, last!));
    }
    if (messages.length === 0) return;

    const tx = await this.producer!.transaction();
    try {
      let chunk: Message[] = [];
      let bytes = 0;
      for (const message of messages) {
        const size = (message.value as Buffer).length + 256;
        if (chunk.length > 0 && bytes + size > MAX_REQUEST_BYTES) {
          await tx.send({ topic: this.topic, acks: -1, messages: chunk });
          chunk = [];
          bytes = 0;
        }
        chunk.push(message);
        bytes += size;
      }
      await tx.send({ topic: this.topic, acks: -1, messages: chunk });
      await tx.commit();
    } catch (error) {
      if (tx.isActive()) await tx.abort().catch(() => undefined);
      throw error;
    }
  }

  async *read(from: number): AsyncIterable<ChangeEvent[]> {
    if (!this.kafka || this.closed) throw new Error('KafkaEventLog is not open');
    const { low, high } = await this.offsets();
    if (high <= low) return;

    const channel = new Channel<ChangeEvent[]>();
    const assembler = new BatchAssembler(from, this.seen);
    const reader = new PartitionReader(this.kafka, this.topic, this.groupId('read'), {
      onMessages: async (messages) => {
        for (const batch of assembler.push(messages.filter((m) => BigInt(m.offset) < high))) {
          await channel.put(batch);
        }
      },
      onProgress: (next) => {
        if (next >= high) channel.end();
      },
      onError: (error) => channel.fail(error),
    });
    const stopper = async () => {
      channel.fail(new Error('KafkaEventLog: closed during read()'));
      await reader.stop();
    };
    this.readers.add(stopper);
    try {
      await reader.start();
      for (;;) {
        const batch = await channel.take();
        if (batch === undefined) return;
        yield batch;
      }
    } finally {
      channel.close();
      this.readers.delete(stopper);
      await reader.stop();
    }
  }

  /**
   * Delivers from the beginning of the partition, skipping positions below `from`.
   * If `onBatch` throws (or an event fails validation, or the client gives up),
   * delivery ends: `caughtUp` rejects if still pending, `done` rejects, and a
   * failure after the catch-up is also reported to `onSubscriptionError`.
   */
  subscribe(from: number, onBatch: (events: ChangeEvent[]) => Promise<void>): KafkaSubscription {
    if (!this.kafka || this.closed) throw new Error('KafkaEventLog is not open');
    const kafka = this.kafka;
    const sub = new KafkaSubscription(
      (options) => new PartitionReader(kafka, this.topic, this.groupId('subscribe'), options),
      () => this.offsets(),
      from,
      onBatch,
      (error) => this.onSubscriptionError(error),
      () => this.readers.delete(stopper),
      this.seen,
    );
    const stopper = () => sub.stop();
    this.readers.add(stopper);
    sub.start();
    return sub;
  }

  /** Committed events by position: from the body cache, else fetched by offset (see the class comment). */
  async readPositions(positions: readonly number[]): Promise<ChangeEvent[]> {
    if (!this.kafka || this.closed) throw new Error('KafkaEventLog is not open');
    // Committed: at or below the head known here, or already consumed by a reader of this instance.
    const head = Math.max(this.lastPosition, this.offsetsByPosition.last);
    for (const p of positions) {
      if (!Number.isInteger(p) || p < 1 || p > head) throw new RangeError(`no event at position ${p} (head ${head})`);
    }
    const found = new Map<number, ChangeEvent>();
    const missing: number[] = [];
    for (const p of new Set(positions)) {
      const cached = this.bodies.get(p);
      if (cached) found.set(p, cached);
      else missing.push(p);
    }
    if (missing.length > 0) await this.fetchPositions(missing, found);
    return positions.map((p) => {
      const event = found.get(p);
      if (!event) throw new Error(`KafkaEventLog: position ${p} was not found in the partition`);
      return event;
    });
  }

  private async fetchPositions(missing: number[], found: Map<number, ChangeEvent>): Promise<void> {
    const wanted = new Set(missing);
    const keep = (event: ChangeEvent) => {
      if (wanted.has(event.position)) found.set(event.position, event);
    };
    const located = missing.filter((p) => this.offsetsByPosition.has(p)).sort((a, b) => a - b);
    const offsetOf = (i: number) => this.offsetsByPosition.get(located[i]!);
    let i = 0;
    while (i < located.length) {
      let j = i;
      while (j + 1 < located.length && offsetOf(j + 1) - offsetOf(j) <= RUN_GAP_OFFSETS && offsetOf(j + 1) - offsetOf(i) < MAX_RUN_OFFSETS) j++;
      await this.consumeRange(
        BigInt(offsetOf(i)),
        BigInt(offsetOf(j)) + 1n,
        async (messages) => {
          for (const message of messages) {
            const event = decode(message);
            this.seen(event, message);
            keep(event);
          }
        },
        'positions',
      );
      i = j + 1;
    }
    const unlocated = missing.filter((p) => !found.has(p));
    if (unlocated.length === 0) return;
    // Not consumed by any reader of this instance yet: scan (read() starts at the partition's start).
    const last = Math.max(...unlocated);
    for await (const batch of this.read(Math.min(...unlocated))) {
      for (const event of batch) keep(event);
      if (batch[batch.length - 1]!.position >= last) break;
    }
  }

  /** Waits for queued and in-flight appends, stops reads and subscriptions, disconnects. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.opening?.catch(() => undefined);
    while (this.draining) await this.writing;
    await Promise.allSettled([...this.readers].map((stop) => stop()));
    this.readers.clear();
    await this.disconnectClients();
  }

  private async disconnectClients(): Promise<void> {
    await Promise.allSettled([this.producer?.disconnect(), this.admin?.disconnect()]);
    this.producer = undefined;
    this.admin = undefined;
    this.kafka = undefined;
  }

  private groupId(purpose: string): string {
    return `${this.clientId}.${purpose}.${randomUUID()}`;
  }
}

// ---------------------------------------------------------------------------
// Message encoding

function encode(event: ChangeEvent, batchLastPosition: number): Message {
  return {
    partition: PARTITION,
    key: `${event.objectType}:${event.objectId}`,
    value: Buffer.from(JSON.stringify(event)),
    headers: {
      'request-id': event.requestId,
      action: event.action,
      'object-type': event.objectType,
      position: String(event.position),
      'schema-version': String(event.v),
      'batch-last-position': String(batchLastPosition),
    },
  };
}

/** The part of a consumed message the reader needs (kafkajs' KafkaMessage fits it). */
interface RawMessage {
  offset: string;
  value: Buffer | null;
  headers?: IHeaders;
}

function decode(message: RawMessage): ChangeEvent {
  if (!message.value) throw new Error(`KafkaEventLog: empty message at offset ${message.offset}`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(message.value.toString('utf8'));
  } catch {
    throw new Error(`KafkaEventLog: message at offset ${message.offset} is not JSON`);
  }
  const events = [parsed];
  assertValidEvents(events);
  return events[0]!;
}

function header(headers: IHeaders | undefined, name: string): string | undefined {
  const value = headers?.[name];
  const first = Array.isArray(value) ? value[0] : value;
  return first === undefined ? undefined : first.toString();
}

function isFencing(error: unknown): boolean {
  for (let e: unknown = error; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    // INVALID_PRODUCER_EPOCH (47) is what brokers answer the old request versions kafkajs
    // speaks; PRODUCER_FENCED (90) the newer ones. (47 also follows a transaction the broker
    // timed out; this writer then stops as well, and a restart takes over.)
    const { type, code } = e as { type?: unknown; code?: unknown };
    if (type === 'INVALID_PRODUCER_EPOCH' || type === 'PRODUCER_FENCED' || code === 47 || code === 90) return true;
  }
  return false;
}

function toError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

/**
 * Rebuilds the appended batches from the committed messages in offset order.
 * A batch is complete at its `batch-last-position`; messages without that header
 * are grouped by request id within one fetch. Positions must be dense; positions
 * already handed over are skipped (the client may re-read after a restart).
 */
class BatchAssembler {
  private done: number | undefined;
  private pending: ChangeEvent[] = [];
  private pendingEnd: number | undefined;

  constructor(
    private readonly from: number,
    private readonly onEvent?: (event: ChangeEvent, message: RawMessage) => void,
  ) {}

  push(messages: readonly RawMessage[]): ChangeEvent[][] {
    const out: ChangeEvent[][] = [];
    for (const message of messages) {
      const event = decode(message);
      this.onEvent?.(event, message);
      const p = event.position;
      if (this.done !== undefined && p <= this.done) continue;
      // Re-reading part of the pending batch (the consumer restarted): drop what comes again.
      while (this.pending.length > 0 && this.pending.at(-1)!.position >= p) this.pending.pop();
      const previous = this.pending.at(-1)?.position ?? this.done;
      if (previous !== undefined && p !== previous + 1) {
        throw new Error(`KafkaEventLog: position ${p} follows ${previous} (offset ${message.offset}); the log is not dense`);
      }
      const first = this.pending[0];
      if (first && event.requestId !== first.requestId) {
        if (this.pendingEnd !== undefined) {
          throw new Error(`KafkaEventLog: batch ending at ${this.pendingEnd} is incomplete at offset ${message.offset}`);
        }
        this.flush(out);
      }
      if (this.pending.length === 0) {
        const end = Number(header(message.headers, 'batch-last-position'));
        this.pendingEnd = Number.isInteger(end) && end >= p ? end : undefined;
      }
      this.pending.push(event);
      if (this.pendingEnd !== undefined && p >= this.pendingEnd) this.flush(out);
    }
    if (this.pendingEnd === undefined) this.flush(out);
    return out;
  }

  private flush(out: ChangeEvent[][]): void {
    if (this.pending.length === 0) return;
    this.done = this.pending.at(-1)!.position;
    const batch = this.pending.filter((e) => e.position >= this.from);
    this.pending = [];
    this.pendingEnd = undefined;
    if (batch.length > 0) out.push(batch);
  }
}

// ---------------------------------------------------------------------------
// A subscription: one reader delivering assembled batches to onBatch.

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

// ---------------------------------------------------------------------------
// One read_committed consumer of the partition, in a fresh group of its own.

interface ReaderOptions {
  /** Start here instead of at the beginning of the partition. */
  seekTo?: bigint;
  /** The messages of one fetch (data only: commit markers and aborted records are filtered out). */
  onMessages: (messages: KafkaMessage[]) => Promise<void>;
  /** The offset after the last record (including commit markers) processed so far. */
  onProgress: (nextOffset: bigint) => void;
  onError: (error: Error) => void;
}

class PartitionReader {
  private consumer: Consumer | undefined;
  private starting: Promise<void> | undefined;
  private stopping: Promise<void> | undefined;
  private failed = false;
  private inHandler = false;

  constructor(
    private readonly kafka: Kafka,
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
      eachBatch: async ({ batch }) => {
        if (this.failed || this.stopping || batch.messages.length === 0) return;
        this.inHandler = true;
        try {
          await this.options.onMessages(batch.messages);
        } catch (error) {
          // Never let the client retry the handler: a failed delivery ends this reader.
          this.fail(toError(error));
        } finally {
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

// ---------------------------------------------------------------------------
// A one-slot hand-over between the consumer callback and an async iterator.

class Channel<T> {
  private readonly items: { value: T; taken: () => void }[] = [];
  private ended = false;
  private closed = false;
  private error: Error | undefined;
  private wake: (() => void) | undefined;

  /** Resolves once the item is taken (or the channel is closed): back-pressure on the consumer. */
  put(value: T): Promise<void> {
    if (this.closed) return Promise.resolve();
    return new Promise<void>((taken) => {
      this.items.push({ value, taken });
      this.notify();
    });
  }

  end(): void {
    this.ended = true;
    this.notify();
  }

  fail(error: Error): void {
    this.error ??= error;
    this.notify();
  }

  /** The next item, or undefined at the end. */
  async take(): Promise<T | undefined> {
    for (;;) {
      const item = this.items.shift();
      if (item) {
        item.taken();
        return item.value;
      }
      if (this.error) throw this.error;
      if (this.ended || this.closed) return undefined;
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }

  close(): void {
    this.closed = true;
    for (const item of this.items.splice(0)) item.taken();
    this.notify();
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }
}
