/**
 * The ReadStore port on MongoDB: one MongoDB collection per registry collection
 * (names such as 'dcim.site' are valid), documents stored with `_id = id` (and
 * `id` kept), `_id` stripped on the way out. Queries and sorts are passed through
 * as-is: they come from our query compiler, never from users. MongoDB's default
 * (simple) collation compares strings bytewise, which the memory adapter imitates.
 *
 * Progress lives in `netledger_meta`: `{ _id: 'projection', position, maxIds }`.
 * Deleted objects leave a tombstone `{ _id: '<collection>#<id>', _pos, _at }` in
 * `netledger_tombstones`, so that a second projector still applying older events
 * (a rolling deploy) cannot bring a deleted object back; a TTL index removes it after
 * the retention (tombstones.ts says why that is safe).
 *
 * On a replica set a batch's changes, tombstones and position are written in one
 * transaction (majority, journaled), and a list's count and page are read from one
 * snapshot: a reader sees all of a request's changes or none. A standalone server
 * (allowed only when asked for) writes them one by one.
 *
 * `limit: 0` (or negative) returns no documents, like MemoryReadStore (MongoDB
 * itself would read 0 as "no limit").
 */

import {
  type AnyBulkWriteOperation,
  type ClientSession,
  type Db,
  type Document,
  MongoClient,
  type MongoClientOptions,
  MongoError,
  type UpdateFilter,
} from 'mongodb';

import type { LogCursor, ResumePoint } from '../../events/EventLog.js';
import { asResumePoint } from '../../events/resumePoint.js';
import { ascendingUsed, findFreeRuns, usedQuery } from '../../models/allocation/freeAddresses.js';
import type { AddressRun, FreeAddressQuery } from '../../models/lookupView.js';
import { sortKeyValue } from '../../models/values/ipNetworks.js';
import type { DocumentChange, FindOptions, Query, ReadDocument, ReadStore } from '../ReadStore.js';
import { ReadStoreUnavailableError } from '../ReadStoreUnavailableError.js';
import { DEFAULT_RETRY_POLICY, type RetryPolicy, retryTransient } from '../retryTransient.js';
import { type ApplyPlan, planChanges, planSize, splitPlan, tombstoneId } from './applyPlan.js';
import { CountCache } from './CountCache.js';
import { type DeploymentKind, deploymentKind, StandaloneMongoRefusedError } from './deployment.js';
import { decodeKey, encodeKey } from './metaKeys.js';
import {
  DUPLICATE_KEY,
  explainedMongoError,
  isSkippedStaleUpsertsOnly,
  isTimeLimitError,
  isTransientMongoError,
} from './mongoErrors.js';
import { MAJORITY_JOURNALED, readModelDatabases } from './readModelDatabases.js';
import { type CaseInsensitiveFields, SHADOW, shadowOf, useShadowKeys } from './shadowKeys.js';
import { TimeLimitedCollection } from './TimeLimitedCollection.js';
import {
  DEFAULT_TOMBSTONE_RETENTION_MS,
  ensureTombstoneExpiry,
  expireAfterSeconds,
  type Tombstone,
  TOMBSTONES,
} from './tombstones.js';

export interface MongoReadStoreOptions {
  url: string;
  dbName: string;
  client?: MongoClientOptions;
  /** Builds the client; tests hand in a fake speaking the driver's API. */
  connect?: (url: string, options: MongoClientOptions) => MongoClient;
  /** Accept a standalone server (development): a request's changes then become visible one by one. */
  allowStandalone?: boolean;
  /** Fields matched case-insensitively as a whole, per collection: stored folded beside the document and indexed. */
  caseInsensitiveFields?: CaseInsensitiveFields;
  /** Time limit of every query, after which the read answers 503 (default 10 s). */
  maxTimeMS?: number;
  /** How long transient failures of an apply are retried before the projector stops. */
  retry?: Partial<RetryPolicy>;
  /** Told about each retried failure (for the service log). */
  onRetry?: (info: { attempt: number; delayMs: number; error: unknown }) => void;
  /** Told when the stored read models are dropped at open to be rebuilt (for the service log). */
  onRebuild?: (message: string) => void;
  /** The retries' clock and sleep (tests). */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** How long a tombstone is kept after it is written (default 7 days; tombstones.ts says how short is still safe). */
  tombstoneRetentionMs?: number;
  /** The clock tombstones are stamped with (tests). */
  now?: () => Date;
}

export const DEFAULT_MAX_TIME_MS = 10_000;

