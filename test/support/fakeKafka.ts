/**
 * An in-memory stand-in for the kafkajs client, for fault-injection tests of the Kafka
 * adapter: one cluster holding topics (one partition each), transactional ids with
 * their producer epochs, and the parts of Admin, Producer and Consumer the adapter uses.
 *
 * It behaves like the real library where the adapter's correctness depends on it:
 * - records of a transaction occupy offsets as they are sent; commit and abort add a
 *   control record; read_committed readers stop at the last stable offset;
 * - InitProducerId (a producer's first transaction()) completes a transaction whose
 *   commit reached the coordinator, aborts any other open one, and bumps the epoch, so an
 *   older producer's next request fails with INVALID_PRODUCER_EPOCH (PRODUCER_FENCED
 *   when `fencingError` says so);
 * - a failed commit leaves the producer in state COMMITTING and every later
 *   transaction() throws, as kafkajs 2.2 does;
 * - faults are the library's own error classes (KafkaJSProtocolError with the real
 *   type and code, KafkaJSNumberOfRetriesExceeded, KafkaJSConnectionError...), raised
 *   by `failNext(operation, error)`; `holdNext('commit')` (or 'init', 'consumerConnect') leaves a request unanswered
 *   until released (a coordinator that does not answer);
 * - a consumer speaks with its client's clientId and gets a new member id each time it
 *   joins its group; DescribeGroups reports both, and fails like any request.
 */
import { createRequire } from 'node:module';

import kafkajs from 'kafkajs';

// The library's table of protocol errors (type, code, retriable, message), as it raises them.
const protocolErrors = createRequire(import.meta.url)('kafkajs/src/protocol/error.js') as {
  errorCodes: Array<{ type: string; code: number }>;
  createErrorFromCode: (code: number) => Error;
};

/** Codes newer than the library's table: it raises them as 'Unknown error code <n>'. */
const NEWER_CODES: Record<string, number> = { PRODUCER_FENCED: 90 };

const { KafkaJSNonRetriableError, KafkaJSNumberOfRetriesExceeded, KafkaJSConnectionError, KafkaJSProtocolError } =
  kafkajs;

/** The real protocol error for a type name, e.g. 'INVALID_PRODUCER_EPOCH'. */
export function protocolError(type: string): Error {
  if (NEWER_CODES[type] !== undefined) return protocolErrors.createErrorFromCode(NEWER_CODES[type]);
  const entry = protocolErrors.errorCodes.find((e) => e.type === type);
  if (!entry) throw new Error(`fakeKafka: no protocol error ${type}`);
  return new KafkaJSProtocolError(entry as never);
}

/** What kafkajs throws once its retries of a retriable error are used up. */
export function retriesExceeded(cause: Error): Error {
  return new KafkaJSNumberOfRetriesExceeded(cause as never, { retryCount: 5, retryTime: 1000 });
}

export function connectionError(message = 'Connection error: connect ECONNREFUSED 127.0.0.1:9092'): Error {
  return new KafkaJSConnectionError(message, { broker: '127.0.0.1:9092' } as never);
}

type Operation =
  | 'init'
  | 'send'
  | 'commit'
  | 'abort'
  | 'fetchTopicOffsets'
  | 'describeConfigs'
  | 'describeGroups'
  | 'consumerConnect'
  | 'listTopics'
  | 'createTopics'
  | 'fetchTopicMetadata'
  | 'consumerJoin';

interface Fault {
  error: Error;
  /** The operation takes effect on the broker although the client sees the error (a lost response). */
  applied: boolean;
  /**
   * A commit reached the coordinator, which had not written its markers when the client
   * gave up: the transaction stays open, and the next InitProducerId completes it.
   */
  requested: boolean;
  /** What happens on the broker meanwhile (e.g. it times the transaction out). */
  during?: () => void;
}

interface Txn {
  state: 'open' | 'committed' | 'aborted';
  /** The offset of its first record. */
  firstOffset: number;
  /** EndTxn(commit) reached the coordinator: InitProducerId completes it instead of aborting it. */
  commitRequested: boolean;
}

interface StoredRecord {
  offset: number;
  control: boolean;
  txn: Txn | null;
  key: string | null;
  value: Buffer | null;
  headers: Record<string, Buffer>;
}

