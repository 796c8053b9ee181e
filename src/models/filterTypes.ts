/**
 * How a model declares its list filters: a plain field, a relation, a network, a small
 * method or the search; the query compiler (api/query) turns them into read-model queries.
 */
import type { StoredObject } from './storedObject.js';

/**
 * Read access and error reporting a filter method may use while it compiles one query
 * parameter. Queries are MongoDB query documents over the read models.
 */
export interface FilterEnvironment {
  /** The parameter being compiled (e.g. 'available_on_device'). */
  readonly param: string;
  /** The lookup it was given with: 'exact' for the bare parameter, else e.g. 'n'. */
  readonly lookup: string;
  /** The model being listed, '<app>.<model>'. */
  readonly model: string;
  /** Ids of the `model` objects matching `query` (at most `limit` when given). */
  ids(model: string, query: Record<string, unknown>, limit?: number): Promise<number[]>;
  /** The `model` objects matching `query`. */
  find(model: string, query: Record<string, unknown>, limit?: number): Promise<StoredObject[]>;
  /** Refuse the value: the request fails with 400 `{<param>: [message]}`. */
  invalid(message: string): never;
  /**
   * A condition matching text the way NetBox's lookups do ('ic' contains, 'isw' starts
   * with, 'iew' ends with, 'ie' equals; case-insensitive), the value always literal.
   */
  textCondition(lookup: 'ic' | 'isw' | 'iew' | 'ie', value: string): Record<string, unknown>;
  /** The '<app>.<model>' a content type id names (null: none), as object changes number them. */
  contentTypeKey(id: number): string | null;
  /** The id of the user listing (null: anonymous), for filters relative to the caller (a saved filter's `usable`). */
  readonly requesterId: number | null;
}

/**
 * A filter method: the (non-empty) values given for its parameter, already parsed per
 * the spec's `value`, compiled into a query document ANDed into the list query; null
 * means "no filtering". The query must treat every value as data.
 */
export type FilterMethod = (
  values: Array<string | number | boolean>,
  env: FilterEnvironment,
) => Record<string, unknown> | null | Promise<Record<string, unknown> | null>;

/** How a filter's raw values are parsed (and which lookups it gets). */
export type FilterValueType = 'string' | 'integer' | 'decimal' | 'boolean' | 'date' | 'datetime' | 'uuid';

/**
 * A plain value filter on a stored key (or a hidden derived key) under a name that is
 * not the field's own, e.g. `mask_length` on `_prefixlen`, `role` on an IP address's
 * choice field, `name` matched case-insensitively.
 */
export interface FieldFilterSpec {
  kind: 'field';
  /** The stored (or hidden, leading '_') key compared. */
  field: string;
  value: FilterValueType;
  /** Accepted lookup suffixes besides the bare parameter; default: those of `value`'s type. */
  lookups?: string[];
  /** Allowed values (choice filters); anything else is 400 "Select a valid choice". */
  choices?: Array<string | number>;
  /** The bare parameter compares case-insensitively (NetBox's `iexact` filters). */
  caseInsensitive?: boolean;
  /** Only the last value counts (NetBox's single-value filters). */
  single?: boolean;
  /**
   * The lookup the bare parameter compares with (django-filter's `lookup_expr`), for a filter
   * NetBox declares apart from its field's lookups, e.g. `mask_length__gte` as its own number
   * filter; default: equality.
   */
  compare?: 'lt' | 'lte' | 'gt' | 'gte';
}

/**
 * Objects related to target objects named by id or by an attribute (slug, name, rd ...).
 * Values are resolved against the target's read model first: an unknown value is
 * 400 "Select a valid choice"; 'null' selects objects without the relation.
 */
