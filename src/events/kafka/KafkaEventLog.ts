/**
 * KafkaEventLog: the EventLog port on Apache Kafka.
 *
 * Every use of the Kafka client library (kafkajs, which is no longer maintained)
 * is confined to this folder, so switching clients later means rewriting it only
 * (docs/kafka-clients.md). Nothing kafkajs-shaped leaks through the constructor options
 * or the port, except the `client` factory tests use to hand in a fake. Its parts:
 * messages.ts (one event as one message), TransactionalWriter.ts (appends),
 * PartitionReader.ts (one consumer), BatchAssembler.ts (messages back into batches),
 * KafkaSubscription.ts, topicAdmin.ts and findHead.ts (the topic, its offsets and
 * the head), PositionReads.ts (random reads by position).
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
 * appends are sent in several produce requests inside the transaction (each request's
 * messages form one record batch, which must stay under the topic's max.message.bytes,
 * 1 MiB by default). An event
 * larger than the topic's max.message.bytes (read at open) would fail its whole
 * transaction: such an append is refused before anything is sent (EventTooLargeError),
 * and `maxEventBytes()` lets the writer refuse the request before deciding on it.
 *
 * Failures. A failed transaction is settled, never left hanging (TransactionalWriter):
 * the producer is replaced (kafkajs leaves one whose commit failed unusable), the new
 * one registers the transactional id (which completes or aborts the failed transaction
 * on the broker), and the head is read again. Appends whose last event is in the log
 * resolve; the others are rejected and `unavailable()` says why until `recover()`, as
 * the file log does on a full disk, so the writer resets its decisions and retries.
 * While the cluster cannot be reached the outcome is waited for (outcomeWaitMs, 30 s);
 * after that the appends are rejected as AppendOutcomeUnknownError, never as not
 * committed, since they may be.
 *
 * Single writer, fenced. All writers share one transactional id (default
 * 'netledger-writer'). open() registers it with the transaction coordinator
 * (InitProducerId), which bumps the producer epoch: an older writer holding the
 * same id is fenced (its open transaction is aborted, its later transactions fail
 * with PRODUCER_FENCED / INVALID_PRODUCER_EPOCH) before this instance reads the
 * head. So only the most recently opened instance can commit and positions stay
 * dense. Give every replica the SAME transactionalId: two writers with different
 * ids would not fence each other (appends would then be rejected only by the
 * readers' density check, too late). Fencing is final: appends are refused with
 * EventLogWriteError and `unavailable()` stays null, so the writer stops for good. The
 * transaction refused as fenced is looked for at the positions it claimed (its commit may
 * have gone through with the answer lost, and the newer writer may have appended on top):
 * there, its appends resolve; the log unreadable in time, they are rejected as
 * AppendOutcomeUnknownError.
 * kafkajs reports it as INVALID_PRODUCER_EPOCH, which the broker also answers after it
 * aborted a transaction open longer than the transaction timeout; the writer tells the
 * two apart by how long the failed transaction was open (transactionFailure.ts). Both can
 * be true at once (a writer took over while the transaction hung), so before a writer
 * with a lease registers the id again after any failure, it asks the lease whether a
 * newer writer is there; if so it is fenced, and while the lease cannot be asked it
 * registers nothing (TransactionalWriter.refuseIfSupplanted()).
 *
 * Reading. A consumer with isolation read_committed and a fresh, unique group id
 * per read()/subscribe()/head lookup; autoCommit is off and nothing relies on
 * committed group offsets. Every consumed event is validated against the envelope
 * schema and positions must be dense. read() starts at `from` when a reader of this
 * instance has located it (see Random reads), else at the beginning of the partition,
 * skipping events below `from`.
 *
 * Resuming. Positions are not offsets, so a subscription cannot seek to `from` by
 * itself. Each delivered batch comes with a cursor (`kafka:<offset after the batch>`,
 * kafkaCursor.ts); subscribers keep it beside the position they reached (the read
 * models, the audit index snapshot, the webhook state) and hand it back to subscribe().
 * A subscription from just after an event this instance has located (the head found at
 * open: the auth cache follows from there) needs none. The seek is checked: the first
 * event read there must be the one after the cursor's position (or earlier), and if the
 * end comes first (only commit markers there), the log must hold nothing after that
 * position; a cursor that leads past it or beyond the topic's end (a recreated topic) is reported and the
 * subscription reads from the beginning, so a bad cursor costs a scan, never an event.
 * What a seeking subscription skipped is located once (position headers only, no
 * decoding), when a random read first asks for a position there, so random reads of it
 * still fetch by offset; a restart from snapshots reads no more than the tails until then.
 *
 * Random reads (readPositions, for the audit side). First a cache of recently used
 * event bodies (bodyCacheBytes, 16 MiB by default, fed by every message this instance
 * consumes, so the tail of the log is usually there). Otherwise the offsets of the
 * wanted positions come from a position → offset table (8 bytes per event) learned from
 * the messages this instance's readers and subscriptions consumed, and each run of
 * nearby offsets is fetched by one short-lived consumer seeked to the run's start: a
 * group join plus a fetch, typically 0.1-0.5 s against a local broker, so an uncached
 * page of object changes costs that per run. A position handed with its cursor (a snapshot's
 * check at start-up, `near`) is read at that offset. Other positions no reader of this instance
 * has consumed yet start (or wait for) the read locating what the subscriptions skipped, or
 * cost a scan from the partition's start when none skipped; `messagesFetched()` counts what
 * each kind of read fetched (a restart from snapshots fetches the tails, not the topic). Such
 * reads, and read(), fail with LogReadUnavailableError (the API answers 503 with
 * Retry-After) once they have received nothing from the broker for readStallTimeoutMs (10 s):
 * while the partition's leader is unreachable a request is answered, not left hanging.
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
 * Brokers: the contract and fault suites pass against Kafka 3.9 and 4.x (4.0.0, 4.4.0): the
 * protocol versions kafkajs 2.2 sends are above the ones Kafka 4.0 removed (KIP-896).
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';

import {
  type Admin,
  Kafka,
  type KafkaConfig,
  type KafkaMessage,
  logLevel as KafkaLogLevel,
  Partitioners,
  type Producer,
} from 'kafkajs';

import type { ChangeEvent } from '../ChangeEvent.js';
import type { BatchHandler, EventLog, ResumePoint } from '../EventLog.js';
import { LogReadUnavailableError } from '../LogReadUnavailableError.js';
import { BatchAssembler } from './BatchAssembler.js';
import { boundedSignal } from './boundedSignal.js';
import { Channel } from './Channel.js';
import { clientSettings, type KafkaSecurity, producerRetry, TRANSACTION_TIMEOUT_MS } from './clientSettings.js';
import { findLastEvent } from './findHead.js';
import { offsetOfCursor } from './kafkaCursor.js';
import { KafkaSubscription, type SeekPoint } from './KafkaSubscription.js';
import { consumeRange, PartitionReader, type RangeLimits, type ReaderOptions, toError } from './PartitionReader.js';
import { PositionReads } from './PositionReads.js';
import { StallLimit } from './StallLimit.js';
import { ensureTopic, type PartitionOffsets, partitionOffsets } from './topicAdmin.js';
import { EventLogWriteError, TransactionalWriter } from './TransactionalWriter.js';
import { WriterLease } from './WriterLease.js';

export type { KafkaSecurity } from './clientSettings.js';
export { EventLogUnavailableError, EventLogWriteError } from './TransactionalWriter.js';
export { WriterLeaseHeldError } from './WriterLease.js';

/** The parts of the client library's Kafka object the adapter uses (tests hand in a fake). */
export type KafkaClient = Pick<Kafka, 'admin' | 'producer' | 'consumer'>;
export { KafkaSubscription } from './KafkaSubscription.js';

