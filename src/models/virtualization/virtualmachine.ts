// Field facts come from NetBox 3.4's REST API reference (scripts/import-reference.ts); hooks are hand-written.
import type { FieldErrors } from '../../errors/fieldErrors.js';
import { descriptionField, identityFields, tenantField } from '../commonFields.js';
import { configContextField, VIRTUAL_MACHINE_CONTEXT_SCOPE } from '../configContexts/configContextField.js';
import { deviceDisplay } from '../dcim/device.js';
import { contactFilters, isSet, pairFilters, siteScopeFilters, tenancyFilters } from '../filterSpecs.js';
import { fieldError, nameOf, pyStr, related } from '../hooks.js';
import { interfaceMacFilter } from '../interfaceMacFilter.js';
import type { LookupView } from '../lookupView.js';
import type { ModelDefinition } from '../modelDefinition.js';
import {
  belongsToHolder,
  hasPrimaryIpFilter,
  primaryIpField,
  primaryIpShown,
  primaryIpStartsWith,
  VIRTUAL_MACHINE_HOLDER,
} from '../primaryIps.js';
import type { StoredObject } from '../storedObject.js';
import { naturalSortKey } from '../values/naturalSortKey.js';
import { VIRTUAL_MACHINE_STATUS_CHOICES } from './choices.js';

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The role must be one flagged for VMs: Django's check of the foreign key's allowed
 * choices, which reports the role as not existing.
 */
async function roleProblem(obj: StoredObject, view: LookupView): Promise<FieldErrors | void> {
  const role = await related(view, 'dcim.devicerole', obj.role);
  if (role && role.vm_role !== true)
    return fieldError('role', `device role instance with id ${role.id} does not exist.`);
}

/** NetBox's VirtualMachine.clean(); the first failing rule wins. */
async function cleanProblem(
  obj: StoredObject,
  view: LookupView,
  previous: StoredObject | null,
): Promise<FieldErrors | void> {
  if (obj.local_context_data != null && !isPlainObject(obj.local_context_data)) {
    return fieldError('local_context_data', 'JSON data must be in object form. Example: {"foo": 123}');
  }
  const site = await related(view, 'dcim.site', obj.site);
  const cluster = await related(view, 'virtualization.cluster', obj.cluster);
  if (!site && !cluster) return fieldError('cluster', 'A virtual machine must be assigned to a site and/or cluster.');
  if (site && cluster && cluster.site !== site.id) {
    return fieldError(
      'cluster',
      `The selected cluster (${nameOf(cluster)}) is not assigned to this site (${nameOf(site)}).`,
    );
  }
  const device = await related(view, 'dcim.device', obj.device);
  if (device && !cluster) return fieldError('device', 'Must specify a cluster when assigning a host device.');
  if (device && cluster && device.cluster !== cluster.id) {
    return fieldError(
      'device',
      `The selected device (${await deviceDisplay(device, view)}) is not assigned to this cluster (${nameOf(cluster)}).`,
    );
  }
  for (const [field, family] of [
    ['primary_ip4', 4],
    ['primary_ip6', 6],
  ] as const) {
    const address = await related(view, 'ipam.ipaddress', obj[field]);
    if (!address) continue;
    if (address.family !== family) {
      return fieldError(
        field,
        `Must be an IPv${family} address. (${pyStr(address.address)} is an IPv${pyStr(address.family)} address.)`,
      );
    }
    // A new VM has no interfaces yet, so no address can be its primary.
    if (!previous || !(await belongsToHolder(address, obj.id, VIRTUAL_MACHINE_HOLDER, view))) {
      return fieldError(field, `The specified IP address (${pyStr(address.address)}) is not assigned to this VM.`);
    }
  }
}

/** Django reports a field's own errors (the role) together with those of clean(). */
async function validateVirtualMachine(
  obj: StoredObject,
  view: LookupView,
  previous: StoredObject | null,
): Promise<FieldErrors | void> {
  const errors = { ...(await roleProblem(obj, view)), ...(await cleanProblem(obj, view, previous)) };
  if (Object.keys(errors).length) return errors;
}

