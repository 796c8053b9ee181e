// Field facts come from NetBox 3.4's REST API reference (scripts/import-reference.ts); hooks are hand-written.
import type { ModelDefinition } from '../types.js';
import { treeNodeHooks } from '../hooks.js';
import { changeLoggedFields, countField, depthField, descriptionField, identityFields, parentField, slugField, uniqueNameField } from '../commonFields.js';

export const tenantgroup: ModelDefinition = {
  key: 'tenancy.tenantgroup',
  app: 'tenancy',
  model: 'tenantgroup',
  path: 'tenant-groups',
  verboseName: 'tenant group',
  verboseNamePlural: 'tenant groups',
  fields: [
    ...identityFields,
    uniqueNameField(),
    slugField,
    parentField('tenancy.tenantgroup'),
    descriptionField,
    ...changeLoggedFields,
    // NetBox counts objects assigned to descendants too; this counts direct ones
    countField('tenant_count', 'tenancy.tenant', 'group'),
    depthField,
  ],
  brief: ['id', 'url', 'display', 'name', 'slug', 'tenant_count', '_depth'],
  // NetBox lists trees depth-first (tree_id, lft); here by name
  ordering: ['name', 'id'],
  search: ['name', 'slug'],
  hooks: treeNodeHooks('tenancy.tenantgroup', 'tenant group'),
};
