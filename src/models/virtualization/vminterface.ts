// Field facts come from NetBox 3.4's REST API reference (scripts/import-reference.ts); hooks are hand-written.
import type { FieldErrors } from '../../errors/fieldErrors.js';
import { changeLoggedFields, descriptionField, identityFields } from '../commonFields.js';
import { INTERFACE_MODE_CHOICES } from '../dcim/choices.js';
import { pairFilters, vrfByRd } from '../filterSpecs.js';
import { fieldError, nameOf, pyStr, related } from '../hooks.js';
import {
  applyVlanMode,
  type InterfaceParent,
  interfaceVlanFilters,
  taggedVlanSiteProblem,
  untaggedVlanSiteProblem,
} from '../interfaceVlans.js';
import { l2vpnFilters, l2vpnTerminationField } from '../ipam/l2vpnTerminationField.js';
import type { LookupView } from '../lookupView.js';
import type { ModelDefinition } from '../modelDefinition.js';
import type { ValidationContext } from '../modelHooks.js';
import type { StoredObject } from '../storedObject.js';
import { normalizeHardwareField } from '../values/hardwareAddress.js';
import { naturalInterfaceKey } from '../values/naturalSortKey.js';

/** A parent or bridge interface must be another interface of the same VM. */
async function sameVirtualMachine(
  obj: StoredObject,
  view: LookupView,
  field: 'parent' | 'bridge',
): Promise<FieldErrors | void> {
  const other = await related(view, 'virtualization.vminterface', obj[field]);
  if (!other || other.virtual_machine === obj.virtual_machine) return;
  const vm = await related(view, 'virtualization.virtualmachine', other.virtual_machine);
  return fieldError(
    field,
    `The selected ${field} interface (${pyStr(other.name)}) belongs to a different virtual machine (${nameOf(vm)}).`,
  );
}

async function parentVirtualMachine(id: unknown, view: LookupView): Promise<InterfaceParent> {
  const vm = await related(view, 'virtualization.virtualmachine', id);
  return { site: vm?.site ?? null, noun: 'virtual machine' };
}

/**
 * The serializer's check of the tagged VLANs sent (against the VM the interface had before
 * the request, as NetBox's serializer takes it), then NetBox's VMInterface.clean(); the
 * first failing rule wins.
 */
async function validateVmInterface(
  obj: StoredObject,
  view: LookupView,
  previous: StoredObject | null,
  context?: ValidationContext,
): Promise<FieldErrors | void> {
  const written = context?.written;
  const serializerVm = await parentVirtualMachine((previous ?? obj).virtual_machine, view);
  const tagged = await taggedVlanSiteProblem(obj, view, serializerVm, written);
  if (tagged) return tagged;
  if (obj.parent != null && obj.parent === obj.id)
    return fieldError('parent', 'An interface cannot be its own parent.');
  const parent = await sameVirtualMachine(obj, view, 'parent');
  if (parent) return parent;
  if (obj.bridge != null && obj.bridge === obj.id)
    return fieldError('bridge', 'An interface cannot be bridged to itself.');
  const bridge = await sameVirtualMachine(obj, view, 'bridge');
  if (bridge) return bridge;
  return untaggedVlanSiteProblem(obj, view, await parentVirtualMachine(obj.virtual_machine, view));
}

export const vminterface: ModelDefinition = {
  key: 'virtualization.vminterface',
  app: 'virtualization',
  model: 'vminterface',
  path: 'interfaces',
  verboseName: 'interface',
  verboseNamePlural: 'interfaces',
  fields: [
    ...identityFields,
    {
      name: 'virtual_machine',
      type: 'fk',
      target: 'virtualization.virtualmachine',
      onDelete: 'CASCADE',
      required: true,
    },
    { name: 'name', type: 'string', required: true, maxLength: 64 },
    { name: 'enabled', type: 'boolean', default: true },
    {
      name: 'parent',
      type: 'fk',
      target: 'virtualization.vminterface',
      onDelete: 'SET_NULL',
      nullable: true,
      default: null,
      relatedName: 'child_interfaces',
    },
    {
      name: 'bridge',
      type: 'fk',
      target: 'virtualization.vminterface',
      onDelete: 'SET_NULL',
      nullable: true,
      default: null,
      relatedName: 'bridge_interfaces',
    },
    { name: 'mtu', type: 'integer', nullable: true, default: null, min: 1, max: 65536 },
    { name: 'mac_address', type: 'mac_address', nullable: true, default: null },
    descriptionField,
    { name: 'mode', type: 'choice', blank: true, default: '', choices: INTERFACE_MODE_CHOICES },
    {
      name: 'untagged_vlan',
      type: 'fk',
      target: 'ipam.vlan',
      onDelete: 'SET_NULL',
      nullable: true,
      default: null,
      relatedName: 'vminterfaces_as_untagged',
    },
    { name: 'tagged_vlans', type: 'm2m', target: 'ipam.vlan', default: [], relatedName: 'vminterfaces_as_tagged' },
    {
      name: 'vrf',
      type: 'fk',
      target: 'ipam.vrf',
      onDelete: 'SET_NULL',
      nullable: true,
      default: null,
      relatedName: 'vminterfaces',
    },
    l2vpnTerminationField('virtualization.vminterface'),
    ...changeLoggedFields,
    {
      name: 'count_ipaddresses',
      type: 'count',
      readOnly: true,
      count: {
        model: 'ipam.ipaddress',
        via: 'assigned_object_id',
        where: { assigned_object_type: 'virtualization.vminterface' },
      },
    },
    {
      name: 'count_fhrp_groups',
      type: 'count',
      readOnly: true,
      count: {
        model: 'ipam.fhrpgroupassignment',
        via: 'interface_id',
        where: { interface_type: 'virtualization.vminterface' },
      },
    },
  ],
  brief: ['id', 'url', 'display', 'virtual_machine', 'name'],
  // NetBox orders virtual_machine by its own ordering (natural name); here by id
  ordering: ['virtual_machine', '_name', 'id'],
  search: ['name', 'description'],
  unique: [{ fields: ['virtual_machine', 'name'] }],
  filters: {
    ...interfaceVlanFilters,
    ...vrfByRd,
    ...pairFilters('cluster_id', 'cluster', 'virtualization.cluster', ['virtual_machine', 'cluster'], 'name'),
    ...l2vpnFilters,
    parent: false,
    bridge: false,
    mode: false,
    untagged_vlan_id: false,
    untagged_vlan: false,
    tagged_vlans_id: false,
    tagged_vlans: false,
  },
  hooks: {
    derive: (obj) => ({ _name: naturalInterfaceKey(obj.name) }),
    normalize(obj) {
      const mac = normalizeHardwareField(obj, 'mac_address', 'MAC');
      if (mac) return fieldError('mac_address', mac);
    },
    validate: validateVmInterface,
    beforeSave: applyVlanMode,
    relatedObject: (obj) =>
      typeof obj.virtual_machine === 'number'
        ? { type: 'virtualization.virtualmachine', id: obj.virtual_machine }
        : null,
  },
};
