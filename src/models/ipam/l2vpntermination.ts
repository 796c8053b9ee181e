// Field facts come from NetBox 3.4's REST API reference (scripts/import-reference.ts); hooks are hand-written.
import type { FieldErrors } from '../../errors/fieldErrors.js';
import { changeLoggedFields, identityFields } from '../commonFields.js';
import { contentTypeIdFilter } from '../contentTypeIdFilter.js';
import { existingIds } from '../filterSpecs.js';
import type { FilterEnvironment, FilterMethod } from '../filterTypes.js';
import { fieldError, pyStr, related } from '../hooks.js';
import type { LookupView } from '../lookupView.js';
import type { ModelDefinition } from '../modelDefinition.js';
import type { StoredObject } from '../storedObject.js';
import { L2VPN_TYPE_CHOICES } from './choices.js';
import { POINT_TO_POINT_TYPES } from './l2vpn.js';

/** What may terminate an L2VPN. */
export const TERMINATING_TYPES = ['dcim.interface', 'ipam.vlan', 'virtualization.vminterface'];

/** A kind of interface and the object it belongs to. */
interface InterfaceKind {
  interfaceModel: string;
  parentModel: string;
  parentField: string;
}

const DEVICE_INTERFACES: InterfaceKind = {
  interfaceModel: 'dcim.interface',
  parentModel: 'dcim.device',
  parentField: 'device',
};
const VM_INTERFACES: InterfaceKind = {
  interfaceModel: 'virtualization.vminterface',
  parentModel: 'virtualization.virtualmachine',
  parentField: 'virtual_machine',
};

export const l2vpntermination: ModelDefinition = {
  key: 'ipam.l2vpntermination',
  app: 'ipam',
  model: 'l2vpntermination',
  path: 'l2vpn-terminations',
  verboseName: 'L2VPN termination',
  verboseNamePlural: 'L2VPN terminations',
  fields: [
    ...identityFields,
    {
      name: 'l2vpn',
      type: 'fk',
      target: 'ipam.l2vpn',
      onDelete: 'CASCADE',
      required: true,
      relatedName: 'terminations',
    },
    { name: 'assigned_object_type', type: 'content_type', allowedTypes: TERMINATING_TYPES, required: true },
    { name: 'assigned_object_id', type: 'integer', required: true, min: 0, max: 9223372036854776000 },
    // deleting the interface or VLAN deletes its termination (a generic relation cascades)
    {
      name: 'assigned_object',
      type: 'generic_fk',
      readOnly: true,
      nullable: true,
      targets: TERMINATING_TYPES,
      typeField: 'assigned_object_type',
      idField: 'assigned_object_id',
    },
    ...changeLoggedFields,
  ],
  displayReads: ['ipam.l2vpn', 'dcim.interface', 'virtualization.vminterface', 'ipam.vlan'],
  brief: ['id', 'url', 'display', 'l2vpn'],
  // NetBox orders by the L2VPN's own ordering (name, identifier); here by its id
  ordering: ['l2vpn', 'id'],
  search: [],
  unique: [{ fields: ['assigned_object_type', 'assigned_object_id'] }],
  filters: {
    assigned_object_type_id: contentTypeIdFilter('assigned_object_type', { single: true }),
    l2vpn_id: { kind: 'related', target: 'ipam.l2vpn', path: ['l2vpn'] },
    l2vpn: { kind: 'related', target: 'ipam.l2vpn', by: 'slug', path: ['l2vpn'] },
    assigned_object_id: false,
    region_id: { kind: 'method', value: 'integer', method: atSites('region', 'id') },
    region: { kind: 'method', method: atSites('region', 'slug') },
    site_id: { kind: 'method', value: 'integer', method: atSites('site', 'id') },
    site: { kind: 'method', method: atSites('site', 'slug') },
    device_id: { kind: 'method', value: 'integer', lookups: ['n'], method: onParents(DEVICE_INTERFACES, 'id') },
    device: { kind: 'method', lookups: ['n'], method: onParents(DEVICE_INTERFACES, 'name') },
    virtual_machine_id: { kind: 'method', value: 'integer', lookups: ['n'], method: onParents(VM_INTERFACES, 'id') },
    virtual_machine: { kind: 'method', lookups: ['n'], method: onParents(VM_INTERFACES, 'name') },
    interface_id: { kind: 'method', value: 'integer', lookups: ['n'], method: onObjects('dcim.interface', 'id') },
    interface: { kind: 'method', lookups: ['n'], method: onObjects('dcim.interface', 'name') },
    vminterface_id: {
      kind: 'method',
      value: 'integer',
      lookups: ['n'],
      method: onObjects('virtualization.vminterface', 'id'),
    },
    vminterface: { kind: 'method', lookups: ['n'], method: onObjects('virtualization.vminterface', 'name') },
    vlan_id: { kind: 'method', value: 'integer', lookups: ['n'], method: onObjects('ipam.vlan', 'id') },
    vlan: { kind: 'method', lookups: ['n'], method: onObjects('ipam.vlan', 'name') },
    // NetBox: a number filter (one value)
    vlan_vid: {
      kind: 'method',
      value: 'integer',
      single: true,
      lookups: ['n', 'lt', 'lte', 'gt', 'gte'],
      method: onVlanVids,
    },
    // NetBox: the L2VPN's name contains the text
    q: {
      kind: 'search',
      fields: [],
      also: async ([text], env) => ({
        l2vpn: { $in: await env.ids('ipam.l2vpn', { name: env.textCondition('ic', String(text)) }) },
      }),
    },
  },
  hooks: {
    display: terminationDisplay,
    validate: validateTermination,
  },
};

