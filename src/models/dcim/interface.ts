// Field facts come from NetBox 3.4's REST API reference (scripts/import-reference.ts); hooks are hand-written.
import type { FieldErrors } from '../../errors/fieldErrors.js';
import { BEYOND_NETBOX, ONE_VALUE } from '../filterSpecs.js';
import { fieldError, nameOf, nameWithLabel, related } from '../hooks.js';
import { holderFilters } from '../interfaceHolderFilters.js';
import {
  applyVlanMode,
  type InterfaceParent,
  interfaceVlanFilters,
  taggedVlanSiteProblem,
  untaggedVlanSiteProblem,
} from '../interfaceVlans.js';
import { l2vpnFilters, l2vpnTerminationField } from '../ipam/l2vpnTerminationField.js';
import type { LookupView } from '../lookupView.js';
import { MATCH_NOTHING } from '../matchNothing.js';
import type { ValidationContext } from '../modelHooks.js';
import { DEVICE_HOLDER } from '../primaryIps.js';
import type { StoredObject } from '../storedObject.js';
import { normalizeHardwareField } from '../values/hardwareAddress.js';
import { naturalInterfaceKey } from '../values/naturalSortKey.js';
import { cableEndFields, pathEndpointFields } from './cableFields.js';
import { pagePaths } from './cabling/pagePaths.js';
import {
  INTERFACE_DUPLEX_CHOICES,
  INTERFACE_MODE_CHOICES,
  INTERFACE_TYPE_CHOICES,
  RF_CHANNEL_CHOICES,
  VIRTUAL_INTERFACE_TYPES as VIRTUAL_TYPES,
  WIRELESS_INTERFACE_TYPES as WIRELESS_TYPES,
  WIRELESS_ROLE_CHOICES,
} from './choices.js';
import { markConnectedField, poeFields } from './componentFields.js';
import { componentMoveProblem, markedWhileCabledProblem } from './componentParents.js';
import { deviceDisplay } from './device.js';
import { deviceComponentModel } from './deviceComponentModel.js';

/** A related interface (parent, bridge, lag) must be on the same device or another member of its virtual chassis. */
async function sameDevice(
  obj: StoredObject,
  view: LookupView,
  field: 'parent' | 'bridge' | 'lag',
  what: string,
): Promise<FieldErrors | void> {
  const other = await related(view, 'dcim.interface', obj[field]);
  if (!other || other.device === obj.device) return;
  const device = await related(view, 'dcim.device', obj.device);
  const otherDevice = await related(view, 'dcim.device', other.device);
  if (device?.virtual_chassis != null && otherDevice?.virtual_chassis === device.virtual_chassis) return;
  const deviceName = otherDevice ? await deviceDisplay(otherDevice, view) : 'None';
  if (device?.virtual_chassis != null) {
    const chassis = await related(view, 'dcim.virtualchassis', device.virtual_chassis);
    return fieldError(
      field,
      `The selected ${what} interface (${nameWithLabel(other)}) belongs to ${deviceName}, which is not part of virtual chassis ${nameOf(chassis)}.`,
    );
  }
  return fieldError(
    field,
    `The selected ${what} interface (${nameWithLabel(other)}) belongs to a different device (${deviceName}).`,
  );
}

/** The interface's device as the VLAN rules see it. */
async function parentDevice(obj: StoredObject, view: LookupView): Promise<InterfaceParent> {
  const device = await related(view, 'dcim.device', obj.device);
  return { site: device?.site ?? null, noun: 'device' };
}

