import type { LookupView } from '../models/lookupView.js';
import { MATCH_NOTHING } from '../models/matchNothing.js';
import type { ModelDefinition } from '../models/modelDefinition.js';
import type { ModelRegistry } from '../models/registry.js';
import type { StoredObject } from '../models/storedObject.js';
import type { Query } from '../projections/ReadStore.js';
import { compileConstraint, type Compiled, constraintAlternatives } from './constraints.js';

/** What one ObjectPermission (or one DEFAULT_PERMISSIONS entry) grants. */
export interface Grant {
  objectTypes: string[];
  actions: string[];
  /** null / {} = every object; an object = AND of lookups; a list = OR of objects. */
  constraints: unknown;
}

interface Entry {
  /** Unrestricted by at least one grant. */
  all: boolean;
  raw: unknown[];
  compiled?: Compiled[];
}

/**
 * A user's permissions: for each '<app>.<model>' and action, the OR of the constraints of
 * every enabled grant. Model-level questions ("may this user add sites at all?") ignore
 * constraints; `scope` gives the MongoDB query of the objects the action may touch.
 * Built once per user and cached by the AuthService until a user, group or permission changes.
 */
export class PermissionSet {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly registry: ModelRegistry,
    private readonly userId: number,
    grants: Grant[],
  ) {
    for (const grant of grants) {
      const alternatives = constraintAlternatives(grant.constraints);
      for (const type of grant.objectTypes) {
        for (const action of grant.actions) {
          const key = `${type}:${action}`;
          let entry = this.entries.get(key);
          if (!entry) this.entries.set(key, (entry = { all: false, raw: [] }));
          if (alternatives === null) entry.all = true;
          else entry.raw.push(...alternatives);
        }
      }
    }
  }

  /** The model-level check: some enabled grant covers this action on this model. */
  has(model: string, action: string): boolean {
    return this.entries.has(`${model}:${action}`);
  }

  /**
   * The objects `action` may touch, as a query to AND into reads and to test writes against:
   * {} for all, null for no permission at all. Lookups through relations are resolved in `view`.
   */
  async scope(definition: ModelDefinition, action: string, view: LookupView): Promise<Query | null> {
    const entry = this.entries.get(`${definition.key}:${action}`);
    if (!entry) return null;
    if (entry.all) return {};
    entry.compiled ??= entry.raw.map((c) => compileConstraint(this.registry, definition, c, this.userId));
    const queries: Query[] = [];
    for (const compiled of entry.compiled) {
      if (compiled.kind === 'static') queries.push(compiled.query);
      else if (compiled.kind === 'dynamic') queries.push(await compiled.resolve(view));
    }
    if (queries.length === 0) return MATCH_NOTHING;
    if (queries.some((q) => Object.keys(q).length === 0)) return {};
    return queries.length === 1 ? queries[0] : { $or: queries };
  }
}

/** ObjectPermission read documents as grants. */
export function grantsOf(permissions: StoredObject[]): Grant[] {
  return permissions.map((p) => ({
    objectTypes: Array.isArray(p.object_types) ? p.object_types.map(String) : [],
    actions: Array.isArray(p.actions) ? p.actions.map(String) : [],
    constraints: p.constraints ?? null,
  }));
}

/**
 * DEFAULT_PERMISSIONS: `{"<app_label>.<action>_<model>": constraints}` (NetBox's format,
 * e.g. "users.view_token": [{"user": "$user"}]) as grants every authenticated user holds.
 */
export function defaultGrants(defaults: Record<string, unknown>): Grant[] {
  const grants: Grant[] = [];
  for (const [name, constraints] of Object.entries(defaults)) {
    const match = /^([a-z][a-z0-9_]*)\.([a-z0-9]+)_([a-z0-9_]+)$/.exec(name);
    if (!match) continue;
    const [, app, action, model] = match;
    grants.push({ objectTypes: [`${app}.${model}`], actions: [action], constraints: constraints ?? null });
  }
  return grants;
}
