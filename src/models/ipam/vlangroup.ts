// Field facts come from NetBox 3.4's REST API reference (scripts/import-reference.ts); hooks are hand-written.
import { vlanGroupAvailableVlans } from '../allocation/availableVlans.js';
import { changeLoggedFields, countField, descriptionField, identityFields } from '../commonFields.js';
import { scopeFilter } from '../filterSpecs.js';
import { fieldError } from '../hooks.js';
import type { ModelDefinition } from '../modelDefinition.js';

/** What a VLAN group may be scoped to. */
const SCOPE_TYPES = [
  'dcim.region',
  'dcim.sitegroup',
  'dcim.site',
  'dcim.location',
  'dcim.rack',
  'virtualization.clustergroup',
  'virtualization.cluster',
];

export const vlangroup: ModelDefinition = {
  key: 'ipam.vlangroup',
  app: 'ipam',
  model: 'vlangroup',
  path: 'vlan-groups',
  verboseName: 'VLAN group',
  verboseNamePlural: 'VLAN groups',
  fields: [
    ...identityFields,
    { name: 'name', type: 'string', required: true, maxLength: 100 },
    { name: 'slug', type: 'string', required: true, maxLength: 100, format: 'slug' },
    {
      name: 'scope_type',
      type: 'content_type',
      allowedTypes: SCOPE_TYPES,
      nullable: true,
      default: null,
      defaultOnPut: true,
    },
    { name: 'scope_id', type: 'integer', nullable: true, default: null, defaultOnPut: true },
    {
      name: 'scope',
      type: 'generic_fk',
      readOnly: true,
      nullable: true,
      targets: SCOPE_TYPES,
      typeField: 'scope_type',
      idField: 'scope_id',
    },
    { name: 'min_vid', type: 'integer', default: 1, min: 1, max: 4094 },
    { name: 'max_vid', type: 'integer', default: 4094, min: 1, max: 4094 },
    descriptionField,
    ...changeLoggedFields,
    countField('vlan_count', 'ipam.vlan', 'group'),
  ],
  brief: ['id', 'url', 'display', 'name', 'slug', 'vlan_count'],
  ordering: ['name', 'id'],
  unique: [{ fields: ['scope_type', 'scope_id', 'name'] }, { fields: ['scope_type', 'scope_id', 'slug'] }],
  search: ['name', 'description'],
  filters: {
    region: scopeFilter('dcim.region'),
    sitegroup: scopeFilter('dcim.sitegroup'),
    site: scopeFilter('dcim.site'),
    location: scopeFilter('dcim.location'),
    rack: scopeFilter('dcim.rack'),
    clustergroup: scopeFilter('virtualization.clustergroup'),
    cluster: scopeFilter('virtualization.cluster'),
  },
  hooks: {
    async validate(obj) {
      if (obj.scope_type && obj.scope_id == null)
        return fieldError('__all__', 'Cannot set scope_type without scope_id.');
      if (obj.scope_id != null && !obj.scope_type)
        return fieldError('__all__', 'Cannot set scope_id without scope_type.');
      if (Number(obj.max_vid ?? 4094) < Number(obj.min_vid ?? 1)) {
        return fieldError('max_vid', 'Maximum child VID must be greater than or equal to minimum child VID');
      }
    },
  },
  detailActions: [vlanGroupAvailableVlans],
};
