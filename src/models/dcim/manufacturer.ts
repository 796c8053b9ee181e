// Field facts come from NetBox 3.4's REST API reference (scripts/import-reference.ts); hooks are hand-written.
import type { ModelDefinition } from '../types.js';
import { contactFilters } from '../filterSpecs.js';
import { changeLoggedFields, countField, identityFields, slugField, uniqueNameField } from '../commonFields.js';

export const manufacturer: ModelDefinition = {
  key: 'dcim.manufacturer',
  app: 'dcim',
  model: 'manufacturer',
  path: 'manufacturers',
  verboseName: 'manufacturer',
  verboseNamePlural: 'manufacturers',
  fields: [
    ...identityFields,
    uniqueNameField(),
    slugField,
    { name: 'description', type: 'string', blank: true, default: '', maxLength: 200 },
    ...changeLoggedFields,
    countField('devicetype_count', 'dcim.devicetype', 'manufacturer'),
    countField('inventoryitem_count', 'dcim.inventoryitem', 'manufacturer'),
    countField('platform_count', 'dcim.platform', 'manufacturer'),
  ],
  brief: ['id', 'url', 'display', 'name', 'slug', 'devicetype_count'],
  ordering: ['name', 'id'],
  search: ['name', 'slug'],
  filters: { ...contactFilters },
};