/**
 * Documents written in one transaction at most. A request's changes stay well below it
 * (they are visible all at once); a larger batch (a rebuild's window) is written in
 * several transactions, the position with the last, so it is visible part by part but
 * a crash in between still replays it.
 */
export const MAX_TRANSACTION_DOCUMENTS = 5_000;

/**
 * The read-model layout this code writes (2: shadow keys and tombstones; 3: shadow keys
 * fold the three Greek and ligature pairs the regexes join, see caseFolding.ts). A
 * database written by an older layout is dropped at open and rebuilt from the log.
 */
export const READ_MODEL_FORMAT = 3;

const META = 'netledger_meta';
const META_ID = 'projection';

interface MetaDoc {
  _id: string;
  position?: number;
  format?: number;
  maxIds?: Record<string, number>;
  /** The last position applied with a log cursor, and that cursor: where a restart reads the log from. */
  resume?: ResumePoint;
}

/** What a batch (its last part) records as reached. */
interface Reached {
  position: number;
  cursor?: LogCursor;
}

type StoredDoc = Document & { _id: number };

/** What a reader gets back: the document without MongoDB's _id and the shadow keys. */
const NO_ID = { _id: 0, [SHADOW]: 0 } as const;

export class MongoReadStore implements ReadStore {
  private client: MongoClient | null = null;
  private db: Db | null = null;
  /** The same database without a read concern of its own: a snapshot session's reads take the session's (readModelDatabases.ts). */
  private snapshotDb: Db | null = null;
  private kind: DeploymentKind = 'standalone';
  /** Declared indexes, re-created after drop(). */
  private readonly declared = new Map<string, string[][]>();
  private readonly counts = new CountCache();
  private readonly closing = new AbortController();
  private readonly maxTimeMS: number;
  private readonly retryPolicy: RetryPolicy;
  private readonly tombstoneSeconds: number;
  private readonly now: () => Date;

  constructor(private readonly options: MongoReadStoreOptions) {
    this.maxTimeMS = options.maxTimeMS ?? DEFAULT_MAX_TIME_MS;
    this.retryPolicy = { ...DEFAULT_RETRY_POLICY, ...options.retry };
    this.tombstoneSeconds = expireAfterSeconds(options.tombstoneRetentionMs ?? DEFAULT_TOMBSTONE_RETENTION_MS);
    this.now = options.now ?? (() => new Date());
  }

  /** Whether a batch and its position are written atomically (replica set or sharded cluster). */
  get transactional(): boolean {
    return this.kind !== 'standalone';
  }

  async open(): Promise<void> {
    const connect = this.options.connect ?? ((url, options) => new MongoClient(url, options));
    const client = connect(this.options.url, { ignoreUndefined: true, ...this.options.client });
    await client.connect();
    try {
      this.kind = deploymentKind(await client.db('admin').command({ hello: 1 }));
      if (this.kind === 'standalone' && !this.options.allowStandalone) throw new StandaloneMongoRefusedError();
    } catch (error) {
      await client.close().catch(() => undefined);
      throw error;
    }
    this.client = client;
    ({ db: this.db, snapshotDb: this.snapshotDb } = readModelDatabases(
      client,
      this.options.dbName,
      this.transactional,
    ));
    await this.dropOlderLayout();
    await this.ensureTombstoneExpiry();
  }

  private ensureTombstoneExpiry(): Promise<void> {
    return ensureTombstoneExpiry(this.tombstones, this.tombstoneSeconds, this.now());
  }

  /** Read models of an older layout lack what queries now rely on (shadow keys): rebuilt from the log. */
  private async dropOlderLayout(): Promise<void> {
    const meta = await this.meta.findOne({ _id: META_ID });
    if (meta && (meta.position ?? 0) > 0 && (meta.format ?? 1) < READ_MODEL_FORMAT) {
      this.options.onRebuild?.(
        `read models written by an older layout (${meta.format ?? 1}, now ${READ_MODEL_FORMAT}): dropped, rebuilding from the event log`,
      );
      await this.drop();
    }
  }

  async close(): Promise<void> {
    this.closing.abort();
    const client = this.client;
    this.client = null;
    this.db = null;
    this.snapshotDb = null;
    await client?.close();
  }

  private get database(): Db {
    if (!this.db) throw new Error('MongoReadStore is not open');
    return this.db;
  }

  private get mongo(): MongoClient {
    if (!this.client) throw new Error('MongoReadStore is not open');
    return this.client;
  }

