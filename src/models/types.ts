/**
 * The model registry's vocabulary. A model is declared once, as data, in a
 * `ModelDefinition`; routes, write schemas, serializers, filters, OPTIONS,
 * OpenAPI and read-model indexes are all derived from it.
 */
import type { FilterSpec } from './filterTypes.js';
import type { StoredObject } from './storedObject.js';

export type {
  FieldFilterSpec,
  FilterEnvironment,
  FilterMethod,
  FilterSpec,
  FilterValueType,
  GenericHolder,
  MethodFilterSpec,
  NetworkFilterSpec,
  RelatedFilterSpec,
  SearchFilterSpec,
} from './filterTypes.js';
export type { StoredObject } from './storedObject.js';

/** What happens to objects that reference a deleted object through a foreign key. */
export type OnDelete = 'CASCADE' | 'PROTECT' | 'SET_NULL';

export interface Choice {
  value: string | number;
  label: string;
}

export type FieldType =
  // identity and labels every model renders
  | 'id' // integer primary key
  | 'url' // absolute URL of the object's detail view
  | 'display' // the object's string form
  // plain values
  | 'string'
  | 'integer'
  | 'decimal'
  | 'boolean'
  | 'date' // YYYY-MM-DD
  | 'datetime' // ISO 8601, UTC, microseconds, trailing Z
  | 'json' // any JSON value
  | 'array' // JSON array of `items`
  | 'choice' // stored bare; rendered per `choiceRender`
  // network values, normalised on write
  | 'cidr' // a network: address/len with host bits zero
  | 'ip_address' // a host address with its mask length
  | 'mac_address'
  | 'wwn'
  // relations
  | 'fk' // stored as the target's integer id (or null)
  | 'm2m' // stored as a sorted list of target ids
  | 'tags' // m2m to extras.tag, written by id or attribute dict
  | 'content_type' // '<app>.<model>' string
  | 'generic_fk' // read-only: the object named by a (content_type, id) pair
  | 'generic_list' // a list of objects of several models: see GenericListItem
  | 'custom_fields'
  // computed on read
  | 'count' // number of `count.model` objects whose `count.via` points here
  | 'reverse' // list of nested `target` objects whose `via` field points here (e.g. nat_outside)
  | 'computed'; // read-only value from the model's `compute` hook, else `value`

export interface FieldDefinition extends DependentField {
  name: string;
  type: FieldType;
  label?: string;
  /**
   * Django's verbose name, which NetBox's messages use ('device with this Primary IPv4 already
   * exists.'), where it is not `label`: a field NetBox's serializer declares anew has DRF's
   * label from its name in OPTIONS ('Primary ip4') but keeps the model's verbose name in messages.
   */
  verboseName?: string;
  help?: string;

  /** Must be supplied on create (and on PUT). */
  required?: boolean;
  readOnly?: boolean;
  /** Accepted on write, never rendered (e.g. a password). */
  writeOnly?: boolean;
  /** Stored and used internally, never rendered nor written by clients (e.g. a key digest). */
  internal?: boolean;
  nullable?: boolean;
  /** The empty string is accepted. */
  blank?: boolean;
  default?: unknown;
  /** The default is also applied by a PUT that omits the field. */
  defaultOnPut?: boolean;
  /**
   * fk to auth.user: where the default applies, the requesting user's id (null for a write
   * made without one), as NetBox's serializers default an author to the current user.
   */
  defaultIsRequester?: boolean;

  // string constraints
  maxLength?: number;
  minLength?: number;
  pattern?: string;
  /** The error for a value `pattern` refuses, where 'Enter a valid value.' would not say what is wanted. */
  patternMessage?: string;
  format?: 'slug' | 'timezone' | 'email' | 'uri' | 'color';

  // number constraints
  min?: number;
  max?: number;
  maxDigits?: number;
  decimalPlaces?: number;

  // choices
  choices?: Choice[];
  /** 'value_label' renders {value, label}; 'plain' renders the bare value. Default 'value_label'. */
  choiceRender?: 'value_label' | 'plain';
  /** '' or null may be written; stored as '' and rendered as null. */
  emptyAsNull?: boolean;

