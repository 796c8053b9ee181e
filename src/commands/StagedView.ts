import { AddressSet } from '../models/allocation/addressSet.js';
import { inScope } from '../models/allocation/freeAddresses.js';
import type { AddressRun, FreeAddressQuery, LookupView } from '../models/lookupView.js';
import type { StoredObject } from '../models/storedObject.js';
import { addressSortKey, sortKeyValue } from '../models/values/ipNetworks.js';
import { foldCase } from '../projections/caseFolding.js';
import { documentMatcher } from '../projections/querySemantics/documentMatcher.js';
import type { DocumentChange, ReadDocument, ReadStore } from '../projections/ReadStore.js';
import { exactLiterals } from '../projections/textPatterns.js';

/**
 * What the writer sees: the read models plus changes decided but not yet projected,
 * layered in order (store, then the writer's staged batches, then the current
 * request's own changes). This lets the writer decide request N+1 while request N
 * is still waiting for its fsync, which is what makes group commit possible.
 */
export class Overlay {
  /** collection → id → document (null: deleted) */
  readonly docs = new Map<string, Map<number, ReadDocument | null>>();
  /**
   * collection → field → scalar value → ids of the staged documents holding it (as the
   * value or an element of it), built by the first look-up of that field and kept from
   * then on: a bulk request checks uniqueness once per item against every item staged
   * before it, which would otherwise test each staged document every time.
   */
  private readonly byValue = new Map<string, Map<string, Map<Scalar, Set<number>>>>();
  /** collection → how many times its staged documents changed (a find's memo is valid while it stays). */
  private readonly changes = new Map<string, number>();

  /** A count that changes whenever a staged document of `collectionName` does. */
  version(collectionName: string): number {
    return this.changes.get(collectionName) ?? 0;
  }

  put(change: DocumentChange): void {
    this.changes.set(change.collection, this.version(change.collection) + 1);
    let collection = this.docs.get(change.collection);
    if (!collection) this.docs.set(change.collection, (collection = new Map()));
    const indexes = this.byValue.get(change.collection);
    if (indexes) {
      for (const [field, index] of indexes) {
        unfile(index, change.id, indexedValue(collection.get(change.id), field));
        fileUnder(index, change.id, indexedValue(change.doc, field));
      }
    }
    collection.set(change.id, change.doc);
  }

  /** Forget a staged change once the read model holds it (unless a later one replaced it). */
  settle(change: DocumentChange): void {
    const collection = this.docs.get(change.collection);
    if (!collection || !collection.has(change.id)) return;
    const current = collection.get(change.id);
    const currentPosition = current === null ? null : current?._pos;
    if (current === change.doc || currentPosition === change.position) {
      this.changes.set(change.collection, this.version(change.collection) + 1);
      for (const [field, index] of this.byValue.get(change.collection) ?? [])
        unfile(index, change.id, indexedValue(current, field));
      collection.delete(change.id);
    }
    if (collection.size === 0) {
      this.docs.delete(change.collection);
      this.byValue.delete(change.collection);
    }
  }

  /** Ids of the staged documents whose `field` equals `value` or is an array holding it (MongoDB's equality). */
  idsWith(collectionName: string, field: string, value: Scalar): ReadonlySet<number> {
    return this.indexOf(collectionName, field).get(value) ?? NONE;
  }

  /** Ids of the staged documents whose `field` is a string equal to one of `texts` under case folding. */
  idsFolded(collectionName: string, field: string, texts: string[]): ReadonlySet<number> {
    const index = this.indexOf(collectionName, `${FOLDED}${field}`);
    if (texts.length === 1) return index.get(foldCase(texts[0]!)) ?? NONE;
    const out = new Set<number>();
    for (const text of texts) for (const id of index.get(foldCase(text)) ?? []) out.add(id);
    return out;
  }

  private indexOf(collectionName: string, key: string): Map<Scalar, Set<number>> {
    let indexes = this.byValue.get(collectionName);
    if (!indexes) this.byValue.set(collectionName, (indexes = new Map()));
    let index = indexes.get(key);
    if (!index) {
      indexes.set(key, (index = new Map()));
      for (const [id, doc] of this.docs.get(collectionName) ?? []) fileUnder(index, id, indexedValue(doc, key));
    }
    return index;
  }

  mergeInto(other: Overlay): void {
    for (const [name, collection] of this.docs) {
      for (const [id, doc] of collection) other.put({ collection: name, id, doc, position: doc?._pos ?? 0 });
    }
  }
}

export class StagedView implements LookupView {
  /**
   * Answers already given in this view, by query, with the staged versions they were
   * given at: a bulk request asks the same thing for every item (the model's custom
   * fields), and the answer holds until a staged document of that collection changes.
   * The read models only change meanwhile by taking in staged changes, which leaves
   * the view's answer as it was (but for the hidden columns the projection keeps, e.g. a
   * prefix's `_depth`, which decisions do not read: stored forms drop them).
   */
  private readonly memo = new Map<string, { versions: string; results: StoredObject[] }>();

