/**
 * The read-model port. Documents are stored objects (foreign keys as ids, choices
 * bare) plus hidden derived keys (leading '_') and `_pos`, the log position that
 * last wrote them. Queries are MongoDB query documents, evaluated identically by
 * both adapters (MemoryReadStore through mingo, MongoReadStore by MongoDB).
 */
import type { LogCursor, ResumePoint } from '../events/EventLog.js';
import type { AddressRun, FreeAddressQuery } from '../models/lookupView.js';

export type ReadDocument = { id: number; _pos: number } & Record<string, unknown>;

/** MongoDB query document, e.g. { site: 3, status: { $in: ['active'] } }. */
export type Query = Record<string, unknown>;

/** MongoDB sort specification, e.g. { _name: 1, id: 1 }. Keys in precedence order. */
export type Sort = Record<string, 1 | -1>;

export interface FindOptions {
  sort?: Sort;
  skip?: number;
  limit?: number;
}

/**
 * One projected write: the new document, or null when the object was deleted; or, with
 * `columns`, a column patch: those columns of the stored document are set (when it
 * exists) and nothing else changes, not its `_pos` (values the projection keeps for an
 * object from its neighbours are no new version of it); `doc` is then null.
 */
export interface DocumentChange {
  collection: string;
  id: number;
  position: number;
  doc: ReadDocument | null;
  columns?: Record<string, unknown>;
}

export interface ReadStore {
  open(): Promise<void>;

  /**
   * Apply projected changes in order and record `position` as reached. A change
   * whose position is not newer than the stored document's `_pos` is skipped, so
   * applying the same batch twice leaves the same state.
   */
  apply(changes: DocumentChange[], position: number, cursor?: LogCursor): Promise<void>;

  /**
   * Optional: runs the projector's reads that prepare an apply (a batch's neighbours, for
   * projected columns), retrying the failures that heal by themselves as `apply` does: one
   * there would otherwise stop the projector as surely as one in the apply.
   */
  retrying?<T>(reads: () => Promise<T>): Promise<T>;

  /**
   * Optional: whether an error is the store's own failure (its server or driver: refused
   * credentials, a closed client), which `retrying` passes through at once when it is not
   * transient. Readers outside requests (the webhook worker) stop on it and start again
   * rather than blame the data they were reading.
   */
  isStoreFailure?(error: unknown): boolean;

  /** The last log position applied (0 when empty). */
  position(): Promise<number>;

  /**
   * The last position applied with a log cursor (see EventLog.subscribe), and that cursor:
   * where the projector resumes reading a log that cannot find positions by itself.
   * Null when no cursor was ever given (the file log gives none).
   */
  resumePoint(): Promise<ResumePoint | null>;

  /** Highest id ever created per collection (ids are never reused). */
  maxIds(): Promise<Record<string, number>>;

  get(collection: string, id: number): Promise<ReadDocument | null>;
  getMany(collection: string, ids: number[]): Promise<ReadDocument[]>;
  find(collection: string, query: Query, options?: FindOptions): Promise<ReadDocument[]>;
  count(collection: string, query: Query): Promise<number>;
  /**
   * Optional: `count(query)` and `find(query, options)` together (a list page and its
   * count), in one pass over the matching documents where the adapter can.
   */
  findWithCount?(
    collection: string,
    query: Query,
    options?: FindOptions,
  ): Promise<{ count: number; docs: ReadDocument[] }>;
  /** How many documents have `field` equal to each of `values` (for count fields). */
  countBy(collection: string, field: string, values: number[]): Promise<Map<number, number>>;

  /**
   * The lowest free addresses of a range (see FreeAddressQuery), from an ordered index of
   * the addresses the documents hold rather than from all of them: the cost of finding
   * the next free address must not grow with how full the range is (the memory store
   * keeps the distinct addresses sorted; MongoDB walks its address index, which costs
   * the used addresses below the ones found).
   */
  freeAddresses(query: FreeAddressQuery): Promise<AddressRun[]>;

  /** Declare indexes a collection should keep (field paths, ascending). */
  ensureIndexes(collection: string, fields: string[][]): Promise<void>;

  /** Remove every document and the recorded position (before a rebuild). */
  drop(): Promise<void>;
  close(): Promise<void>;
}
