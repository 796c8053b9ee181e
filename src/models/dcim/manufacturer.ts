// Field facts come from NetBox 3.4's REST API reference (scripts/import-reference.ts); hooks are hand-written.
import type { ModelDefinition } from '../types.js';
import { displayAttribute } from '../hooks.js';
import { contactFilters } from '../filterSpecs.js';

export const manufacturer: ModelDefinition = {
  key: 'dcim.manufacturer',
  app: 'dcim',
  model: 'manufacturer',
  path: 'manufacturers',
  verboseName: 'manufacturer',
  verboseNamePlural: 'manufacturers',
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
    { name: 'description', type: 'string', blank: true, default: '', maxLength: 200 },
    { name: 'tags', type: 'tags', target: 'extras.tag' },
    { name: 'custom_fields', type: 'custom_fields', default: {} },
    { name: 'created', type: 'date', readOnly: true, nullable: true },
    { name: 'last_updated', type: 'datetime', readOnly: true, nullable: true },
    {
      name: 'devicetype_count',
      type: 'count',
      readOnly: true,
      annotated: true,
      count: { model: 'dcim.devicetype', via: 'manufacturer' },
    },
    {
      name: 'inventoryitem_count',
      type: 'count',
      readOnly: true,
      annotated: true,
      count: { model: 'dcim.inventoryitem', via: 'manufacturer' },
    },
    {
      name: 'platform_count',
      type: 'count',
      readOnly: true,
      annotated: true,
      count: { model: 'dcim.platform', via: 'manufacturer' },
    },
  ],
  brief: ['id', 'url', 'display', 'name', 'slug', 'devicetype_count'],
  ordering: ['name', 'id'],
  orderingFields: ['id', 'name', 'slug', 'description', 'created', 'last_updated'],
  unique: [{ fields: ['name'] }, { fields: ['slug'] }],
  search: ['name', 'slug'],
  filters: { ...contactFilters },
  hooks: {
    display: displayAttribute('name'),
  },
};
