// Field facts come from NetBox 3.4's REST API reference (scripts/import-reference.ts); hooks are hand-written.
import { countField } from '../commonFields.js';
import { organizationalModel } from '../organizationalModel.js';

export const devicerole = organizationalModel({
  key: 'dcim.devicerole',
  path: 'device-roles',
  verboseName: 'device role',
  fields: [
    { name: 'color', type: 'string', default: '9e9e9e', maxLength: 6, pattern: '^[0-9a-f]{6}$' },
    { name: 'vm_role', type: 'boolean', default: true },
  ],
  counts: [
    countField('device_count', 'dcim.device', 'device_role'),
    countField('virtualmachine_count', 'virtualization.virtualmachine', 'role'),
  ],
  brief: ['id', 'url', 'display', 'name', 'slug', 'device_count', 'virtualmachine_count'],
});
