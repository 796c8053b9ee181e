// Field facts come from NetBox 3.4's REST API reference (scripts/import-reference.ts); hooks are hand-written.
import type { ModelDefinition } from '../types.js';
import { displayAttribute, treeDepth, treeParentErrors } from '../hooks.js';
import { changeLoggedFields, countField, identityFields, slugField, uniqueNameField } from '../commonFields.js';

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
    { name: 'parent', type: 'fk', target: 'tenancy.tenantgroup', onDelete: 'CASCADE', nullable: true, default: null },
    { name: 'description', type: 'string', blank: true, default: '', maxLength: 200 },
    ...changeLoggedFields,
    // NetBox counts objects assigned to descendants too; this counts direct ones
    countField('tenant_count', 'tenancy.tenant', 'group'),
    { name: '_depth', type: 'computed', readOnly: true, value: 0 },
  ],
  brief: ['id', 'url', 'display', 'name', 'slug', 'tenant_count', '_depth'],
  // NetBox lists trees depth-first (tree_id, lft); here by name
  ordering: ['name', 'id'],
  orderingFields: ['id', 'name', 'slug', 'parent', 'description', 'created', 'last_updated'],
  unique: [{ fields: ['name'] }, { fields: ['slug'] }],
  search: ['name', 'slug'],
  hooks: {
    display: displayAttribute('name'),
    validate: (obj, view) => treeParentErrors('tenancy.tenantgroup', 'tenant group', obj, view),
    compute: { _depth: treeDepth('tenancy.tenantgroup') },
  },
};
