/**
 * The ReadStore port on MongoDB: one MongoDB collection per registry collection
 * (names such as 'dcim.site' are valid), documents stored with `_id = id` (and
 * `id` kept), `_id` stripped on the way out. Queries and sorts are passed through
 * as-is: they come from our query compiler, never from users. MongoDB's default
 * (simple) collation compares strings bytewise, which the memory adapter imitates.
 *
 * Progress lives in `netledger_meta`: `{ _id: 'projection', position, maxIds }`.
 * maxIds keys are collection names, which contain dots, so they are stored
 * escaped ('%' → '%25', '.' → '%2E', a leading '$' → '%24').
 *
 * `limit: 0` (or negative) returns no documents, like MemoryReadStore (MongoDB
 * itself would read 0 as "no limit").
 */

import {
  MongoBulkWriteError,
  MongoClient,
  type AnyBulkWriteOperation,
  type Collection,
  type Db,
  type Document,
  type MongoClientOptions,
} from 'mongodb';
import { ascendingUsed, findFreeRuns, usedQuery } from '../models/allocation/freeAddresses.js';
import type { AddressRun, FreeAddressQuery } from '../models/types.js';
import { sortKeyValue } from '../models/values/ipNetworks.js';
import type { DocumentChange, FindOptions, Query, ReadDocument, ReadStore } from './ReadStore.js';

export interface MongoReadStoreOptions {
  url: string;
  dbName: string;
  client?: MongoClientOptions;
}

const META = 'netledger_meta';
const META_ID = 'projection';
const DUPLICATE_KEY = 11000;

interface MetaDoc {
  _id: string;
  position?: number;
  maxIds?: Record<string, number>;
}

type StoredDoc = Document & { _id: number };

function encodeKey(name: string): string {
  return name.replace(/%/g, '%25').replace(/\./g, '%2E').replace(/^\$/, '%24');
}

