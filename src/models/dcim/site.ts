// Field facts come from NetBox 3.4's REST API reference (scripts/import-reference.ts); hooks are hand-written.
import {
  changeLoggedFields,
  countField,
  descriptionField,
  identityFields,
  siteStatusField,
  slugField,
  tenantField,
  uniqueNameField,
} from '../commonFields.js';
import { contactFilters, tenancyFilters, treeFilters } from '../filterSpecs.js';
import type { LookupView } from '../lookupView.js';
import type { ModelDefinition } from '../modelDefinition.js';
import type { StoredObject } from '../storedObject.js';
import { naturalSortKey } from '../values/naturalSortKey.js';

export const site: ModelDefinition = {
  key: 'dcim.site',
  app: 'dcim',
  model: 'site',
  path: 'sites',
  verboseName: 'site',
  verboseNamePlural: 'sites',
  fields: [
    ...identityFields,
    uniqueNameField(),
    slugField,
    siteStatusField,
    { name: 'region', type: 'fk', target: 'dcim.region', onDelete: 'SET_NULL', nullable: true, default: null },
    { name: 'group', type: 'fk', target: 'dcim.sitegroup', onDelete: 'SET_NULL', nullable: true, default: null },
    tenantField,
    { name: 'facility', type: 'string', blank: true, default: '', maxLength: 50 },
    { name: 'time_zone', type: 'string', nullable: true, default: null, maxLength: 63, format: 'timezone' },
    descriptionField,
    { name: 'physical_address', type: 'string', blank: true, default: '', maxLength: 200 },
    { name: 'shipping_address', type: 'string', blank: true, default: '', maxLength: 200 },
    { name: 'latitude', type: 'decimal', nullable: true, default: null, maxDigits: 8, decimalPlaces: 6 },
    { name: 'longitude', type: 'decimal', nullable: true, default: null, maxDigits: 9, decimalPlaces: 6 },
    { name: 'comments', type: 'string', blank: true, default: '' },
    { name: 'asns', type: 'm2m', target: 'ipam.asn', relatedName: 'sites' },
    ...changeLoggedFields,
    // NetBox's API counts the circuits joined to their terminations at the site: a circuit
    // with both ends here counts twice, so this is the number of terminations
    countField('circuit_count', 'circuits.circuittermination', 'site'),
    countField('device_count', 'dcim.device', 'site'),
    countField('prefix_count', 'ipam.prefix', 'site'),
    countField('rack_count', 'dcim.rack', 'site'),
    // NetBox counts the VMs whose cluster is at the site, not the VMs' own site (see the compute hook)
    {
      name: 'virtualmachine_count',
      type: 'computed',
      readOnly: true,
      annotated: true,
      value: 0,
    },
    countField('vlan_count', 'ipam.vlan', 'site'),
  ],
  brief: ['id', 'url', 'display', 'name', 'slug'],
  ordering: ['_name', 'id'],
  search: ['name', 'facility', 'description', 'physical_address', 'shipping_address', 'comments'],
  filters: {
    ...tenancyFilters,
    ...contactFilters,
    ...treeFilters('region_id', 'region', 'dcim.region', ['region']),
    ...treeFilters('group_id', 'group', 'dcim.sitegroup', ['group']),
    asn: { kind: 'related', target: 'ipam.asn', by: 'asn', path: ['asns'] },
    asn_id: { kind: 'related', target: 'ipam.asn', path: ['asns'] },
    asns_id: false,
  },
  hooks: {
    derive: (obj) => ({ _name: naturalSortKey(obj.name) }),
    compute: { virtualmachine_count: virtualMachinesOfClustersAt },
  },
};

/** How many virtual machines run in clusters at the site. */
async function virtualMachinesOfClustersAt(site: StoredObject, view: LookupView): Promise<number> {
  const clusters = await view.find('virtualization.cluster', { site: site.id });
  if (clusters.length === 0) return 0;
  const query = { cluster: { $in: clusters.map((c) => c.id) } };
  return view.count
    ? view.count('virtualization.virtualmachine', query)
    : (await view.find('virtualization.virtualmachine', query)).length;
}
