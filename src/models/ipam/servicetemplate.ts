// Field facts come from NetBox 3.4's REST API reference (scripts/import-reference.ts); hooks are hand-written.
import { changeLoggedFields, descriptionField, identityFields, uniqueNameField } from '../commonFields.js';
import { ONE_VALUE } from '../filterSpecs.js';
import type { ModelDefinition } from '../modelDefinition.js';
import { portFilter, portsField, portsSortKey, protocolField, serviceDisplay, serviceRules } from './serviceFields.js';

export const servicetemplate: ModelDefinition = {
  key: 'ipam.servicetemplate',
  app: 'ipam',
  model: 'servicetemplate',
  path: 'service-templates',
  verboseName: 'service template',
  verboseNamePlural: 'service templates',
  fields: [
    ...identityFields,
    uniqueNameField(),
    portsField,
    protocolField,
    descriptionField,
    { name: 'comments', type: 'string', blank: true, default: '' },
    ...changeLoggedFields,
  ],
  brief: ['id', 'url', 'display', 'name', 'protocol', 'ports'],
  ordering: ['name', 'id'],
  search: ['name', 'description'],
  filters: {
    // NetBox: ChoiceFilters (one value), not MultipleChoiceFilters
    protocol: ONE_VALUE,
    port: portFilter,
    description: false,
    comments: false,
  },
  hooks: {
    display: serviceDisplay,
    validate: async (obj) => serviceRules(obj),
    derive: (obj) => ({ _ports: portsSortKey(obj.ports) }),
  },
};
