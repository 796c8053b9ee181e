/**
 * Read access the write side's hooks, filters and allocators are given: a snapshot of
 * committed and staged state, with the counting and free-address searches a store can
 * answer without reading every object.
 */
import type { StoredObject } from './storedObject.js';

/** Read access the write side's hooks may use (a snapshot of committed + staged state). */
export interface LookupView {
  get(model: string, id: number): Promise<StoredObject | null>;
  find(model: string, query: Record<string, unknown>, limit?: number): Promise<StoredObject[]>;
  /** How many objects match, where the view can count without reading them (the read models can). */
  count?(model: string, query: Record<string, unknown>): Promise<number>;
  /** How many objects have `field` equal to (or, for a list field, holding) each of `values`, where the view can count them in one pass. */
  countBy?(model: string, field: string, values: number[]): Promise<Map<number, number>>;
  /**
   * The lowest free addresses of a range, found through an ordered index of the used ones
   * (the read models and the writer's view can); without it, allocators scan with `find`.
   */
  freeAddresses?(query: FreeAddressQuery): Promise<AddressRun[]>;
}

/** An inclusive run of addresses (as integers), first <= last. */
export interface AddressRun {
  first: bigint;
  last: bigint;
}

/**
 * Which addresses of `first`..`last` (one family) none of a collection's documents holds:
 * each document holds the address whose sort key (see values/ipNetworks addressSortKey)
 * is in its hidden `field`. Answered lowest first, as the fewest runs, and no more than
 * `limit` addresses, so that finding the next free address of a full prefix costs about
 * as much as of an empty one.
 */
export interface FreeAddressQuery {
  /** e.g. 'ipam.ipaddress' */
  collection: string;
  /** e.g. '_address' */
  field: string;
  family: 4 | 6;
  first: bigint;
  last: bigint;
  /** Only documents whose `field` equals `value` hold addresses (MongoDB equality: null matches a missing field too). Absent: all of them. */
  scope?: { field: string; value: number | null };
  /** Addresses used besides the documents' (reserved addresses, IP ranges): any order, may overlap. */
  taken: AddressRun[];
  /** How many free addresses to find at most (Infinity: all). */
  limit: number;
}