  /**
   * A collection, every read of it under the query time limit; with a (snapshot) session,
   * from the database handle whose reads take the session's read concern. The store's only
   * way to a collection.
   */
  private collection<T extends Document = StoredDoc>(name: string, session?: ClientSession): TimeLimitedCollection<T> {
    const db = session && this.snapshotDb ? this.snapshotDb : this.database;
    return new TimeLimitedCollection(db.collection<T>(name), this.maxTimeMS);
  }

  private get meta(): TimeLimitedCollection<MetaDoc> {
    return this.collection<MetaDoc>(META);
  }

  private metaIn(session: ClientSession | undefined): TimeLimitedCollection<MetaDoc> {
    return this.collection<MetaDoc>(META, session);
  }

  private get tombstones(): TimeLimitedCollection<Tombstone> {
    return this.collection<Tombstone>(TOMBSTONES);
  }

  /**
   * Applies the batch as a whole, retrying transient failures (the apply is idempotent)
   * until the retry budget runs out; a non-transient failure is thrown at once.
   */
  async apply(changes: DocumentChange[], position: number, cursor?: LogCursor): Promise<void> {
    const plan = planChanges(changes);
    const reached: Reached = { position, cursor };
    try {
      await this.retrying(() => this.applyOnce(plan, reached));
    } catch (error) {
      throw explainedMongoError(error);
    }
  }

  /**
   * The projector's reads before an apply, and the apply, retried through passing failures.
   * A read past its time limit is retried too (an overloaded server): it stops no client's
   * request here, it would stop the projector.
   */
  /** Any error of the driver or the server (lost connection, refused credentials, closed client): never the data's. */
  isStoreFailure(error: unknown): boolean {
    return error instanceof MongoError;
  }

  retrying<T>(work: () => Promise<T>): Promise<T> {
    const transient = (error: unknown) =>
      error instanceof ReadStoreUnavailableError || isTimeLimitError(error) || isTransientMongoError(error);
    return retryTransient(work, transient, this.retryPolicy, {
      signal: this.closing.signal,
      onRetry: this.options.onRetry,
      sleep: this.options.sleep,
    });
  }

  private async applyOnce(plan: ApplyPlan, reached: Reached): Promise<void> {
    if (!this.transactional) return this.write(plan, reached, undefined);
    if (planSize(plan) <= MAX_TRANSACTION_DOCUMENTS) return this.inTransaction(plan, reached);
    const parts = splitPlan(plan, MAX_TRANSACTION_DOCUMENTS);
    for (const [i, part] of parts.entries()) await this.inTransaction(part, i === parts.length - 1 ? reached : null);
  }

  private async inTransaction(plan: ApplyPlan, reached: Reached | null): Promise<void> {
    const session = this.mongo.startSession();
    try {
      session.startTransaction({ readConcern: { level: 'snapshot' }, writeConcern: MAJORITY_JOURNALED });
      await this.write(plan, reached, session);
      await session.commitTransaction();
    } catch (error) {
      if (session.inTransaction()) await session.abortTransaction().catch(() => undefined);
      throw error;
    } finally {
      await session.endSession().catch(() => undefined);
    }
  }

