// Field facts come from NetBox 3.4's REST API reference (scripts/import-reference.ts); hooks are hand-written.
import {
  changeLoggedFields,
  countField,
  descriptionField,
  identityFields,
  slugField,
  uniqueNameField,
} from '../commonFields.js';
import { contactFilters } from '../filterSpecs.js';
import type { ModelDefinition } from '../modelDefinition.js';
import { providerEndFilters } from './terminationFilters.js';

export const provider: ModelDefinition = {
  key: 'circuits.provider',
  app: 'circuits',
  model: 'provider',
  path: 'providers',
  verboseName: 'provider',
  verboseNamePlural: 'providers',
  fields: [
    ...identityFields,
    uniqueNameField(),
    slugField,
    { name: 'account', type: 'string', blank: true, default: '', maxLength: 30 },
    descriptionField,
    { name: 'comments', type: 'string', blank: true, default: '' },
    { name: 'asns', type: 'm2m', target: 'ipam.asn', default: [], relatedName: 'providers' },
    ...changeLoggedFields,
    countField('circuit_count', 'circuits.circuit', 'provider'),
  ],
  brief: ['id', 'url', 'display', 'name', 'slug', 'circuit_count'],
  ordering: ['name', 'id'],
  search: ['name', 'account', 'comments'],
  filters: {
    ...contactFilters,
    ...providerEndFilters,
    asn_id: { kind: 'related', target: 'ipam.asn', path: ['asns'] },
    asns_id: false,
  },
};
