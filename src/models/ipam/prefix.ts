// Field facts come from NetBox 3.4's REST API reference (scripts/import-reference.ts); hooks are hand-written.
import type { LookupView, ModelDefinition, StoredObject } from '../types.js';
import { displayAttribute } from '../hooks.js';
import { addressSortKey, lastAddress, networkAddress, networkKeys, normalizeNetworkField, parseCidr } from '../values/ipNetworks.js';
import { siteScopeFilters, tenancyFilters, UNKNOWN_CHOICE, vrfByRd } from '../filterSpecs.js';
import type { FilterEnvironment, FilterMethod } from '../types.js';
import { changeLoggedFields, descriptionField, familyField, identityFields, tenantField } from '../commonFields.js';
import { duplicatePrefix } from '../ipamUniqueness.js';
import { prefixAvailableIps } from '../allocation/availableIps.js';
import { prefixAvailablePrefixes } from '../allocation/availablePrefixes.js';

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
    descriptionField,
    { name: 'comments', type: 'string', blank: true, default: '' },
    ...changeLoggedFields,
    // NetBox caches the number of child prefixes; not computed yet
    // Computed live from the address space (NetBox caches them and updates after save).
    { name: 'children', type: 'computed', readOnly: true, value: 0 },
    // NetBox caches the number of containing prefixes; not computed yet
    { name: '_depth', type: 'computed', readOnly: true, value: 0 },
  ],
  brief: ['id', 'url', 'display', 'family', 'prefix', '_depth'],
  ordering: ['vrf', '_network', '_prefixlen', 'id'],
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
    mask_length: { kind: 'field', field: '_prefixlen', value: 'integer', lookups: ['gte', 'lte'] },
    present_in_vrf_id: { kind: 'method', value: 'integer', single: true, method: presentInVrf('id') },
    present_in_vrf: { kind: 'method', single: true, method: presentInVrf('rd') },
    vlan_vid: { kind: 'method', value: 'integer', lookups: ['n', 'lt', 'lte', 'gt', 'gte'], method: filterVlanVid },
    vlan: false,
    q: { kind: 'search', also: ([text]) => containingNetwork(String(text)) },
  },
  hooks: {
    display: displayAttribute('prefix'),
    normalize: (obj) => normalizeNetworkField(obj, 'prefix', 'prefix'),
    derive: (obj) => networkKeys(obj.prefix) ?? { _family: null, _network: null, _last: null, _prefixlen: null },
    validate: (obj, view, _previous, context) => duplicatePrefix(obj, view, context?.settings),
    compute: { children: prefixHierarchy('children'), _depth: prefixHierarchy('depth') },
  },
  detailActions: [prefixAvailablePrefixes, prefixAvailableIps],
};

/* ------------------------------------------------------------ list filters */

/**
 * Objects in the VRF (by id or rd) or in a VRF exporting a route target it imports. An
 * unknown VRF is a 400.
 */
export function presentInVrf(by: 'id' | 'rd'): FilterMethod {
  return async ([value], env) => {
    const [vrf] = await env.find('ipam.vrf', { [by]: value }, 1);
    if (!vrf) env.invalid(UNKNOWN_CHOICE);
    const imported = Array.isArray(vrf.import_targets) ? vrf.import_targets : [];
    if (imported.length === 0) return { vrf: vrf.id };
    const exporters = await env.ids('ipam.vrf', { export_targets: { $in: imported } });
    return { vrf: { $in: [...new Set([vrf.id, ...exporters])] } };
  };
}

/** Prefixes whose VLAN's VID compares with the values as the lookup says. */
async function filterVlanVid(vids: Array<string | number | boolean>, env: FilterEnvironment): Promise<Record<string, unknown>> {
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
 * A prefix's place in its VRF's hierarchy: `children` counts the prefixes inside it,
 * `depth` the prefixes around it (same VRF; the global table is its own VRF).
 */
function prefixHierarchy(which: 'children' | 'depth') {
  return async (obj: StoredObject, view: LookupView): Promise<number> => {
    const keys = networkKeys(obj.prefix);
    if (!keys || !view.count) return 0;
    if (which === 'children') {
      return view.count('ipam.prefix', {
        _family: keys._family,
        vrf: obj.vrf ?? null,
        _network: { $gte: keys._network, $lte: keys._last },
        _prefixlen: { $gt: keys._prefixlen },
      });
    }
    // A container's network is this network cut to a shorter mask: at most 32 (or 128)
    // point look-ups on the network order, instead of a scan of every network below.
    const cidr = parseCidr(String(obj.prefix))!;
    const candidates = new Set(
      Array.from({ length: cidr.prefixlen }, (_, length) => addressSortKey(cidr.family, networkAddress({ ...cidr, prefixlen: length }))),
    );
    const vrf = obj.vrf ?? null;
    const found = await Promise.all(
      [...candidates].map((network) => view.find('ipam.prefix', { _network: { $gte: network, $lte: network }, _prefixlen: { $lt: keys._prefixlen } })),
    );
    // The VRF is compared here: as a query term it would send the look-up through the VRF index.
    return found.flat().filter((p) => (p.vrf ?? null) === vrf && p._family === keys._family).length;
  };
}