export const virtualmachine: ModelDefinition = {
  key: 'virtualization.virtualmachine',
  app: 'virtualization',
  model: 'virtualmachine',
  path: 'virtual-machines',
  verboseName: 'virtual machine',
  verboseNamePlural: 'virtual machines',
  fields: [
    ...identityFields,
    { name: 'name', type: 'string', required: true, maxLength: 64 },
    { name: 'status', type: 'choice', default: 'active', choices: VIRTUAL_MACHINE_STATUS_CHOICES },
    // filled from the cluster's site on save when left empty (beforeSave)
    { name: 'site', type: 'fk', target: 'dcim.site', onDelete: 'PROTECT', nullable: true, default: null },
    {
      name: 'cluster',
      type: 'fk',
      target: 'virtualization.cluster',
      onDelete: 'PROTECT',
      nullable: true,
      default: null,
    },
    { name: 'device', type: 'fk', target: 'dcim.device', onDelete: 'PROTECT', nullable: true, default: null },
    { name: 'role', type: 'fk', target: 'dcim.devicerole', onDelete: 'PROTECT', nullable: true, default: null },
    tenantField,
    { name: 'platform', type: 'fk', target: 'dcim.platform', onDelete: 'SET_NULL', nullable: true, default: null },
    primaryIpShown,
    primaryIpField('primary_ip4'),
    primaryIpField('primary_ip6'),
    { name: 'vcpus', type: 'decimal', nullable: true, default: null, min: 0.01, maxDigits: 6, decimalPlaces: 2 },
    { name: 'memory', type: 'integer', nullable: true, default: null, min: 0, max: 2147483647 },
    { name: 'disk', type: 'integer', nullable: true, default: null, min: 0, max: 2147483647 },
    descriptionField,
    { name: 'comments', type: 'string', blank: true, default: '' },
    { name: 'local_context_data', type: 'json', nullable: true, default: null },
    { name: 'tags', type: 'tags', target: 'extras.tag', default: [] },
    { name: 'custom_fields', type: 'custom_fields', default: {} },
    configContextField(VIRTUAL_MACHINE_CONTEXT_SCOPE),
    { name: 'created', type: 'date', readOnly: true, nullable: true },
    { name: 'last_updated', type: 'datetime', readOnly: true, nullable: true },
  ],
  brief: ['id', 'url', 'display', 'name'],
  ordering: ['_name', 'id'],
  search: ['name', 'comments'],
  unique: [
    {
      fields: ['name', 'cluster', 'tenant'],
      caseInsensitive: ['name'],
      // Django's message for a constraint over an expression (lower(name))
      message: 'Constraint “virtualization_virtualmachine_unique_name_cluster_tenant” is violated.',
    },
    {
      fields: ['name', 'cluster'],
      caseInsensitive: ['name'],
      whenNull: 'tenant',
      message: 'Virtual machine name must be unique per cluster.',
    },
  ],
  filters: {
    ...tenancyFilters,
    ...contactFilters,
    ...siteScopeFilters(['site']),
    ...pairFilters('cluster_group_id', 'cluster_group', 'virtualization.clustergroup', ['cluster', 'group']),
    ...pairFilters('cluster_type_id', 'cluster_type', 'virtualization.clustertype', ['cluster', 'type']),
    name: { kind: 'field', field: 'name', value: 'string', caseInsensitive: true },
    local_context_data: isSet('local_context_data'),
    mac_address: interfaceMacFilter('virtualization.vminterface', 'virtual_machine'),
    has_primary_ip: hasPrimaryIpFilter,
    primary_ip4_id: false,
    primary_ip6_id: false,
    q: { kind: 'search', also: primaryIpStartsWith },
  },
  hooks: {
    derive: (obj) => ({ _name: naturalSortKey(obj.name) }),
    validate: validateVirtualMachine,
    async beforeSave(obj, view) {
      if (obj.cluster != null && obj.site == null) {
        const cluster = await related(view, 'virtualization.cluster', obj.cluster);
        obj.site = cluster?.site ?? null;
      }
    },
  },
};
