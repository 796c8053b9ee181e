// Field facts come from NetBox 3.4's REST API reference (scripts/import-reference.ts); hooks are hand-written.
import type { ModelDefinition } from '../types.js';
import { changeLoggedFields, countField, identityFields, slugField, uniqueNameField } from '../commonFields.js';

export const rackrole: ModelDefinition = {
  key: 'dcim.rackrole',
  app: 'dcim',
  model: 'rackrole',
  path: 'rack-roles',
  verboseName: 'rack role',
  verboseNamePlural: 'rack roles',
  fields: [
    ...identityFields,
    uniqueNameField(),
    slugField,
    { name: 'color', type: 'string', default: '9e9e9e', maxLength: 6, pattern: '^[0-9a-f]{6}$' },
    { name: 'description', type: 'string', blank: true, default: '', maxLength: 200 },
    ...changeLoggedFields,
    countField('rack_count', 'dcim.rack', 'role'),
  ],
  brief: ['id', 'url', 'display', 'name', 'slug', 'rack_count'],
  ordering: ['name', 'id'],
  search: ['name', 'slug'],
};