  // relations
  /** fk / m2m / tags / count: the related model, '<app>.<model>'. */
  target?: string;
  /** generic_fk / generic_list: the models the pair (each item) may point to. */
  targets?: string[];
  /** generic_fk: the names of the content-type and id fields that hold the pair. */
  typeField?: string;
  idField?: string;
  /** content_type: the accepted '<app>.<model>' values. */
  allowedTypes?: string[];
  /**
   * content_type holding a generic_fk's type: any registered model is accepted (not only
   * the relation's targets); the model's rules then refuse the others in words of their own.
   */
  acceptsAnyModel?: boolean;
  /**
   * generic_fk: the errors when the pair names no object, given the content type's string
   * form ('dcim | site') and the id; by default the id field's 'Related object not found'.
   */
  notFound?: (typeDisplay: string, id: unknown) => FieldErrors;
  onDelete?: OnDelete;
  /**
   * fk: 'nested' renders the target's brief form, 'id' the bare integer. Default 'nested'.
   * m2m: 'slug' writes and renders the targets' slugs (a list of strings, NetBox's slug
   * related field), ordered by the targets' names; stored as ids like any m2m.
   */
  representation?: 'nested' | 'id' | 'slug';
  /** fk: in the brief and nested forms, this attribute of the target instead of its nested form (a rack reservation's user: the username). */
  briefAttribute?: string;
  /** The key the field takes in the brief and nested forms, where it differs (an FHRP group assignment's group as `group_id`). */
  briefName?: string;
  /**
   * The foreign key is one-to-one: a target may be referenced by one object only.
   * On a 'reverse' field: the one object pointing here, rendered nested, or null.
   */
  oneToOne?: boolean;

  /** No two objects share the value (nulls aside): enforced on write and indexed. */
  unique?: boolean;
  /** array: the element type. */
  items?: 'string' | 'integer' | 'cidr' | 'json' | 'content_type';

  /** count: which objects to count (`where` narrows them, e.g. a generic relation's type). */
  count?: { model: string; via: string; where?: Record<string, unknown> };
  /** reverse: the field of `target` that points at this object. */
  via?: string;
  /** computed: the nested `target` named by the first of these foreign keys that is set (e.g. primary_ip). */
  coalesce?: string[];
  /**
   * computed: the object holding this one through a one-to-one field (`via`) of another
   * `model`, rendered as the nested form of the holder's `parent` fk with the holder's own
   * nested form under `as` (a device's parent_device: the device whose bay holds it, with
   * `device_bay`); null when nothing holds it.
   */
  heldBy?: { model: string; via: string; parent: string; as: string };
  /**
   * computed: the value names objects rather than being one: the compute hook (or
   * `computeMany`) gives `{object_type, object_id}` (or null) when 'one', a list of them
   * when 'many', and each is rendered in its model's nested form, fetched once per model
   * for the page (a port's link peers, a circuit's termination on side A).
   */
  references?: 'one' | 'many';
  /** computed with `references`: the fields the referenced objects show, when not their brief form. */
  referenceFields?: string[];
  /** fk with onDelete SET_NULL: further fields given these values when the reference is cleared (a port's `cable_end`). */
  clearsWith?: Record<string, unknown>;
  /** computed: the value rendered when the model has no `compute` hook for the field. */
  value?: unknown;
  /**
   * Secrets never enter an event in clear: 'password' is stored as a slow salted hash,
   * 'token_key' as a keyed digest (plus an encrypted copy when retrieval is allowed),
   * 'sealed' only encrypted with SECRET_KEY in the internal field `<name>_sealed` (a
   * webhook's signing key, which the service itself must read back; '' stays '').
   */
  secret?: 'password' | 'token_key' | 'sealed';
  /**
   * Count fields computed by NetBox's list queryset: absent from create responses and
   * from the object's nested form.
   */
  annotated?: boolean;
  /**
   * An image file (NetBox's ImageField): the stored value is the file's name under
   * `media/<directory>/`, rendered as its absolute URL; written by a multipart upload
   * (src/models/imageFields.ts), cleared by null or ''.
   */
  image?: { directory: string };
  /**
   * The field names a stored file under `media/<directory>/` without being an image field
   * (an image attachment's `image_file`): a file no object names any more is deleted.
   */
  mediaFile?: { directory: string };
}

/** One object's change in a batch the projection applies: as stored before it, as it leaves it (null: absent). */
export interface ColumnTransition {
  id: number;
  before: StoredObject | null;
  after: StoredObject | null;
}

