/**
 * An in-process stand-in for a MongoDB deployment, speaking the part of the driver's
 * API that MongoReadStore uses, so that faults can be injected at chosen moments with
 * the driver's own error classes. Queries are evaluated by mingo, sorts with the
 * memory store's MongoDB sort rules.
 *
 * What it models of MongoDB: one database of collections keyed by _id; unordered bulk
 * writes whose guarded upserts fail on the _id index; `$max` updates; transactions with
 * snapshot reads, their writes visible only at commit, a write conflict when two of them
 * (or one and a plain write) touch the same document; snapshot sessions; `hello` of a
 * replica set or a standalone server; indexes as createIndexes and dropIndex keep them (an
 * equal one is no change, the same name or key with other options IndexOptionsConflict,
 * dropped with their collection) and the TTL monitor's removals when told to (expireTtl);
 * read concerns as the driver hands them down (the
 * connection string's readConcernLevel to every handle of the client, unless a handle
 * states its own) and applies them in a snapshot session (sessions.ts, applySession: the
 * level `snapshot` only when the command carries none, the snapshot's time added to the
 * one it carries, in place), and the server's answer (a snapshot only at level snapshot,
 * InvalidOptions for a time at another level, SnapshotTooOld for a time it has forgotten).
 * Several clients can share one FakeMongo (two projectors against one database).
 * Injected faults reach the caller dressed as the driver dresses them (see asDriverRaises).
 */
import { Aggregator, Query as MingoQuery } from 'mingo';
import {
  MongoBulkWriteError,
  type MongoClient,
  type MongoClientOptions,
  MongoNetworkError,
  MongoServerError,
  MongoServerSelectionError,
  MongoWriteConcernError,
  ReadConcern,
  type ReadConcernLevel,
} from 'mongodb';

import { compareKeys, compileSort, sortKey, sortValue } from '../../src/projections/querySemantics/sortOrder.js';
import type { ReadDocument } from '../../src/projections/ReadStore.js';

type Doc = Record<string, unknown>;
type State = Map<string, Map<unknown, Doc>>;

/** A write-concern error as the server reports it (`ok: 1`: the write itself was done), with the labels a 4.4+ server adds. */
function writeConcernError(
  code: number,
  codeName: string,
  errmsg: string,
  errorLabels: string[] = [],
): MongoWriteConcernError {
  return new MongoWriteConcernError({
    ok: 1,
    errorLabels,
    writeConcernError: { code, codeName, errmsg },
  } as unknown as ConstructorParameters<typeof MongoWriteConcernError>[0]);
}

/** The driver's errors as the server and the driver raise them. */
export const mongoErrors = {
  network: () => new MongoNetworkError('connection 3 to 10.0.0.5:27017 closed'),
  serverSelection: () =>
    new MongoServerSelectionError('Server selection timed out after 30000 ms', {
      error: undefined,
    } as unknown as ConstructorParameters<typeof MongoServerSelectionError>[1]),
  writeConflict: () =>
    new MongoServerError({
      message:
        'WriteConflict error: this operation conflicted with another operation. Please retry your operation or multi-document transaction.',
      code: 112,
      codeName: 'WriteConflict',
      errorLabels: ['TransientTransactionError'],
    }),
  unknownCommitResult: () =>
    new MongoServerError({
      message: 'operation exceeded time limit',
      code: 50,
      codeName: 'MaxTimeMSExpired',
      errorLabels: ['UnknownTransactionCommitResult'],
    }),
  writeConcern: () =>
    new MongoWriteConcernError({
      ok: 1,
      writeConcernError: {
        code: 64,
        codeName: 'WriteConcernFailed',
        errmsg: 'waiting for replication timed out',
        errInfo: { wtimeout: true },
      },
    } as unknown as ConstructorParameters<typeof MongoWriteConcernError>[0]),
  /** Any write-concern error by its code (a primary stepping down or shutting down reports one with the write done). */
  writeConcernWith: writeConcernError,
  /** `w: 'dc2'` names no mode of the replica set's configuration. */
  unknownWriteConcernMode: () =>
    writeConcernError(79, 'UnknownReplWriteConcern', 'unrecognized getLastError mode: dc2'),
  /** `w: 'majority'` with too few data-bearing voting members, `j: true` without journaling. */
  unsatisfiableWriteConcern: () => writeConcernError(100, 'UnsatisfiableWriteConcern', 'Not enough data-bearing nodes'),
  steppedDown: () =>
    new MongoServerError({
      message: 'not primary',
      code: 10107,
      codeName: 'NotWritablePrimary',
      errorLabels: ['RetryableWriteError'],
    }),
  unauthorized: () =>
    new MongoServerError({
      message: 'not authorized on netledger to execute command',
      code: 13,
      codeName: 'Unauthorized',
    }),
  maxTimeExpired: () =>
    new MongoServerError({ message: 'operation exceeded time limit', code: 50, codeName: 'MaxTimeMSExpired' }),
  documentTooLarge: () =>
    new MongoBulkWriteError(
      {
        message: 'document too large',
        code: 10334,
        writeErrors: [{ code: 10334, errmsg: 'BSONObj size is invalid' }],
      } as unknown as ConstructorParameters<typeof MongoBulkWriteError>[0],
      { getWriteConcernError: () => undefined } as unknown as ConstructorParameters<typeof MongoBulkWriteError>[1],
    ),
};

