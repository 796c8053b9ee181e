// Field facts come from NetBox 3.4's REST API reference (scripts/import-reference.ts); hooks are hand-written.
import type { ModelDefinition } from '../types.js';
import { displayAttribute } from '../hooks.js';

export const circuittype: ModelDefinition = {
  key: 'circuits.circuittype',
  app: 'circuits',
  model: 'circuittype',
  path: 'circuit-types',
  verboseName: 'circuit type',
  verboseNamePlural: 'circuit types',
  fields: [
    { name: 'id', type: 'id', readOnly: true },
    { name: 'url', type: 'url', readOnly: true },
    { name: 'display', type: 'display', readOnly: true },
    { name: 'name', type: 'string', required: true, unique: true, maxLength: 100 },
    { name: 'slug', type: 'string', required: true, unique: true, maxLength: 100, format: 'slug' },
    { name: 'description', type: 'string', blank: true, default: '', maxLength: 200 },
    { name: 'tags', type: 'tags', target: 'extras.tag', default: [] },
    { name: 'custom_fields', type: 'custom_fields' },
    { name: 'created', type: 'date', readOnly: true, nullable: true },
    { name: 'last_updated', type: 'datetime', readOnly: true, nullable: true },
    {
      name: 'circuit_count',
      type: 'count',
      readOnly: true,
      annotated: true,
      count: { model: 'circuits.circuit', via: 'type' },
    },
  ],
  brief: ['id', 'url', 'display', 'name', 'slug', 'circuit_count'],
  ordering: ['name', 'id'],
  orderingFields: ['id', 'name', 'slug', 'description', 'created', 'last_updated'],
  unique: [{ fields: ['name'] }, { fields: ['slug'] }],
  search: ['name', 'slug'],
  hooks: {
    display: displayAttribute('name'),
  },
};
