// Field facts come from NetBox 3.4's REST API reference (scripts/import-reference.ts); hooks are hand-written.
import type { ModelDefinition } from '../types.js';
import { changeLoggedFields, countField, identityFields, slugField, uniqueNameField } from '../commonFields.js';

export const circuittype: ModelDefinition = {
  key: 'circuits.circuittype',
  app: 'circuits',
  model: 'circuittype',
  path: 'circuit-types',
  verboseName: 'circuit type',
  verboseNamePlural: 'circuit types',
  fields: [
    ...identityFields,
    uniqueNameField(),
    slugField,
    { name: 'description', type: 'string', blank: true, default: '', maxLength: 200 },
    ...changeLoggedFields,
    countField('circuit_count', 'circuits.circuit', 'type'),
  ],
  brief: ['id', 'url', 'display', 'name', 'slug', 'circuit_count'],
  ordering: ['name', 'id'],
  search: ['name', 'slug'],
};
