// Field facts come from NetBox 3.4's REST API reference (scripts/import-reference.ts); hooks are hand-written.
import { changeLoggedFields, descriptionField, identityFields } from '../commonFields.js';
import type { ModelDefinition } from '../modelDefinition.js';

export const providernetwork: ModelDefinition = {
  key: 'circuits.providernetwork',
  app: 'circuits',
  model: 'providernetwork',
  path: 'provider-networks',
  verboseName: 'provider network',
  verboseNamePlural: 'provider networks',
  fields: [
    ...identityFields,
    {
      name: 'provider',
      type: 'fk',
      target: 'circuits.provider',
      onDelete: 'PROTECT',
      required: true,
      relatedName: 'networks',
    },
    { name: 'name', type: 'string', required: true, maxLength: 100 },
    { name: 'service_id', label: 'Service ID', type: 'string', blank: true, default: '', maxLength: 100 },
    descriptionField,
    { name: 'comments', type: 'string', blank: true, default: '' },
    ...changeLoggedFields,
  ],
  brief: ['id', 'url', 'display', 'name'],
  // NetBox orders provider by its own ordering (name); here by id
  ordering: ['provider', 'name', 'id'],
  search: ['name', 'service_id', 'description', 'comments'],
  // NetBox's message: "Provider network with this Provider and Name already exists."
  unique: [{ fields: ['provider', 'name'] }],
  filters: {
    comments: false,
  },
};
