/**
 * Sub-resources of an object's detail URL declared on its model: actions that hand out
 * its free space (NetBox's available-ips / available-prefixes / available-vlans; the
 * allocators are in allocation/) and read-only views computed from the read models (a
 * port's cable trace, a rack's elevation; GET needs view permission on the object).
 */
import type { FieldErrors } from '../errors/fieldErrors.js';
import type { FieldDefinition, GenericListItem } from './fieldDefinition.js';
import type { LookupView } from './lookupView.js';
import type { StoredObject } from './storedObject.js';

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

/** A value of a listing entry: a plain integer or string, or a model's nested form (null when `nullable`). */
export type ListingValue = 'integer' | 'string' | { nested: string; nullable?: boolean };

/**
 * What an allocator's listing entries and requests hold, declared beside the code that
 * makes and reads them: the API documents the endpoints (OpenAPI) from it, and the
 * listing is cut at the request's `limit` only where it says so.
 */
export interface AllocatorShape {
  /** The keys of one listing entry, in order, and what each holds. */
  entry: Record<string, ListingValue>;
  /**
   * The listing stops after `limit` entries (PAGINATE_COUNT by default, 0 for
   * MAX_PAGE_SIZE, capped by it); otherwise it is whole.
   */
  limited: boolean;
  /** The created model's fields a request may set; default: every writable field not `assigned`. */
  fields?: string[];
  /** The created model's fields the allocator sets itself, whatever a request says. */
  assigned: string[];
  /** Values a request gives that are not fields of the created model (a prefix length). */
  extra?: FieldDefinition[];
}

export interface Allocator {
  /** GET: the free space of `parent`, lowest first; at most `limit` entries where the listing is limited. */
  available(parent: StoredObject, view: LookupView, limit: number | null): Promise<AvailableEntry[]>;
  /** POST: hand out free space to each request (one object or a list of them, as sent). */
  allocate(parent: StoredObject, requests: unknown[], env: AllocationEnvironment): Promise<Allocation>;
  shape: AllocatorShape;
}

export interface DetailAction {
  /** The URL segment under the detail URL: /api/<app>/<path>/<id>/<segment>/. */
  path: string;
  /** The model a POST creates ('<app>.<model>'); reading the listing needs its view permission. */
  creates: string;
  allocator: Allocator;
}

export interface DetailView {
  /** The URL segment under the detail URL: /api/<app>/<path>/<id>/<segment>/. */
  path: string;
  /** One line for the API's documentation. */
  summary: string;
  /** The query parameters it reads, documented as OpenAPI parameters. */
  parameters?: Array<{ name: string; description: string; schema: Record<string, unknown> }>;
  /** The 200 answer, documented: a JSON schema per content type it may answer with. */
  responses: Record<string, Record<string, unknown>>;
  respond(obj: StoredObject, request: DetailViewRequest): Promise<DetailViewResponse>;
}

export interface DetailViewRequest {
  /** The model of the object the view hangs from, '<app>.<model>'. */
  model: string;
  view: LookupView;
  query: URLSearchParams;
  /** Each reference in its model's nested form (or showing `fields`); null where the object is gone. */
  nested(refs: GenericListItem[], fields?: string[]): Promise<Array<Record<string, unknown> | null>>;
  /** `items` paged as list views page them (`limit`, `offset`): {count, next, previous, results}. */
  paginate<T>(items: T[]): { count: number; next: string | null; previous: string | null; results: T[] };
  /** Which of these `model` objects the caller may view (a rack's elevation hides the devices it may not). */
  viewable(model: string, ids: number[]): Promise<Set<number>>;
  /** Refuse the request's parameters: 400 `{parameter: [messages]}`. */
  invalid(errors: FieldErrors): never;
  /** Records the service keeps beside the read models (a webhook's deliveries), by name; undefined where it keeps none. */
  source?(name: string): unknown;
}

/** The body, and its content type when it is not JSON (an SVG drawing); bad parameters answer through `invalid`. */
export interface DetailViewResponse {
  body: unknown;
  contentType?: string;
}
