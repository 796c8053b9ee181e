// Field facts come from NetBox 3.4's REST API reference (scripts/import-reference.ts); hooks are hand-written.
import {
  changeLoggedFields,
  countField,
  descriptionField,
  identityFields,
  slugField,
  uniqueNameField,
} from '../commonFields.js';
import { contactFilters, treeFilters } from '../filterSpecs.js';
import type { ModelDefinition } from '../modelDefinition.js';

export const tenant: ModelDefinition = {
  key: 'tenancy.tenant',
  app: 'tenancy',
  model: 'tenant',
  path: 'tenants',
  verboseName: 'tenant',
  verboseNamePlural: 'tenants',
  fields: [
    ...identityFields,
    uniqueNameField(),
    slugField,
    { name: 'group', type: 'fk', target: 'tenancy.tenantgroup', onDelete: 'SET_NULL', nullable: true, default: null },
    descriptionField,
    { name: 'comments', type: 'string', blank: true, default: '' },
    ...changeLoggedFields,
    countField('circuit_count', 'circuits.circuit', 'tenant'),
    countField('device_count', 'dcim.device', 'tenant'),
    countField('ipaddress_count', 'ipam.ipaddress', 'tenant'),
    countField('prefix_count', 'ipam.prefix', 'tenant'),
    countField('rack_count', 'dcim.rack', 'tenant'),
    countField('site_count', 'dcim.site', 'tenant'),
    countField('virtualmachine_count', 'virtualization.virtualmachine', 'tenant'),
    countField('vlan_count', 'ipam.vlan', 'tenant'),
    countField('vrf_count', 'ipam.vrf', 'tenant'),
    countField('cluster_count', 'virtualization.cluster', 'tenant'),
  ],
  brief: ['id', 'url', 'display', 'name', 'slug'],
  ordering: ['name', 'id'],
  search: ['name', 'slug', 'description', 'comments'],
  filters: {
    ...contactFilters,
    ...treeFilters('group_id', 'group', 'tenancy.tenantgroup', ['group']),
  },
};
