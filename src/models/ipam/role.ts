// Field facts come from NetBox 3.4's REST API reference (scripts/import-reference.ts); hooks are hand-written.
import type { ModelDefinition } from '../types.js';
import { displayAttribute } from '../hooks.js';

export const role: ModelDefinition = {
  key: 'ipam.role',
  app: 'ipam',
  model: 'role',
  path: 'roles',
  verboseName: 'role',
  verboseNamePlural: 'roles',
  fields: [
    { name: 'id', type: 'id', readOnly: true },
    { name: 'url', type: 'url', readOnly: true },
    { name: 'display', type: 'display', readOnly: true },
    { name: 'name', type: 'string', required: true, unique: true, maxLength: 100 },
    { name: 'slug', type: 'string', required: true, unique: true, maxLength: 100, format: 'slug' },
    { name: 'weight', type: 'integer', default: 1000, min: 0, max: 32767 },
    { name: 'description', type: 'string', blank: true, default: '', maxLength: 200 },
    { name: 'tags', type: 'tags', target: 'extras.tag', default: [] },
    { name: 'custom_fields', type: 'custom_fields' },
    { name: 'created', type: 'date', readOnly: true, nullable: true },
    { name: 'last_updated', type: 'datetime', readOnly: true, nullable: true },
    {
      name: 'prefix_count',
      type: 'count',
      readOnly: true,
      annotated: true,
      count: { model: 'ipam.prefix', via: 'role' },
    },
    { name: 'vlan_count', type: 'count', readOnly: true, annotated: true, count: { model: 'ipam.vlan', via: 'role' } },
  ],
  brief: ['id', 'url', 'display', 'name', 'slug', 'prefix_count', 'vlan_count'],
  ordering: ['weight', 'name', 'id'],
  orderingFields: ['id', 'name', 'slug', 'weight', 'description', 'created', 'last_updated'],
  unique: [{ fields: ['name'] }, { fields: ['slug'] }],
  search: ['name', 'slug'],
  hooks: {
    display: displayAttribute('name'),
  },
};