/**
 * Columns computed from other documents of the same model. `project` gets a batch's
 * transitions and a view of the read models as they were before it, and gives the
 * columns' values after it: for every object the batch leaves (each `after`) and for
 * each other object whose values the batch changes (written as a column patch: the
 * object's version, `_pos`, stays).
 */
export interface ProjectedColumns {
  names: string[];
  project(transitions: ColumnTransition[], view: LookupView): Promise<Map<number, Record<string, unknown>>>;
}

/** A uniqueness rule over one or more fields. */
export interface UniqueConstraint {
  fields: string[];
  /** Fields compared case-insensitively. */
  caseInsensitive?: string[];
  /** Applies only when this field is null (e.g. top-level regions). */
  whenNull?: string;
  /** The error message; by default NetBox's '<Model> with this <Fields> already exists.' */
  message?: string;
}

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

export interface FieldErrors {
  [field: string]: string[];
}

/** Configuration that changes model rules (NetBox settings of the same names). */
export interface ModelSettings {
  /** ENFORCE_GLOBAL_UNIQUE: no duplicate prefixes or IP addresses in the global table (no VRF). */
  enforceGlobalUnique: boolean;
  /** Where the service listens (HOST, PORT; port 0: not known before listening): webhooks may not deliver there. */
  listen?: { host: string; port: number };
}

/** What a `validate` hook may consult besides the object and the stored state. */
export interface ValidationContext {
  /** Configuration that changes model rules. */
  settings?: ModelSettings;
  /** The fields the request supplied: NetBox's serializers check some values only when sent (an interface's tagged VLANs). */
  written: ReadonlySet<string>;
  /** The registered models (e.g. which templates a module type's install instantiates). */
  models: ModelCatalog;
}

/** The write a `beforeSave` hook completes: the object as it was, and the fields the request supplied. */
export interface SaveContext {
  previous: StoredObject | null;
  written: ReadonlySet<string>;
}

export interface ModelHooks extends FollowUpHooks {
  /**
   * Normalise and derive stored values before validation of model rules
   * (e.g. canonical CIDR text, family from the address). Mutates `obj`.
   * Returns field errors for values that cannot be normalised. `now` is the decision's
   * time (the command's, never the clock's): a decision replayed gives the same result.
   */
  normalize?(obj: StoredObject, now: string): FieldErrors | void;
  /**
   * Model rules beyond field constraints (NetBox's clean()); may read other objects.
   */
  validate?(
    obj: StoredObject,
    view: LookupView,
    previous: StoredObject | null,
    context?: ValidationContext,
  ): Promise<FieldErrors | void>;
  /**
   * What saving the object does once its rules and uniqueness passed (NetBox's save()):
   * values derived from other objects or from what the request left out (a VM's site
   * from its cluster, an interface's VLANs cleared by its mode). Mutates `obj`.
   */
  beforeSave?(obj: StoredObject, view: LookupView, change: SaveContext): Promise<void> | void;
  /**
   * The object's string form; may read related objects (e.g. a device without a name).
   * A model with a `name` field and no display hook shows its name.
   */
  display?(obj: StoredObject, view: LookupView): string | Promise<string>;
  /**
   * Hidden read-model keys (named with a leading '_') derived from the stored object,
   * for natural ordering and network-aware queries. Computed by the projector.
   */
  derive?(obj: StoredObject): Record<string, unknown>;
  /**
   * Objects that forbid deleting this one by a rule rather than a protecting reference
   * (NetBox's ProtectedError raised by delete()): the delete is refused with 409 naming
   * them, as for protecting references.
   */
  protectedBy?(obj: StoredObject, view: LookupView): Promise<Array<{ model: string; obj: StoredObject }>>;
  /** The parent object that change records name as related_object (e.g. an interface's device). */
  relatedObject?(obj: StoredObject): { type: string; id: number } | null;
  /**
   * Rendered values of 'computed' fields, by field name (e.g. a tree node's `_depth`).
   * Each returns the field's rendered JSON value; fields without an entry render `value`.
   * `baseUrl` is the service's address as the client sees it, for values that are links.
   */
  compute?: Record<string, (obj: StoredObject, view: LookupView, baseUrl?: string) => unknown | Promise<unknown>>;
}

/* ------------------------------------------------------------ list filters */

