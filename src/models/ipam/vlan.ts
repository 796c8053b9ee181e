// Field facts come from NetBox 3.4's REST API reference (scripts/import-reference.ts); hooks are hand-written.
import {
  changeLoggedFields,
  countField,
  descriptionField,
  displayNameField,
  identityFields,
  tenantField,
} from '../commonFields.js';
import { rackDisplay } from '../dcim/rack.js';
import { siteScopeFilters, tenancyFilters, UNKNOWN_CHOICE } from '../filterSpecs.js';
import type { FilterEnvironment } from '../filterTypes.js';
import { fieldError, nameOf, pyStr, related } from '../hooks.js';
import type { LookupView } from '../lookupView.js';
import type { ModelDefinition } from '../modelDefinition.js';
import type { StoredObject } from '../storedObject.js';
import { VLAN_STATUS_CHOICES } from './choices.js';
import { l2vpnFilters, l2vpnTerminationField } from './l2vpnTerminationField.js';

/** str() of a VLAN group's scope object ('None' for a global group). */
async function scopeDisplay(group: StoredObject, view: LookupView): Promise<string> {
  if (typeof group.scope_type !== 'string' || typeof group.scope_id !== 'number') return 'None';
  const scope = await view.get(group.scope_type, group.scope_id);
  if (!scope) return 'None';
  return group.scope_type === 'dcim.rack' ? rackDisplay(scope) : nameOf(scope);
}

/** str(vlan): its name and VID. */
export function vlanDisplay(obj: StoredObject): string {
  return `${pyStr(obj.name)} (${pyStr(obj.vid)})`;
}

export const vlan: ModelDefinition = {
  key: 'ipam.vlan',
  app: 'ipam',
  model: 'vlan',
  path: 'vlans',
  verboseName: 'VLAN',
  verboseNamePlural: 'VLANs',
  fields: [
    ...identityFields,
    displayNameField,
    { name: 'site', type: 'fk', target: 'dcim.site', onDelete: 'PROTECT', nullable: true, default: null },
    {
      name: 'group',
      type: 'fk',
      target: 'ipam.vlangroup',
      onDelete: 'PROTECT',
      nullable: true,
      default: null,
      defaultOnPut: true,
    },
    { name: 'vid', label: 'ID', type: 'integer', required: true, min: 1, max: 4094 },
    { name: 'name', type: 'string', required: true, maxLength: 64 },
    tenantField,
    { name: 'status', type: 'choice', default: 'active', choices: VLAN_STATUS_CHOICES },
    { name: 'role', type: 'fk', target: 'ipam.role', onDelete: 'SET_NULL', nullable: true, default: null },
    descriptionField,
    { name: 'comments', type: 'string', blank: true, default: '' },
    l2vpnTerminationField('ipam.vlan'),
    ...changeLoggedFields,
    countField('prefix_count', 'ipam.prefix', 'vlan'),
  ],
  brief: ['id', 'url', 'display', 'display_name', 'vid', 'name'],
  // NetBox orders site/group by their own ordering, nulls last; here by id, nulls first
  ordering: ['site', 'group', 'vid', 'id'],
  unique: [{ fields: ['group', 'vid'] }, { fields: ['group', 'name'] }],
  search: ['name', 'description'],
  filters: {
    ...tenancyFilters,
    ...siteScopeFilters(['site']),
    available_on_device: {
      kind: 'method',
      value: 'integer',
      single: true,
      netboxReads: 'object',
      method: filterAvailableOnDevice,
    },
    available_on_virtualmachine: {
      kind: 'method',
      value: 'integer',
      single: true,
      netboxReads: 'object',
      method: filterAvailableOnVirtualMachine,
    },
    ...l2vpnFilters,
    q: { kind: 'search', also: ([text]) => (/^\d{1,9}$/.test(String(text)) ? { vid: Number(text) } : null) },
  },
  hooks: {
    display: vlanDisplay,
    async validate(obj, view) {
      const group = await related(view, 'ipam.vlangroup', obj.group);
      if (!group) return;
      const site = await related(view, 'dcim.site', obj.site);
      if (site && !(group.scope_type === 'dcim.site' && group.scope_id === site.id)) {
        const scope = await scopeDisplay(group, view);
        return fieldError(
          'group',
          `VLAN is assigned to group ${nameOf(group)} (scope: ${scope}); cannot also assign to site ${nameOf(site)}.`,
        );
      }
      const vid = Number(obj.vid);
      if (!(Number(group.min_vid) <= vid && vid <= Number(group.max_vid))) {
        return fieldError(
          'vid',
          `VID must be between ${pyStr(group.min_vid)} and ${pyStr(group.max_vid)} for VLANs in group ${nameOf(group)}`,
        );
      }
    },
  },
};