export interface KafkaEventLogOptions {
  brokers: string[];
  /** Default 'netledger.changes'. */
  topic?: string;
  /** Default 'netledger'. */
  clientId?: string;
  /** Shared by every writer replica; it is what fences a second writer. Default 'netledger-writer'. */
  transactionalId?: string;
  /** Replication factor used when open() creates the topic. Default 3. */
  replicationFactor?: number;
  /** min.insync.replicas set when open() creates the topic. Default: 2, or the replication factor if smaller. */
  minInsyncReplicas?: number;
  /** TLS and SASL for the broker connections. */
  security?: KafkaSecurity;
  /**
   * Builds the client (default: the library's Kafka). A test seam: fault-injection tests
   * hand in a fake that raises the library's errors at chosen moments.
   */
  client?: (config: KafkaConfig) => KafkaClient;
  /** The clock transactions and a follower's head confirmations are timed with (default Date.now). */
  now?: () => number;
  /**
   * How long the appends of a failed transaction wait for its outcome while the cluster
   * cannot be reached, before they are rejected as AppendOutcomeUnknownError. Default 30,000 ms.
   */
  outcomeWaitMs?: number;
  /**
   * Take the writer lease before registering the transactional id (see WriterLease.ts):
   * refuse to start while another writer is live, unless `takeover`. Read-only users
   * (tools reading the log under an id of their own) leave it out.
   */
  writerLease?: { takeover: boolean };
  /** Client library log level. Default 'warn'. */
  logLevel?: 'nothing' | 'error' | 'warn' | 'info' | 'debug';
  /** Where a subscription's failure after it caught up is reported. Default: console.error. */
  onSubscriptionError?: (error: Error) => void;
  /** Bytes of recently used event bodies kept for readPositions(). Default 16 MiB. */
  bodyCacheBytes?: number;
  /** How often a reader busy with one batch heartbeats to its group (ms). Default 3,000. */
  heartbeatMs?: number;
  /**
   * How long one look-up of the last event (at open, after a failed transaction, a
   * follower's refresh) may take before it fails (ms). Default 10,000.
   */
  headReadTimeoutMs?: number;
  /**
   * How long a read of past events (readPositions(), read(), locating what a seeking
   * subscription skipped) may wait for the broker without receiving anything before it fails
   * with LogReadUnavailableError (ms; the API answers 503 with Retry-After). Time the caller
   * spends with what it received does not count. Default 10,000.
   */
  readStallTimeoutMs?: number;
  /**
   * Follow the log without writing it (a read replica): no producer and no transactional
   * id are registered (nothing is fenced, nothing is left at the coordinator), append() is
   * refused, and head() is the last committed event, looked up at open and again every
   * `headRefreshMs` (default 5,000) when the partition's end has moved.
   * `headConfirmedAgoMs()` says how long ago a refresh last succeeded.
   */
  follower?: { headRefreshMs?: number };
}