  /**
   * Writes the changes newer than what is stored (document or tombstone), then the
   * position. Every write is also guarded by `_pos`, so that without a transaction a
   * concurrent newer write still wins (its guarded upsert fails on the _id index and
   * is skipped); inside a transaction such a race is a write conflict, retried (a batch
   * its snapshot does not already hold moves the position, so two racing ones conflict
   * there even when they share no document: a create racing a delete that left only a
   * tombstone).
   */
  private async write(plan: ApplyPlan, reached: Reached | null, session: ClientSession | undefined): Promise<void> {
    const stored = await this.storedPositions(plan, session);
    const tombstoneOps: AnyBulkWriteOperation<Tombstone>[] = [];
    const writes: Array<[string, AnyBulkWriteOperation<StoredDoc>[]]> = [];
    /** Tombstone key → the collection and id of a document this batch writes. */
    const upserted = new Map<string, [string, number]>();
    for (const [name, byId] of plan.latest) {
      const ops: AnyBulkWriteOperation<StoredDoc>[] = [];
      for (const change of byId.values()) {
        if ((stored.get(`${name}#${change.id}`) ?? 0) >= change.position) continue;
        const filter = { _id: change.id, _pos: { $lt: change.position } };
        if (change.doc === null) {
          ops.push({ deleteOne: { filter } });
          const key = tombstoneId(name, change.id);
          tombstoneOps.push({
            replaceOne: {
              filter: { _id: key, _pos: { $lt: change.position } },
              replacement: { _id: key, _pos: change.position, _at: this.now() } as Tombstone,
              upsert: true,
            },
          });
        } else {
          const replacement: StoredDoc = { ...change.doc, _id: change.id, id: change.id, _pos: change.position };
          const shadow = shadowOf(change.doc, this.shadowed(name) ?? []);
          if (shadow) replacement[SHADOW] = shadow;
          ops.push({ replaceOne: { filter, replacement, upsert: true } });
          upserted.set(tombstoneId(name, change.id), [name, change.id]);
        }
      }
      if (ops.length > 0) writes.push([name, ops]);
    }
    // Tombstones first: without a transaction, a delete is never visible before its tombstone.
    if (tombstoneOps.length > 0) await this.bulkWrite(this.tombstones, tombstoneOps, session);
    if (session) {
      // Operations of one transaction run one at a time.
      for (const [name, ops] of writes) await this.bulkWrite(this.collection(name), ops, session);
    } else {
      await Promise.all(writes.map(([name, ops]) => this.bulkWrite(this.collection(name), ops, undefined)));
      await this.removeDeletedMeanwhile(upserted);
    }
    // Column patches set values the projection keeps from the neighbours (absolute values, so
    // a retried batch sets them again), after the documents they may land on; `_pos` stays.
    for (const [name, byId] of plan.patches) {
      const ops: AnyBulkWriteOperation<StoredDoc>[] = [...byId].map(([id, columns]) => ({
        updateOne: { filter: { _id: id }, update: { $set: columns } },
      }));
      await this.bulkWrite(this.collection(name), ops, session);
    }
    await this.recordPosition(plan, reached, session);
  }

  /**
   * Without a transaction a newer delete (another projector's, in a rolling deploy) can run
   * between storedPositions and the upserts: its tombstone is written first, its guarded
   * delete finds nothing yet, and the upsert would bring the object back. Tombstones looked
   * for after the upserts close that gap: a delete whose tombstone is not there yet has not
   * run its delete either, and that delete then finds the document.
   */
  private async removeDeletedMeanwhile(upserted: Map<string, [string, number]>): Promise<void> {
    if (upserted.size === 0) return;
    const tombs = await this.tombstones.find({ _id: { $in: [...upserted.keys()] } }).toArray();
    const deletes = new Map<string, AnyBulkWriteOperation<StoredDoc>[]>();
    for (const tomb of tombs) {
      const [name, id] = upserted.get(tomb._id)!;
      const ops = deletes.get(name) ?? [];
      ops.push({ deleteOne: { filter: { _id: id, _pos: { $lt: tomb._pos } } } });
      deletes.set(name, ops);
    }
    await Promise.all([...deletes].map(([name, ops]) => this.bulkWrite(this.collection(name), ops, undefined)));
  }