  constructor(
    private readonly store: ReadStore,
    private readonly layers: Overlay[],
  ) {}

  async get(model: string, id: number): Promise<StoredObject | null> {
    for (let i = this.layers.length - 1; i >= 0; i--) {
      const collection = this.layers[i].docs.get(model);
      if (collection?.has(id)) return (collection.get(id) as StoredObject | null) ?? null;
    }
    return (await this.store.get(model, id)) as StoredObject | null;
  }

  async find(model: string, query: Record<string, unknown>, limit?: number): Promise<StoredObject[]> {
    const key = memoKey(query);
    if (key === null) return this.findStaged(model, query, limit);
    const name = `${model}\u0000${limit ?? ''}\u0000${key}`;
    const versions = this.layers.map((layer) => layer.version(model)).join();
    const known = this.memo.get(name);
    if (known?.versions === versions) return known.results.slice();
    const results = await this.findStaged(model, query, limit);
    this.memo.set(name, { versions, results: results.slice() });
    return results;
  }

  private async findStaged(model: string, query: Record<string, unknown>, limit?: number): Promise<StoredObject[]> {
    const layers = this.layers
      .map((layer) => layer.docs.get(model))
      .filter((c): c is Map<number, ReadDocument | null> => !!c && c.size > 0);
    const shadowCount = layers.reduce((n, c) => n + c.size, 0);
    const storeLimit = limit === undefined ? undefined : limit + shadowCount;
    const fromStore = await this.store.find(model, query, storeLimit === undefined ? {} : { limit: storeLimit });
    if (shadowCount === 0) return (limit === undefined ? fromStore : fromStore.slice(0, limit)) as StoredObject[];
    const results = fromStore.filter((d) => !layers.some((c) => c.has(d.id))) as StoredObject[];
    // Staged documents: the newest layer's version wins. Each layer's index of a field
    // picks the only staged documents that can match (the most selective plain equality
    // or exact case-insensitive match); plain equalities reject most of the rest before
    // the general matcher is even compiled.
    const equalities = plainEqualities(query);
    const withLayers = this.layers.filter((layer) => layer.docs.get(model)?.size);
    const picked = fewestCandidates(withLayers, model, query, equalities);
    const seen = new Set<number>();
    let matcher: ((doc: ReadDocument) => boolean) | null = null;
    for (let i = layers.length - 1; i >= 0; i--) {
      const ids = picked ? picked[i]! : layers[i]!.keys();
      for (const id of ids) {
        if (seen.has(id)) continue;
        seen.add(id);
        // A newer layer's version of the document (even one that does not match) hides this one.
        if (picked && layers.slice(i + 1).some((newer) => newer.has(id))) continue;
        const doc = layers[i]!.get(id);
        if (!doc || !equalities.every(([key, value]) => equals(doc[key], value))) continue;
        matcher ??= documentMatcher(query);
        if (matcher(doc)) results.push(doc as StoredObject);
      }
    }
    results.sort((a, b) => a.id - b.id);
    return limit === undefined ? results : results.slice(0, limit);
  }

  /**
   * The store's free addresses corrected by the staged changes, which are few: a staged
   * document's address is used; an address a staged change took away from a stored
   * document is free again unless another document still holds it.
   */
  async freeAddresses(query: FreeAddressQuery): Promise<AddressRun[]> {
    const staged = new Map<number, ReadDocument | null>();
    for (let i = this.layers.length - 1; i >= 0; i--) {
      for (const [id, doc] of this.layers[i].docs.get(query.collection) ?? []) if (!staged.has(id)) staged.set(id, doc);
    }
    if (staged.size === 0 || query.limit <= 0) return this.store.freeAddresses(query);
    const held = (doc: ReadDocument | null): bigint | null => {
      if (!doc || !inScope(doc, query)) return null;
      const value = sortKeyValue(doc[query.field], query.family);
      return value !== null && value >= query.first && value <= query.last ? value : null;
    };
    const usedByStaged = new Set<bigint>();
    for (const doc of staged.values()) {
      const value = held(doc);
      if (value !== null) usedByStaged.add(value);
    }
    const taken = AddressSet.union(query.family, [
      ...query.taken,
      ...[...usedByStaged].map((value) => ({ first: value, last: value })),
    ]);
    const released: AddressRun[] = [];
    for (const doc of await this.store.getMany(query.collection, [...staged.keys()])) {
      const value = held(doc);
      if (value === null || taken.has(value)) continue;
      const holders = await this.store.find(query.collection, { [query.field]: addressSortKey(query.family, value) });
      if (holders.every((holder) => staged.has(holder.id) || !inScope(holder, query)))
        released.push({ first: value, last: value });
    }
    const fromStore = await this.store.freeAddresses({ ...query, taken: [...taken.intervals] });
    if (released.length === 0) return fromStore;
    // The lowest free addresses are among the store's lowest and the released ones.
    const free = AddressSet.union(query.family, [...fromStore, ...released]);
    return [...free.lowest(query.limit).intervals];
  }
}