const LOG_LEVELS = {
  nothing: KafkaLogLevel.NOTHING,
  error: KafkaLogLevel.ERROR,
  warn: KafkaLogLevel.WARN,
  info: KafkaLogLevel.INFO,
  debug: KafkaLogLevel.DEBUG,
} as const;

/** An append waits this long at most for its commit to become readable (untilReadable()). */
const READABLE_WAIT_MS = 5_000;
/** Pauses between looks at the partition's end meanwhile: doubling from the first to the last. */
const READABLE_POLL_FIRST_MS = 2;
const READABLE_POLL_MAX_MS = 100;

export class KafkaEventLog implements EventLog {
  private readonly brokers: string[];
  private readonly topic: string;
  private readonly clientId: string;
  private readonly transactionalId: string;
  private readonly replicationFactor: number;
  private readonly minInsyncReplicas: number;
  private readonly security: KafkaSecurity;
  private readonly makeClient: (config: KafkaConfig) => KafkaClient;
  private readonly now: () => number;
  private readonly outcomeWaitMs: number | undefined;
  private readonly leaseWanted: { takeover: boolean } | undefined;
  private lease: WriterLease | undefined;
  private readonly logLevel: KafkaLogLevel;
  private readonly onSubscriptionError: (error: Error) => void;
  private readonly heartbeatMs: number | undefined;
  private readonly headReadTimeoutMs: number;
  private readonly readStallTimeoutMs: number;

