// Field facts come from NetBox 3.4's REST API reference (scripts/import-reference.ts); hooks are hand-written.
import type { ModelDefinition } from '../types.js';
import { displayAttribute } from '../hooks.js';

export const platform: ModelDefinition = {
  key: 'dcim.platform',
  app: 'dcim',
  model: 'platform',
  path: 'platforms',
  verboseName: 'platform',
  verboseNamePlural: 'platforms',
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
    {
      name: 'manufacturer',
      type: 'fk',
      target: 'dcim.manufacturer',
      onDelete: 'PROTECT',
      nullable: true,
      default: null,
    },
    { name: 'napalm_driver', type: 'string', blank: true, default: '', maxLength: 50 },
    { name: 'napalm_args', type: 'json', nullable: true, default: null },
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
      count: { model: 'dcim.device', via: 'platform' },
    },
    {
      name: 'virtualmachine_count',
      type: 'count',
      readOnly: true,
      annotated: true,
      count: { model: 'virtualization.virtualmachine', via: 'platform' },
    },
  ],
  brief: ['id', 'url', 'display', 'name', 'slug', 'device_count', 'virtualmachine_count'],
  ordering: ['name', 'id'],
  orderingFields: ['id', 'name', 'slug', 'manufacturer', 'napalm_driver', 'description', 'created', 'last_updated'],
  unique: [{ fields: ['name'] }, { fields: ['slug'] }],
  search: ['name', 'slug'],
  hooks: {
    display: displayAttribute('name'),
  },
};
