// Field facts come from NetBox 3.4's REST API reference (scripts/import-reference.ts); hooks are hand-written.
import type { ModelDefinition } from '../types.js';
import { displayAttribute } from '../hooks.js';

export const tag: ModelDefinition = {
  key: 'extras.tag',
  app: 'extras',
  model: 'tag',
  path: 'tags',
  verboseName: 'tag',
  verboseNamePlural: 'tags',
  fields: [
    { name: 'id', type: 'id', readOnly: true },
    { name: 'url', type: 'url', readOnly: true },
    { name: 'display', type: 'display', readOnly: true },
    { name: 'name', type: 'string', required: true, unique: true, maxLength: 100 },
    { name: 'slug', type: 'string', required: true, unique: true, maxLength: 100, pattern: '^[-\\p{L}\\p{M}\\p{N}_]+$' },
    { name: 'color', type: 'string', default: '9e9e9e', maxLength: 6, pattern: '^[0-9a-f]{6}$', format: 'color' },
    { name: 'description', type: 'string', blank: true, default: '', maxLength: 200 },
    // NetBox counts tag assignments over every model; not computed yet
    { name: 'tagged_items', type: 'computed', readOnly: true, value: 0 },
    { name: 'created', type: 'date', readOnly: true, nullable: true },
    { name: 'last_updated', type: 'datetime', readOnly: true, nullable: true },
  ],
  brief: ['id', 'url', 'display', 'name', 'slug', 'color'],
  ordering: ['name', 'id'],
  orderingFields: ['id', 'name', 'slug', 'color', 'description', 'created', 'last_updated'],
  unique: [{ fields: ['name'] }, { fields: ['slug'] }],
  search: ['name', 'slug', 'description'],
  hooks: {
    display: displayAttribute('name'),
  },
};