  private kafka: KafkaClient | undefined;
  private admin: Admin | undefined;
  /** Set once open() has fenced older writers and read the head; kept after close() for head(). */
  private writer: TransactionalWriter | undefined;
  private readonly follower: { headRefreshMs: number } | undefined;
  /** A follower's last committed position as last looked up, and the partition end it was looked up at. */
  private followedHead = 0;
  private followedEnd = -1n;
  /** When (by `now`) a refresh last learned the partition's end and the head there: the head was true then. */
  private headConfirmedAt: number | undefined;
  /** When the end answered the head look-up under way, if the refresh before it succeeded. */
  private lookupAnsweredAt: number | undefined;
  private lastRefreshFailed = false;
  private headRefresh: NodeJS.Timeout | undefined;
  /** The follower's head look-up under way: a tick while it runs starts none (one may take up to headReadTimeoutMs). */
  private refreshing: Promise<void> | undefined;
  private opening: Promise<void> | undefined;
  private closed = false;
  /** Ends the short-lived reads (head lookups, random reads, locating) at close(). */
  private readonly closing = new AbortController();

  /** Stoppers of the open reads and subscriptions, for close(). */
  private readonly readers = new Set<() => Promise<void>>();
  private readonly positionReads: PositionReads;
  /** The read that locates the events a seeking subscription skipped, once a random read needs them. */
  private locating: Promise<void> | undefined;
  /** Where the first seeking subscription started: the events before are located on first need. */
  private skippedBefore: bigint | undefined;
  /** Messages fetched by purpose (messagesFetched()). */
  private readonly fetched: Record<string, number> = {};

  constructor(options: KafkaEventLogOptions) {
    if (!options.brokers?.length) throw new Error('KafkaEventLog: at least one broker is required');
    this.brokers = options.brokers;
    this.topic = options.topic ?? 'netledger.changes';
    this.clientId = options.clientId ?? 'netledger';
    this.transactionalId = options.transactionalId ?? 'netledger-writer';
    this.replicationFactor = options.replicationFactor ?? 3;
    this.minInsyncReplicas = options.minInsyncReplicas ?? Math.min(2, this.replicationFactor);
    this.security = options.security ?? {};
    this.makeClient = options.client ?? ((config) => new Kafka(config));
    this.now = options.now ?? Date.now;
    this.outcomeWaitMs = options.outcomeWaitMs;
    this.leaseWanted = options.writerLease;
    this.logLevel = LOG_LEVELS[options.logLevel ?? 'warn'];
    this.heartbeatMs = options.heartbeatMs;
    this.headReadTimeoutMs = options.headReadTimeoutMs ?? 10_000;
    this.readStallTimeoutMs = options.readStallTimeoutMs ?? 10_000;
    this.follower = options.follower ? { headRefreshMs: options.follower.headRefreshMs ?? 5_000 } : undefined;
    if (this.follower && options.writerLease) throw new Error('KafkaEventLog: a follower takes no writer lease');
    this.onSubscriptionError =
      options.onSubscriptionError ?? ((error) => console.error(`KafkaEventLog subscription failed: ${error.message}`));
    this.positionReads = new PositionReads(options.bodyCacheBytes ?? 16 << 20, {
      consumeRange: (start, end, onMessages) =>
        this.consumeRange(start, end, onMessages, 'positions', { stallMs: this.readStallTimeoutMs }),
      read: (from) => this.read(from),
      located: async () => {
        if (this.skippedBefore !== undefined) this.locateEarlierEvents(this.skippedBefore);
        await this.locating;
      },
    });
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
    this.kafka = this.makeClient(
      clientSettings({
        clientId: this.clientId,
        brokers: this.brokers,
        logLevel: this.logLevel,
        security: this.security,
      }),
    );
    this.admin = this.kafka.admin();
    await this.admin.connect();
    const topic = await ensureTopic(this.admin, this.topic, {
      replicationFactor: this.replicationFactor,
      minInsyncReplicas: this.minInsyncReplicas,
      create: !this.follower,
    });
    if (this.follower) {
      await this.refreshFollowedHead();
      this.headRefresh = setInterval(() => {
        this.refreshing ??= this.refreshFollowedHead()
          .catch(() => undefined)
          .finally(() => (this.refreshing = undefined));
      }, this.follower.headRefreshMs);
      this.headRefresh.unref();
      return;
    }
    if (this.leaseWanted) {
      this.lease = await WriterLease.acquire({
        admin: this.admin,
        client: (clientId) =>
          this.makeClient(
            clientSettings({ clientId, brokers: this.brokers, logLevel: this.logLevel, security: this.security }),
          ),
        clientId: this.clientId,
        groupId: `${this.transactionalId}.lease.${this.topic}`,
        topic: this.topic,
        takeover: this.leaseWanted.takeover,
      });
    }

    const lease = this.lease;
    this.writer = await TransactionalWriter.open({
      openProducer: () => this.openProducer(),
      topic: this.topic,
      transactionalId: this.transactionalId,
      findLast: () => this.findLast(() => this.offsets()),
      readClaimed: (positions) => this.committedAt(positions),
      maxMessageBytes: topic.maxMessageBytes,
      transactionTimeoutMs: TRANSACTION_TIMEOUT_MS,
      outcomeWaitMs: this.outcomeWaitMs,
      supplanted: lease && (() => lease.supplanted()),
      untilReadable: (offset) => this.untilReadable(offset),
      now: this.now,
    });
  }

