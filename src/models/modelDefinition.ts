/**
 * The model registry's vocabulary. A model is declared once, as data, in a
 * `ModelDefinition`; routes, write schemas, serializers, filters, OPTIONS,
 * OpenAPI and read-model indexes are all derived from it. Its parts are declared by
 * concern: fields (fieldDefinition.ts), hooks (modelHooks.ts), writes that make further
 * writes (compositeWrites.ts) and detail endpoints (detailEndpoints.ts).
 */
import type { DetailAction, DetailView } from './detailEndpoints.js';
import type { FieldDefinition } from './fieldDefinition.js';
import type { FilterSpec } from './filterTypes.js';
import type { ModelHooks, ProjectedColumns } from './modelHooks.js';

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

/**
 * One model, declared as data. Models composed of others use three mechanisms, each
 * documented where it is declared (fieldDefinition.ts, compositeWrites.ts):
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

declare module './modelCatalog.js' {
  /** What the catalog holds, named here so that the definition's parts need not import this file. */
  interface CatalogedModel {
    model: ModelDefinition;
  }
}