export type FakeOp =
  | 'hello'
  | 'find'
  | 'findOne'
  | 'countDocuments'
  | 'estimatedDocumentCount'
  | 'aggregate'
  | 'bulkWrite'
  | 'updateOne'
  | 'updateMany'
  | 'commitTransaction'
  | 'createIndexes'
  | 'dropIndex';

interface Fault {
  op: FakeOp;
  collection?: string;
  error: () => Error;
  /** 'after': the operation takes effect, then the error is raised (a lost answer). */
  when: 'before' | 'after';
  remaining: number;
}

interface Hook {
  op: FakeOp;
  collection?: string;
  run: () => Promise<void> | void;
}

export interface OpRecord {
  op: FakeOp;
  collection?: string;
  /** The options as the caller passed them (a cursor's with what its methods set, such as maxTimeMS). */
  options?: Record<string, unknown>;
  filter?: Doc;
}

/** Options a read is called with, as the driver's find, findOne, count and aggregate take them. */
type ReadOptions = { projection?: Record<string, number>; session?: unknown; maxTimeMS?: number };

/**
 * A fault as the driver hands it to the caller: a network error inside a transaction
 * labelled TransientTransactionError (sdam/server.js), a commit's write-concern error
 * UnknownTransactionCommitResult (sessions.ts), and whatever stops a bulk write's
 * command wrapped in a MongoBulkWriteError that keeps the original only as its
 * `errorResponse` (bulk/common.js; a write-concern error is rewrapped with its result).
 */
export function asDriverRaises(error: Error, op: FakeOp, inTransaction: boolean): Error {
  if (inTransaction && op !== 'commitTransaction' && error instanceof MongoNetworkError)
    error.addErrorLabel('TransientTransactionError');
  // A commit's write-concern error leaves its outcome unknown, unless the write concern can never be satisfied (sessions.ts).
  if (op === 'commitTransaction' && error instanceof MongoWriteConcernError && error.code !== 79 && error.code !== 100)
    error.addErrorLabel('UnknownTransactionCommitResult');
  if (op !== 'bulkWrite' || error instanceof MongoBulkWriteError) return error;
  type Result = ConstructorParameters<typeof MongoBulkWriteError>[1];
  if (error instanceof MongoWriteConcernError) {
    const concern = error.result.writeConcernError as { code: number; errmsg: string };
    return new MongoBulkWriteError({ message: concern.errmsg, code: concern.code }, {
      getWriteConcernError: () => concern,
    } as unknown as Result);
  }
  return new MongoBulkWriteError(
    error as unknown as ConstructorParameters<typeof MongoBulkWriteError>[0],
    { getWriteConcernError: () => undefined } as unknown as Result,
  );
}

type IndexSpec = Record<string, unknown> & { key: Record<string, unknown>; name: string };