type Scalar = string | number | boolean;

/** The query as text when it is plain JSON data (two such queries are the same query), else null: not memoised. */
function memoKey(query: unknown): string | null {
  return isPlainData(query) ? JSON.stringify(query) : null;
}

/** Plain JSON data: no RegExp, no function, no class instance, no non-finite number. (A module function: a bulk request asks it per item.) */
function isPlainData(value: unknown): boolean {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value);
  if (Array.isArray(value)) {
    for (const element of value) if (!isPlainData(element)) return false;
    return true;
  }
  if (typeof value !== 'object') return false;
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return false;
  for (const key in value) if (!isPlainData((value as Record<string, unknown>)[key])) return false;
  return true;
}

const NONE: ReadonlySet<number> = new Set();
/** Marks the index of a field's folded strings among a collection's staged indexes. */
const FOLDED = '\u0000folded:';

/** The value a staged index files a document under: the field's, or its folded string. */
function indexedValue(doc: ReadDocument | null | undefined, key: string): unknown {
  if (!doc) return undefined;
  if (!key.startsWith(FOLDED)) return doc[key];
  const value = doc[key.slice(FOLDED.length)];
  // A regex matches an array through its elements: they are filed too.
  if (Array.isArray(value))
    return value.map((element) => (typeof element === 'string' ? foldCase(element) : undefined));
  return typeof value === 'string' ? foldCase(value) : undefined;
}

/**
 * Per layer, the ids of the staged documents that can match `query`: those of its most
 * selective plain equality or exact case-insensitive match of literals on a top-level
 * field; null when the query has neither (every staged document is tested).
 */
function fewestCandidates(
  layers: Overlay[],
  model: string,
  query: Record<string, unknown>,
  equalities: Array<[string, Scalar]>,
): ReadonlySet<number>[] | null {
  let best: ReadonlySet<number>[] | null = null;
  let bestSize = Infinity;
  const consider = (sets: ReadonlySet<number>[]) => {
    const size = sets.reduce((n, ids) => n + ids.size, 0);
    if (size < bestSize) [best, bestSize] = [sets, size];
  };
  for (const [field, value] of equalities) consider(layers.map((layer) => layer.idsWith(model, field, value)));
  for (const [field, condition] of Object.entries(query)) {
    if (field.startsWith('$') || field.includes('.')) continue;
    const literals = exactLiterals(condition);
    if (literals) consider(layers.map((layer) => layer.idsFolded(model, field, literals)));
  }
  return best;
}

/** Files `id` under a scalar value, or under each scalar element of an array value. */
function fileUnder(index: Map<Scalar, Set<number>>, id: number, value: unknown): void {
  for (const key of Array.isArray(value) ? value : [value]) {
    if (!isScalar(key)) continue;
    const ids = index.get(key);
    if (ids) ids.add(id);
    else index.set(key, new Set([id]));
  }
}

function unfile(index: Map<Scalar, Set<number>>, id: number, value: unknown): void {
  for (const key of Array.isArray(value) ? value : [value]) {
    if (!isScalar(key)) continue;
    const ids = index.get(key);
    ids?.delete(id);
    if (ids?.size === 0) index.delete(key);
  }
}

function isScalar(value: unknown): value is Scalar {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}

/** Top-level `field: scalar` and `field: {$eq: scalar}` terms of a query: necessary conditions for a match. */
function plainEqualities(query: Record<string, unknown>): Array<[string, Scalar]> {
  const terms: Array<[string, Scalar]> = [];
  for (const [key, value] of Object.entries(query)) {
    if (key.startsWith('$') || key.includes('.')) continue;
    if (isScalar(value)) terms.push([key, value]);
    else if (value && typeof value === 'object' && !Array.isArray(value)) {
      const keys = Object.keys(value);
      const eq = (value as Record<string, unknown>).$eq;
      if (keys.length === 1 && keys[0] === '$eq' && isScalar(eq)) terms.push([key, eq]);
    }
  }
  return terms;
}

/** MongoDB equality on one value: the field equals it, or is an array holding it. */
function equals(field: unknown, value: Scalar): boolean {
  return field === value || (Array.isArray(field) && field.includes(value));
}

/**
 * Ids of the documents of one overlay that can match `query` (those its most selective plain
 * equality or exact case-insensitive match picks, from the overlay's own indexes); null when
 * the query has neither, and every document of the collection must be tested.
 */
export function overlayCandidates(
  overlay: Overlay,
  model: string,
  query: Record<string, unknown>,
): ReadonlySet<number> | null {
  return fewestCandidates([overlay], model, query, plainEqualities(query))?.[0] ?? null;
}