  /**
   * Polls the partition's last stable offset until it passes `offset`: the commit markers are
   * written (usually within milliseconds of the commit's answer). Without it a read or a
   * subscription's catch-up started right after an append resolved could miss it. Gives up
   * after READABLE_WAIT_MS or when the end cannot be read: the append did commit.
   */
  private async untilReadable(offset: bigint): Promise<void> {
    const started = performance.now();
    for (let pause = READABLE_POLL_FIRST_MS; !this.closed; pause = Math.min(pause * 2, READABLE_POLL_MAX_MS)) {
      try {
        if ((await this.offsets()).high > offset) return;
      } catch (error) {
        const reason = (error as Error).message;
        console.warn(
          `KafkaEventLog: could not tell whether the commit at offset ${offset} is readable yet (${reason})`,
        );
        return;
      }
      if (performance.now() - started > READABLE_WAIT_MS) {
        console.warn(`KafkaEventLog: the commit at offset ${offset} is not readable after ${READABLE_WAIT_MS} ms`);
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  }

  /**
   * A producer with the transactional id registered (InitProducerId): this fences any older
   * writer and completes or aborts the id's unfinished transaction, so a head read after it
   * is final. An empty transaction sends nothing to the broker when aborted.
   */
  private async openProducer(): Promise<Producer> {
    const producer = this.kafka!.producer({
      idempotent: true,
      maxInFlightRequests: 1,
      transactionalId: this.transactionalId,
      transactionTimeout: TRANSACTION_TIMEOUT_MS,
      allowAutoTopicCreation: false,
      createPartitioner: Partitioners.DefaultPartitioner,
      retry: producerRetry,
    });
    try {
      await producer.connect();
      const init = await producer.transaction();
      await init.abort();
      return producer;
    } catch (error) {
      await producer.disconnect().catch(() => undefined);
      throw error;
    }
  }

  /**
   * The last committed event; it is located, so a subscription from the head starts right after it.
   * Bounded in time: the writer settles a failed transaction with it, and appends wait for that.
   */
  private findLast(offsets: () => Promise<PartitionOffsets>): Promise<ChangeEvent | null> {
    // Not AbortSignal.any() with the long-lived closing signal: each would stay attached to it (a leak).
    const { signal, dispose } = boundedSignal(this.closing.signal, this.headReadTimeoutMs);
    return findLastEvent(
      offsets,
      (start, end, onMessages) => this.consumeRange(start, end, onMessages, 'head', { signal }),
      this.positionReads.seen,
    ).finally(dispose);
  }

  /**
   * The committed events at `positions`, or null when the log ends before the last of them:
   * how a writer refused as fenced learns whether its transaction went through. Bounded in
   * time like the head look-up and the random reads it is made of.
   */
  private async committedAt(positions: number[]): Promise<ChangeEvent[] | null> {
    const head = (await this.findLast(() => this.offsets()))?.position ?? 0;
    if (positions.some((p) => p > head)) return null;
    return this.positionReads.read(positions, head);
  }

  private offsets(): Promise<PartitionOffsets> {
    return partitionOffsets(this.admin!, this.topic);
  }

  /** A consumer of the partition in a fresh group of its own, named for what it does. */
  private reader(purpose: string, options: ReaderOptions): PartitionReader {
    const { onMessages } = options;
    return new PartitionReader(this.kafka!, this.topic, `${this.clientId}.${purpose}.${randomUUID()}`, {
      heartbeatMs: this.heartbeatMs,
      ...options,
      onMessages: (messages) => {
        this.fetched[purpose] = (this.fetched[purpose] ?? 0) + messages.length;
        return onMessages(messages);
      },
    });
  }

  /** consumeRange() by a reader named for `purpose`; it ends at close() unless `limits` give another signal. */
  private consumeRange(
    start: bigint,
    end: bigint,
    onMessages: (messages: KafkaMessage[]) => Promise<void>,
    purpose: string,
    limits: RangeLimits = {},
  ): Promise<void> {
    return consumeRange((options) => this.reader(purpose, options), start, end, onMessages, {
      signal: this.closing.signal,
      ...limits,
    });
  }

  head(): number {
    if (this.follower) return Math.max(this.followedHead, this.positionReads.lastSeen);
    return this.writer?.head ?? 0;
  }

  /**
   * A follower's head: the last committed event, looked up again only when the partition's
   * end has moved since (a lookup costs a short-lived consumer). It never goes back.
   */
  private async refreshFollowedHead(): Promise<void> {
    if (!this.admin || this.closed) return;
    let offsets: PartitionOffsets;
    try {
      offsets = await this.offsets();
    } catch (error) {
      this.lastRefreshFailed = true;
      throw error;
    }
    // The head is confirmed as of the end's answer, whenever the look-up behind it ends.
    const answeredAt = this.now();
    if (offsets.high !== this.followedEnd) {
      // A look-up takes seconds (a fresh consumer joins its group), and the next refresh
      // waits for it: counted from the end's answer while it runs, unless the last one
      // failed (a cluster that answers offsets but cannot be read is not confirming anything).
      this.lookupAnsweredAt = this.lastRefreshFailed ? undefined : answeredAt;
      try {
        const last = await this.findLast(async () => offsets);
        this.followedEnd = offsets.high;
        this.followedHead = Math.max(this.followedHead, last?.position ?? 0);
      } catch (error) {
        this.lastRefreshFailed = true;
        throw error;
      } finally {
        this.lookupAnsweredAt = undefined;
      }
    }
    // An end that did not move confirms the head as much as a new one.
    this.headConfirmedAt = answeredAt;
    this.lastRefreshFailed = false;
  }

  /**
   * A follower: how long since a refresh last succeeded, or since the end answered a look-up
   * still running after a successful one (its head may be that stale; while the cluster
   * cannot be reached this grows, and the head stays). A writer makes its head: 0.
   */
  headConfirmedAgoMs(): number {
    if (!this.follower || this.headConfirmedAt === undefined) return 0;
    const confirmed = Math.max(this.headConfirmedAt, this.lookupAnsweredAt ?? 0);
    return Math.max(0, this.now() - confirmed);
  }

  append(events: ChangeEvent[]): Promise<void> {
    if (this.follower) return Promise.reject(new Error('KafkaEventLog: a follower does not write the log'));
    if (!this.writer || this.closed) return Promise.reject(new Error('KafkaEventLog is not open'));
    return this.writer.append(events).catch((error: unknown) => {
      // Fenced for good: stop holding the lease, so the writer that took over can restart freely.
      if (error instanceof EventLogWriteError) void this.lease?.release();
      throw error;
    });
  }

  /** The largest event (its JSON, in bytes) the topic takes, key and headers set aside; known once open. */
  maxEventBytes(): number | null {
    return this.writer?.maxEventBytes ?? null;
  }

  /** Why appends are refused until recover() (a transaction failed and did not commit), or null. */
  unavailable(): Error | null {
    return this.closed ? null : (this.writer?.unavailable() ?? null);
  }

  /** Registers the transactional id again if the failure cost the producer, re-reads the head, accepts appends again. */
  async recover(): Promise<void> {
    if (!this.writer || this.closed) throw new Error('KafkaEventLog is not open');
    await this.writer.recover().catch((error: unknown) => {
      // Fenced (a newer writer was found in the lease): release it as append() does.
      if (error instanceof EventLogWriteError) void this.lease?.release();
      throw error;
    });
  }

  async *read(from: number): AsyncIterable<ChangeEvent[]> {
    if (!this.kafka || this.closed) throw new Error('KafkaEventLog is not open');
    const { low, high } = await this.offsets();
    if (high <= low) return;

    const channel = new Channel<ChangeEvent[]>();
    // Only while this generator waits for the next batch: a caller slow with one (a replay) is not a stall.
    const stall = new StallLimit(this.readStallTimeoutMs, () =>
      channel.fail(
        new LogReadUnavailableError(
          `KafkaEventLog: a read from position ${from} received nothing for ${this.readStallTimeoutMs} ms (the partition's leader is unreachable?)`,
        ),
      ),
    );
    const assembler = new BatchAssembler(from, this.positionReads.seen);
    // Where `from` is, when a reader of this instance has located it: no scan of what comes before.
    const seekTo = this.positionReads.offsetOf(from);
    if (seekTo !== undefined && seekTo >= high) return;
    const reader = this.reader('read', {
      seekTo,
      onMessages: async (messages) => {
        stall.progress();
        for (const batch of assembler.push(messages.filter((m) => BigInt(m.offset) < high))) {
          await channel.put(batch.events);
        }
      },
      onProgress: (next) => {
        stall.progress();
        if (next >= high) channel.end();
      },
      onError: (error) => channel.fail(error),
    });
    const stopper = async () => {
      channel.fail(new Error('KafkaEventLog: closed during read()'));
      await reader.stopPromptly();
    };
    this.readers.add(stopper);
    try {
      // Not awaited: joining the group is waiting for the broker too, under the limit of the first take().
      reader.start().catch((error: unknown) => channel.fail(toError(error)));
      for (;;) {
        stall.wait();
        const batch = await channel.take();
        stall.pause();
        if (batch === undefined) return;
        yield batch;
      }
    } finally {
      stall.pause();
      channel.close();
      this.readers.delete(stopper);
      // Not blocked by a consumer still joining its group: a stalled read is answered at its limit.
      await reader.stopPromptly();
    }
  }

  /**
   * Delivers every committed batch from `from`. It reads from the offset a `resume` cursor
   * names, or right after `from - 1` when this instance has located it (the head found at
   * open), else from the beginning of the partition, skipping positions below
   * `from`. If `onBatch` throws (or an event fails validation, or the client gives up),
   * delivery ends: `caughtUp` rejects if still pending, `done` rejects, and a failure after
   * the catch-up is also reported to `onSubscriptionError`.
   */
  subscribe(from: number, onBatch: BatchHandler, resume?: ResumePoint | null): KafkaSubscription {
    if (!this.kafka || this.closed) throw new Error('KafkaEventLog is not open');
    const seek = this.seekPoint(from, resume);
    const sub = new KafkaSubscription(
      {
        makeReader: (options) => this.reader('subscribe', options),
        offsets: () => this.offsets(),
        head: () => this.head(),
        onEvent: this.positionReads.seen,
        onSeekMissed: (missed, found) =>
          console.warn(
            `KafkaEventLog: the cursor after position ${missed.position} (offset ${missed.offset}) does not match the topic (found ${found}); reading from the beginning`,
          ),
      },
      from,
      onBatch,
      (error) => this.onSubscriptionError(error),
      () => this.readers.delete(stopper),
      seek,
    );
    const stopper = () => sub.stop();
    this.readers.add(stopper);
    sub.start();
    this.skippedBefore ??= seek?.offset;
    return sub;
  }

  /** The nearest known place before `from` to start reading at, if any. */
  private seekPoint(from: number, resume: ResumePoint | null | undefined): SeekPoint | undefined {
    // Right after an event this instance has located (the head found at open, say).
    const known = this.positionReads.offsetOf(from - 1);
    if (known !== undefined) return { position: from - 1, offset: known + 1n };
    const offset = resume && resume.position < from ? offsetOfCursor(resume.cursor) : null;
    return offset === null ? undefined : { position: resume!.position, offset };
  }

  /**
   * A subscription that seeks skips the events before its start, which random reads
   * (readPositions) locate by the offsets readers consumed: learn them once, from the
   * messages' position headers alone, when a random read first needs one (not at start:
   * a restart at a million events would read the whole topic for reads that may not come).
   */
  private locateEarlierEvents(before: bigint): void {
    if (this.locating || this.positionReads.lastSeen > 0) return;
    this.locating = this.offsets()
      .then(({ low, high }) =>
        this.consumeRange(
          low,
          before < high ? before : high,
          async (messages) => {
            for (const message of messages) this.positionReads.located(message);
          },
          'locate',
          { stallMs: this.readStallTimeoutMs },
        ),
      )
      .catch((error: unknown) => {
        if (!this.closed)
          console.warn(
            `KafkaEventLog: could not locate the earlier events (${(error as Error).message}); random reads of them will scan`,
          );
      });
  }

  /**
   * Committed events by position: from the body cache, else fetched by offset (see PositionReads);
   * `near` (a snapshot's cursor) is read at its offset when it lies within the partition.
   */
  async readPositions(positions: readonly number[], near?: ResumePoint | null): Promise<ChangeEvent[]> {
    if (!this.kafka || this.closed) throw new Error('KafkaEventLog is not open');
    // Committed: at or below the head known here, or consumed by a reader of this instance
    // (a writer's subscribers see a commit before the append's answer moves its head).
    const head = Math.max(this.head(), this.positionReads.highestSeen);
    return this.positionReads.read(positions, head, near && (await this.withinPartition(near)) ? near : null);
  }

  /** A cursor past the partition's end (a recreated topic) would be waited at until the read stalls. */
  private async withinPartition(near: ResumePoint): Promise<boolean> {
    const offset = offsetOfCursor(near.cursor);
    if (offset === null) return false;
    const { low, high } = await this.offsets();
    return offset > low && offset <= high;
  }

  /**
   * Messages this instance's reads have fetched, by what for ('subscribe', 'read', 'head',
   * 'positions', 'locate'): how much of the partition a start-up read, for tests and benches.
   */
  messagesFetched(): Readonly<Record<string, number>> {
    return { ...this.fetched };
  }

  /** Waits for queued and in-flight appends, stops reads and subscriptions, disconnects. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.closing.abort();
    clearInterval(this.headRefresh);
    await this.opening?.catch(() => undefined);
    await this.refreshing;
    await this.writer?.close();
    await Promise.allSettled([...this.readers].map((stop) => stop()));
    await this.locating;
    this.readers.clear();
    await this.disconnectClients();
  }

  private async disconnectClients(): Promise<void> {
    await Promise.allSettled([this.lease?.release(), this.admin?.disconnect()]);
    this.lease = undefined;
    this.admin = undefined;
    this.kafka = undefined;
  }
}