/** The name the driver gives an index it is not told one for (`_at_1`, `a_1_b_-1`). */
function defaultIndexName(key: Record<string, unknown>): string {
  return Object.entries(key)
    .map(([field, dir]) => `${field}_${String(dir)}`)
    .join('_');
}

/** An index's options besides its key and name, comparable (`expireAfterSeconds` among them). */
function indexOptions(spec: Record<string, unknown>): string {
  const { key: _key, name: _name, ...options } = spec;
  return JSON.stringify(Object.entries(options).sort(([a], [b]) => a.localeCompare(b)));
}

function indexConflict(code: 85 | 86, message: string): MongoServerError {
  return new MongoServerError({
    message,
    code,
    codeName: code === 85 ? 'IndexOptionsConflict' : 'IndexKeySpecsConflict',
  });
}

function clone<T>(v: T): T {
  return structuredClone(v);
}

function cloneState(state: State): State {
  const out: State = new Map();
  for (const [name, docs] of state) out.set(name, new Map([...docs].map(([id, d]) => [id, clone(d)])));
  return out;
}

/** How many past moments the server can still read a snapshot at (its snapshot history window). */
const SNAPSHOT_HISTORY = 8;

export class FakeMongo {
  state: State = new Map();
  /** Moved by every change: the cluster time a snapshot read is pinned to. */
  private clusterTime = 0;
  /** The state at the cluster times snapshot reads were pinned to, oldest first. */
  private readonly snapshots = new Map<number, State>();
  /** Version per `collection\0_id`, bumped by every committed write (write-conflict detection). */
  private versions = new Map<string, number>();
  private faults: Fault[] = [];
  private hooks: Hook[] = [];
  readonly ops: OpRecord[] = [];
  /** Per collection, its indexes as created: `{ key, name, ...options }`. */
  readonly indexes = new Map<string, IndexSpec[]>();

  constructor(readonly kind: 'replicaSet' | 'standalone' = 'replicaSet') {}

  /** A client; a read concern in the URL (readConcernLevel) or in the options, which win, is its default. */
  client(url = 'mongodb://fake', options: MongoClientOptions = {}): MongoClient {
    const level = new URL(url).searchParams.get('readConcernLevel') as ReadConcernLevel | null;
    const readConcern = ReadConcern.fromOptions(options) ?? (level ? new ReadConcern(level) : undefined);
    return new FakeClient(this, readConcern) as unknown as MongoClient;
  }

  /** The state at a cluster time (now when none is named), as a snapshot read sees it. */
  snapshotAt(time: number = this.clusterTime): { time: number; state: State } {
    let state = this.snapshots.get(time);
    if (!state) {
      if (time !== this.clusterTime) {
        throw new MongoServerError({
          message: `Read timestamp ${time} is older than the oldest available timestamp.`,
          code: 239,
          codeName: 'SnapshotTooOld',
        });
      }
      this.snapshots.set(time, (state = cloneState(this.state)));
      if (this.snapshots.size > SNAPSHOT_HISTORY) this.snapshots.delete(this.snapshots.keys().next().value as number);
    }
    return { time, state };
  }

  /** A collection dropped, with its indexes: a change like any other. */
  dropCollection(name: string): void {
    this.state.delete(name);
    this.indexes.delete(name);
    this.clusterTime++;
  }

  /**
   * What the TTL monitor removes at `now`: in each collection with a TTL index, the documents
   * whose indexed field is a date more than expireAfterSeconds before it (a missing or
   * non-date field never expires; an array expires by its earliest date). Each removal is a
   * plain delete (a transaction that wrote the document conflicts). Returns how many.
   */
  expireTtl(now: Date): number {
    const removed = new Map<string, { collection: string; id: unknown; doc: null }>();
    for (const [collection, specs] of this.indexes) {
      for (const spec of specs) {
        if (typeof spec.expireAfterSeconds !== 'number') continue;
        const field = Object.keys(spec.key)[0]!;
        const cutoff = now.getTime() - spec.expireAfterSeconds * 1000;
        for (const [id, doc] of this.state.get(collection) ?? []) {
          const dates = [doc[field]].flat().filter((v): v is Date => v instanceof Date);
          if (dates.length > 0 && Math.min(...dates.map((d) => d.getTime())) < cutoff) {
            removed.set(`${collection}\u0000${String(id)}`, { collection, id, doc: null });
          }
        }
      }
    }
    if (removed.size > 0) this.commit(removed);
    return removed.size;
  }

