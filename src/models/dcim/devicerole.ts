// Field facts come from NetBox 3.4's REST API reference (scripts/import-reference.ts); hooks are hand-written.
import type { ModelDefinition } from '../types.js';
import { displayAttribute } from '../hooks.js';

export const devicerole: ModelDefinition = {
  key: 'dcim.devicerole',
  app: 'dcim',
  model: 'devicerole',
  path: 'device-roles',
  verboseName: 'device role',
  verboseNamePlural: 'device roles',
  fields: [
    { name: 'id', type: 'id', readOnly: true },
    { name: 'url', type: 'url', readOnly: true },
    { name: 'display', type: 'display', readOnly: true },
    { name: 'name', type: 'string', required: true, unique: true, maxLength: 100 },
    {
      name: 'slug',
      type: 'string',
      required: true,
      unique: true,
      maxLength: 100,
      pattern: '^[-a-zA-Z0-9_]+$',
      format: 'slug',
    },
    { name: 'color', type: 'string', default: '9e9e9e', maxLength: 6, pattern: '^[0-9a-f]{6}$' },
    { name: 'vm_role', type: 'boolean', default: true },
    { name: 'description', type: 'string', blank: true, default: '', maxLength: 200 },
    { name: 'tags', type: 'tags', target: 'extras.tag' },
    { name: 'custom_fields', type: 'custom_fields', default: {} },
    { name: 'created', type: 'date', readOnly: true, nullable: true },
    { name: 'last_updated', type: 'datetime', readOnly: true, nullable: true },
    {
      name: 'device_count',
      type: 'count',
      readOnly: true,
      annotated: true,
      count: { model: 'dcim.device', via: 'device_role' },
    },
    {
      name: 'virtualmachine_count',
      type: 'count',
      readOnly: true,
      annotated: true,
      count: { model: 'virtualization.virtualmachine', via: 'role' },
    },
  ],
  brief: ['id', 'url', 'display', 'name', 'slug', 'device_count', 'virtualmachine_count'],
  ordering: ['name', 'id'],
  orderingFields: ['id', 'name', 'slug', 'color', 'vm_role', 'description', 'created', 'last_updated'],
  unique: [{ fields: ['name'] }, { fields: ['slug'] }],
  search: ['name', 'slug'],
  hooks: {
    display: displayAttribute('name'),
  },
};
