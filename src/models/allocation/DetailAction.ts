/**
 * Sub-resources of an object's detail URL that hand out its free space, as NetBox's
 * `available-ips`, `available-prefixes` and `available-vlans` do. A model declares them
 * in its definition; the routes, permissions and the write path are generic. An
 * allocator knows the model's rules: what is free, and what a request receives.
 */
import type { FieldErrors, LookupView, StoredObject } from '../types.js';

/** A related object named in a listing entry, rendered in its nested form (null stays null). */
export interface NestedReference {
  nested: string;
  id: number | null;
}

/** One entry of a listing of free space, e.g. `{family: 4, address: '10.0.0.1/24', vrf}`. */
export type AvailableEntry = Record<string, string | number | NestedReference>;

/** What an allocation may consult while the writer decides it. */
export interface AllocationEnvironment {
  /** Committed and staged state: allocations decided before this one are seen. */
  view: LookupView;
  /**
   * The created model's field rules (types, choices, lengths, related objects, custom
   * fields) applied to each input, without its model rules or uniqueness: one entry
   * per input, `{}` for a good one.
   */
  checkFields(inputs: unknown[]): Promise<Array<FieldErrors | Record<string, unknown>>>;
}

export type Allocation =
  /** The inputs of the objects to create, one per request, in request order. */
  | { inputs: unknown[] }
  /** 400: the requests themselves are wrong, one entry per request (`{}` for good ones). */
  | { invalid: unknown[] }
  /** 409: not enough free space; nothing is created. */
  | { conflict: string };

export interface Allocator {
  /** GET: the free space of `parent`, lowest first; at most `limit` entries where the listing is limited. */
  available(parent: StoredObject, view: LookupView, limit: number | null): Promise<AvailableEntry[]>;
  /** POST: hand out free space to each request (one object or a list of them, as sent). */
  allocate(parent: StoredObject, requests: unknown[], env: AllocationEnvironment): Promise<Allocation>;
}

export interface DetailAction {
  /** The URL segment under the detail URL: /api/<app>/<path>/<id>/<segment>/. */
  path: string;
  /** The model a POST creates ('<app>.<model>'); reading the listing needs its view permission. */
  creates: string;
  allocator: Allocator;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
