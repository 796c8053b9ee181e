// Field facts come from NetBox 3.4's REST API reference (scripts/import-reference.ts); hooks are hand-written.
import {
  changeLoggedFields,
  countField,
  descriptionField,
  identityFields,
  scopedSlugField,
  siteStatusField,
  tenantField,
} from '../commonFields.js';
import { contactFilters, siteScopeFilters, tenancyFilters, treeFilters } from '../filterSpecs.js';
import { pyStr, related, treeDepth, treeParentErrors } from '../hooks.js';
import type { ModelDefinition } from '../modelDefinition.js';

export const location: ModelDefinition = {
  key: 'dcim.location',
  app: 'dcim',
  model: 'location',
  path: 'locations',
  verboseName: 'location',
  verboseNamePlural: 'locations',
  fields: [
    ...identityFields,
    { name: 'name', type: 'string', required: true, maxLength: 100 },
    scopedSlugField,
    { name: 'site', type: 'fk', target: 'dcim.site', onDelete: 'CASCADE', required: true },
    { name: 'parent', type: 'fk', target: 'dcim.location', onDelete: 'CASCADE', nullable: true, default: null },
    siteStatusField,
    tenantField,
    descriptionField,
    ...changeLoggedFields,
    // NetBox counts objects assigned to descendants too; this counts direct ones
    countField('rack_count', 'dcim.rack', 'location'),
    // NetBox counts objects assigned to descendants too; this counts direct ones
    countField('device_count', 'dcim.device', 'location'),
    { name: '_depth', type: 'computed', readOnly: true, value: 0 },
  ],
  brief: ['id', 'url', 'display', 'name', 'slug', 'rack_count', '_depth'],
  // NetBox lists trees depth-first (tree_id, lft); here by name
  ordering: ['name', 'id'],
  unique: [
    { fields: ['site', 'parent', 'name'] },
    {
      fields: ['site', 'name'],
      whenNull: 'parent',
      message: 'A location with this name already exists within the specified site.',
    },
    { fields: ['site', 'parent', 'slug'] },
    {
      fields: ['site', 'slug'],
      whenNull: 'parent',
      message: 'A location with this slug already exists within the specified site.',
    },
  ],
  search: ['name', 'description'],
  filters: {
    ...tenancyFilters,
    ...contactFilters,
    ...siteScopeFilters(['site']),
    ...treeFilters('parent_id', 'parent', 'dcim.location', ['parent']),
  },
  hooks: {
    async validate(obj, view) {
      const cycle = await treeParentErrors('dcim.location', 'location', obj, view);
      if (cycle) return cycle;
      const parent = await related(view, 'dcim.location', obj.parent);
      if (parent && parent.site !== obj.site) {
        const site = await related(view, 'dcim.site', obj.site);
        return {
          __all__: [`Parent location (${pyStr(parent.name)}) must belong to the same site (${pyStr(site?.name)}).`],
        };
      }
    },
    compute: { _depth: treeDepth('dcim.location') },
  },
};
