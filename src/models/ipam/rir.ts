// Field facts come from NetBox 3.4's REST API reference (scripts/import-reference.ts); hooks are hand-written.
import type { ModelDefinition } from '../types.js';
import { changeLoggedFields, countField, identityFields, slugField, uniqueNameField } from '../commonFields.js';

export const rir: ModelDefinition = {
  key: 'ipam.rir',
  app: 'ipam',
  model: 'rir',
  path: 'rirs',
  verboseName: 'RIR',
  verboseNamePlural: 'RIRs',
  fields: [
    ...identityFields,
    uniqueNameField(),
    slugField,
    { name: 'is_private', type: 'boolean', default: false },
    { name: 'description', type: 'string', blank: true, default: '', maxLength: 200 },
    ...changeLoggedFields,
    countField('aggregate_count', 'ipam.aggregate', 'rir'),
  ],
  brief: ['id', 'url', 'display', 'name', 'slug', 'aggregate_count'],
  ordering: ['name', 'id'],
  search: ['name', 'slug'],
};