interface Topic {
  name: string;
  partitions: number;
  replicationFactor: number;
  config: Map<string, string>;
  records: StoredRecord[];
  /** Transactions still open: the last stable offset is the first record of the oldest. */
  openTxns: Set<Txn>;
}

interface TransactionalState {
  epoch: number;
  open: Txn | null;
  openTopic: Topic | null;
}

const DEFAULT_TOPIC_CONFIG: Record<string, string> = {
  'cleanup.policy': 'delete',
  'retention.ms': '604800000',
  'retention.bytes': '-1',
  'max.message.bytes': '1048588',
  'min.insync.replicas': '1',
};

export class FakeKafkaCluster {
  readonly topics = new Map<string, Topic>();
  private readonly transactional = new Map<string, TransactionalState>();
  private readonly faults = new Map<Operation, Fault[]>();
  private readonly holds = new Map<Operation, { reached: () => void; released: Promise<void> }>();
  /** Member ids handed out by the group coordinator: each join gets a new one. */
  private joins = 0;
  private readonly consumers = new Set<FakeConsumer>();
  /** The client-side clock the adapter is given (ms); tests move it forward. */
  now = 1_000_000;
  /** What a fenced producer is told: brokers answer old request versions with INVALID_PRODUCER_EPOCH. */
  fencingError: 'INVALID_PRODUCER_EPOCH' | 'PRODUCER_FENCED' = 'INVALID_PRODUCER_EPOCH';
  /** Every client configuration the adapter asked for (to check TLS/SASL and retry settings). */
  readonly clientConfigs: unknown[] = [];
  readonly producerConfigs: unknown[] = [];
  /** Runs once, right after the next commit took effect (e.g. to crash the consumers then). */
  afterNextCommit: (() => void) | null = null;
  /** Awaited once, before the next ListOffsets is answered (e.g. another client writes first). */
  beforeNextOffsets: (() => Promise<void>) | null = null;
  /** Called on every heartbeat a consumer sends from inside its batch handler. */
  onHeartbeat: ((groupId: string) => void) | null = null;
  /** Number of producers created (a replaced producer counts again). */
  producersCreated = 0;
  /** While down, every request fails as an unreachable broker would, after the client's retries. */
  isDown = false;
  /** Requests refused while down. */
  refusedWhileDown = 0;
  /** The partition's leader is unreachable while the coordinators answer: consumers fetch nothing. */
  leaderIsDown = false;
  /** The group of every consumer created, in order (to see which reads were started). */
  readonly consumerGroups: string[] = [];

  /** Committed transactions whose markers are not written yet, and how many ListOffsets answers leave them out still. */
  private readonly pendingMarkers: Array<{ topic: Topic; txn: Txn; answersLeft: number }> = [];
  private deferMarkers: number | null = null;

  /**
   * The next commit returns before the coordinator has written its markers, as a real one
   * may: the last stable offset leaves the transaction out for the next `answers` ListOffsets
   * answers (and readers stop before it); the markers are written before the one after.
   */
  deferNextMarkers(answers = 1): void {
    this.deferMarkers = answers;
  }

  /** @internal EndTxn(commit) accepted: the markers are written now, or later when deferred. */
  commitMarkers(topic: Topic, txn: Txn): void {
    if (this.deferMarkers === null) return this.endTxn(topic, txn, 'committed');
    this.pendingMarkers.push({ topic, txn, answersLeft: this.deferMarkers });
    this.deferMarkers = null;
  }

  /** @internal before a ListOffsets answer: markers whose time has come are written. */
  writeDueMarkers(): void {
    for (const pending of [...this.pendingMarkers]) {
      if (pending.answersLeft-- > 0) continue;
      this.pendingMarkers.splice(this.pendingMarkers.indexOf(pending), 1);
      this.endTxn(pending.topic, pending.txn, 'committed');
    }
  }

  /** The partition's leader goes away; the transaction coordinator, on another broker, does not. */
  leaderDown(): void {
    this.leaderIsDown = true;
  }

  leaderUp(): void {
    this.leaderIsDown = false;
    this.wake();
  }

  /** The broker goes away: requests fail, consumers fetch nothing (a killed transaction coordinator). */
  down(): void {
    this.isDown = true;
  }

  /** The broker is back; transactions it had open are still open (the client settles them). */
  up(): void {
    this.isDown = false;
    for (const consumer of this.consumers) consumer.wake();
  }