  /** createIndexes on the server: an equal index is no change; the same name or key with other options is refused. */
  createIndexes(collection: string, specs: Array<Record<string, unknown>>): string[] {
    const known = this.indexes.get(collection) ?? [];
    const names: string[] = [];
    for (const requested of specs) {
      const key = requested.key as Record<string, unknown>;
      const spec: IndexSpec = {
        ...requested,
        key,
        name: (requested.name as string | undefined) ?? defaultIndexName(key),
      };
      const sameName = known.find((k) => k.name === spec.name);
      const sameKey = known.find((k) => JSON.stringify(k.key) === JSON.stringify(key));
      if (sameName && JSON.stringify(sameName.key) !== JSON.stringify(key)) {
        throw indexConflict(
          86,
          `An existing index has the same name as the requested index but a different key. Requested index: ${JSON.stringify(spec)}, existing index: ${JSON.stringify(sameName)}`,
        );
      }
      if (sameKey && (sameKey.name !== spec.name || indexOptions(sameKey) !== indexOptions(spec))) {
        throw indexConflict(
          85,
          `An equivalent index already exists with a different name or options. Requested index: ${JSON.stringify(spec)}, existing index: ${JSON.stringify(sameKey)}`,
        );
      }
      if (!sameKey) known.push(spec);
      names.push(spec.name);
    }
    this.indexes.set(collection, known);
    return names;
  }

  /** dropIndex by name: IndexNotFound when there is none, NamespaceNotFound without the collection. */
  dropIndex(collection: string, name: string): Doc {
    const known = this.indexes.get(collection);
    if (!known && !this.state.has(collection))
      throw new MongoServerError({
        message: `ns not found netledger.${collection}`,
        code: 26,
        codeName: 'NamespaceNotFound',
      });
    const at = known?.findIndex((k) => k.name === name) ?? -1;
    if (at < 0)
      throw new MongoServerError({
        message: `index not found with name [${name}]`,
        code: 27,
        codeName: 'IndexNotFound',
      });
    known!.splice(at, 1);
    return { ok: 1 };
  }

  /** The next `times` calls of `op` (on `collection`, if named) fail with `error`. */
  fail(
    op: FakeOp,
    error: () => Error,
    options: { times?: number; collection?: string; when?: 'before' | 'after' } = {},
  ): void {
    this.faults.push({
      op,
      error,
      collection: options.collection,
      when: options.when ?? 'before',
      remaining: options.times ?? 1,
    });
  }

  /** Every call of `op` fails from now on, until `heal()`. */
  failAlways(op: FakeOp, error: () => Error, collection?: string): void {
    this.fail(op, error, { times: Infinity, collection });
  }

  heal(): void {
    this.faults = [];
  }

  /** Runs `run` once, just before the next call of `op`. */
  before(op: FakeOp, run: () => Promise<void> | void, collection?: string): void {
    this.hooks.push({ op, collection, run });
  }

  docs(collection: string): Doc[] {
    return [...(this.state.get(collection)?.values() ?? [])].map(clone);
  }

  /** Called by every operation: records it, runs a hook, raises a 'before' fault. */
  async enter(
    op: FakeOp,
    collection?: string,
    options?: Record<string, unknown>,
    filter?: Doc,
    session?: unknown,
  ): Promise<void> {
    this.ops.push({ op, collection, options, filter });
    const hook = this.hooks.findIndex(
      (h) => h.op === op && (h.collection === undefined || h.collection === collection),
    );
    if (hook >= 0) {
      const [h] = this.hooks.splice(hook, 1);
      await h!.run();
    }
    await Promise.resolve();
    this.raise(op, collection, 'before', session);
  }

  leave(op: FakeOp, collection?: string, session?: unknown): void {
    this.raise(op, collection, 'after', session);
  }

