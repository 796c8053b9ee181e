/**
 * List filter declarations many models share (NetBox's filterset mixins), spread into
 * the models' `filters`. Each is data: see FilterSpec in filterTypes.ts.
 */
import type { FilterSpec, GenericHolder, RelatedFilterSpec } from './filterTypes.js';
import { MATCH_NOTHING } from './matchNothing.js';

type Filters = Record<string, FilterSpec>;

function related(target: string, path: string[], extra: Partial<RelatedFilterSpec> = {}): RelatedFilterSpec {
  return { kind: 'related', target, path, ...extra };
}

/** A tree relation by id and by slug, both including descendants (e.g. site `region_id` / `region`). */
export function treeFilters(idName: string, slugName: string, target: string, path: string[]): Filters {
  return {
    [idName]: related(target, path, { includeDescendants: true }),
    [slugName]: related(target, path, { by: 'slug', includeDescendants: true }),
  };
}

/** A relation by id and by an attribute, e.g. `role_id` / `role` on a device's device_role. */
export function pairFilters(idName: string, byName: string, target: string, path: string[], by = 'slug'): Filters {
  return { [idName]: related(target, path), [byName]: related(target, path, { by }) };
}

/** TenancyFilterSet: tenant (derived from the field) and the tenant's group, with descendants. */
export const tenancyFilters: Filters = treeFilters('tenant_group_id', 'tenant_group', 'tenancy.tenantgroup', [
  'tenant',
  'group',
]);

/**
 * ContactModelFilterSet: objects with a contact assignment naming a contact (by id), a
 * role (by id), or a contact of a group or its descendants (by id).
 */
const contactAssignments: GenericHolder = {
  model: 'tenancy.contactassignment',
  typeField: 'content_type',
  idField: 'object_id',
};
export const contactFilters: Filters = {
  contact: related('tenancy.contact', ['contact'], { through: contactAssignments }),
  contact_role: related('tenancy.contactrole', ['role'], { through: contactAssignments }),
  contact_group: related('tenancy.contactgroup', ['contact', 'group'], {
    through: contactAssignments,
    includeDescendants: true,
  }),
};

/** Region and site group of the site reached through `toSite` (e.g. ['site'] or ['device', 'site']). */
export function siteScopeFilters(toSite: string[]): Filters {
  return {
    ...treeFilters('region_id', 'region', 'dcim.region', [...toSite, 'region']),
    ...treeFilters('site_group_id', 'site_group', 'dcim.sitegroup', [...toSite, 'group']),
  };
}

/** The VRF by route distinguisher (NetBox's `vrf` filter matches rd, not name). */
export const vrfByRd: Filters = { vrf: related('ipam.vrf', ['vrf'], { by: 'rd' }) };

/**
 * A boolean filter about objects netledger does not model (console ports, cables ...):
 * none exist, so `true` matches nothing and `false` everything.
 */
export const noneExist: FilterSpec = {
  kind: 'method',
  value: 'boolean',
  single: true,
  method: ([has]) => (has ? MATCH_NOTHING : null),
};

/** A boolean filter "the key is set": true → not null, false → null. */
export function isSet(key: string): FilterSpec {
  return {
    kind: 'method',
    value: 'boolean',
    single: true,
    method: ([set]) => (set ? { [key]: { $ne: null } } : { [key]: null }),
  };
}

/** A derived filter NetBox 3.4 does not have: used when its value is usable, else ignored, never refused (see BeyondNetBoxSpec). */
export const BEYOND_NETBOX: FilterSpec = { kind: 'beyond_netbox' };

/** The same for some lookups only of a filter NetBox has (e.g. `created__gt` where NetBox has only `created`). */
export function lookupsBeyondNetBox(...lookups: string[]): FilterSpec {
  return { kind: 'beyond_netbox', lookups };
}

/** The derived filter of this name takes one value, the last (see OneValueSpec). */
export const ONE_VALUE: FilterSpec = { kind: 'one_value' };

/** `created` and `last_updated` of a model whose NetBox filter set has neither (extras models outside change logging). */
export const changeTimesBeyondNetBox: Filters = { created: BEYOND_NETBOX, last_updated: BEYOND_NETBOX };

/** ModelChoiceFilter's message for an unknown object. */
export { UNKNOWN_CHOICE } from './values/filterValues.js';

/**
 * A scope filter of VLAN groups: one `model` id, matching groups scoped to exactly that
 * object. NetBox 3.4's is a number filter: any number is taken (its integer part compared,
 * as Django's integer field takes it) and one naming no object matches nothing (no 400).
 */
export function scopeFilter(model: string): FilterSpec {
  return {
    kind: 'method',
    value: 'decimal',
    single: true,
    method: ([id]) => ({ scope_type: model, scope_id: Math.trunc(Number(id)) }),
  };
}

/** The ids of the `model` objects whose `key` equals one of the values; unknown values are a 400. */
export async function existingIds(
  env: import('./filterTypes.js').FilterEnvironment,
  model: string,
  key: string,
  values: unknown[],
): Promise<number[]> {
  const docs = await env.find(model, { [key]: { $in: values } });
  const found = new Set(docs.map((d) => d[key]));
  for (const v of values) {
    const text = String(v);
    if (!found.has(v))
      env.invalid(
        `Select a valid choice. ${text.length > 100 ? `${text.slice(0, 100)}…` : text} is not one of the available choices.`,
      );
  }
  return docs.map((d) => d.id);
}