/* ------------------------------------------------------------ list filters */

/** The node and its ancestors (following `parent`). */
async function withAncestors(env: FilterEnvironment, model: string, id: unknown): Promise<number[]> {
  const out: number[] = [];
  let next = typeof id === 'number' ? id : null;
  while (next !== null && !out.includes(next) && out.length < 100) {
    out.push(next);
    const [node] = await env.find(model, { id: next }, 1);
    next = node && typeof node.parent === 'number' ? node.parent : null;
  }
  return out;
}

/**
 * VLANs usable on a device (NetBox's VLANQuerySet.get_for_device): those of groups scoped
 * to the device's region or site group (or an ancestor), site, location (or an ancestor)
 * or rack, those of the device's site, and global ones (no site, group unscoped or none).
 */
async function filterAvailableOnDevice(
  [id]: Array<string | number | boolean>,
  env: FilterEnvironment,
): Promise<Record<string, unknown>> {
  const [device] = await env.find('dcim.device', { id }, 1);
  if (!device) env.invalid(UNKNOWN_CHOICE);
  const [site] = await env.find('dcim.site', { id: device!.site }, 1);
  const scopes: Record<string, unknown>[] = [{ scope_type: 'dcim.site', scope_id: device!.site }];
  if (site?.region != null)
    scopes.push({ scope_type: 'dcim.region', scope_id: { $in: await withAncestors(env, 'dcim.region', site.region) } });
  if (site?.group != null)
    scopes.push({
      scope_type: 'dcim.sitegroup',
      scope_id: { $in: await withAncestors(env, 'dcim.sitegroup', site.group) },
    });
  if (device!.location != null)
    scopes.push({
      scope_type: 'dcim.location',
      scope_id: { $in: await withAncestors(env, 'dcim.location', device!.location) },
    });
  if (device!.rack != null) scopes.push({ scope_type: 'dcim.rack', scope_id: device!.rack });
  const groups = await env.ids('ipam.vlangroup', { $or: scopes });
  const unscoped = await env.ids('ipam.vlangroup', { scope_id: null });
  return {
    $or: [
      { group: { $in: groups } },
      { site: device!.site },
      { group: { $in: unscoped }, site: null },
      { group: null, site: null },
    ],
  };
}

/**
 * VLANs usable on a virtual machine (NetBox's VLANQuerySet.get_for_virtualmachine): those
 * of groups scoped to its cluster or the cluster's group, or to its site (the VM's own,
 * else its cluster's), that site's region or site group (or an ancestor); those of that
 * site; and global ones.
 */
async function filterAvailableOnVirtualMachine(
  [id]: Array<string | number | boolean>,
  env: FilterEnvironment,
): Promise<Record<string, unknown>> {
  const [vm] = await env.find('virtualization.virtualmachine', { id }, 1);
  if (!vm) env.invalid(UNKNOWN_CHOICE);
  const [cluster] = vm!.cluster == null ? [] : await env.find('virtualization.cluster', { id: vm!.cluster }, 1);
  const siteId = vm!.site ?? cluster?.site ?? null;
  const [site] = siteId == null ? [] : await env.find('dcim.site', { id: siteId }, 1);
  const scopes: Record<string, unknown>[] = [];
  if (cluster) {
    scopes.push({ scope_type: 'virtualization.cluster', scope_id: cluster.id });
    if (cluster.group != null) scopes.push({ scope_type: 'virtualization.clustergroup', scope_id: cluster.group });
  }
  if (site) {
    scopes.push({ scope_type: 'dcim.site', scope_id: site.id });
    if (site.region != null)
      scopes.push({
        scope_type: 'dcim.region',
        scope_id: { $in: await withAncestors(env, 'dcim.region', site.region) },
      });
    if (site.group != null)
      scopes.push({
        scope_type: 'dcim.sitegroup',
        scope_id: { $in: await withAncestors(env, 'dcim.sitegroup', site.group) },
      });
  }
  const groups = scopes.length ? await env.ids('ipam.vlangroup', { $or: scopes }) : [];
  const unscoped = await env.ids('ipam.vlangroup', { scope_id: null });
  const usable: Record<string, unknown>[] = [
    { group: { $in: groups } },
    { group: { $in: unscoped }, site: null },
    { group: null, site: null },
  ];
  if (site) usable.push({ site: site.id });
  return { $or: usable };
}
