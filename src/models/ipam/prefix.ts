// Field facts come from NetBox 3.4's REST API reference (scripts/import-reference.ts); hooks are hand-written.
import type { ModelDefinition } from '../types.js';
import { displayAttribute } from '../hooks.js';
import { networkKeys, normalizeNetworkField } from './networkKeys.js';

export const prefix: ModelDefinition = {
  key: 'ipam.prefix',
  app: 'ipam',
  model: 'prefix',
  path: 'prefixes',
  verboseName: 'prefix',
  verboseNamePlural: 'prefixes',
  fields: [
    { name: 'id', type: 'id', readOnly: true },
    { name: 'url', type: 'url', readOnly: true },
    { name: 'display', type: 'display', readOnly: true },
    {
      name: 'family',
      type: 'choice',
      readOnly: true,
      choices: [{ value: 4, label: 'IPv4' }, { value: 6, label: 'IPv6' }],
    },
    { name: 'prefix', type: 'cidr', required: true },
    { name: 'site', type: 'fk', target: 'dcim.site', onDelete: 'PROTECT', nullable: true, default: null },
    { name: 'vrf', type: 'fk', target: 'ipam.vrf', onDelete: 'PROTECT', nullable: true, default: null },
    { name: 'tenant', type: 'fk', target: 'tenancy.tenant', onDelete: 'PROTECT', nullable: true, default: null },
    { name: 'vlan', type: 'fk', target: 'ipam.vlan', onDelete: 'PROTECT', nullable: true, default: null },
    {
      name: 'status',
      type: 'choice',
      default: 'active',
      choices: [
        { value: 'container', label: 'Container' },
        { value: 'active', label: 'Active' },
        { value: 'reserved', label: 'Reserved' },
        { value: 'deprecated', label: 'Deprecated' },
      ],
    },
    { name: 'role', type: 'fk', target: 'ipam.role', onDelete: 'SET_NULL', nullable: true, default: null },
    { name: 'is_pool', type: 'boolean', default: false },
    { name: 'mark_utilized', type: 'boolean', default: false },
    { name: 'description', type: 'string', blank: true, default: '', maxLength: 200 },
    { name: 'comments', type: 'string', blank: true, default: '' },
    { name: 'tags', type: 'tags', target: 'extras.tag', default: [] },
    { name: 'custom_fields', type: 'custom_fields' },
    { name: 'created', type: 'date', readOnly: true, nullable: true },
    { name: 'last_updated', type: 'datetime', readOnly: true, nullable: true },
    // NetBox caches the number of child prefixes; not computed yet
    { name: 'children', type: 'computed', readOnly: true, value: 0 },
    // NetBox caches the number of containing prefixes; not computed yet
    { name: '_depth', type: 'computed', readOnly: true, value: 0 },
  ],
  brief: ['id', 'url', 'display', 'family', 'prefix', '_depth'],
  ordering: ['vrf', '_network', '_prefixlen', 'id'],
  orderingFields: [
    'id',
    'prefix',
    'site',
    'vrf',
    'tenant',
    'vlan',
    'status',
    'role',
    'is_pool',
    'mark_utilized',
    'description',
    'comments',
    'created',
    'last_updated',
  ],
  search: ['description', 'prefix'],
  hooks: {
    display: displayAttribute('prefix'),
    normalize: (obj) => normalizeNetworkField(obj, 'prefix', 'prefix'),
    derive: (obj) => networkKeys(obj.prefix) ?? { _family: null, _network: null, _last: null, _prefixlen: null },
  },
};
