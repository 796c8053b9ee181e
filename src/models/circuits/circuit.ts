// Field facts come from NetBox 3.4's REST API reference (scripts/import-reference.ts); hooks are hand-written.
import { changeLoggedFields, descriptionField, identityFields, tenantField } from '../commonFields.js';
import { contactFilters, tenancyFilters } from '../filterSpecs.js';
import { displayAttribute } from '../hooks.js';
import type { ModelDefinition } from '../modelDefinition.js';
import { CIRCUIT_STATUS_CHOICES } from './choices.js';
import { terminationField } from './terminationFields.js';
import { circuitEndFilters } from './terminationFilters.js';

export const circuit: ModelDefinition = {
  key: 'circuits.circuit',
  app: 'circuits',
  model: 'circuit',
  path: 'circuits',
  verboseName: 'circuit',
  verboseNamePlural: 'circuits',
  fields: [
    ...identityFields,
    { name: 'cid', label: 'Circuit ID', type: 'string', required: true, maxLength: 100 },
    { name: 'provider', type: 'fk', target: 'circuits.provider', onDelete: 'PROTECT', required: true },
    { name: 'type', type: 'fk', target: 'circuits.circuittype', onDelete: 'PROTECT', required: true },
    {
      name: 'status',
      type: 'choice',
      default: 'active',
      choices: CIRCUIT_STATUS_CHOICES,
    },
    tenantField,
    { name: 'install_date', type: 'date', nullable: true, default: null },
    { name: 'termination_date', type: 'date', nullable: true, default: null },
    { name: 'commit_rate', type: 'integer', nullable: true, default: null, min: 0, max: 2147483647 },
    descriptionField,
    terminationField('A'),
    terminationField('Z'),
    { name: 'comments', type: 'string', blank: true, default: '' },
    ...changeLoggedFields,
  ],
  brief: ['id', 'url', 'display', 'cid'],
  // NetBox orders provider by name; here by id
  ordering: ['provider', 'cid', 'id'],
  unique: [{ fields: ['provider', 'cid'] }],
  search: ['cid', 'description', 'comments'],
  filters: {
    ...tenancyFilters,
    ...contactFilters,
    ...circuitEndFilters,
    comments: false,
  },
  hooks: {
    display: displayAttribute('cid'),
  },
};