function decodeKey(key: string): string {
  return key.replace(/%(25|2E|24)/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

const NO_ID = { _id: 0 } as const;

export class MongoReadStore implements ReadStore {
  private readonly client: MongoClient;
  private db: Db | null = null;
  /** Declared indexes, re-created after drop(). */
  private readonly declared = new Map<string, string[][]>();

  constructor(private readonly options: MongoReadStoreOptions) {
    this.client = new MongoClient(options.url, { ignoreUndefined: true, ...options.client });
  }

  async open(): Promise<void> {
    await this.client.connect();
    this.db = this.client.db(this.options.dbName);
  }

  async close(): Promise<void> {
    await this.client.close();
    this.db = null;
  }

  private get database(): Db {
    if (!this.db) throw new Error('MongoReadStore is not open');
    return this.db;
  }

  private collection(name: string): Collection<StoredDoc> {
    return this.database.collection<StoredDoc>(name);
  }

  private get meta(): Collection<MetaDoc> {
    return this.database.collection<MetaDoc>(META);
  }

  async apply(changes: DocumentChange[], position: number): Promise<void> {
    // Changes are split into rounds so that no round touches one document twice:
    // inside a round, order does not matter and an unordered bulk write can skip
    // a guarded upsert (duplicate key) without stopping the others. Rounds run
    // in order, so the result is that of applying the changes one by one.
    const rounds: Map<string, AnyBulkWriteOperation<StoredDoc>[]>[] = [];
    const writesPerDoc = new Map<string, number>();
    const maxIds = new Map<string, number>();
    for (const change of changes) {
      const key = `${change.collection}\u0000${change.id}`;
      const round = writesPerDoc.get(key) ?? 0;
      writesPerDoc.set(key, round + 1);
      const byCollection = (rounds[round] ??= new Map());
      let ops = byCollection.get(change.collection);
      if (!ops) byCollection.set(change.collection, (ops = []));
      const filter = { _id: change.id, _pos: { $lt: change.position } };
      if (change.columns) {
        ops.push(columnPatch(change.id, change.columns));
      } else if (change.doc === null) {
        ops.push({ deleteOne: { filter } });
      } else {
        const replacement: StoredDoc = { ...change.doc, _id: change.id, id: change.id, _pos: change.position };
        ops.push({ replaceOne: { filter, replacement, upsert: true } });
        maxIds.set(change.collection, Math.max(maxIds.get(change.collection) ?? 0, change.id));
      }
    }
    for (const byCollection of rounds) {
      await Promise.all([...byCollection].map(([name, ops]) => this.bulkWrite(name, ops)));
    }
    const max: Record<string, number> = { position };
    for (const [name, id] of maxIds) max[`maxIds.${encodeKey(name)}`] = id;
    await this.meta.updateOne({ _id: META_ID }, { $max: max }, { upsert: true });
  }

  private async bulkWrite(name: string, ops: AnyBulkWriteOperation<StoredDoc>[]): Promise<void> {
    try {
      await this.collection(name).bulkWrite(ops, { ordered: false });
    } catch (error) {
      // The guarded upsert of a document that exists at a newer position matches
      // nothing, tries to insert and hits the _id index: that change is skipped.
      if (error instanceof MongoBulkWriteError && !error.err && !error.result?.getWriteConcernError()) {
        const writeErrors = Array.isArray(error.writeErrors) ? error.writeErrors : [error.writeErrors];
        if (writeErrors.length > 0 && writeErrors.every((e: { code: number }) => e.code === DUPLICATE_KEY)) return;
      }
      throw error;
    }
  }

  async position(): Promise<number> {
    const meta = await this.meta.findOne({ _id: META_ID });
    return meta?.position ?? 0;
  }

  async maxIds(): Promise<Record<string, number>> {
    const meta = await this.meta.findOne({ _id: META_ID });
    const out: Record<string, number> = {};
    for (const [key, id] of Object.entries(meta?.maxIds ?? {})) out[decodeKey(key)] = id;
    return out;
  }

  async get(collection: string, id: number): Promise<ReadDocument | null> {
    const doc = await this.collection(collection).findOne({ _id: id }, { projection: NO_ID });
    return (doc as ReadDocument | null) ?? null;
  }

  async getMany(collection: string, ids: number[]): Promise<ReadDocument[]> {
    if (ids.length === 0) return [];
    const docs = await this.collection(collection)
      .find({ _id: { $in: [...new Set(ids)] } }, { projection: NO_ID })
      .toArray();
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
    const cursor = this.collection(collection).find(query, { projection: NO_ID });
    if (options.sort && Object.keys(options.sort).length > 0) cursor.sort(options.sort);
    if (options.skip !== undefined && options.skip > 0) cursor.skip(options.skip);
    if (options.limit !== undefined) cursor.limit(options.limit);
    return (await cursor.toArray()) as unknown as ReadDocument[];
  }

  /**
   * An unfiltered count reads the collection's metadata (O(1), no scan; exact on a
   * standalone server or replica set after a clean shutdown); a filtered one counts
   * through the indexes without fetching documents where the query is covered.
   */
  async count(collection: string, query: Query): Promise<number> {
    if (Object.keys(query).length === 0) return this.collection(collection).estimatedDocumentCount();
    return this.collection(collection).countDocuments(query);
  }

  async countBy(collection: string, field: string, values: number[]): Promise<Map<number, number>> {
    const result = new Map<number, number>();
    for (const v of values) result.set(v, 0);
    if (values.length === 0) return result;
    const distinct = [...result.keys()];
    // $unwind so that array fields count each element (a scalar unwinds to itself).
    const rows = await this.collection(collection)
      .aggregate<{ _id: unknown; n: number }>([
        { $match: { [field]: { $in: distinct } } },
        { $project: { _id: 0, v: `$${field}` } },
        { $unwind: '$v' },
        { $match: { v: { $in: distinct } } },
        { $group: { _id: '$v', n: { $sum: 1 } } },
      ])
      .toArray();
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
      return await findFreeRuns(ascendingUsed(values()), query);
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
    const specs = [{ key: { id: 1 } }, ...fields.filter((f) => f.length > 0).map((f) => ({ key: Object.fromEntries(f.map((name) => [name, 1])) }))];
    await this.collection(collection).createIndexes(specs as { key: Record<string, 1> }[]);
  }

  async drop(): Promise<void> {
    const collections = await this.database.listCollections({}, { nameOnly: true }).toArray();
    await Promise.all(
      collections
        .filter((c) => !c.name.startsWith('system.'))
        .map((c) => this.database.dropCollection(c.name)),
    );
    for (const [collection, fields] of this.declared) await this.createIndexes(collection, fields);
  }
}

/** A column patch: those columns of the stored document set, its `_pos` and the rest left alone. */
function columnPatch(id: number, columns: Record<string, unknown>): AnyBulkWriteOperation<StoredDoc> {
  return { updateOne: { filter: { _id: id }, update: { $set: columns } } };
}
