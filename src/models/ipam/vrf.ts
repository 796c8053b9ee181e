// Field facts come from NetBox 3.4's REST API reference (scripts/import-reference.ts); hooks are hand-written.
import { changeLoggedFields, countField, descriptionField, identityFields, tenantField } from '../commonFields.js';
import { pairFilters, tenancyFilters } from '../filterSpecs.js';
import { pyStr } from '../hooks.js';
import type { ModelDefinition } from '../modelDefinition.js';

export const vrf: ModelDefinition = {
  key: 'ipam.vrf',
  app: 'ipam',
  model: 'vrf',
  path: 'vrfs',
  verboseName: 'VRF',
  verboseNamePlural: 'VRFs',
  fields: [
    ...identityFields,
    { name: 'name', type: 'string', required: true, maxLength: 100 },
    {
      name: 'rd',
      label: 'Route distinguisher',
      type: 'string',
      nullable: true,
      blank: true,
      default: null,
      unique: true,
      maxLength: 21,
    },
    tenantField,
    { name: 'enforce_unique', type: 'boolean', default: true },
    descriptionField,
    { name: 'comments', type: 'string', blank: true, default: '' },
    { name: 'import_targets', type: 'm2m', target: 'ipam.routetarget', default: [], relatedName: 'importing_vrfs' },
    { name: 'export_targets', type: 'm2m', target: 'ipam.routetarget', default: [], relatedName: 'exporting_vrfs' },
    ...changeLoggedFields,
    countField('ipaddress_count', 'ipam.ipaddress', 'vrf'),
    countField('prefix_count', 'ipam.prefix', 'vrf'),
  ],
  brief: ['id', 'url', 'display', 'name', 'rd', 'prefix_count'],
  ordering: ['name', 'rd', 'id'],
  search: ['name', 'rd', 'description'],
  filters: {
    ...tenancyFilters,
    ...pairFilters('import_target_id', 'import_target', 'ipam.routetarget', ['import_targets'], 'name'),
    ...pairFilters('export_target_id', 'export_target', 'ipam.routetarget', ['export_targets'], 'name'),
    import_targets_id: false,
    export_targets_id: false,
    import_targets: false,
    export_targets: false,
  },
  hooks: {
    display: (obj) => (obj.rd ? `${pyStr(obj.name)} (${String(obj.rd)})` : pyStr(obj.name)),
  },
};
