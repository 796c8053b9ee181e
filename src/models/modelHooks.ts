/**
 * What a model's own code may do at each step of a write and a read (NetBox's clean(),
 * save() and friends), what each step is given, and the columns a projection keeps from
 * other objects of the model.
 */
import type { FieldErrors } from '../errors/fieldErrors.js';
import type { FollowUpHooks } from './compositeWrites.js';
import type { LookupView } from './lookupView.js';
import type { ModelCatalog } from './modelCatalog.js';
import type { StoredObject } from './storedObject.js';
import type { PatternChecker } from './values/patternChecks.js';

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
  /** Where values are matched against stored patterns (a custom field's default); absent: the shared checker. */
  patterns?: PatternChecker;
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