  private raise(op: FakeOp, collection: string | undefined, when: 'before' | 'after', session: unknown): void {
    const fault = this.faults.find(
      (f) =>
        f.op === op &&
        f.when === when &&
        f.remaining > 0 &&
        (f.collection === undefined || f.collection === collection),
    );
    if (!fault) return;
    fault.remaining--;
    throw asDriverRaises(fault.error(), op, (session as FakeSession | undefined)?.inTransaction() ?? false);
  }

  version(key: string): number {
    return this.versions.get(key) ?? 0;
  }

  versionsSnapshot(): Map<string, number> {
    return new Map(this.versions);
  }

  /** Commits writes to the shared state. */
  commit(writes: Map<string, { collection: string; id: unknown; doc: Doc | null }>): void {
    for (const [key, w] of writes) {
      let docs = this.state.get(w.collection);
      if (!docs) this.state.set(w.collection, (docs = new Map()));
      if (w.doc === null) docs.delete(w.id);
      else docs.set(w.id, clone(w.doc));
      this.versions.set(key, this.version(key) + 1);
    }
    this.clusterTime++;
  }
}

/** Where an operation reads and writes: the shared state, a transaction or a snapshot. */
interface Scope {
  read(): State;
  write(collection: string, id: unknown, doc: Doc | null): void;
}

class FakeSession {
  private tx: {
    view: State;
    start: Map<string, number>;
    writes: Map<string, { collection: string; id: unknown; doc: Doc | null }>;
  } | null = null;
  /** The cluster time of the session's snapshot, once a read at level snapshot has pinned it. */
  private snapshotTime: number | undefined;
  ended = false;

  constructor(
    private readonly server: FakeMongo,
    private readonly snapshot: boolean,
  ) {}

  startTransaction(): void {
    if (this.tx) throw new Error('Transaction already in progress');
    this.tx = { view: cloneState(this.server.state), start: this.server.versionsSnapshot(), writes: new Map() };
  }

  inTransaction(): boolean {
    return this.tx !== null;
  }

  async commitTransaction(): Promise<void> {
    const tx = this.tx;
    if (!tx) throw new Error('No transaction started');
    await this.server.enter('commitTransaction');
    for (const key of tx.writes.keys()) {
      if (this.server.version(key) !== (tx.start.get(key) ?? 0)) {
        this.tx = null;
        throw mongoErrors.writeConflict();
      }
    }
    this.server.commit(tx.writes);
    this.tx = null;
    this.server.leave('commitTransaction');
  }

  async abortTransaction(): Promise<void> {
    this.tx = null;
  }

  async endSession(): Promise<void> {
    this.ended = true;
    this.tx = null;
  }

  /** Where the session's operations read and write; a read's own read concern (or its handle's) is `readConcern`. */
  scope(readConcern?: ReadConcern): Scope {
    const server = this.server;
    const tx = this.tx;
    if (tx) {
      return {
        read: () => tx.view,
        write: (collection, id, doc) => {
          const key = `${collection}\u0000${String(id)}`;
          // A document changed by someone else since the transaction started: a write conflict, as MongoDB raises it.
          if (server.version(key) !== (tx.start.get(key) ?? 0)) throw mongoErrors.writeConflict();
          let docs = tx.view.get(collection);
          if (!docs) tx.view.set(collection, (docs = new Map()));
          if (doc === null) docs.delete(id);
          else docs.set(id, clone(doc));
          tx.writes.set(key, { collection, id, doc });
        },
      };
    }
    if (this.snapshot) {
      return {
        read: () => this.snapshotRead(readConcern),
        write: () => {
          throw new Error('writes are not allowed in a snapshot session');
        },
      };
    }
    return directScope(server);
  }

