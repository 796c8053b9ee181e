// Field facts come from NetBox 3.4's REST API reference (scripts/import-reference.ts); hooks are hand-written.
import type { FieldErrors } from '../../errors/fieldErrors.js';
import { changeLoggedFields, descriptionField, identityFields } from '../commonFields.js';
import { ONE_VALUE, pairFilters } from '../filterSpecs.js';
import { fieldError } from '../hooks.js';
import type { ModelDefinition } from '../modelDefinition.js';
import type { StoredObject } from '../storedObject.js';
import { portFilter, portsField, portsSortKey, protocolField, serviceDisplay, serviceRules } from './serviceFields.js';

/**
 * A service runs on one device or one virtual machine, never both, never neither. The
 * addresses it lists are not checked against that parent: NetBox 3.4 does not check them.
 */
export function serviceParentRule(obj: StoredObject): FieldErrors | undefined {
  const onDevice = obj.device !== null && obj.device !== undefined;
  const onMachine = obj.virtual_machine !== null && obj.virtual_machine !== undefined;
  if (onDevice && onMachine)
    return fieldError('__all__', 'A service cannot be associated with both a device and a virtual machine.');
  if (!onDevice && !onMachine)
    return fieldError('__all__', 'A service must be associated with either a device or a virtual machine.');
  return undefined;
}

export const service: ModelDefinition = {
  key: 'ipam.service',
  app: 'ipam',
  model: 'service',
  path: 'services',
  verboseName: 'service',
  verboseNamePlural: 'services',
  fields: [
    ...identityFields,
    { name: 'device', type: 'fk', target: 'dcim.device', onDelete: 'CASCADE', nullable: true, default: null },
    {
      name: 'virtual_machine',
      type: 'fk',
      target: 'virtualization.virtualmachine',
      onDelete: 'CASCADE',
      nullable: true,
      default: null,
    },
    { name: 'name', type: 'string', required: true, maxLength: 100 },
    portsField,
    protocolField,
    { name: 'ipaddresses', type: 'm2m', target: 'ipam.ipaddress', default: [], relatedName: 'services' },
    descriptionField,
    { name: 'comments', type: 'string', blank: true, default: '' },
    ...changeLoggedFields,
  ],
  brief: ['id', 'url', 'display', 'name', 'protocol', 'ports'],
  // NetBox: protocol, then the ports lists compared as arrays, then id
  ordering: ['protocol', '_ports', 'id'],
  search: ['name', 'description'],
  filters: {
    // NetBox: ChoiceFilters (one value), not MultipleChoiceFilters
    protocol: ONE_VALUE,
    ...pairFilters('ipaddress_id', 'ipaddress', 'ipam.ipaddress', ['ipaddresses'], 'address'),
    ipaddresses_id: false,
    port: portFilter,
    comments: false,
  },
  hooks: {
    display: serviceDisplay,
    // field rules and the parent rule are reported together, as Django's full_clean does
    validate: async (obj) => {
      const errors = { ...serviceRules(obj), ...serviceParentRule(obj) };
      return Object.keys(errors).length ? errors : undefined;
    },
    derive: (obj) => ({ _ports: portsSortKey(obj.ports) }),
  },
};
