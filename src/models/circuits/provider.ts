// Field facts come from NetBox 3.4's REST API reference (scripts/import-reference.ts); hooks are hand-written.
import type { ModelDefinition } from '../types.js';
import { displayAttribute } from '../hooks.js';

export const provider: ModelDefinition = {
  key: 'circuits.provider',
  app: 'circuits',
  model: 'provider',
  path: 'providers',
  verboseName: 'provider',
  verboseNamePlural: 'providers',
  fields: [
    { name: 'id', type: 'id', readOnly: true },
    { name: 'url', type: 'url', readOnly: true },
    { name: 'display', type: 'display', readOnly: true },
    { name: 'name', type: 'string', required: true, unique: true, maxLength: 100 },
    { name: 'slug', type: 'string', required: true, unique: true, maxLength: 100, format: 'slug' },
    { name: 'account', type: 'string', blank: true, default: '', maxLength: 30 },
    { name: 'description', type: 'string', blank: true, default: '', maxLength: 200 },
    { name: 'comments', type: 'string', blank: true, default: '' },
    { name: 'asns', type: 'm2m', target: 'ipam.asn', default: [] },
    { name: 'tags', type: 'tags', target: 'extras.tag', default: [] },
    { name: 'custom_fields', type: 'custom_fields' },
    { name: 'created', type: 'date', readOnly: true, nullable: true },
    { name: 'last_updated', type: 'datetime', readOnly: true, nullable: true },
    {
      name: 'circuit_count',
      type: 'count',
      readOnly: true,
      annotated: true,
      count: { model: 'circuits.circuit', via: 'provider' },
    },
  ],
  brief: ['id', 'url', 'display', 'name', 'slug', 'circuit_count'],
  ordering: ['name', 'id'],
  orderingFields: ['id', 'name', 'slug', 'account', 'description', 'comments', 'created', 'last_updated'],
  unique: [{ fields: ['name'] }, { fields: ['slug'] }],
  search: ['name', 'account', 'comments'],
  hooks: {
    display: displayAttribute('name'),
  },
};
