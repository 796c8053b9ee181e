// Field facts come from NetBox 3.4's REST API reference (scripts/import-reference.ts); hooks are hand-written.
import type { ModelDefinition } from '../types.js';
import { changeLoggedFields, countField, identityFields, slugField, uniqueNameField } from '../commonFields.js';

export const devicerole: ModelDefinition = {
  key: 'dcim.devicerole',
  app: 'dcim',
  model: 'devicerole',
  path: 'device-roles',
  verboseName: 'device role',
  verboseNamePlural: 'device roles',
  fields: [
    ...identityFields,
    uniqueNameField(),
    slugField,
    { name: 'color', type: 'string', default: '9e9e9e', maxLength: 6, pattern: '^[0-9a-f]{6}$' },
    { name: 'vm_role', type: 'boolean', default: true },
    { name: 'description', type: 'string', blank: true, default: '', maxLength: 200 },
    ...changeLoggedFields,
    countField('device_count', 'dcim.device', 'device_role'),
    countField('virtualmachine_count', 'virtualization.virtualmachine', 'role'),
  ],
  brief: ['id', 'url', 'display', 'name', 'slug', 'device_count', 'virtualmachine_count'],
  ordering: ['name', 'id'],
  search: ['name', 'slug'],
};