  /** Every fetch consumers made: the group and the offset it started at (to see where a reader began). */
  readonly fetches: Array<{ groupId: string; offset: number }> = [];

  /** The factory the adapter's `client` option takes. */
  readonly client = (config: unknown) => {
    this.clientConfigs.push(config);
    return {
      admin: () => new FakeAdmin(this),
      producer: (options: { transactionalId?: string }) => {
        this.producerConfigs.push(options);
        this.producersCreated++;
        return new FakeProducer(this, options.transactionalId ?? 'none');
      },
      consumer: (options: { groupId: string } & ConsumerOptions) => {
        this.consumerGroups.push(options.groupId);
        // Like the library, a consumer speaks with its client's clientId (DescribeGroups reports it).
        return new FakeConsumer(
          this,
          options.groupId,
          options,
          (config as { clientId?: string }).clientId ?? 'kafkajs',
        );
      },
    } as never;
  };

  /** The next `times` calls of `operation` fail with `error` (after taking effect when `applied`). */
  failNext(
    operation: Operation,
    error: Error,
    options: { applied?: boolean; requested?: boolean; times?: number; during?: () => void } = {},
  ): void {
    const list = this.faults.get(operation) ?? [];
    for (let i = 0; i < (options.times ?? 1); i++)
      list.push({
        error,
        applied: options.applied ?? false,
        requested: options.requested ?? false,
        during: options.during,
      });
    this.faults.set(operation, list);
  }

  /**
   * The next request of `operation` is left unanswered (a coordinator that does not answer)
   * until `release()`; then it is answered as usual (a fault queued by failNext applies).
   * `reached` resolves once the request was made.
   */
  holdNext(operation: Operation): { reached: Promise<void>; release: () => void } {
    let reached!: () => void;
    let release!: () => void;
    const reachedPromise = new Promise<void>((resolve) => (reached = resolve));
    this.holds.set(operation, { reached, released: new Promise<void>((resolve) => (release = resolve)) });
    return { reached: reachedPromise, release };
  }

  /** @internal waits while a request of `operation` is held. */
  async held(operation: Operation): Promise<void> {
    const hold = this.holds.get(operation);
    if (!hold) return;
    this.holds.delete(operation);
    hold.reached();
    await hold.released;
  }

  /** @internal a new member id, as the coordinator assigns one to a consumer joining a group. */
  nextMemberId(clientId: string): string {
    return `${clientId}-${++this.joins}`;
  }

  /** @internal */
  takeFault(operation: Operation): Fault | undefined {
    return this.faults.get(operation)?.shift();
  }

  /** The faults of `operation` not yet raised are dropped: it answers again (an outage of unknown length ends). */
  clearFaults(operation: Operation): void {
    this.faults.delete(operation);
  }

  /** Pending faults not yet raised. */
  pendingFaults(operation: Operation): number {
    return this.faults.get(operation)?.length ?? 0;
  }

  /** A topic made by hand (an operator's, with its own settings). */
  createTopic(name: string, options: { partitions?: number; config?: Record<string, string> } = {}): void {
    this.topics.set(name, {
      name,
      partitions: options.partitions ?? 1,
      replicationFactor: 1,
      config: new Map(Object.entries({ ...DEFAULT_TOPIC_CONFIG, ...options.config })),
      records: [],
      openTxns: new Set(),
    });
  }

  /** @internal */
  topic(name: string): Topic {
    const topic = this.topics.get(name);
    if (!topic) throw protocolError('UNKNOWN_TOPIC_OR_PARTITION');
    return topic;
  }

  /** The broker aborts the open transaction of `transactionalId` as timed out and bumps its epoch. */
  timeOutTransaction(transactionalId: string, elapsedMs: number): void {
    this.now += elapsedMs;
    const state = this.transactional.get(transactionalId);
    if (!state) return;
    if (state.open && state.openTopic) this.endTxn(state.openTopic, state.open, 'aborted');
    state.open = null;
    state.openTopic = null;
    state.epoch++;
  }

  /** The coordinator forgets an idle transactional id (transactional.id.expiration.ms). */
  expireTransactionalId(transactionalId: string): void {
    this.transactional.delete(transactionalId);
  }