  /** A read in a snapshot session, as the driver sends it and the server answers it. */
  private snapshotRead(inherited: ReadConcern | undefined): State {
    const concern: { level?: string; atClusterTime?: number } = inherited ?? { level: 'snapshot' };
    if (this.snapshotTime !== undefined) Object.assign(concern, { atClusterTime: this.snapshotTime });
    if (concern.level !== 'snapshot') {
      if (concern.atClusterTime !== undefined) {
        throw new MongoServerError({
          message: 'readConcern.atClusterTime field can be set only if level is equal to snapshot',
          code: 72,
          codeName: 'InvalidOptions',
        });
      }
      // No snapshot is pinned: the read sees its own moment.
      return this.server.state;
    }
    const { time, state } = this.server.snapshotAt(concern.atClusterTime);
    this.snapshotTime ??= time;
    return state;
  }
}

function directScope(server: FakeMongo): Scope {
  return {
    read: () => server.state,
    write: (collection, id, doc) =>
      server.commit(new Map([[`${collection}\u0000${String(id)}`, { collection, id, doc }]])),
  };
}

class FakeClient {
  constructor(
    private readonly server: FakeMongo,
    private readonly readConcern: ReadConcern | undefined,
  ) {}
  async connect(): Promise<this> {
    return this;
  }
  async close(): Promise<void> {}
  /** A handle with the client's options, overridden by its own (merged as the driver merges them: an own `undefined` too). */
  db(_name?: string, options: { readConcern?: ReadConcern } = {}): FakeDb {
    return new FakeDb(this.server, ReadConcern.fromOptions(Object.assign({ readConcern: this.readConcern }, options)));
  }
  startSession(options: { snapshot?: boolean } = {}): FakeSession {
    return new FakeSession(this.server, options.snapshot === true);
  }
}

class FakeDb {
  constructor(
    private readonly server: FakeMongo,
    private readonly readConcern: ReadConcern | undefined,
  ) {}
  async command(command: Record<string, unknown>): Promise<Doc> {
    if (!('hello' in command)) throw new Error(`fake MongoDB: unsupported command ${Object.keys(command)[0]}`);
    await this.server.enter('hello');
    return this.server.kind === 'replicaSet'
      ? { isWritablePrimary: true, setName: 'rs0', hosts: ['mongo:27017'], ok: 1 }
      : { isWritablePrimary: true, ok: 1 };
  }
  collection(name: string): FakeCollection {
    return new FakeCollection(this.server, name, this.readConcern);
  }
  listCollections(): { toArray(): Promise<Array<{ name: string }>> } {
    return { toArray: async () => [...this.server.state.keys()].map((name) => ({ name })) };
  }
  async dropCollection(name: string): Promise<boolean> {
    this.server.dropCollection(name);
    return true;
  }
}

function scopeOf(server: FakeMongo, options?: { session?: unknown }, readConcern?: ReadConcern): Scope {
  return options?.session ? (options.session as FakeSession).scope(readConcern) : directScope(server);
}

function matcher(filter: Doc): (doc: Doc) => boolean {
  const query = new MingoQuery(filter);
  return (doc) => query.test(doc);
}

function project(doc: Doc, projection: Record<string, number> | undefined): Doc {
  const out = clone(doc);
  if (!projection) return out;
  const included = Object.entries(projection)
    .filter(([, v]) => v === 1)
    .map(([k]) => k);
  if (included.length > 0) {
    const picked: Doc = {};
    for (const k of included) if (k in out) picked[k] = out[k];
    if (projection._id !== 0) picked._id = out._id;
    return picked;
  }
  for (const [k, v] of Object.entries(projection)) if (v === 0) delete out[k];
  return out;
}

function applyMax(doc: Doc, max: Record<string, unknown>): Doc {
  const out = clone(doc);
  for (const [path, value] of Object.entries(max)) {
    const parts = path.split('.');
    let at = out;
    for (const p of parts.slice(0, -1)) at = (at[p] ??= {}) as Doc;
    const last = parts[parts.length - 1]!;
    if (at[last] === undefined || (at[last] as number) < (value as number)) at[last] = value;
  }
  return out;
}

function duplicateKey(index: number): { index: number; code: number; errmsg: string } {
  return { index, code: 11000, errmsg: 'E11000 duplicate key error collection index: _id_' };
}

class FakeCollection {
  constructor(
    private readonly server: FakeMongo,
    private readonly name: string,
    private readonly readConcern: ReadConcern | undefined,
  ) {}