/** The serializer's check of the tagged VLANs sent, then the local, cheap part of NetBox's Interface.clean(); the first failing rule wins. */
async function validateInterface(
  obj: StoredObject,
  view: LookupView,
  previous: StoredObject | null,
  context?: ValidationContext,
): Promise<FieldErrors | void> {
  const written = context?.written;
  const device = await parentDevice(obj, view);
  const tagged = await taggedVlanSiteProblem(obj, view, device, written);
  if (tagged) return tagged;
  const moved = componentMoveProblem(obj, previous);
  if (moved) return moved;
  const type = String(obj.type ?? '');
  const isVirtual = VIRTUAL_TYPES.has(type);
  const isWireless = WIRELESS_TYPES.has(type);
  const label = INTERFACE_TYPE_CHOICES.find((choice) => choice.value === type)?.label ?? type;
  if (isVirtual && obj.cable != null) return fieldError('type', `${label} interfaces cannot have a cable attached.`);
  const cabled = markedWhileCabledProblem(obj);
  if (cabled) return cabled;
  if (isVirtual && obj.mark_connected) {
    return fieldError('mark_connected', `${label} interfaces cannot be marked as connected.`);
  }
  if (obj.parent != null && obj.parent === obj.id) {
    return fieldError('parent', 'An interface cannot be its own parent.');
  }
  if (obj.parent != null && type !== 'virtual') {
    return fieldError('parent', 'Only virtual interfaces may be assigned to a parent interface.');
  }
  const parent = await sameDevice(obj, view, 'parent', 'parent');
  if (parent) return parent;
  if (obj.bridge != null && obj.bridge === obj.id) {
    return fieldError('bridge', 'An interface cannot be bridged to itself.');
  }
  const bridge = await sameDevice(obj, view, 'bridge', 'bridge');
  if (bridge) return bridge;
  if (obj.lag != null && type === 'virtual') {
    return fieldError('lag', 'Virtual interfaces cannot have a parent LAG interface.');
  }
  if (obj.lag != null && obj.lag === obj.id) return fieldError('lag', 'A LAG interface cannot be its own parent.');
  const lag = await sameDevice(obj, view, 'lag', 'LAG');
  if (lag) return lag;
  if (obj.poe_mode && isVirtual) return fieldError('poe_mode', 'Virtual interfaces cannot have a PoE mode.');
  if (obj.poe_type && isVirtual) return fieldError('poe_type', 'Virtual interfaces cannot have a PoE type.');
  if (obj.poe_type && !obj.poe_mode) {
    return fieldError('poe_type', 'Must specify PoE mode when designating a PoE type.');
  }
  if (!isWireless) {
    if (obj.rf_role) return fieldError('rf_role', 'Wireless role may be set only on wireless interfaces.');
    if (obj.rf_channel) return fieldError('rf_channel', 'Channel may be set only on wireless interfaces.');
    if (obj.rf_channel_frequency) {
      return fieldError('rf_channel_frequency', 'Channel frequency may be set only on wireless interfaces.');
    }
    if (obj.rf_channel_width) {
      return fieldError('rf_channel_width', 'Channel width may be set only on wireless interfaces.');
    }
  }
  return untaggedVlanSiteProblem(obj, view, device);
}