/**
 * One model, declared as data. Models composed of others use three mechanisms, each
 * documented where it is declared (see the block at the end of this file):
 * - `hooks.followUps`: further objects created or changed by the same request
 *   (components from templates), decided and recorded inside the single writer;
 * - `type: 'generic_list'` fields: a list of objects of several models (cable ends),
 *   validated per item, rendered nested, filtered with `genericListFilters`;
 * - `type: 'computed'` fields with `dependsOn`: read-side values computed from other
 *   models (a port's peer, a rendered context) by `hooks.compute`, on every read.
 */
export interface ModelDefinition {
  /** Content-type label, '<app>.<model>', e.g. 'dcim.site'. */
  key: string;
  app: string;
  /** Lower-case model name, e.g. 'site', 'devicetype'. */
  model: string;
  /** URL segment of the list view under /api/<app>/, e.g. 'device-types'. */
  path: string;
  verboseName: string;
  verboseNamePlural: string;
  /** Fields in serializer order. */
  fields: FieldDefinition[];
  /** Keys of the brief form (also the nested form, minus annotated counts). */
  brief: string[];
  /**
   * Default ordering terms; '-' reverses; hidden derived keys allowed (e.g. '_name'). A
   * relation (fk) term orders by the related model's own ordering, as Django does (interfaces
   * by their device's natural name), through a key the projection keeps (relationOrder.ts).
   */
  ordering: string[];
  /**
   * Relation terms of `ordering` NetBox orders by the related id instead (an F() expression or
   * `<fk>__id` in its Meta.ordering: a prefix's VRF, an inventory item's device and parent).
   */
  idOrderedRelations?: string[];
  /**
   * Names accepted by ?ordering=, where they differ from the default: every rendered field
   * stored as one value (src/models/derivedFacts.ts). The registry fills in the default.
   */
  orderingFields?: string[];
  /**
   * Uniqueness over several fields, or with a condition, case rule or message of its own.
   * A single field's uniqueness is said by its `unique` flag; the registry adds that
   * constraint here (enforced with NetBox's message, and indexed).
   */
  unique?: UniqueConstraint[];
  /**
   * The models whose objects this model's display shows (a contact assignment shows its
   * contact and object). Such a display is worked out when it is rendered, so a rename
   * shows at once; the display stored with each change stays as it was then (object_repr).
   */
  displayReads?: string[];
  /** Fields searched by ?q= (case-insensitive contains). */
  search?: string[];
  /**
   * List filters beyond those derived from the fields (each field brings its own, with
   * its type's lookups: see src/api/query/filterSet.ts), by query parameter name. Written
   * from the reference's per-model filter lists (scripts/check-filters.ts compares).
   */
  filters?: Record<string, FilterSpec>;
  /** Served for reads only (e.g. object changes): writes answer 405. */
  readOnly?: boolean;
  /**
   * Its changes are listed in /api/extras/object-changes/ (default true). NetBox does not
   * change-log users, groups, tokens and permissions; their events still feed the read
   * models and their objects' history.
   */
  changeLogged?: boolean;
  /** EXEMPT_VIEW_PERMISSIONS = ['*'] opens it to anonymous reads (default true; NetBox's EXEMPT_EXCLUDE_MODELS are not). */
  exemptable?: boolean;
  /** It decides who may do what (users, groups, tokens, permissions): authentication caches follow its changes. */
  accessControl?: boolean;
  hooks?: ModelHooks;
  /**
   * A component template: the component model ('<app>.<model>') each of its objects becomes
   * when a device (or module) of its type is created. Without it, a model named
   * '<x>template' instantiates '<x>' of the same app when the registry has it.
   */
  instantiates?: string;
  /** Sub-resources of the detail URL that hand out the object's free space (e.g. a prefix's available-ips). */
  detailActions?: DetailAction[];
  /**
   * Hidden columns the projection keeps from other objects of the model (a prefix's
   * `_children` and `_depth`), set in the same apply as the events that change them.
   */
  projectedColumns?: ProjectedColumns;
  /** Read-only sub-resources of the detail URL (a port's trace, a rack's elevation). */
  detailViews?: DetailView[];
}

/* ------------------------------------------- mechanisms for composite models */