  /** Where a read looks: its session's scope under the read concern the command carries (the handle's, unless its own). */
  private readScope(options: ReadOptions & { readConcern?: ReadConcern }): Scope {
    return scopeOf(this.server, options, ReadConcern.fromOptions(options) ?? this.readConcern);
  }

  private docsIn(scope: Scope): Doc[] {
    return [...(scope.read().get(this.name)?.values() ?? [])];
  }

  /** The matching documents; `{ _id: { $in: [...] } }` by lookup, as the _id index would. */
  private select(scope: Scope, filter: Doc): Doc[] {
    const ids = (filter._id as { $in?: unknown[] } | undefined)?.$in;
    if (Object.keys(filter).length === 1 && Array.isArray(ids)) {
      const docs = scope.read().get(this.name);
      return [...new Set(ids)].map((id) => docs?.get(id)).filter((d): d is Doc => d !== undefined);
    }
    return this.docsIn(scope).filter(matcher(filter));
  }

  find(filter: Doc, options: ReadOptions = {}): FakeCursor {
    return new FakeCursor(async (cursor) => {
      await this.server.enter(
        'find',
        this.name,
        { ...options, maxTimeMS: cursor.maxTime ?? options.maxTimeMS },
        filter,
        options.session,
      );
      let docs = this.select(this.readScope(options), filter);
      if (cursor.sortSpec) {
        const spec = compileSort(cursor.sortSpec);
        docs = docs
          .map((d) => ({ d, keys: spec.map((k) => sortKey(sortValue(d as ReadDocument, k))) }))
          .sort((a, b) => {
            for (let i = 0; i < spec.length; i++) {
              const r = compareKeys(a.keys[i], b.keys[i]);
              if (r !== 0) return r * spec[i]!.dir;
            }
            return 0;
          })
          .map((x) => x.d);
      }
      if (cursor.skipN) docs = docs.slice(cursor.skipN);
      if (cursor.limitN) docs = docs.slice(0, cursor.limitN);
      this.server.leave('find', this.name, options.session);
      return docs.map((d) => project(d, options.projection));
    });
  }

  async findOne(filter: Doc, options: ReadOptions = {}): Promise<Doc | null> {
    await this.server.enter('findOne', this.name, options, filter, options.session);
    const found = this.docsIn(this.readScope(options)).find(matcher(filter));
    this.server.leave('findOne', this.name, options.session);
    return found ? project(found, options.projection) : null;
  }

  async countDocuments(filter: Doc, options: ReadOptions = {}): Promise<number> {
    await this.server.enter('countDocuments', this.name, options, filter, options.session);
    const n = this.docsIn(this.readScope(options)).filter(matcher(filter)).length;
    this.server.leave('countDocuments', this.name, options.session);
    return n;
  }

  async estimatedDocumentCount(options: ReadOptions = {}): Promise<number> {
    await this.server.enter('estimatedDocumentCount', this.name, options);
    return this.docsIn(directScope(this.server)).length;
  }

  aggregate(pipeline: Doc[], options: ReadOptions = {}): { toArray(): Promise<Doc[]> } {
    return {
      toArray: async () => {
        await this.server.enter('aggregate', this.name, options, undefined, options.session);
        return new Aggregator(pipeline).run(this.docsIn(this.readScope(options)).map(clone)) as Doc[];
      },
    };
  }

  async createIndexes(specs: Array<Record<string, unknown>>): Promise<string[]> {
    await this.server.enter('createIndexes', this.name);
    const names = this.server.createIndexes(this.name, specs);
    this.server.leave('createIndexes', this.name);
    return names;
  }

  async dropIndex(name: string): Promise<Doc> {
    await this.server.enter('dropIndex', this.name);
    const answer = this.server.dropIndex(this.name, name);
    this.server.leave('dropIndex', this.name);
    return answer;
  }

