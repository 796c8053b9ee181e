// Field facts come from NetBox 3.4's REST API reference (scripts/import-reference.ts); hooks are hand-written.
import { changeLoggedFields, descriptionField, familyField, identityFields, tenantField } from '../commonFields.js';
import { existingIds, tenancyFilters, vrfByRd } from '../filterSpecs.js';
import type { FilterEnvironment, FilterMethod } from '../filterTypes.js';
import { displayAttribute, fieldError } from '../hooks.js';
import { holderFilters } from '../interfaceHolderFilters.js';
import { duplicateAddress } from '../ipamUniqueness.js';
import type { ModelDefinition } from '../modelDefinition.js';
import {
  DEVICE_HOLDER,
  primaryAddressLeavesHolder,
  type PrimaryIpHolder,
  VIRTUAL_MACHINE_HOLDER,
} from '../primaryIps.js';
import { hostKeys, normalizeHostField } from '../values/ipNetworks.js';
import { IP_ADDRESS_ROLE_CHOICES, IP_ADDRESS_STATUS_CHOICES } from './choices.js';
import { presentInVrfFilters } from './presentInVrf.js';

/** Where an address names its interface. */
const ASSIGNED = { typeField: 'assigned_object_type', idField: 'assigned_object_id' };

const DNS_NAME = /^([0-9A-Za-z_-]+|\*)(\.[0-9A-Za-z_-]+)*\.?$/;

export const ipaddress: ModelDefinition = {
  key: 'ipam.ipaddress',
  app: 'ipam',
  model: 'ipaddress',
  path: 'ip-addresses',
  verboseName: 'IP address',
  verboseNamePlural: 'IP addresses',
  fields: [
    ...identityFields,
    familyField,
    { name: 'address', type: 'ip_address', required: true },
    { name: 'vrf', type: 'fk', target: 'ipam.vrf', onDelete: 'PROTECT', nullable: true, default: null },
    tenantField,
    {
      name: 'status',
      type: 'choice',
      default: 'active',
      choices: IP_ADDRESS_STATUS_CHOICES,
    },
    { name: 'role', type: 'choice', blank: true, default: '', choices: IP_ADDRESS_ROLE_CHOICES },
    {
      name: 'assigned_object_type',
      type: 'content_type',
      allowedTypes: ['dcim.interface', 'ipam.fhrpgroup', 'virtualization.vminterface'],
      nullable: true,
      default: null,
    },
    { name: 'assigned_object_id', type: 'integer', nullable: true, default: null, min: 0, max: 9223372036854776000 },
    {
      name: 'assigned_object',
      type: 'generic_fk',
      readOnly: true,
      nullable: true,
      targets: ['dcim.interface', 'ipam.fhrpgroup', 'virtualization.vminterface'],
      typeField: 'assigned_object_type',
      idField: 'assigned_object_id',
    },
    { name: 'nat_inside', type: 'fk', target: 'ipam.ipaddress', onDelete: 'SET_NULL', nullable: true, default: null },
    { name: 'nat_outside', type: 'reverse', readOnly: true, target: 'ipam.ipaddress', via: 'nat_inside' },
    { name: 'dns_name', type: 'string', blank: true, default: '', maxLength: 255 },
    descriptionField,
    { name: 'comments', type: 'string', blank: true, default: '' },
    ...changeLoggedFields,
  ],
  brief: ['id', 'url', 'display', 'family', 'address'],
  // NetBox: host address only (mask ignored), IPv4 before IPv6
  ordering: ['_address', 'id'],
  search: ['dns_name', 'description', 'address'],
  filters: {
    ...tenancyFilters,
    ...vrfByRd,
    family: { kind: 'field', field: 'family', value: 'integer', lookups: [], single: true },
    parent: { kind: 'network', op: 'parent' },
    address: { kind: 'network', op: 'address' },
    mask_length: {
      kind: 'method',
      value: 'integer',
      single: true,
      method: ([len]) => (len ? { _prefixlen: len } : null),
    },
    ...presentInVrfFilters,
    ...holderFilters('device', DEVICE_HOLDER, ASSIGNED),
    interface_id: {
      kind: 'method',
      value: 'integer',
      lookups: ['n'],
      method: assignedToInterfaces(DEVICE_HOLDER, 'id'),
    },
    interface: { kind: 'method', lookups: ['n'], method: assignedToInterfaces(DEVICE_HOLDER, 'name') },
    ...holderFilters('virtual_machine', VIRTUAL_MACHINE_HOLDER, ASSIGNED),
    vminterface_id: {
      kind: 'method',
      value: 'integer',
      lookups: ['n'],
      method: assignedToInterfaces(VIRTUAL_MACHINE_HOLDER, 'id'),
    },
    vminterface: { kind: 'method', lookups: ['n'], method: assignedToInterfaces(VIRTUAL_MACHINE_HOLDER, 'name') },
    fhrpgroup_id: { kind: 'method', value: 'integer', lookups: ['n'], method: assignedToFhrpGroups },
    assigned_to_interface: { kind: 'method', value: 'boolean', single: true, method: filterAssignedToInterface },
    role: {
      kind: 'field',
      field: 'role',
      value: 'string',
      choices: IP_ADDRESS_ROLE_CHOICES.map((c) => c.value),
      lookups: ['n'],
    },
    assigned_object_type: false,
    assigned_object_id: false,
    nat_inside_id: false,
    // NetBox: dns_name or description contains the text, or the address starts with it
    q: {
      kind: 'search',
      fields: ['dns_name', 'description'],
      also: ([text], env) => ({ address: env.textCondition('isw', String(text)) }),
    },
  },
  hooks: {
    display: displayAttribute('address'),
    normalize(obj) {
      // NetBox lower-cases the DNS name on save.
      if (typeof obj.dns_name === 'string') obj.dns_name = obj.dns_name.toLowerCase();
      return normalizeHostField(obj, 'address', 'IP address');
    },
    derive: (obj) => hostKeys(obj.address) ?? { _family: null, _address: null, _prefixlen: null },
    async validate(obj, view, previous, context) {
      if (typeof obj.dns_name === 'string' && obj.dns_name !== '' && !DNS_NAME.test(obj.dns_name)) {
        return fieldError(
          'dns_name',
          'Only alphanumeric characters, asterisks, hyphens, periods, and underscores are allowed in DNS names',
        );
      }
      if (obj.assigned_object_type != null && obj.assigned_object_id == null) {
        return fieldError('assigned_object_id', 'This field cannot be null.');
      }
      if (obj.assigned_object_id != null && obj.assigned_object_type == null) {
        return fieldError('assigned_object_type', 'This field cannot be null.');
      }
      if (obj.status === 'slaac' && obj.family !== 6) {
        return fieldError('status', 'Only IPv6 addresses can be assigned SLAAC status');
      }
      const duplicate = await duplicateAddress(obj, view, context?.settings);
      if (duplicate) return duplicate;
      // A new address cannot be anyone's primary IP yet.
      if (previous) return primaryAddressLeavesHolder(obj, view);
    },
  },
};

