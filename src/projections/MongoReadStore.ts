/** The MongoDB read store lives in ./mongo/; this path is kept for its importers. */
export { MongoReadStore, DEFAULT_MAX_TIME_MS, type MongoReadStoreOptions } from './mongo/MongoReadStore.js';