  /** `$set` on every matching document (no upsert), each a write of its own, as outside a transaction. */
  async updateMany(
    filter: Doc,
    update: { $set: Doc },
    options: { session?: unknown } = {},
  ): Promise<{ matchedCount: number; modifiedCount: number }> {
    await this.server.enter('updateMany', this.name, undefined, filter, options.session);
    const scope = scopeOf(this.server, options);
    const found = this.docsIn(scope).filter(matcher(filter));
    for (const doc of found) scope.write(this.name, doc._id, { ...clone(doc), ...clone(update.$set) });
    this.server.leave('updateMany', this.name, options.session);
    return { matchedCount: found.length, modifiedCount: found.length };
  }

  async updateOne(
    filter: Doc,
    update: { $max: Record<string, unknown>; $set?: Doc },
    options: { upsert?: boolean; session?: unknown } = {},
  ): Promise<unknown> {
    await this.server.enter('updateOne', this.name, undefined, undefined, options.session);
    const scope = scopeOf(this.server, options);
    const found = this.docsIn(scope).find(matcher(filter));
    const updated = (doc: Doc) => ({ ...applyMax(doc, update.$max), ...clone(update.$set ?? {}) });
    if (found) scope.write(this.name, found._id, updated(found));
    else if (options.upsert) scope.write(this.name, filter._id, updated({ _id: filter._id }));
    this.server.leave('updateOne', this.name, options.session);
    return { acknowledged: true };
  }

  /** Unordered: every operation is tried; the failed ones are reported together at the end. */
  async bulkWrite(ops: Doc[], options: { ordered?: boolean; session?: unknown } = {}): Promise<unknown> {
    await this.server.enter('bulkWrite', this.name, undefined, undefined, options.session);
    const scope = scopeOf(this.server, options);
    const writeErrors: Array<{ index: number; code: number; errmsg: string }> = [];
    const docs = () => scope.read().get(this.name);
    ops.forEach((op, index) => {
      const [kind, spec] = Object.entries(op)[0] as [
        string,
        { filter: Doc; replacement?: Doc; update?: { $set?: Doc }; upsert?: boolean },
      ];
      // Every filter names its _id: look the document up, then test the rest of the filter on it.
      const id = spec.filter._id;
      const stored = docs()?.get(id);
      const found = stored && matcher(spec.filter)(stored) ? stored : undefined;
      if (kind === 'deleteOne') {
        if (found) scope.write(this.name, id, null);
      } else if (kind === 'replaceOne') {
        if (found) scope.write(this.name, id, { ...spec.replacement!, _id: id });
        else if (spec.upsert) {
          if (stored) writeErrors.push(duplicateKey(index));
          else scope.write(this.name, id, { ...spec.replacement!, _id: id });
        }
      } else if (kind === 'updateOne' && spec.update?.$set && !spec.upsert) {
        if (found) scope.write(this.name, id, { ...found, ...spec.update.$set, _id: id });
      } else throw new Error(`fake MongoDB: unsupported bulk operation ${kind}`);
    });
    if (writeErrors.length > 0) {
      throw new MongoBulkWriteError(
        { message: writeErrors[0]!.errmsg, code: 11000, writeErrors } as unknown as ConstructorParameters<
          typeof MongoBulkWriteError
        >[0],
        { getWriteConcernError: () => undefined } as unknown as ConstructorParameters<typeof MongoBulkWriteError>[1],
      );
    }
    this.server.leave('bulkWrite', this.name, options.session);
    return { ok: 1 };
  }
}

class FakeCursor {
  sortSpec: Record<string, 1 | -1> | null = null;
  skipN = 0;
  limitN = 0;
  maxTime: number | undefined;

  constructor(private readonly run: (cursor: FakeCursor) => Promise<Doc[]>) {}

  sort(spec: Record<string, 1 | -1>): this {
    this.sortSpec = spec;
    return this;
  }
  skip(n: number): this {
    this.skipN = n;
    return this;
  }
  limit(n: number): this {
    this.limitN = n;
    return this;
  }
  maxTimeMS(ms: number): this {
    this.maxTime = ms;
    return this;
  }
  batchSize(): this {
    return this;
  }
  toArray(): Promise<Doc[]> {
    return this.run(this);
  }
  async close(): Promise<void> {}
  async *[Symbol.asyncIterator](): AsyncGenerator<Doc> {
    for (const doc of await this.run(this)) yield doc;
  }
}
