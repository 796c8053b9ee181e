/**
 * Finding the lowest free addresses of a range without reading every used one: the
 * search asks where the next used address is and, when it stands in the way, where its
 * run of consecutive used addresses ends, and jumps over it; its cost grows with the
 * runs it crosses, not with the addresses in them. The read stores answer from their
 * own indexes (bisection in memory, an ordered walk in MongoDB); `scanFreeAddresses` is
 * the plain computation from `find`, for views without an index.
 */
import type { AddressRun, FreeAddressQuery, LookupView } from '../lookupView.js';
import { addressSortKey, sortKeyValue } from '../values/ipNetworks.js';
import { AddressSet } from './addressSet.js';

/** Where the used addresses are, as the search asks it. */
export interface UsedAddresses {
  /** The lowest used address at or above `from` (null: none). Asked with `from` increasing. */
  next(from: bigint): MaybePromise<bigint | null>;
  /** The last address of the run of consecutive used addresses that starts at `start`, the address `next` just answered. */
  runEnd(start: bigint): MaybePromise<bigint>;
}

type MaybePromise<T> = T | Promise<T>;

/** The lowest free runs of the query's range, holding at most `query.limit` addresses. */
export async function findFreeRuns(used: UsedAddresses, query: FreeAddressQuery): Promise<AddressRun[]> {
  const { first, last } = query;
  const taken = AddressSet.union(query.family, query.taken).intervals;
  const bounded = query.limit !== Infinity;
  let remaining = bounded ? BigInt(Math.max(0, query.limit)) : 0n;
  const out: AddressRun[] = [];
  let t = 0;
  // undefined: not asked since the cursor moved past it; null: nothing is used from here on.
  let nextUsed: bigint | null | undefined;
  let cursor = first;
  while (cursor <= last && (!bounded || remaining > 0n)) {
    while (t < taken.length && taken[t].last < cursor) t++;
    const next = taken[t];
    if (next && next.first <= cursor) {
      cursor = next.last + 1n;
      continue;
    }
    // A synchronous index is searched without yielding, so no change lands mid-search.
    if (nextUsed === undefined || (nextUsed !== null && nextUsed < cursor)) {
      const answer = used.next(cursor);
      nextUsed = answer instanceof Promise ? await answer : answer;
    }
    if (nextUsed === cursor) {
      const answer = used.runEnd(cursor);
      cursor = (answer instanceof Promise ? await answer : answer) + 1n;
      nextUsed = undefined;
      continue;
    }
    // `cursor` is free, up to whichever comes first: a used address, a taken run, the end.
    let end = last;
    if (nextUsed !== null && nextUsed - 1n < end) end = nextUsed - 1n;
    if (next && next.first - 1n < end) end = next.first - 1n;
    if (bounded) {
      if (end - cursor + 1n > remaining) end = cursor + remaining - 1n;
      remaining -= end - cursor + 1n;
    }
    out.push({ first: cursor, last: end });
    cursor = end + 1n;
  }
  return out;
}

/**
 * The used addresses of an ascending sequence (repeats allowed), read only as far as
 * the search asks: for an ordered cursor over a store's index.
 */
export function ascendingUsed(values: AsyncIterable<bigint>): UsedAddresses {
  const iterator = values[Symbol.asyncIterator]();
  let head: bigint | null | undefined;
  const peek = async (): Promise<bigint | null> => {
    if (head === undefined) {
      const next = await iterator.next();
      head = next.done ? null : next.value;
    }
    return head;
  };
  return {
    async next(from) {
      let value = await peek();
      while (value !== null && value < from) {
        head = undefined;
        value = await peek();
      }
      return value;
    },
    async runEnd(start) {
      let end = start;
      for (let value = await peek(); value !== null && value <= end + 1n; value = await peek()) {
        end = value;
        head = undefined;
      }
      return end;
    },
  };
}

/** The used addresses as a sorted array of distinct values, searched by bisection. */
export function sortedUsed(values: readonly bigint[]): UsedAddresses {
  const position = (value: bigint) => {
    let lo = 0;
    let hi = values.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (values[mid] < value) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  return {
    next(from) {
      const i = position(from);
      return i < values.length ? values[i] : null;
    },
    runEnd(start) {
      // Distinct ascending integers: values[j] - start >= j - i, with equality exactly as
      // far as the run of consecutive addresses goes.
      const i = position(start);
      let lo = i;
      let hi = values.length - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >>> 1;
        if (values[mid] - start === BigInt(mid - i)) lo = mid;
        else hi = mid - 1;
      }
      return values[lo];
    },
  };
}

/** Does the document hold its address in the query's scope? (MongoDB equality: a missing field is null.) */
export function inScope(doc: Record<string, unknown>, query: FreeAddressQuery): boolean {
  return !query.scope || (doc[query.scope.field] ?? null) === query.scope.value;
}

/** The query's range, and its scope, as a MongoDB query document. */
export function usedQuery(query: FreeAddressQuery): Record<string, unknown> {
  const range = { $gte: addressSortKey(query.family, query.first), $lte: addressSortKey(query.family, query.last) };
  return query.scope ? { [query.field]: range, [query.scope.field]: query.scope.value } : { [query.field]: range };
}

/** The free runs computed from every used address of the range, read with `find`. */
export async function scanFreeAddresses(view: LookupView, query: FreeAddressQuery): Promise<AddressRun[]> {
  // Ranged on the address order alone: a scope term could send the look-up through a less selective index.
  const docs = await view.find(query.collection, { [query.field]: usedQuery(query)[query.field] });
  const used: AddressRun[] = [];
  for (const doc of docs) {
    if (!inScope(doc, query)) continue;
    const value = sortKeyValue(doc[query.field], query.family);
    if (value !== null) used.push({ first: value, last: value });
  }
  const free = AddressSet.span(query.family, query.first, query.last).without([...used, ...query.taken]);
  return [...free.lowest(query.limit).intervals];
}

/** The view's free addresses, through its index where it has one. */
export async function freeAddressesOf(view: LookupView, query: FreeAddressQuery): Promise<AddressSet> {
  const runs = view.freeAddresses ? await view.freeAddresses(query) : await scanFreeAddresses(view, query);
  return AddressSet.union(query.family, runs);
}
