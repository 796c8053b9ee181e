// Field facts come from NetBox 3.4's REST API reference (scripts/import-reference.ts); hooks are hand-written.
import { prefixAvailableIps } from '../allocation/availableIps.js';
import { prefixAvailablePrefixes } from '../allocation/availablePrefixes.js';
import { changeLoggedFields, descriptionField, familyField, identityFields, tenantField } from '../commonFields.js';
import { siteScopeFilters, tenancyFilters, vrfByRd } from '../filterSpecs.js';
import type { FilterEnvironment } from '../filterTypes.js';
import { displayAttribute } from '../hooks.js';
import { duplicatePrefix } from '../ipamUniqueness.js';
import type { LookupView } from '../lookupView.js';
import type { ModelDefinition } from '../modelDefinition.js';
import type { StoredObject } from '../storedObject.js';
import {
  addressSortKey,
  lastAddress,
  networkAddress,
  networkKeys,
  normalizeNetworkField,
  parseCidr,
} from '../values/ipNetworks.js';
import { PREFIX_STATUS_CHOICES } from './choices.js';
import { liveHierarchy, prefixHierarchyColumns } from './prefixHierarchy.js';
import { presentInVrfFilters } from './presentInVrf.js';

const HIERARCHY_LOOKUPS = ['n', 'lte', 'lt', 'gte', 'gt'];

export const prefix: ModelDefinition = {
  key: 'ipam.prefix',
  app: 'ipam',
  model: 'prefix',
  path: 'prefixes',
  verboseName: 'prefix',
  verboseNamePlural: 'prefixes',
  fields: [
    ...identityFields,
    familyField,
    { name: 'prefix', type: 'cidr', required: true },
    { name: 'site', type: 'fk', target: 'dcim.site', onDelete: 'PROTECT', nullable: true, default: null },
    { name: 'vrf', type: 'fk', target: 'ipam.vrf', onDelete: 'PROTECT', nullable: true, default: null },
    tenantField,
    { name: 'vlan', type: 'fk', target: 'ipam.vlan', onDelete: 'PROTECT', nullable: true, default: null },
    {
      name: 'status',
      type: 'choice',
      default: 'active',
      choices: PREFIX_STATUS_CHOICES,
    },
    { name: 'role', type: 'fk', target: 'ipam.role', onDelete: 'SET_NULL', nullable: true, default: null },
    { name: 'is_pool', type: 'boolean', default: false },
    { name: 'mark_utilized', type: 'boolean', default: false },
    descriptionField,
    { name: 'comments', type: 'string', blank: true, default: '' },
    ...changeLoggedFields,
    // Kept by the projection (prefixHierarchy.ts) in the hidden columns _children and _depth.
    { name: 'children', type: 'computed', readOnly: true, value: 0 },
    { name: '_depth', type: 'computed', readOnly: true, value: 0 },
  ],
  brief: ['id', 'url', 'display', 'family', 'prefix', '_depth'],
  ordering: ['vrf', '_network', '_prefixlen', 'id'],
  // NetBox: F('vrf').asc(nulls_first=True), the VRF's id
  idOrderedRelations: ['vrf'],
  search: ['description', 'prefix'],
  filters: {
    ...tenancyFilters,
    ...siteScopeFilters(['site']),
    ...vrfByRd,
    family: { kind: 'field', field: 'family', value: 'integer', lookups: [], single: true },
    prefix: { kind: 'network', op: 'network' },
    within: { kind: 'network', op: 'within', single: true },
    within_include: { kind: 'network', op: 'within_include', single: true },
    contains: { kind: 'network', op: 'contains', single: true },
    // NetBox: mask_length several numbers; mask_length__gte and __lte each a number filter of its own
    mask_length: { kind: 'field', field: '_prefixlen', value: 'integer', lookups: [] },
    mask_length__gte: {
      kind: 'field',
      field: '_prefixlen',
      value: 'integer',
      lookups: [],
      single: true,
      compare: 'gte',
    },
    mask_length__lte: {
      kind: 'field',
      field: '_prefixlen',
      value: 'integer',
      lookups: [],
      single: true,
      compare: 'lte',
    },
    depth: { kind: 'field', field: '_depth', value: 'integer', lookups: HIERARCHY_LOOKUPS },
    children: { kind: 'field', field: '_children', value: 'integer', lookups: HIERARCHY_LOOKUPS },
    ...presentInVrfFilters,
    vlan_vid: {
      kind: 'method',
      value: 'integer',
      single: true,
      lookups: ['n', 'lt', 'lte', 'gt', 'gte'],
      method: filterVlanVid,
    },
    vlan: false,
    q: { kind: 'search', also: ([text]) => containingNetwork(String(text)) },
  },
  hooks: {
    display: displayAttribute('prefix'),
    normalize: (obj) => normalizeNetworkField(obj, 'prefix', 'prefix'),
    derive: (obj) => networkKeys(obj.prefix) ?? { _family: null, _network: null, _last: null, _prefixlen: null },
    validate: (obj, view, _previous, context) => duplicatePrefix(obj, view, context?.settings),
    compute: { children: hierarchyColumn('_children'), _depth: hierarchyColumn('_depth') },
  },
  projectedColumns: prefixHierarchyColumns,
  detailActions: [prefixAvailablePrefixes, prefixAvailableIps],
};

/* ------------------------------------------------------------ list filters */

/** Prefixes whose VLAN's VID compares with the values as the lookup says. */
async function filterVlanVid(
  vids: Array<string | number | boolean>,
  env: FilterEnvironment,
): Promise<Record<string, unknown>> {
  const numbers = vids.map(Number);
  const condition: Record<string, Record<string, unknown>> = {
    exact: { $in: numbers },
    n: { $in: numbers },
    lt: { $lt: Math.max(...numbers) },
    lte: { $lte: Math.max(...numbers) },
    gt: { $gt: Math.min(...numbers) },
    gte: { $gte: Math.min(...numbers) },
  };
  const vlans = await env.ids('ipam.vlan', { vid: condition[env.lookup] ?? condition.exact });
  return env.lookup === 'n' ? { vlan: { $nin: vlans } } : { vlan: { $in: vlans } };
}

/** `q` on networks: when the text is a network or address, the networks containing (or equal to) it. */
export function containingNetwork(text: string): Record<string, unknown> | null {
  const cidr = text.length <= 100 ? parseCidr(text.trim()) : null;
  if (!cidr) return null;
  return {
    _network: { $gte: addressSortKey(cidr.family, 0n), $lte: addressSortKey(cidr.family, networkAddress(cidr)) },
    _last: { $gte: addressSortKey(cidr.family, lastAddress(cidr)) },
  };
}

/**
 * A hierarchy column as the projection keeps it; counted from the read models for a
 * document that does not carry it (a write's response, rendered from its own events).
 */
function hierarchyColumn(column: '_children' | '_depth') {
  return async (obj: StoredObject, view: LookupView): Promise<number> => {
    const kept = obj[column];
    return typeof kept === 'number' ? kept : (await liveHierarchy(obj, view))[column];
  };
}