/**
 * A field holding a list of objects of several models (a cable's `a_terminations`),
 * `type: 'generic_list'` with `targets` naming the models an item may be.
 *
 * - Written as `[{object_type: '<app>.<model>', object_id: <id>}]`. Each item is checked:
 *   a dictionary, a type among `targets`, an existing object, listed once; errors come
 *   back per item (`{}` for the good ones), as for many-to-many fields.
 * - Stored as the same pairs, in the order written (nothing else is kept in the event).
 * - Rendered as `[{object_type, object_id, object: <nested form>}]`, fetched in one batch
 *   per model and page.
 * - Deleting a listed object removes it from the list (an update event of the holder),
 *   as a deleted termination leaves its cable.
 * - Filters: the field brings none of its own; declare them in `filters` with
 *   `genericListFilters(...)` (src/models/genericListFilters.ts), e.g. a cable's
 *   `termination_a_type` / `termination_a_id`.
 * Rules across items (all of one type, one side only) belong in the model's `validate` hook.
 * This is one item as stored.
 */
export interface GenericListItem {
  object_type: string;
  object_id: number;
}

/**
 * A read-side value that depends on other models (a port's `link_peer`, a parent's
 * count of children of several kinds, a rendered config context): `type: 'computed'`,
 * its value given by `hooks.compute[name]`, which may read any model through the view.
 *
 * Its values may also come from the field's own `computeMany`, for a whole page at once.
 *
 * The serializer computes it on every read from the read models it renders from (the
 * current ones, or a past state for `as_of`), so it is never stale and needs no code in
 * api/. `dependsOn` declares which models' changes can change the value: the registry
 * checks they exist and answers `dependentsOf(model)` (which rendered values a change
 * to `model` can alter), for caches and change notifications.
 */
export interface DependentField {
  /** computed: the models, '<app>.<model>', whose objects the compute hook reads. */
  dependsOn?: string[];
  /**
   * computed: the values of a whole page of objects at once, in the objects' order, for
   * values whose work is shared across objects (an index of config contexts built once
   * per page rather than consulted per object). Declared with the field, so a field
   * builder (e.g. `configContextField`) brings it in one line; a field has this or a
   * `hooks.compute` entry, not both.
   */
  computeMany?: (
    objs: StoredObject[],
    view: LookupView,
    model: ModelDefinition,
    memo: RenderMemo,
    models: ModelCatalog,
  ) => Promise<unknown[]>;
}

/**
 * What one response's rendering has already worked out, shared by every column and
 * nesting level of it (a port's traced path, read again for its nested form elsewhere on
 * the page). Lives as long as one render of one state: never stale.
 */
export type RenderMemo = Map<string, unknown>;

/**
 * A further change a write makes in the same request (components instantiated from
 * templates, module components adopted, a cable path recomputed). Decided like a
 * client's request (same validation and rules), recorded as ordinary events of the
 * same request, so object-changes, revert, as_of and replay see them like any other.
 */
export type FollowUpCommand =
  | { kind: 'create'; model: string; input: Record<string, unknown> }
  | { kind: 'update'; model: string; id: number; input: Record<string, unknown> }
  | { kind: 'delete'; model: string; id: number }
  /**
   * Sets read-only values the model keeps for another (a port's `cable` and `cable_end`,
   * kept by its cable): recorded as an update event without the client's field checks,
   * rules or further follow-ups, and without touching `last_updated`, as NetBox writes them.
   */
  | { kind: 'set'; model: string; id: number; values: Record<string, unknown> };

/** The change a follow-up hook reacts to: the object as just decided, and as it was. */
export interface DecidedChange {
  action: 'create' | 'update';
  obj: StoredObject;
  previous: StoredObject | null;
}

export interface FollowUpHooks {
  /**
   * The further changes this object's create or update makes, run inside the single
   * writer right after it is recorded: the view already holds it (and everything earlier
   * in the request). Each command is decided in turn and may have follow-ups of its own;
   * any refusal refuses the whole request (a bulk request's items alike), and nothing is
   * written. Keep it to what the object itself implies: the hook runs on every write.
   */
  followUps?(
    change: DecidedChange,
    view: LookupView,
    models: ModelCatalog,
  ): Promise<FollowUpCommand[]> | FollowUpCommand[];
}

/** The models a follow-up hook may consult (e.g. which template models instantiate which components). */
export interface ModelCatalog {
  all(): ModelDefinition[];
  tryGet(key: string): ModelDefinition | undefined;
}

// ---- Detail actions: sub-resources of an object's detail URL that hand out its free space
// (NetBox's available-ips / available-prefixes / available-vlans). The allocators are in allocation/.

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

// ---- Detail views: read-only sub-resources of an object's detail URL, computed from the
// read models (a port's cable trace, a rack's elevation). GET needs view permission on the object.

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
