// Field facts come from NetBox 3.4's REST API reference (scripts/import-reference.ts); hooks are hand-written.
import type { FieldErrors } from '../../errors/fieldErrors.js';
import { assetTagField, descriptionField, displayNameField, identityFields, tenantField } from '../commonFields.js';
import { instantiateTemplates } from '../componentTemplates.js';
import { configContextField, DEVICE_CONTEXT_SCOPE } from '../configContexts/configContextField.js';
import {
  BEYOND_NETBOX,
  contactFilters,
  isSet,
  ONE_VALUE,
  pairFilters,
  siteScopeFilters,
  tenancyFilters,
} from '../filterSpecs.js';
import type { FilterEnvironment } from '../filterTypes.js';
import { hasRelated } from '../hasRelatedFilter.js';
import { fieldError, nameOf, pyStr, related } from '../hooks.js';
import { interfaceMacFilter } from '../interfaceMacFilter.js';
import type { LookupView } from '../lookupView.js';
import type { ModelDefinition } from '../modelDefinition.js';
import { hasPrimaryIpFilter, primaryIpField, primaryIpShown, primaryIpStartsWith } from '../primaryIps.js';
import type { StoredObject } from '../storedObject.js';
import { naturalSortKey } from '../values/naturalSortKey.js';
import { onDeviceOrChassis } from './chassisInterfaces.js';
import { AIRFLOW_CHOICES, DEVICE_FACE_CHOICES, DEVICE_STATUS_CHOICES } from './choices.js';
import { childDevicesFollowParent, parentDeviceField, parentDeviceIdFilter } from './deviceBays.js';
import { rackDisplay } from './rack.js';