  /** Every running consumer crashes with `error`; kafkajs does not restart it (`restart: false`). */
  crashConsumers(error: Error): void {
    for (const consumer of [...this.consumers]) consumer.crash(error);
  }

  /** Committed data records of a topic, decoded as JSON (what a read_committed reader sees). */
  committedValues(topic: string): unknown[] {
    return this.topic(topic)
      .records.filter((r) => !r.control && (r.txn === null || r.txn.state === 'committed'))
      .map((r) => JSON.parse(r.value!.toString('utf8')));
  }

  /** @internal InitProducerId: finish what the id left open, bump the epoch. */
  initProducerId(transactionalId: string): number {
    const state = this.transactional.get(transactionalId) ?? { epoch: -1, open: null, openTopic: null };
    if (state.open && state.openTopic)
      this.endTxn(state.openTopic, state.open, state.open.commitRequested ? 'committed' : 'aborted');
    state.open = null;
    state.openTopic = null;
    state.epoch++;
    this.transactional.set(transactionalId, state);
    return state.epoch;
  }

  /** @internal the broker's check of a transactional request. */
  checkProducer(transactionalId: string, epoch: number): TransactionalState {
    const state = this.transactional.get(transactionalId);
    if (!state) throw protocolError('INVALID_PRODUCER_ID_MAPPING');
    if (state.epoch !== epoch) throw protocolError(this.fencingError);
    return state;
  }

  /** @internal */
  endTxn(topic: Topic, txn: Txn, outcome: 'committed' | 'aborted'): void {
    txn.state = outcome;
    topic.openTxns.delete(txn);
    topic.records.push({ offset: topic.records.length, control: true, txn, key: null, value: null, headers: {} });
    this.wake();
  }

  /** @internal [low, high): high is the last stable offset. */
  offsets(topic: Topic): { low: number; high: number } {
    let high = topic.records.length;
    for (const txn of topic.openTxns) high = Math.min(high, txn.firstOffset);
    return { low: 0, high };
  }

  /** @internal */
  register(consumer: FakeConsumer): void {
    this.consumers.add(consumer);
  }

  /** Members of a consumer group: its running consumers (a crashed or disconnected one has left). */
  groupMembers(groupId: string): FakeConsumer[] {
    return [...this.consumers].filter((c) => c.groupId === groupId);
  }

  /** @internal */
  unregister(consumer: FakeConsumer): void {
    this.consumers.delete(consumer);
  }

  private wake(): void {
    for (const consumer of this.consumers) consumer.wake();
  }
}

/** The size of one record batch holding these messages: its header, then each record's fields (framing left out, so a lower bound). */
function recordBatchBytes(messages: Array<{ key?: string; value: Buffer; headers?: Record<string, string> }>): number {
  const BATCH_HEADER_BYTES = 61;
  let bytes = BATCH_HEADER_BYTES;
  for (const m of messages) {
    bytes += m.value.length + Buffer.byteLength(m.key ?? '');
    for (const [name, value] of Object.entries(m.headers ?? {}))
      bytes += Buffer.byteLength(name) + Buffer.byteLength(value);
  }
  return bytes;
}

function raise(
  cluster: FakeKafkaCluster,
  operation: Operation,
  effect: () => void = () => {},
  request: () => void = () => {},
): void {
  if (cluster.isDown) {
    cluster.refusedWhileDown++;
    throw retriesExceeded(connectionError());
  }
  const fault = cluster.takeFault(operation);
  fault?.during?.();
  if (fault?.requested) request();
  if (fault?.applied) effect();
  if (fault) throw fault.error;
  effect();
}

class FakeAdmin {
  constructor(private readonly cluster: FakeKafkaCluster) {}
  async connect(): Promise<void> {}
  async disconnect(): Promise<void> {}

  async createTopics(options: {
    topics: Array<{
      topic: string;
      numPartitions?: number;
      replicationFactor?: number;
      configEntries?: Array<{ name: string; value: string }>;
    }>;
  }): Promise<boolean> {
    let created = false;
    raise(this.cluster, 'createTopics', () => {
      for (const spec of options.topics) {
        if (this.cluster.topics.has(spec.topic)) continue;
        const config: Record<string, string> = {};
        for (const entry of spec.configEntries ?? []) config[entry.name] = entry.value;
        this.cluster.createTopic(spec.topic, { partitions: spec.numPartitions ?? 1, config });
        this.cluster.topics.get(spec.topic)!.replicationFactor = spec.replicationFactor ?? 1;
        created = true;
      }
    });
    return created;
  }

