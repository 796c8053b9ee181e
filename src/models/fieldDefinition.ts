/**
 * What a model's field may be (its kind, constraints, relation and rendering), and the
 * field kinds that make composite models: a list of objects of several models
 * (`generic_list`) and read-side values computed from other models (`computed`).
 * Every layer that derives from the registry (write schema, serializer, OpenAPI,
 * filters) reads a field through this declaration.
 */
import type { FieldErrors } from '../errors/fieldErrors.js';
import type { LookupView } from './lookupView.js';
import type { CatalogModel, ModelCatalog } from './modelCatalog.js';
import type { StoredObject } from './storedObject.js';

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
   * fk, generic_fk, m2m: Django's related_name, what the target's GraphQL type lists the
   * objects pointing here under (`%(class)s` is this model's name: a component's device lists
   * its `consoleports`); absent, the model's plural (`devices`) for a foreign key, and no
   * listing for a many-to-many field.
   */
  relatedName?: string;
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
   * `shownIn` is the field the API shows the file's URL in, `uploadIn` the field a write
   * names an upload by (see imageUploads.ts): what an import reads and writes.
   */
  mediaFile?: { directory: string; shownIn: string; uploadIn: string };
}

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
    model: CatalogModel,
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
