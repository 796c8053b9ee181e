// Field facts come from NetBox 3.4's REST API reference (scripts/import-reference.ts); hooks are hand-written.
import { changeLoggedFields, descriptionField, familyField, identityFields, tenantField } from '../commonFields.js';
import { tenancyFilters } from '../filterSpecs.js';
import { displayAttribute } from '../hooks.js';
import { overlappingAggregate } from '../ipamUniqueness.js';
import type { ModelDefinition } from '../modelDefinition.js';
import { networkKeys, normalizeNetworkField } from '../values/ipNetworks.js';
import { containingNetwork } from './prefix.js';

export const aggregate: ModelDefinition = {
  key: 'ipam.aggregate',
  app: 'ipam',
  model: 'aggregate',
  path: 'aggregates',
  verboseName: 'aggregate',
  verboseNamePlural: 'aggregates',
  fields: [
    ...identityFields,
    familyField,
    { name: 'prefix', type: 'cidr', required: true },
    { name: 'rir', type: 'fk', target: 'ipam.rir', onDelete: 'PROTECT', required: true },
    tenantField,
    { name: 'date_added', type: 'date', nullable: true, default: null },
    descriptionField,
    { name: 'comments', type: 'string', blank: true, default: '' },
    ...changeLoggedFields,
  ],
  brief: ['id', 'url', 'display', 'family', 'prefix'],
  ordering: ['_network', '_prefixlen', 'id'],
  search: ['description', 'prefix'],
  filters: {
    ...tenancyFilters,
    family: { kind: 'field', field: 'family', value: 'integer', lookups: [], single: true },
    prefix: { kind: 'network', op: 'network', single: true },
    q: { kind: 'search', also: ([text]) => containingNetwork(String(text)) },
  },
  hooks: {
    display: displayAttribute('prefix'),
    normalize: (obj) => normalizeNetworkField(obj, 'prefix', 'aggregate'),
    derive: (obj) => networkKeys(obj.prefix) ?? { _family: null, _network: null, _last: null, _prefixlen: null },
    validate: (obj, view) => overlappingAggregate(obj, view),
  },
};