  async listTopics(): Promise<string[]> {
    raise(this.cluster, 'listTopics');
    return [...this.cluster.topics.keys()];
  }

  async describeGroups(groupIds: string[]) {
    raise(this.cluster, 'describeGroups');
    return {
      groups: groupIds.map((groupId) => {
        const members = this.cluster.groupMembers(groupId);
        return {
          groupId,
          state: members.length > 0 ? 'Stable' : 'Empty',
          protocol: '',
          protocolType: 'consumer',
          members: members.map((m) => ({
            memberId: m.memberId!,
            clientId: m.clientId,
            clientHost: '/10.0.0.1',
            memberAssignment: Buffer.alloc(0),
            memberMetadata: Buffer.alloc(0),
          })),
        };
      }),
    };
  }

  async fetchTopicMetadata(options: { topics: string[] }) {
    raise(this.cluster, 'fetchTopicMetadata');
    return {
      topics: options.topics.map((name) => {
        const topic = this.cluster.topic(name);
        return {
          name,
          partitions: Array.from({ length: topic.partitions }, (_, i) => ({
            partitionId: i,
            leader: 0,
            replicas: [0],
            isr: [0],
          })),
        };
      }),
    };
  }

  async fetchTopicOffsets(name: string) {
    const before = this.cluster.beforeNextOffsets;
    this.cluster.beforeNextOffsets = null;
    await before?.();
    raise(this.cluster, 'fetchTopicOffsets');
    this.cluster.writeDueMarkers();
    const topic = this.cluster.topic(name);
    const { low, high } = this.cluster.offsets(topic);
    return [{ partition: 0, offset: String(high), low: String(low), high: String(high) }];
  }

  async describeConfigs(options: { resources: Array<{ name: string; configNames?: string[] }> }) {
    raise(this.cluster, 'describeConfigs');
    return {
      throttleTime: 0,
      resources: options.resources.map((resource) => {
        const topic = this.cluster.topic(resource.name);
        const names = resource.configNames ?? [...topic.config.keys()];
        return {
          errorCode: 0,
          errorMessage: '',
          resourceName: resource.name,
          resourceType: 2,
          configEntries: names
            .filter((n) => topic.config.has(n))
            .map((n) => ({
              configName: n,
              configValue: topic.config.get(n)!,
              isDefault: false,
              configSource: 1,
              isSensitive: false,
              readOnly: false,
              configSynonyms: [],
            })),
        };
      }),
    };
  }
}

type ProducerState = 'READY' | 'TRANSACTING' | 'COMMITTING' | 'ABORTING';

class FakeProducer {
  private epoch: number | undefined;
  private state: ProducerState = 'READY';
  private connected = false;

  constructor(
    private readonly cluster: FakeKafkaCluster,
    private readonly transactionalId: string,
  ) {}

  async connect(): Promise<void> {
    this.connected = true;
  }

  async disconnect(): Promise<void> {
    this.connected = false;
  }