/** '<assigned object> <> <l2vpn>', each as it shows itself. */
async function terminationDisplay(obj: StoredObject, view: LookupView): Promise<string> {
  const target =
    typeof obj.assigned_object_type === 'string'
      ? await related(view, obj.assigned_object_type, obj.assigned_object_id)
      : null;
  const vpn = await related(view, 'ipam.l2vpn', obj.l2vpn);
  return `${target ? pyStr(target.display ?? target.id) : 'None'} <> ${vpn ? pyStr(vpn.display ?? vpn.name) : 'None'}`;
}

/** NetBox's L2VPNTermination.clean: one termination per object; a point-to-point L2VPN has two ends at most. */
async function validateTermination(obj: StoredObject, view: LookupView): Promise<FieldErrors | void> {
  const target =
    typeof obj.assigned_object_type === 'string'
      ? await related(view, obj.assigned_object_type, obj.assigned_object_id)
      : null;
  if (target) {
    const [taken] = await view.find(
      'ipam.l2vpntermination',
      {
        assigned_object_type: obj.assigned_object_type,
        assigned_object_id: obj.assigned_object_id,
        id: { $ne: obj.id },
      },
      1,
    );
    if (taken)
      return fieldError('__all__', `L2VPN Termination already assigned (${pyStr(target.display ?? target.id)})`);
  }
  const vpn = await related(view, 'ipam.l2vpn', obj.l2vpn);
  if (vpn && POINT_TO_POINT_TYPES.has(String(vpn.type))) {
    const others = (await view.find('ipam.l2vpntermination', { l2vpn: vpn.id, id: { $ne: obj.id } }, 2)).length;
    if (others >= 2) {
      const label = L2VPN_TYPE_CHOICES.find((c) => c.value === vpn.type)?.label ?? String(vpn.type);
      return fieldError(
        '__all__',
        `${label} L2VPNs cannot have more than two terminations; found ${others} already defined.`,
      );
    }
  }
}

/* ------------------------------------------------------------ list filters */

/** Terminations on the `model` objects given (by id or by `by`); `__n` excludes them. */
function terminatingAt(model: string, ids: number[], env: FilterEnvironment): Record<string, unknown> {
  const on = { assigned_object_type: model, assigned_object_id: { $in: ids } };
  return env.lookup === 'n' ? { $nor: [on] } : on;
}

/** Terminations on the objects (interfaces, VM interfaces, VLANs) named by id or name; an unknown one is a 400. */
function onObjects(model: string, by: 'id' | 'name'): FilterMethod {
  return async (values, env) => terminatingAt(model, await existingIds(env, model, by, values), env);
}

/** Terminations on interfaces of the devices or VMs named by id or name; an unknown one is a 400. */
function onParents(kind: InterfaceKind, by: 'id' | 'name'): FilterMethod {
  return async (values, env) => {
    const parents = await existingIds(env, kind.parentModel, by, values);
    const interfaces = parents.length
      ? await env.ids(kind.interfaceModel, { [kind.parentField]: { $in: parents } })
      : [];
    return terminatingAt(kind.interfaceModel, interfaces, env);
  };
}

/** Terminations on VLANs whose VID compares with the values as the lookup says. */
async function onVlanVids(
  values: Array<string | number | boolean>,
  env: FilterEnvironment,
): Promise<Record<string, unknown>> {
  const vids = values.map(Number);
  const conditions: Record<string, unknown> = {
    exact: { $in: vids },
    n: { $in: vids },
    lt: { $lt: Math.max(...vids) },
    lte: { $lte: Math.max(...vids) },
    gt: { $gt: Math.min(...vids) },
    gte: { $gte: Math.min(...vids) },
  };
  return terminatingAt(
    'ipam.vlan',
    await env.ids('ipam.vlan', { vid: conditions[env.lookup] ?? conditions.exact }),
    env,
  );
}

/**
 * Terminations whose VLAN, device or VM stands at the sites given, or at sites of the
 * regions given (the region itself, not its descendants, as NetBox filters it).
 */
function atSites(scope: 'site' | 'region', by: 'id' | 'slug'): FilterMethod {
  return async (values, env) => {
    const scoped = await env.ids(scope === 'site' ? 'dcim.site' : 'dcim.region', { [by]: { $in: values } });
    const sites = scope === 'site' ? scoped : await env.ids('dcim.site', { region: { $in: scoped } });
    const atSite = { site: { $in: sites } };
    const vlans = await env.ids('ipam.vlan', atSite);
    const devices = await env.ids('dcim.device', atSite);
    const machines = await env.ids('virtualization.virtualmachine', atSite);
    const interfaces = devices.length ? await env.ids('dcim.interface', { device: { $in: devices } }) : [];
    const vmInterfaces = machines.length
      ? await env.ids('virtualization.vminterface', { virtual_machine: { $in: machines } })
      : [];
    return {
      $or: [
        { assigned_object_type: 'ipam.vlan', assigned_object_id: { $in: vlans } },
        { assigned_object_type: 'dcim.interface', assigned_object_id: { $in: interfaces } },
        { assigned_object_type: 'virtualization.vminterface', assigned_object_id: { $in: vmInterfaces } },
      ],
    };
  };
}
