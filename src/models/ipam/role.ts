// Field facts come from NetBox 3.4's REST API reference (scripts/import-reference.ts); hooks are hand-written.
import type { ModelDefinition } from '../types.js';
import { changeLoggedFields, countField, identityFields, slugField, uniqueNameField } from '../commonFields.js';

export const role: ModelDefinition = {
  key: 'ipam.role',
  app: 'ipam',
  model: 'role',
  path: 'roles',
  verboseName: 'role',
  verboseNamePlural: 'roles',
  fields: [
    ...identityFields,
    uniqueNameField(),
    slugField,
    { name: 'weight', type: 'integer', default: 1000, min: 0, max: 32767 },
    { name: 'description', type: 'string', blank: true, default: '', maxLength: 200 },
    ...changeLoggedFields,
    countField('prefix_count', 'ipam.prefix', 'role'),
    countField('vlan_count', 'ipam.vlan', 'role'),
  ],
  brief: ['id', 'url', 'display', 'name', 'slug', 'prefix_count', 'vlan_count'],
  ordering: ['weight', 'name', 'id'],
  search: ['name', 'slug'],
};