  async transaction() {
    if (!this.connected) throw new KafkaJSNonRetriableError('fakeKafka: producer not connected');
    if (this.state !== 'READY') {
      throw new KafkaJSNonRetriableError(
        `Transaction state exception: Cannot call "beginTransaction" in state "${this.state}"`,
      );
    }
    if (this.epoch === undefined) {
      await this.cluster.held('init');
      raise(this.cluster, 'init');
      this.epoch = this.cluster.initProducerId(this.transactionalId);
    }
    this.state = 'TRANSACTING';
    const cluster = this.cluster;
    const epoch = this.epoch;
    const tid = this.transactionalId;
    let txn: Txn | null = null;
    let txnTopic: Topic | null = null;
    return {
      isActive: () => this.state === 'TRANSACTING',
      send: async (request: {
        topic: string;
        messages: Array<{ key?: string; value: Buffer; headers?: Record<string, string> }>;
      }) => {
        if (this.state !== 'TRANSACTING')
          throw new KafkaJSNonRetriableError(
            `Transaction state exception: Cannot call "send" in state "${this.state}"`,
          );
        let baseOffset = -1;
        raise(cluster, 'send', () => {
          const producerState = cluster.checkProducer(tid, epoch);
          const topic = cluster.topic(request.topic);
          // The library sends a request's messages for one partition as one record batch,
          // and the broker measures max.message.bytes against the batch, not each record.
          if (recordBatchBytes(request.messages) > Number(topic.config.get('max.message.bytes')))
            throw protocolError('MESSAGE_TOO_LARGE');
          if (!txn) {
            txn = { state: 'open', firstOffset: topic.records.length, commitRequested: false };
            topic.openTxns.add(txn);
            txnTopic = topic;
            producerState.open = txn;
            producerState.openTopic = topic;
          }
          baseOffset = topic.records.length;
          for (const m of request.messages) {
            const headers: Record<string, Buffer> = {};
            for (const [k, v] of Object.entries(m.headers ?? {})) headers[k] = Buffer.from(v);
            topic.records.push({
              offset: topic.records.length,
              control: false,
              txn,
              key: m.key ?? null,
              value: m.value,
              headers,
            });
          }
        });
        // As a broker answers a produce request: where the request's record batch starts.
        return [{ topicName: request.topic, partition: 0, errorCode: 0, baseOffset: String(baseOffset) }];
      },
      commit: async () => {
        this.state = 'COMMITTING'; // stays there if the commit fails, as kafkajs 2.2 leaves it
        await cluster.held('commit');
        raise(
          cluster,
          'commit',
          () => {
            const producerState = cluster.checkProducer(tid, epoch);
            if (txn && txnTopic) {
              txn.commitRequested = true;
              cluster.commitMarkers(txnTopic, txn);
            }
            const hook = cluster.afterNextCommit;
            cluster.afterNextCommit = null;
            hook?.();
            producerState.open = null;
            producerState.openTopic = null;
          },
          () => {
            if (txn) txn.commitRequested = true;
          },
        );
        this.state = 'READY';
      },
      abort: async () => {
        this.state = 'ABORTING';
        raise(cluster, 'abort', () => {
          if (!txn || !txnTopic) return;
          const producerState = cluster.checkProducer(tid, epoch);
          cluster.endTxn(txnTopic, txn, 'aborted');
          producerState.open = null;
          producerState.openTopic = null;
        });
        this.state = 'READY';
      },
    };
  }
}

type Listener = (event: { payload: Record<string, unknown> }) => void;

interface ConsumerOptions {
  retry?: { restartOnFailure?: (error: Error) => Promise<boolean> };
}

/** The library's rule for a crash it may restart after: retries used up, or a retriable cause. */
function isRetriable(error: Error): boolean {
  if (error.name === 'KafkaJSNumberOfRetriesExceeded') return true;
  let cause: { retriable?: boolean; cause?: unknown } = error as never;
  while (cause.cause) cause = cause.cause as typeof cause;
  return cause.retriable === true;
}

/** A read_committed consumer of partition 0, delivering up to `FETCH_RECORDS` records per batch. */
class FakeConsumer {
  static readonly FETCH_RECORDS = 50;
  readonly events = {
    END_BATCH_PROCESS: 'consumer.end_batch_process',
    CRASH: 'consumer.crash',
    GROUP_JOIN: 'consumer.group_join',
  } as const;
  private readonly listeners = new Map<string, Listener[]>();
  /** A writer lease's consumer (group `<id>.lease.<topic>`) may ask for a restart the fake does not model. */
  private get restartsUnmodelledAllowed(): boolean {
    return this.groupId.includes('.lease.');
  }
  private topicName: string | undefined;
  private next = 0;
  private running = false;
  private paused = false;
  private wakeUp: (() => void) | null = null;
  /** Its member id in the group while it is a member (the broker names it `<clientId>-<uuid>`). */
  memberId: string | undefined;

  constructor(
    private readonly cluster: FakeKafkaCluster,
    readonly groupId: string,
    private readonly options: ConsumerOptions = {},
    readonly clientId = 'kafkajs',
  ) {}

  on(name: string, listener: Listener): void {
    this.listeners.set(name, [...(this.listeners.get(name) ?? []), listener]);
  }

  async connect(): Promise<void> {
    await this.cluster.held('consumerConnect');
    raise(this.cluster, 'consumerConnect');
  }

