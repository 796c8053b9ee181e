// Field facts come from NetBox 3.4's REST API reference (scripts/import-reference.ts); hooks are hand-written.
import { changeLoggedFields, descriptionField, identityFields, tenantField, uniqueNameField } from '../commonFields.js';
import { tenancyFilters } from '../filterSpecs.js';
import { listedBy } from '../listedByFilter.js';
import type { ModelDefinition } from '../modelDefinition.js';

export const routetarget: ModelDefinition = {
  key: 'ipam.routetarget',
  app: 'ipam',
  model: 'routetarget',
  path: 'route-targets',
  verboseName: 'route target',
  verboseNamePlural: 'route targets',
  fields: [
    ...identityFields,
    uniqueNameField(21),
    tenantField,
    descriptionField,
    { name: 'comments', type: 'string', blank: true, default: '' },
    ...changeLoggedFields,
  ],
  brief: ['id', 'url', 'display', 'name'],
  ordering: ['name', 'id'],
  search: ['name', 'description'],
  filters: {
    ...tenancyFilters,
    // VRFs hold the import and export lists; NetBox names VRFs here by rd
    importing_vrf_id: listedBy('ipam.vrf', 'import_targets'),
    importing_vrf: listedBy('ipam.vrf', 'import_targets', 'rd'),
    exporting_vrf_id: listedBy('ipam.vrf', 'export_targets'),
    exporting_vrf: listedBy('ipam.vrf', 'export_targets', 'rd'),
    comments: false,
  },
};
