// Field facts come from NetBox 3.4's REST API reference (scripts/import-reference.ts); hooks are hand-written.
import type { ModelDefinition } from '../types.js';
import { treeNodeHooks } from '../hooks.js';
import { contactFilters } from '../filterSpecs.js';
import { changeLoggedFields, countField, depthField, descriptionField, identityFields, parentField, siblingUnique } from '../commonFields.js';

export const sitegroup: ModelDefinition = {
  key: 'dcim.sitegroup',
  app: 'dcim',
  model: 'sitegroup',
  path: 'site-groups',
  verboseName: 'site group',
  verboseNamePlural: 'site groups',
  fields: [
    ...identityFields,
    { name: 'name', type: 'string', required: true, maxLength: 100 },
    { name: 'slug', type: 'string', required: true, maxLength: 100, pattern: '^[-a-zA-Z0-9_]+$', format: 'slug' },
    parentField('dcim.sitegroup'),
    descriptionField,
    ...changeLoggedFields,
    // NetBox counts objects assigned to descendants too; this counts direct ones
    countField('site_count', 'dcim.site', 'group'),
    depthField,
  ],
  brief: ['id', 'url', 'display', 'name', 'slug', 'site_count', '_depth'],
  // NetBox lists trees depth-first (tree_id, lft); here by name
  ordering: ['name', 'id'],
  unique: siblingUnique('site group'),
  search: ['name', 'slug'],
  filters: { ...contactFilters },
  hooks: treeNodeHooks('dcim.sitegroup', 'site group'),
};