  async subscribe(options: { topics: string[] }): Promise<void> {
    this.topicName = options.topics[0];
    this.cluster.topic(this.topicName!);
  }

  seek(options: { offset: string }): void {
    if (!this.running)
      throw new KafkaJSNonRetriableError('Consumer group was not initialized, consumer#run must be called first');
    this.next = Number(options.offset);
  }

  pause(): void {
    this.paused = true;
  }

  async run(options: {
    eachBatch: (payload: { batch: { messages: unknown[] }; heartbeat: () => Promise<void> }) => Promise<void>;
  }): Promise<void> {
    try {
      raise(this.cluster, 'consumerJoin');
    } catch (error) {
      return this.crashWhileJoining(error as Error);
    }
    this.running = true;
    this.memberId = this.cluster.nextMemberId(this.clientId);
    this.cluster.register(this);
    // Like kafkajs, fetching starts after run() resolved (a seek() right after applies).
    setImmediate(() => void this.loop(options.eachBatch));
  }

  async disconnect(): Promise<void> {
    this.stopRunning();
  }

  /** @internal */
  wake(): void {
    this.wakeUp?.();
  }

  /**
   * @internal Like the library: the consumer is disconnected; for a retriable error the
   * caller's `retry.restartOnFailure` is asked whether to restart (this fake never restarts:
   * a consumer without that callback is simply gone, as a dead process's would be).
   */
  crash(error: Error): void {
    if (!this.running) return;
    this.stopRunning();
    const restartOnFailure = this.options.retry?.restartOnFailure;
    if (!restartOnFailure || !isRetriable(error)) {
      this.emit(this.events.CRASH, { error, groupId: this.groupId, restart: false });
      return;
    }
    void restartOnFailure(error).then((restart) => {
      // A restart is not modelled: the consumer stays stopped, as one whose restart is still
      // waiting out its delay (the writer lease's is; its tests do not depend on the restart).
      if (restart && !this.restartsUnmodelledAllowed)
        throw new Error('fakeKafka: restarting a crashed consumer is not modelled');
      this.emit(this.events.CRASH, { error, groupId: this.groupId, restart });
    });
  }

  /**
   * Like the library when joining the group fails inside run(): its crash handler runs (asking
   * `retry.restartOnFailure`) and run() resolves all the same, with no group to seek in.
   */
  private async crashWhileJoining(error: Error): Promise<void> {
    const restartOnFailure = this.options.retry?.restartOnFailure;
    const restart = restartOnFailure && isRetriable(error) ? await restartOnFailure(error) : false;
    if (restart) throw new Error('fakeKafka: restarting a crashed consumer is not modelled');
    this.emit(this.events.CRASH, { error, groupId: this.groupId, restart: false });
  }

  private stopRunning(): void {
    this.running = false;
    this.cluster.unregister(this);
    this.wake();
  }

  private emit(name: string, payload: Record<string, unknown>): void {
    for (const listener of this.listeners.get(name) ?? []) listener({ payload });
  }

  private async loop(
    eachBatch: (payload: { batch: { messages: unknown[] }; heartbeat: () => Promise<void> }) => Promise<void>,
  ): Promise<void> {
    while (this.running) {
      const topic = this.cluster.topic(this.topicName!);
      const { high } = this.cluster.offsets(topic);
      if (this.next >= high || this.paused || this.cluster.isDown || this.cluster.leaderIsDown) {
        await new Promise<void>((resolve) => (this.wakeUp = resolve));
        this.wakeUp = null;
        continue;
      }
      this.cluster.fetches.push({ groupId: this.groupId!, offset: this.next });
      const end = Math.min(high, this.next + FakeConsumer.FETCH_RECORDS);
      const records = topic.records.slice(this.next, end);
      const messages = records
        .filter((r) => !r.control && (r.txn === null || r.txn.state === 'committed'))
        .map((r) => ({
          offset: String(r.offset),
          key: r.key === null ? null : Buffer.from(r.key),
          value: r.value,
          headers: r.headers,
          timestamp: '0',
          attributes: 0,
        }));
      this.next = end;
      await eachBatch({ batch: { messages }, heartbeat: async () => this.cluster.onHeartbeat?.(this.groupId!) });
      if (!this.running) return;
      this.emit(this.events.END_BATCH_PROCESS, { lastOffset: String(end - 1) });
    }
  }
}
