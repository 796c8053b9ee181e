// Field facts come from NetBox 3.4's REST API reference (scripts/import-reference.ts); hooks are hand-written.
import type { ModelDefinition } from '../types.js';
import { displayAttribute, treeDepth, treeParentErrors } from '../hooks.js';
import { contactFilters } from '../filterSpecs.js';
import { changeLoggedFields, countField, identityFields } from '../commonFields.js';

export const region: ModelDefinition = {
  key: 'dcim.region',
  app: 'dcim',
  model: 'region',
  path: 'regions',
  verboseName: 'region',
  verboseNamePlural: 'regions',
  fields: [
    ...identityFields,
    { name: 'name', type: 'string', required: true, maxLength: 100 },
    { name: 'slug', type: 'string', required: true, maxLength: 100, pattern: '^[-a-zA-Z0-9_]+$', format: 'slug' },
    { name: 'parent', type: 'fk', target: 'dcim.region', onDelete: 'CASCADE', nullable: true, default: null },
    { name: 'description', type: 'string', blank: true, default: '', maxLength: 200 },
    ...changeLoggedFields,
    // NetBox counts objects assigned to descendants too; this counts direct ones
    countField('site_count', 'dcim.site', 'region'),
    { name: '_depth', type: 'computed', readOnly: true, value: 0 },
  ],
  brief: ['id', 'url', 'display', 'name', 'slug', 'site_count', '_depth'],
  // NetBox lists trees depth-first (tree_id, lft); here by name
  ordering: ['name', 'id'],
  orderingFields: ['id', 'name', 'slug', 'parent', 'description', 'created', 'last_updated'],
  unique: [
    { fields: ['parent', 'name'] },
    { fields: ['name'], whenNull: 'parent', message: 'A top-level region with this name already exists.' },
    { fields: ['parent', 'slug'] },
    { fields: ['slug'], whenNull: 'parent', message: 'A top-level region with this slug already exists.' },
  ],
  search: ['name', 'slug'],
  filters: { ...contactFilters },
  hooks: {
    display: displayAttribute('name'),
    validate: (obj, view) => treeParentErrors('dcim.region', 'region', obj, view),
    compute: { _depth: treeDepth('dcim.region') },
  },
};