export interface RelatedFilterSpec {
  kind: 'related';
  /** The model whose objects the values name, '<app>.<model>'. */
  target: string;
  /** 'id' (default) or the target's attribute the values are matched against. */
  by?: string;
  /**
   * The relation fields walked from this model to the target, e.g. ['site', 'region']
   * for a device's region (each an fk/m2m/tags field of the model reached so far; the
   * last one holds target ids). Empty: the relation is held by a model netledger does
   * not have (e.g. FHRP groups): valid values then match nothing, 'null' everything.
   */
  path: string[];
  /**
   * The relation is held by objects of another model that name this one by content type
   * and id (a generic relation, e.g. contact assignments): `path` is then walked from that
   * model, and an object matches when one of its holders does (holders named by 'null'
   * included; 'null' also matches objects that no holder names).
   */
  through?: GenericHolder;
  /** Tree targets: a value also matches every descendant (following `parent`). */
  includeDescendants?: boolean;
  /** Repeated values must all match (tags) instead of any. */
  all?: boolean;
  /** Only the last value counts. */
  single?: boolean;
}

/** The model whose objects name others by a (content type, id) pair, and the fields holding the pair. */
export interface GenericHolder {
  model: string;
  typeField: string;
  idField: string;
}

/**
 * Network containment over the hidden keys of src/models/values/ipNetworks.ts:
 * - 'within' / 'within_include': networks strictly inside / inside or equal to the value;
 * - 'contains': networks containing (or equal to) the value network or address;
 * - 'network': networks equal to the value (repeatable; unparsable values dropped);
 * - 'parent': host addresses inside any of the value networks (repeatable);
 * - 'address': host addresses equal to the value (mask compared when given).
 */
export interface NetworkFilterSpec {
  kind: 'network';
  op: 'within' | 'within_include' | 'contains' | 'network' | 'parent' | 'address';
  /** Only the last value counts. */
  single?: boolean;
}

/** Custom logic (a small function in the model's own file); accepts no lookup suffixes. */
export interface MethodFilterSpec {
  kind: 'method';
  method: FilterMethod;
  /** How each value is parsed before the method sees it (default 'string'). */
  value?: FilterValueType;
  /** Only the last value counts. */
  single?: boolean;
  /** Lookup suffixes it also answers, passed as `<param>__<lookup>` names (rare). */
  lookups?: string[];
  /** The values name tree objects and the method matches their descendants too (declared for the reference checks). */
  includeDescendants?: boolean;
  /**
   * How NetBox's filter reads its value where that is not what `value` says: an 'integer'
   * method is NetBox's number filter unless it is a CharFilter ('text') or a ModelChoiceFilter
   * naming one object by id ('object'). Only the GraphQL argument type follows it (NetBox types
   * those String); the value is parsed here as `value` says.
   */
  netboxReads?: 'text' | 'object';
}

/**
 * The `q` search: case-insensitive "contains" over `fields` (default: the model's
 * `search`), OR'ed with what `also` returns for the text (e.g. networks containing it).
 */
export interface SearchFilterSpec {
  kind: 'search';
  fields?: string[];
  also?: FilterMethod;
}

/**
 * Marks the filter of this name derived from a field as one NetBox 3.4 does not have. NetBox
 * ignores such a parameter whatever its value, so netledger may use it but must never refuse
 * it: a value it cannot use (not a number, no such object) leaves the parameter out, as if
 * it had not been given, where NetBox's own filters answer 400.
 */
export interface BeyondNetBoxSpec {
  kind: 'beyond_netbox';
  /** Only these lookups are beyond NetBox (it has the bare filter, not e.g. its `__gt`). */
  lookups?: string[];
  /** NetBox's bare filter takes one value, the last (e.g. a DateTimeFilter): so does this one. */
  single?: boolean;
}

/**
 * The filter derived from the field of this name takes one value, the last: NetBox generates a
 * single-value filter for the field (django-filter's ChoiceFilter for a choice field) where it
 * declares no multiple-value one. Typed as one value in GraphQL, as NetBox types it.
 */
export interface OneValueSpec {
  kind: 'one_value';
}

/**
 * A list filter parameter that is not derived from a field of the same name, or `false`
 * to withdraw one that would be derived (NetBox has no such filter).
 */
export type FilterSpec =
  | FieldFilterSpec
  | RelatedFilterSpec
  | NetworkFilterSpec
  | MethodFilterSpec
  | SearchFilterSpec
  | BeyondNetBoxSpec
  | OneValueSpec
  | false;
