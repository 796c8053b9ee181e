/**
 * A MongoDB collection whose every read carries the store's query time limit
 * (maxTimeMS, MONGODB_QUERY_TIMEOUT), so that a slow query fails with
 * MaxTimeMSExpired instead of holding a request or the projector for as long as the
 * server takes. MongoReadStore reaches its collections only through this class: a
 * query added later cannot forget the limit, and none can pass another. Writes are
 * passed through as they are (bounded by their write concern and the transaction).
 */
import type {
  AggregateOptions,
  AggregationCursor,
  AnyBulkWriteOperation,
  BulkWriteOptions,
  BulkWriteResult,
  Collection,
  CountDocumentsOptions,
  Document,
  EstimatedDocumentCountOptions,
  Filter,
  FindCursor,
  FindOptions,
  IndexDescription,
  UpdateFilter,
  UpdateOptions,
  UpdateResult,
  WithId,
} from 'mongodb';

/** A read's options without a time limit of its own: the collection sets it. */
type Untimed<O> = Omit<O, 'maxTimeMS' | 'timeoutMS'>;

export class TimeLimitedCollection<T extends Document> {
  constructor(
    private readonly collection: Collection<T>,
    private readonly maxTimeMS: number,
  ) {}

  find(filter: Filter<T>, options: Untimed<FindOptions> = {}): FindCursor<WithId<T>> {
    return this.collection.find(filter, this.timed(options));
  }

  findOne(filter: Filter<T>, options: Untimed<FindOptions> = {}): Promise<WithId<T> | null> {
    return this.collection.findOne(filter, this.timed(options));
  }

  countDocuments(filter: Filter<T>, options: Untimed<CountDocumentsOptions> = {}): Promise<number> {
    return this.collection.countDocuments(filter, this.timed(options));
  }

  estimatedDocumentCount(options: Untimed<EstimatedDocumentCountOptions> = {}): Promise<number> {
    return this.collection.estimatedDocumentCount(this.timed(options));
  }

  aggregate<R extends Document>(pipeline: Document[], options: Untimed<AggregateOptions> = {}): AggregationCursor<R> {
    return this.collection.aggregate<R>(pipeline, this.timed(options));
  }

  bulkWrite(operations: AnyBulkWriteOperation<T>[], options: BulkWriteOptions): Promise<BulkWriteResult> {
    return this.collection.bulkWrite(operations, options);
  }

  updateOne(filter: Filter<T>, update: UpdateFilter<T>, options: UpdateOptions): Promise<UpdateResult<T>> {
    return this.collection.updateOne(filter, update, options);
  }

  updateMany(filter: Filter<T>, update: UpdateFilter<T>, options: UpdateOptions = {}): Promise<UpdateResult<T>> {
    return this.collection.updateMany(filter, update, options);
  }

  createIndexes(specs: IndexDescription[]): Promise<string[]> {
    return this.collection.createIndexes(specs);
  }

  dropIndex(name: string): Promise<Document> {
    return this.collection.dropIndex(name);
  }

  private timed<O extends object>(options: O): O & { maxTimeMS: number } {
    return { ...options, maxTimeMS: this.maxTimeMS };
  }
}