  /** `<collection>#<id>` → the position of the stored document or tombstone, for the batch's documents. */
  private async storedPositions(plan: ApplyPlan, session: ClientSession | undefined): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    const deletedKeys: string[] = [];
    for (const [name, byId] of plan.latest) {
      const ids = [...byId.keys()];
      for (const id of ids) deletedKeys.push(tombstoneId(name, id));
      const docs = await this.collection(name)
        .find({ _id: { $in: ids } }, { projection: { _pos: 1 }, session })
        .toArray();
      for (const doc of docs) out.set(`${name}#${doc._id}`, Number(doc._pos ?? 0));
    }
    if (deletedKeys.length > 0) {
      const tombs = await this.tombstones.find({ _id: { $in: deletedKeys } }, { session }).toArray();
      for (const t of tombs) out.set(t._id, Math.max(out.get(t._id) ?? 0, t._pos));
    }
    return out;
  }

  private async bulkWrite<T extends Document>(
    collection: TimeLimitedCollection<T>,
    ops: AnyBulkWriteOperation<T>[],
    session: ClientSession | undefined,
  ): Promise<void> {
    try {
      await collection.bulkWrite(ops, { ordered: false, session });
    } catch (error) {
      if (isSkippedStaleUpsertsOnly(error)) return;
      throw error;
    }
  }

  /**
   * Highest ids always; the position (and layout) only with a batch's last part, and with it
   * the resume point when the log gave a cursor. The pair is set whole: one written by an
   * older projector (a rolling deploy) is older, never wrong, and a restart only reads more.
   */
  private async recordPosition(
    plan: ApplyPlan,
    reached: Reached | null,
    session: ClientSession | undefined,
  ): Promise<void> {
    const max: Record<string, number> =
      reached === null ? {} : { position: reached.position, format: READ_MODEL_FORMAT };
    for (const [name, id] of plan.maxIds) max[`maxIds.${encodeKey(name)}`] = id;
    if (Object.keys(max).length === 0) return;
    const update: UpdateFilter<MetaDoc> = { $max: max };
    if (reached?.cursor !== undefined) update.$set = { resume: { position: reached.position, cursor: reached.cursor } };
    try {
      await this.meta.updateOne({ _id: META_ID }, update, { upsert: true, session });
    } catch (error) {
      // Two first upserts at once: the loser finds the document the second time.
      if ((error as { code?: unknown }).code !== DUPLICATE_KEY || session) throw error;
      await this.meta.updateOne({ _id: META_ID }, update, { upsert: true });
    }
  }

  async position(): Promise<number> {
    const meta = await this.read(() => this.meta.findOne({ _id: META_ID }));
    return meta?.position ?? 0;
  }

  async resumePoint(): Promise<ResumePoint | null> {
    const meta = await this.read(() => this.meta.findOne({ _id: META_ID }));
    return asResumePoint(meta?.resume);
  }

  async maxIds(): Promise<Record<string, number>> {
    const meta = await this.read(() => this.meta.findOne({ _id: META_ID }));
    const out: Record<string, number> = {};
    for (const [key, id] of Object.entries(meta?.maxIds ?? {})) out[decodeKey(key)] = id;
    return out;
  }

  async get(collection: string, id: number): Promise<ReadDocument | null> {
    const doc = await this.read(() => this.collection(collection).findOne({ _id: id }, { projection: NO_ID }));
    return (doc as ReadDocument | null) ?? null;
  }

  async getMany(collection: string, ids: number[]): Promise<ReadDocument[]> {
    if (ids.length === 0) return [];
    const docs = await this.read(() =>
      this.collection(collection)
        .find({ _id: { $in: [...new Set(ids)] } }, { projection: NO_ID })
        .toArray(),
    );
    const byId = new Map(docs.map((d) => [d.id as number, d as unknown as ReadDocument]));
    const out: ReadDocument[] = [];
    for (const id of ids) {
      const doc = byId.get(id);
      if (doc) out.push(doc);
    }
    return out;
  }

  async find(collection: string, query: Query, options: FindOptions = {}): Promise<ReadDocument[]> {
    if (options.limit !== undefined && options.limit <= 0) return [];
    return this.read(() => this.page(collection, query, options, undefined));
  }

  private async page(
    collection: string,
    query: Query,
    options: FindOptions,
    session: ClientSession | undefined,
  ): Promise<ReadDocument[]> {
    if (options.limit !== undefined && options.limit <= 0) return [];
    const cursor = this.collection(collection, session).find(this.filter(collection, query), {
      projection: NO_ID,
      session,
    });
    if (options.sort && Object.keys(options.sort).length > 0) cursor.sort(options.sort);
    if (options.skip !== undefined && options.skip > 0) cursor.skip(options.skip);
    if (options.limit !== undefined) cursor.limit(options.limit);
    return (await cursor.toArray()) as unknown as ReadDocument[];
  }

  async count(collection: string, query: Query): Promise<number> {
    return this.read(() => this.inSnapshot((session) => this.cachedCount(collection, query, session)));
  }

  /** A list page and its count from one snapshot, so that they agree. */
  async findWithCount(
    collection: string,
    query: Query,
    options: FindOptions = {},
  ): Promise<{ count: number; docs: ReadDocument[] }> {
    return this.read(() =>
      this.inSnapshot(async (session) => {
        const count = await this.cachedCount(collection, query, session);
        const docs = await this.page(collection, query, options, session);
        return { count, docs };
      }),
    );
  }

  /**
   * The count at the snapshot's position, computed once per position and query. In a
   * snapshot every count is a countDocuments (the metadata count is not snapshot
   * consistent); the cache makes a client paging through a list pay for it once.
   */
  private async cachedCount(collection: string, query: Query, session: ClientSession | undefined): Promise<number> {
    const meta = await this.metaIn(session).findOne({ _id: META_ID }, { projection: { position: 1 }, session });
    const position = meta?.position ?? 0;
    const key = CountCache.key(collection, query);
    const known = this.counts.get(position, key);
    if (known !== undefined) return known;
    const count =
      Object.keys(query).length === 0 && !session
        ? await this.collection(collection).estimatedDocumentCount()
        : await this.collection(collection, session).countDocuments(this.filter(collection, query), { session });
    this.counts.set(position, key, count);
    return count;
  }

  private shadowed(collection: string): string[] | undefined {
    return this.options.caseInsensitiveFields?.get(collection);
  }

  /** The query as MongoDB runs it: exact and starts-with case-insensitive matches through the shadow keys. */
  private filter(collection: string, query: Query): Query {
    return useShadowKeys(query, this.shadowed(collection));
  }

  private async inSnapshot<T>(body: (session: ClientSession | undefined) => Promise<T>): Promise<T> {
    if (!this.transactional) return body(undefined);
    const session = this.mongo.startSession({ snapshot: true });
    try {
      return await body(session);
    } finally {
      await session.endSession().catch(() => undefined);
    }
  }

  /** A query past its time limit becomes a 503 the client can retry, not an opaque failure. */
  private async read<T>(query: () => Promise<T>): Promise<T> {
    try {
      return await query();
    } catch (error) {
      if (isTimeLimitError(error)) {
        throw new ReadStoreUnavailableError(`read model query exceeded its time limit of ${this.maxTimeMS} ms`, 5, {
          cause: error,
        });
      }
      throw error;
    }
  }

  async countBy(collection: string, field: string, values: number[]): Promise<Map<number, number>> {
    const result = new Map<number, number>();
    for (const v of values) result.set(v, 0);
    if (values.length === 0) return result;
    const distinct = [...result.keys()];
    // $unwind so that array fields count each element (a scalar unwinds to itself).
    const rows = await this.read(() =>
      this.collection(collection)
        .aggregate<{ _id: unknown; n: number }>([
          { $match: { [field]: { $in: distinct } } },
          { $project: { _id: 0, v: `$${field}` } },
          { $unwind: '$v' },
          { $match: { v: { $in: distinct } } },
          { $group: { _id: '$v', n: { $sum: 1 } } },
        ])
        .toArray(),
    );
    for (const row of rows) if (typeof row._id === 'number' && result.has(row._id)) result.set(row._id, row.n);
    return result;
  }

  /**
   * Walks the used addresses in order through the address index (from the range's
   * first address, only as far as the free ones asked for), the scope checked on the
   * documents: its cost grows with the used addresses below the free ones found.
   */
  async freeAddresses(query: FreeAddressQuery): Promise<AddressRun[]> {
    const cursor = this.collection(query.collection)
      .find(usedQuery(query), { projection: { _id: 0, [query.field]: 1 } })
      .sort({ [query.field]: 1 })
      .batchSize(1000);
    async function* values(): AsyncGenerator<bigint> {
      for await (const doc of cursor) {
        const value = sortKeyValue(doc[query.field], query.family);
        if (value !== null) yield value;
      }
    }
    try {
      return await this.read(() => findFreeRuns(ascendingUsed(values()), query));
    } finally {
      await cursor.close();
    }
  }

  async ensureIndexes(collection: string, fields: string[][]): Promise<void> {
    const known = this.declared.get(collection) ?? [];
    for (const compound of fields) {
      if (!known.some((k) => k.join('\u0000') === compound.join('\u0000'))) known.push([...compound]);
    }
    this.declared.set(collection, known);
    await this.createIndexes(collection, fields);
  }

  private async createIndexes(collection: string, fields: string[][]): Promise<void> {
    // Queries address documents by `id` (the compiler does not know about _id).
    const shadows = (this.shadowed(collection) ?? []).map((name) => [`${SHADOW}.${name}`]);
    const specs = [
      { key: { id: 1 } },
      ...[...fields, ...shadows]
        .filter((f) => f.length > 0)
        .map((f) => ({ key: Object.fromEntries(f.map((name) => [name, 1])) })),
    ];
    await this.collection(collection).createIndexes(specs as { key: Record<string, 1> }[]);
  }

  async drop(): Promise<void> {
    const collections = await this.database.listCollections({}, { nameOnly: true }).toArray();
    await Promise.all(
      collections.filter((c) => !c.name.startsWith('system.')).map((c) => this.database.dropCollection(c.name)),
    );
    for (const [collection, fields] of this.declared) await this.createIndexes(collection, fields);
    await this.ensureTombstoneExpiry();
  }
}