export const interfaceModel = deviceComponentModel({
  key: 'dcim.interface',
  path: 'interfaces',
  verboseName: 'interface',
  cabling: 'endpoint',
  modular: true,
  beforeName: [{ name: 'vdcs', type: 'm2m', target: 'dcim.virtualdevicecontext', relatedName: 'interfaces' }],
  fields: [
    { name: 'type', type: 'choice', required: true, choices: INTERFACE_TYPE_CHOICES },
    { name: 'enabled', type: 'boolean', default: true },
    {
      name: 'parent',
      type: 'fk',
      target: 'dcim.interface',
      onDelete: 'SET_NULL',
      nullable: true,
      default: null,
      relatedName: 'child_interfaces',
    },
    {
      name: 'bridge',
      type: 'fk',
      target: 'dcim.interface',
      onDelete: 'SET_NULL',
      nullable: true,
      default: null,
      relatedName: 'bridge_interfaces',
    },
    {
      name: 'lag',
      type: 'fk',
      target: 'dcim.interface',
      onDelete: 'SET_NULL',
      nullable: true,
      default: null,
      relatedName: 'member_interfaces',
    },
    { name: 'mtu', type: 'integer', nullable: true, default: null, min: 1, max: 65536 },
    { name: 'mac_address', type: 'mac_address', nullable: true, default: null },
    { name: 'speed', type: 'integer', nullable: true, default: null, min: 0, max: 2147483647 },
    {
      name: 'duplex',
      type: 'choice',
      blank: true,
      emptyAsNull: true,
      default: '',
      choices: INTERFACE_DUPLEX_CHOICES,
    },
    { name: 'wwn', type: 'wwn', nullable: true, default: null },
    { name: 'mgmt_only', type: 'boolean', default: false },
  ],
  afterDescription: [
    {
      name: 'mode',
      type: 'choice',
      blank: true,
      emptyAsNull: true,
      default: '',
      choices: INTERFACE_MODE_CHOICES,
    },
    {
      name: 'rf_role',
      type: 'choice',
      blank: true,
      emptyAsNull: true,
      default: '',
      choices: WIRELESS_ROLE_CHOICES,
    },
    { name: 'rf_channel', type: 'choice', blank: true, emptyAsNull: true, default: '', choices: RF_CHANNEL_CHOICES },
    ...poeFields,
    { name: 'rf_channel_frequency', type: 'decimal', nullable: true, default: null, maxDigits: 7, decimalPlaces: 2 },
    { name: 'rf_channel_width', type: 'decimal', nullable: true, default: null, maxDigits: 7, decimalPlaces: 3 },
    { name: 'tx_power', type: 'integer', nullable: true, default: null, min: 0, max: 127 },
    {
      name: 'untagged_vlan',
      type: 'fk',
      target: 'ipam.vlan',
      onDelete: 'SET_NULL',
      nullable: true,
      default: null,
      relatedName: 'interfaces_as_untagged',
    },
    { name: 'tagged_vlans', type: 'm2m', target: 'ipam.vlan', relatedName: 'interfaces_as_tagged' },
  ],
  cableFields: [
    markConnectedField,
    ...cableEndFields.slice(0, 2),
    {
      name: 'wireless_link',
      type: 'fk',
      target: 'wireless.wirelesslink',
      onDelete: 'SET_NULL',
      readOnly: true,
      nullable: true,
      default: null,
    },
    ...cableEndFields.slice(2),
    { name: 'wireless_lans', type: 'm2m', target: 'wireless.wirelesslan', relatedName: 'interfaces' },
    { name: 'vrf', type: 'fk', target: 'ipam.vrf', onDelete: 'SET_NULL', nullable: true, default: null },
    l2vpnTerminationField('dcim.interface'),
    ...pathEndpointFields,
    // NetBox 2.x's connection state, still read by clients of that API in the nested form.
    {
      name: 'connection_status',
      type: 'computed',
      readOnly: true,
      nullable: true,
      value: null,
      help: "The state of the interface's connection, {value: true, label: 'Connected'} or {value: false, label: 'Not Connected'}; null without a cable path.",
      dependsOn: ['dcim.cable', 'dcim.frontport', 'dcim.rearport', 'circuits.circuittermination'],
      computeMany: async (objs, view, model, memo) =>
        (await pagePaths(objs, view, model, memo)).map((path) => {
          if (!path) return null;
          const connected = path.isComplete && path.isActive;
          return { value: connected, label: connected ? 'Connected' : 'Not Connected' };
        }),
    },
  ],
  last: [
    {
      name: 'count_ipaddresses',
      type: 'count',
      readOnly: true,
      count: { model: 'ipam.ipaddress', via: 'assigned_object_id', where: { assigned_object_type: 'dcim.interface' } },
    },
    {
      name: 'count_fhrp_groups',
      type: 'count',
      readOnly: true,
      count: { model: 'ipam.fhrpgroupassignment', via: 'interface_id', where: { interface_type: 'dcim.interface' } },
    },
  ],
  brief: ['id', 'url', 'display', 'device', 'name', 'cable', 'connection_status', '_occupied'],
  filters: {
    // NetBox: ChoiceFilters (one value), not MultipleChoiceFilters
    mode: ONE_VALUE,
    // NetBox: by id, any chassis member brings the chassis's interfaces; by name, only its master
    ...holderFilters('device', DEVICE_HOLDER, 'self', true),
    kind: { kind: 'method', single: true, method: filterKind },
    ...interfaceVlanFilters,
    vrf: { kind: 'related', target: 'ipam.vrf', by: 'rd', path: ['vrf'] },
    ...l2vpnFilters,
    vdc_id: { kind: 'related', target: 'dcim.virtualdevicecontext', path: ['vdcs'] },
    vdc_identifier: { kind: 'related', target: 'dcim.virtualdevicecontext', by: 'identifier', path: ['vdcs'] },
    vdc: { kind: 'related', target: 'dcim.virtualdevicecontext', by: 'name', path: ['vdcs'] },
    wireless_link_id: BEYOND_NETBOX,
    wireless_lans_id: BEYOND_NETBOX,
    vdcs_id: false,
    vdcs: false,
    parent: false,
    bridge: false,
    lag: false,
    untagged_vlan_id: false,
    untagged_vlan: false,
    tagged_vlans_id: false,
    tagged_vlans: false,
  },
  hooks: {
    derive: (obj) => ({ _name: naturalInterfaceKey(obj.name) }),
    normalize(obj) {
      const errors: FieldErrors = {};
      const mac = normalizeHardwareField(obj, 'mac_address', 'MAC');
      if (mac) errors.mac_address = [mac];
      const wwn = normalizeHardwareField(obj, 'wwn', 'WWN');
      if (wwn) errors.wwn = [wwn];
      if (Object.keys(errors).length) return errors;
    },
    // Its own order of rules: the tagged VLANs sent are checked before the device is
    validate: validateInterface,
    beforeSave: applyVlanMode,
  },
});

/* ------------------------------------------------------------ list filters */

/** physical | virtual | wireless (case-insensitive); anything else matches nothing. */
function filterKind([kind]: Array<string | number | boolean>): Record<string, unknown> {
  switch (String(kind).toLowerCase()) {
    case 'physical':
      return { type: { $nin: [...VIRTUAL_TYPES, ...WIRELESS_TYPES] } };
    case 'virtual':
      return { type: { $in: [...VIRTUAL_TYPES] } };
    case 'wireless':
      return { type: { $in: [...WIRELESS_TYPES] } };
    default:
      return MATCH_NOTHING;
  }
}
