// Field facts come from NetBox 3.4's REST API reference (scripts/import-reference.ts); hooks are hand-written.
import { changeLoggedFields, descriptionField, identityFields, weightUnitField } from '../commonFields.js';
import { ONE_VALUE } from '../filterSpecs.js';
import { hasRelated } from '../hasRelatedFilter.js';
import { displayAttribute } from '../hooks.js';
import type { ModelDefinition } from '../modelDefinition.js';
import { relatedNameContains } from '../searchRelatedName.js';

export const moduletype: ModelDefinition = {
  key: 'dcim.moduletype',
  app: 'dcim',
  model: 'moduletype',
  path: 'module-types',
  verboseName: 'module type',
  verboseNamePlural: 'module types',
  fields: [
    ...identityFields,
    { name: 'manufacturer', type: 'fk', target: 'dcim.manufacturer', onDelete: 'PROTECT', required: true },
    { name: 'model', type: 'string', required: true, maxLength: 100 },
    { name: 'part_number', type: 'string', blank: true, default: '', maxLength: 50 },
    { name: 'weight', type: 'decimal', nullable: true, default: null, maxDigits: 8, decimalPlaces: 2 },
    weightUnitField,
    descriptionField,
    { name: 'comments', type: 'string', blank: true, default: '' },
    ...changeLoggedFields,
  ],
  brief: ['id', 'url', 'display', 'manufacturer', 'model'],
  // NetBox orders manufacturer by its own ordering; here by id
  ordering: ['manufacturer', 'model', 'id'],
  search: ['model', 'part_number', 'comments'],
  unique: [{ fields: ['manufacturer', 'model'] }],
  filters: {
    // NetBox: ChoiceFilters (one value), not MultipleChoiceFilters
    weight_unit: ONE_VALUE,
    console_ports: hasRelated('dcim.consoleporttemplate', 'module_type'),
    console_server_ports: hasRelated('dcim.consoleserverporttemplate', 'module_type'),
    power_ports: hasRelated('dcim.powerporttemplate', 'module_type'),
    power_outlets: hasRelated('dcim.poweroutlettemplate', 'module_type'),
    interfaces: hasRelated('dcim.interfacetemplate', 'module_type'),
    pass_through_ports: hasRelated(['dcim.frontporttemplate', 'dcim.rearporttemplate'], 'module_type'),
    q: { kind: 'search', also: relatedNameContains('dcim.manufacturer', 'manufacturer') },
  },
  hooks: {
    display: displayAttribute('model'),
  },
};