/* ------------------------------------------------------------ list filters */

const INTERFACE_TYPES = ['dcim.interface', 'virtualization.vminterface'];

/** Addresses assigned to the interfaces (by id or name); an unknown one is a 400. */
function assignedToInterfaces(holder: PrimaryIpHolder, by: 'id' | 'name'): FilterMethod {
  return async (values, env) => {
    const interfaces = await existingIds(env, holder.interfaceModel, by, values);
    const positive = { assigned_object_type: holder.interfaceModel, assigned_object_id: { $in: interfaces } };
    return env.lookup === 'n' ? { $nor: [positive] } : positive;
  };
}

/** Addresses assigned to the FHRP groups (by id); an unknown group is a 400. */
async function assignedToFhrpGroups(
  values: Array<string | number | boolean>,
  env: FilterEnvironment,
): Promise<Record<string, unknown>> {
  const groups = await existingIds(env, 'ipam.fhrpgroup', 'id', values);
  const positive = { assigned_object_type: 'ipam.fhrpgroup', assigned_object_id: { $in: groups } };
  return env.lookup === 'n' ? { $nor: [positive] } : positive;
}

function filterAssignedToInterface([assigned]: Array<string | number | boolean>): Record<string, unknown> {
  return assigned
    ? { assigned_object_type: { $in: INTERFACE_TYPES } }
    : { assigned_object_type: { $nin: INTERFACE_TYPES } };
}