/** str(device): name and asset tag, else virtual chassis position, else manufacturer and model. */
export async function deviceDisplay(obj: StoredObject, view: LookupView): Promise<string> {
  const name = obj.name ? String(obj.name) : '';
  const assetTag = obj.asset_tag ? String(obj.asset_tag) : '';
  if (name) return assetTag ? `${name} (${assetTag})` : name;
  const chassis = await related(view, 'dcim.virtualchassis', obj.virtual_chassis);
  if (chassis) return `${pyStr(chassis.name)}:${pyStr(obj.vc_position)} (${assetTag || obj.id})`;
  const type = await related(view, 'dcim.devicetype', obj.device_type);
  if (type) {
    const manufacturer = await related(view, 'dcim.manufacturer', type.manufacturer);
    return `${nameOf(manufacturer)} ${pyStr(type.model)} (${assetTag || obj.id})`;
  }
  return `Device object (${obj.id})`;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The local, cheap part of NetBox's Device.clean(); the first failing rule wins. */
async function validateDevice(obj: StoredObject, view: LookupView): Promise<FieldErrors | void> {
  if (obj.local_context_data != null && !isPlainObject(obj.local_context_data)) {
    return fieldError('local_context_data', 'JSON data must be in object form. Example: {"foo": 123}');
  }
  const site = await related(view, 'dcim.site', obj.site);
  const rack = await related(view, 'dcim.rack', obj.rack);
  const location = await related(view, 'dcim.location', obj.location);
  if (rack && rack.site !== obj.site) {
    return fieldError('rack', `Rack ${rackDisplay(rack)} does not belong to site ${nameOf(site)}.`);
  }
  if (location && location.site !== obj.site) {
    return fieldError('location', `Location ${nameOf(location)} does not belong to site ${nameOf(site)}.`);
  }
  if (rack && location && rack.location !== location.id) {
    return fieldError('rack', `Rack ${rackDisplay(rack)} does not belong to location ${nameOf(location)}.`);
  }
  if (!rack) {
    if (obj.face) return fieldError('face', 'Cannot select a rack face without assigning a rack.');
    if (obj.position) return fieldError('position', 'Cannot select a rack position without assigning a rack.');
  }
  if (obj.position && !Number.isInteger(Number(obj.position) * 2)) {
    return fieldError('position', 'Position must be in increments of 0.5 rack units.');
  }
  if (obj.position && !obj.face) return fieldError('face', 'Must specify rack face when defining rack position.');
  const type = await related(view, 'dcim.devicetype', obj.device_type);
  if (type && obj.position && Number(type.u_height) === 0) {
    return fieldError('position', `A U0 device type (${pyStr(type.model)}) cannot be assigned to a rack position.`);
  }
  if (type && rack && type.subdevice_role === 'child') {
    const attribute = 'This is an attribute of the parent device.';
    if (obj.face) return fieldError('face', `Child device types cannot be assigned to a rack face. ${attribute}`);
    if (obj.position) {
      return fieldError('position', `Child device types cannot be assigned to a rack position. ${attribute}`);
    }
  }
  const platform = await related(view, 'dcim.platform', obj.platform);
  if (type && platform && platform.manufacturer != null && platform.manufacturer !== type.manufacturer) {
    const limited = await related(view, 'dcim.manufacturer', platform.manufacturer);
    const actual = await related(view, 'dcim.manufacturer', type.manufacturer);
    return fieldError(
      'platform',
      `The assigned platform is limited to ${nameOf(limited)} device types, but this device's type belongs to ${nameOf(actual)}.`,
    );
  }
  const cluster = await related(view, 'virtualization.cluster', obj.cluster);
  if (cluster && cluster.site != null && cluster.site !== obj.site) {
    const clusterSite = await related(view, 'dcim.site', cluster.site);
    return fieldError('cluster', `The assigned cluster belongs to a different site (${nameOf(clusterSite)})`);
  }
  if (obj.virtual_chassis != null && obj.vc_position == null) {
    return fieldError('vc_position', 'A device assigned to a virtual chassis must have its position defined.');
  }
  if (type && rack && obj.position) {
    const problem = await rackSpaceProblem(obj, type, rack, view);
    if (problem) return fieldError('position', problem);
  }
  for (const [field, family] of [
    ['primary_ip4', 4],
    ['primary_ip6', 6],
  ] as const) {
    const problem = await primaryIpProblem(obj, field, family, view);
    if (problem) return fieldError(field, problem);
  }
}

/** The units a device occupies: [position, position + height), in half units. */
function unitRange(position: number, height: number): [number, number] {
  return [position * 2, (position + height) * 2];
}

/** The device must fit inside the rack and overlap no other device on its face (full-depth types take both). */
async function rackSpaceProblem(
  obj: StoredObject,
  type: StoredObject,
  rack: StoredObject,
  view: LookupView,
): Promise<string | null> {
  const height = Number(type.u_height);
  const [start, end] = unitRange(Number(obj.position), height);
  const message = `U${pyStr(obj.position)} is already occupied or does not have sufficient space to accommodate this device type: ${pyStr(type.model)} (${height}U)`;
  if (start < 2 || end > (Number(rack.u_height) + 1) * 2) return message;
  const others = await view.find('dcim.device', { rack: rack.id, id: { $ne: obj.id }, position: { $ne: null } });
  for (const other of others) {
    const otherType = await related(view, 'dcim.devicetype', other.device_type);
    if (!otherType) continue;
    const sharesFace = other.face === obj.face || otherType.is_full_depth === true || type.is_full_depth === true;
    if (!sharesFace) continue;
    const [otherStart, otherEnd] = unitRange(Number(other.position), Number(otherType.u_height));
    if (start < otherEnd && otherStart < end) return message;
  }
  return null;
}

/**
 * A primary IP must be of the right family and assigned to one of this device's interfaces
 * or a non-management interface of another member of its virtual chassis (or be the NAT
 * outside of such an address).
 */
async function primaryIpProblem(
  obj: StoredObject,
  field: 'primary_ip4' | 'primary_ip6',
  family: 4 | 6,
  view: LookupView,
): Promise<string | null> {
  const address = await related(view, 'ipam.ipaddress', obj[field]);
  if (!address) return null;
  if (address.family !== family) return `${pyStr(address.address)} is not an IPv${family} address.`;
  if (await onDeviceOrChassis(address, obj, view)) return null;
  if (await onDeviceOrChassis(await related(view, 'ipam.ipaddress', address.nat_inside), obj, view)) return null;
  return `The specified IP address (${pyStr(address.address)}) is not assigned to this device.`;
}

export const device: ModelDefinition = {
  key: 'dcim.device',
  app: 'dcim',
  model: 'device',
  path: 'devices',
  verboseName: 'device',
  verboseNamePlural: 'devices',
  fields: [
    ...identityFields,
    displayNameField,
    { name: 'name', type: 'string', nullable: true, blank: true, default: null, maxLength: 64 },
    {
      name: 'device_type',
      type: 'fk',
      target: 'dcim.devicetype',
      onDelete: 'PROTECT',
      required: true,
      relatedName: 'instances',
    },
    { name: 'device_role', type: 'fk', target: 'dcim.devicerole', onDelete: 'PROTECT', required: true },
    tenantField,
    { name: 'platform', type: 'fk', target: 'dcim.platform', onDelete: 'SET_NULL', nullable: true, default: null },
    { name: 'serial', type: 'string', blank: true, default: '', maxLength: 50 },
    assetTagField,
    { name: 'site', type: 'fk', target: 'dcim.site', onDelete: 'PROTECT', required: true },
    { name: 'location', type: 'fk', target: 'dcim.location', onDelete: 'PROTECT', nullable: true, default: null },
    { name: 'rack', type: 'fk', target: 'dcim.rack', onDelete: 'PROTECT', nullable: true, default: null },
    {
      name: 'position',
      label: 'Position (U)',
      type: 'decimal',
      nullable: true,
      default: null,
      min: 1,
      max: 99.5,
      maxDigits: 4,
      decimalPlaces: 1,
    },
    {
      name: 'face',
      // the serializer declares the field (OPTIONS label 'Face'); the model's verbose name is in messages
      verboseName: 'Rack face',
      type: 'choice',
      blank: true,
      emptyAsNull: true,
      default: '',
      choices: DEVICE_FACE_CHOICES,
    },
    parentDeviceField,
    { name: 'status', type: 'choice', default: 'active', choices: DEVICE_STATUS_CHOICES },
    { name: 'airflow', type: 'choice', blank: true, emptyAsNull: true, default: '', choices: AIRFLOW_CHOICES },
    primaryIpShown,
    primaryIpField('primary_ip4'),
    primaryIpField('primary_ip6'),
    {
      name: 'cluster',
      type: 'fk',
      target: 'virtualization.cluster',
      onDelete: 'SET_NULL',
      nullable: true,
      default: null,
    },
    {
      name: 'virtual_chassis',
      type: 'fk',
      target: 'dcim.virtualchassis',
      onDelete: 'SET_NULL',
      nullable: true,
      default: null,
      relatedName: 'members',
      // A device leaving a deleted chassis keeps no position or priority in it.
      clearsWith: { vc_position: null, vc_priority: null },
    },
    { name: 'vc_position', type: 'integer', nullable: true, default: null, min: 0, max: 255 },
    { name: 'vc_priority', type: 'integer', nullable: true, default: null, min: 0, max: 255 },
    descriptionField,
    { name: 'comments', type: 'string', blank: true, default: '' },
    { name: 'local_context_data', type: 'json', nullable: true, default: null },
    { name: 'tags', type: 'tags', target: 'extras.tag' },
    { name: 'custom_fields', type: 'custom_fields', default: {} },
    configContextField(DEVICE_CONTEXT_SCOPE),
    { name: 'created', type: 'date', readOnly: true, nullable: true },
    { name: 'last_updated', type: 'datetime', readOnly: true, nullable: true },
  ],
  brief: ['id', 'url', 'display', 'display_name', 'name'],
  ordering: ['_name', 'id'],
  unique: [
    {
      fields: ['name', 'site', 'tenant'],
      caseInsensitive: ['name'],
      // Django's message for a constraint over an expression (lower(name)) without one of its own
      message: 'Constraint “dcim_device_unique_name_site_tenant” is violated.',
    },
    {
      fields: ['name', 'site'],
      caseInsensitive: ['name'],
      whenNull: 'tenant',
      message: 'Device name must be unique per site.',
    },
    { fields: ['rack', 'position', 'face'] },
    { fields: ['virtual_chassis', 'vc_position'] },
  ],
  search: ['name', 'serial', 'asset_tag', 'comments'],
  filters: {
    // NetBox: ChoiceFilters (one value), not MultipleChoiceFilters
    face: ONE_VALUE,
    airflow: ONE_VALUE,
    // NetBox 3.4: cluster_id only
    cluster: BEYOND_NETBOX,
    ...tenancyFilters,
    ...contactFilters,
    ...siteScopeFilters(['site']),
    ...pairFilters('manufacturer_id', 'manufacturer', 'dcim.manufacturer', ['device_type', 'manufacturer']),
    ...pairFilters('role_id', 'role', 'dcim.devicerole', ['device_role']),
    device_role_id: false,
    device_role: false,
    model: { kind: 'related', target: 'dcim.devicetype', by: 'slug', path: ['device_type'] },
    location_id: { kind: 'related', target: 'dcim.location', path: ['location'], includeDescendants: true },
    location: false,
    rack: false,
    parent_device_id: parentDeviceIdFilter,
    name: { kind: 'field', field: 'name', value: 'string', caseInsensitive: true },
    serial: { kind: 'field', field: 'serial', value: 'string', caseInsensitive: true },
    local_context_data: isSet('local_context_data'),
    has_primary_ip: hasPrimaryIpFilter,
    virtual_chassis: false,
    virtual_chassis_member: isSet('virtual_chassis'),
    is_full_depth: { kind: 'method', value: 'boolean', single: true, method: filterFullDepth },
    mac_address: interfaceMacFilter('dcim.interface', 'device'),
    interfaces: hasRelated('dcim.interface', 'device'),
    console_ports: hasRelated('dcim.consoleport', 'device'),
    console_server_ports: hasRelated('dcim.consoleserverport', 'device'),
    power_ports: hasRelated('dcim.powerport', 'device'),
    power_outlets: hasRelated('dcim.poweroutlet', 'device'),
    pass_through_ports: hasRelated(['dcim.frontport', 'dcim.rearport'], 'device'),
    module_bays: hasRelated('dcim.modulebay', 'device'),
    device_bays: hasRelated('dcim.devicebay', 'device'),
    q: { kind: 'search', also: primaryIpOrInventorySerial },
  },
  hooks: {
    display: deviceDisplay,
    derive: (obj) => ({ _name: naturalSortKey(obj.name) }),
    validate: validateDevice,
    // A new device gets a component for every component template of its type; a parent
    // device moved elsewhere takes the devices in its bays along.
    followUps: async (change, view, models) =>
      change.action === 'create'
        ? instantiateTemplates(
            'dcim.devicetype',
            'device_type',
            Number(change.obj.device_type),
            { device: change.obj.id },
            view,
            models,
          )
        : childDevicesFollowParent(change, view),
  },
};

/* ------------------------------------------------------------ list filters */

async function filterFullDepth(
  [full]: Array<string | number | boolean>,
  env: FilterEnvironment,
): Promise<Record<string, unknown>> {
  return { device_type: { $in: await env.ids('dcim.devicetype', { is_full_depth: full }) } };
}

/** The search also finds a device by its primary IPs' text and by the serial of one of its inventory items. */
async function primaryIpOrInventorySerial(
  values: Array<string | number | boolean>,
  env: FilterEnvironment,
): Promise<Record<string, unknown> | null> {
  const byAddress = await primaryIpStartsWith(values, env);
  const items = await env.find('dcim.inventoryitem', { serial: env.textCondition('ic', String(values[0])) });
  const bySerial = items.length ? { id: { $in: [...new Set(items.map((item: StoredObject) => item.device))] } } : null;
  if (byAddress && bySerial) return { $or: [byAddress, bySerial] };
  return byAddress ?? bySerial;
}
