// Field facts come from NetBox 3.4's REST API reference (scripts/import-reference.ts); hooks are hand-written.
import { descriptionField, identityFields, uniqueNameField } from '../commonFields.js';
import { CRITERIA } from '../configContexts/contextScopes.js';
import { isJsonObject } from '../configContexts/deepMerge.js';
import type { FieldDefinition } from '../fieldDefinition.js';
import { pairFilters } from '../filterSpecs.js';
import type { FilterSpec } from '../filterTypes.js';
import { fieldError } from '../hooks.js';
import type { ModelDefinition } from '../modelDefinition.js';
import { jsonbText } from '../values/jsonbText.js';

/** A criterion: the objects a context is limited to (none listed: no limit of that kind). */
function criterion(name: string, target: string): FieldDefinition {
  return { name, type: 'm2m', target, default: [], help: 'assignment criterion' };
}

/**
 * The m2m fields would bring `<field>_id` / `<field>` filters of their own (regions_id,
 * regions ...); NetBox names them in the singular instead (declared below).
 */
const pluralFilters: Record<string, FilterSpec> = Object.fromEntries(
  CRITERIA.flatMap((name) => [
    [`${name}_id`, false],
    [name, false],
  ]),
);

export const configcontext: ModelDefinition = {
  key: 'extras.configcontext',
  app: 'extras',
  model: 'configcontext',
  path: 'config-contexts',
  verboseName: 'config context',
  verboseNamePlural: 'config contexts',
  fields: [
    ...identityFields,
    uniqueNameField(),
    { name: 'weight', type: 'integer', default: 1000, min: 0, max: 32767 },
    descriptionField,
    { name: 'is_active', type: 'boolean', default: true },
    criterion('regions', 'dcim.region'),
    criterion('site_groups', 'dcim.sitegroup'),
    criterion('sites', 'dcim.site'),
    criterion('locations', 'dcim.location'),
    criterion('device_types', 'dcim.devicetype'),
    criterion('roles', 'dcim.devicerole'),
    criterion('platforms', 'dcim.platform'),
    criterion('cluster_types', 'virtualization.clustertype'),
    criterion('cluster_groups', 'virtualization.clustergroup'),
    criterion('clusters', 'virtualization.cluster'),
    criterion('tenant_groups', 'tenancy.tenantgroup'),
    criterion('tenants', 'tenancy.tenant'),
    // a criterion too, not the context's own tags: written and rendered as tag slugs
    { ...criterion('tags', 'extras.tag'), representation: 'slug' },
    { name: 'data', type: 'json', required: true },
    { name: 'created', type: 'date', readOnly: true, nullable: true },
    { name: 'last_updated', type: 'datetime', readOnly: true, nullable: true },
  ],
  brief: ['id', 'url', 'display', 'name'],
  ordering: ['weight', 'name', 'id'],
  search: ['name', 'description'],
  filters: {
    ...pluralFilters,
    weight: false,
    description: false,
    ...pairFilters('region_id', 'region', 'dcim.region', ['regions']),
    ...pairFilters('site_group_id', 'site_group', 'dcim.sitegroup', ['site_groups']),
    ...pairFilters('site_id', 'site', 'dcim.site', ['sites']),
    ...pairFilters('location_id', 'location', 'dcim.location', ['locations']),
    device_type_id: { kind: 'related', target: 'dcim.devicetype', path: ['device_types'] },
    ...pairFilters('role_id', 'role', 'dcim.devicerole', ['roles']),
    ...pairFilters('platform_id', 'platform', 'dcim.platform', ['platforms']),
    ...pairFilters('cluster_type_id', 'cluster_type', 'virtualization.clustertype', ['cluster_types']),
    ...pairFilters('cluster_group_id', 'cluster_group', 'virtualization.clustergroup', ['cluster_groups']),
    cluster_id: { kind: 'related', target: 'virtualization.cluster', path: ['clusters'] },
    ...pairFilters('tenant_group_id', 'tenant_group', 'tenancy.tenantgroup', ['tenant_groups']),
    ...pairFilters('tenant_id', 'tenant', 'tenancy.tenant', ['tenants']),
    // any of the tags (not all of them, as the `tag` filter of tagged models)
    ...pairFilters('tag_id', 'tag', 'extras.tag', ['tags']),
    // NetBox also searches the data, as PostgreSQL prints it
    q: {
      kind: 'search',
      fields: ['name', 'description'],
      also: ([text], env) => ({ _data_text: env.textCondition('ic', String(text)) }),
    },
  },
  hooks: {
    derive: (obj) => ({ _data_text: jsonbText(obj.data) }),
    validate: async (obj) => {
      if (!isJsonObject(obj.data)) return fieldError('data', 'JSON data must be in object form. Example: {"foo": 123}');
    },
  },
};
