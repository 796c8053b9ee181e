// Field facts come from NetBox 3.4's REST API reference (scripts/import-reference.ts); hooks are hand-written.
import type { FieldErrors } from '../../errors/fieldErrors.js';
import { changeLoggedFields, countField, descriptionField, identityFields, tenantField } from '../commonFields.js';
import { tenancyFilters } from '../filterSpecs.js';
import type { FilterMethod } from '../filterTypes.js';
import { fieldError, pyStr, related } from '../hooks.js';
import type { LookupView } from '../lookupView.js';
import type { ModelDefinition } from '../modelDefinition.js';
import { hasPrimaryIpFilter, primaryIpField, primaryIpShown } from '../primaryIps.js';
import type { StoredObject } from '../storedObject.js';
import { onDeviceOrChassis } from './chassisInterfaces.js';
import { VDC_STATUS_CHOICES } from './choices.js';

/** A primary IP must be of its field's family and sit on an interface of the VDC's device (or a chassis member's). */
async function validateContext(obj: StoredObject, view: LookupView): Promise<FieldErrors | void> {
  const device = await related(view, 'dcim.device', obj.device);
  for (const [field, family] of [
    ['primary_ip4', 4],
    ['primary_ip6', 6],
  ] as const) {
    const address = await related(view, 'ipam.ipaddress', obj[field]);
    if (!address) continue;
    if (address.family !== family)
      return fieldError(field, `${pyStr(address.address)} is not an IPv${family} address.`);
    if (!device || !(await onDeviceOrChassis(address, device, view))) {
      return fieldError(field, 'Primary IP address must belong to an interface on the assigned device.');
    }
  }
}

/** `q`: the name contains the text, or the identifier equals it when it is a number. */
const identifierEquals: FilterMethod = ([text]) => {
  const value = String(text).trim();
  return /^\d+$/.test(value) ? { identifier: Number(value) } : null;
};

export const virtualdevicecontext: ModelDefinition = {
  key: 'dcim.virtualdevicecontext',
  app: 'dcim',
  model: 'virtualdevicecontext',
  path: 'virtual-device-contexts',
  verboseName: 'virtual device context',
  verboseNamePlural: 'virtual device contexts',
  fields: [
    ...identityFields,
    { name: 'name', type: 'string', required: true, maxLength: 64 },
    { name: 'device', type: 'fk', target: 'dcim.device', onDelete: 'PROTECT', required: true, relatedName: 'vdcs' },
    { name: 'identifier', type: 'integer', nullable: true, default: null, min: 0, max: 32767 },
    { ...tenantField, relatedName: 'vdcs' },
    primaryIpShown,
    primaryIpField('primary_ip4'),
    primaryIpField('primary_ip6'),
    {
      name: 'status',
      type: 'choice',
      required: true,
      choiceRender: 'plain',
      choices: VDC_STATUS_CHOICES,
    },
    descriptionField,
    { name: 'comments', type: 'string', blank: true, default: '' },
    ...changeLoggedFields,
    countField('interface_count', 'dcim.interface', 'vdcs'),
  ],
  brief: ['id', 'url', 'display', 'name', 'identifier', 'device'],
  ordering: ['name', 'id'],
  search: ['name'],
  unique: [{ fields: ['device', 'identifier'] }, { fields: ['device', 'name'] }],
  filters: {
    ...tenancyFilters,
    // NetBox's `device` filter takes ids, as `device_id` does.
    device: { kind: 'related', target: 'dcim.device', path: ['device'] },
    has_primary_ip: hasPrimaryIpFilter,
    q: { kind: 'search', also: identifierEquals },
    identifier: false,
    primary_ip4_id: false,
    primary_ip6_id: false,
    description: false,
    comments: false,
  },
  hooks: {
    validate: validateContext,
  },
};
