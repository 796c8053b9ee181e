// Field facts come from NetBox 3.4's REST API reference (scripts/import-reference.ts); hooks are hand-written.
import { countField } from '../commonFields.js';
import { BEYOND_NETBOX } from '../filterSpecs.js';
import { organizationalModel } from '../organizationalModel.js';

export const role = organizationalModel({
  key: 'ipam.role',
  path: 'roles',
  verboseName: 'role',
  fields: [{ name: 'weight', type: 'integer', default: 1000, min: 0, max: 32767 }],
  counts: [countField('prefix_count', 'ipam.prefix', 'role'), countField('vlan_count', 'ipam.vlan', 'role')],
  brief: ['id', 'url', 'display', 'name', 'slug', 'prefix_count', 'vlan_count'],
  ordering: ['weight', 'name', 'id'],
  filters: { weight: BEYOND_NETBOX },
});
