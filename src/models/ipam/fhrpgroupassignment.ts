// Field facts come from NetBox 3.4's REST API reference (scripts/import-reference.ts); hooks are hand-written.
import { identityFields } from '../commonFields.js';
import { nameWithLabel, pyStr, related } from '../hooks.js';
import { holderFilters } from '../interfaceHolderFilters.js';
import type { LookupView } from '../lookupView.js';
import type { ModelDefinition } from '../modelDefinition.js';
import { DEVICE_HOLDER, VIRTUAL_MACHINE_HOLDER } from '../primaryIps.js';
import type { StoredObject } from '../storedObject.js';
import { fhrpGroupDisplay } from './fhrpgroup.js';

const INTERFACE_TYPES = ['dcim.interface', 'virtualization.vminterface'];
const ON_INTERFACE = { typeField: 'interface_type', idField: 'interface_id' };

/** '<interface>: <group> (<priority>)', the interface and group as they show themselves. */
async function assignmentDisplay(obj: StoredObject, view: LookupView): Promise<string> {
  const iface =
    typeof obj.interface_type === 'string' ? await related(view, obj.interface_type, obj.interface_id) : null;
  const group = await related(view, 'ipam.fhrpgroup', obj.group);
  // worked out afresh: the group's stored display predates addresses assigned since
  const groupText = group ? await fhrpGroupDisplay(group, view) : 'None';
  return `${iface ? nameWithLabel(iface) : 'None'}: ${groupText} (${pyStr(obj.priority)})`;
}

export const fhrpgroupassignment: ModelDefinition = {
  key: 'ipam.fhrpgroupassignment',
  app: 'ipam',
  model: 'fhrpgroupassignment',
  path: 'fhrp-group-assignments',
  verboseName: 'FHRP group assignment',
  verboseNamePlural: 'FHRP group assignments',
  fields: [
    ...identityFields,
    // the brief form names the group by its object id, as group_id
    {
      name: 'group',
      type: 'fk',
      target: 'ipam.fhrpgroup',
      onDelete: 'CASCADE',
      required: true,
      briefAttribute: 'id',
      briefName: 'group_id',
      relatedName: 'fhrpgroupassignment_set',
    },
    { name: 'interface_type', type: 'content_type', allowedTypes: INTERFACE_TYPES, required: true },
    { name: 'interface_id', type: 'integer', required: true, min: 0, max: 9223372036854776000 },
    // deleting the interface deletes its assignments (a generic relation cascades)
    {
      name: 'interface',
      type: 'generic_fk',
      readOnly: true,
      nullable: true,
      targets: INTERFACE_TYPES,
      typeField: 'interface_type',
      idField: 'interface_id',
    },
    { name: 'priority', type: 'integer', required: true, min: 0, max: 255 },
    { name: 'created', type: 'date', readOnly: true, nullable: true },
    { name: 'last_updated', type: 'datetime', readOnly: true, nullable: true },
  ],
  displayReads: ['dcim.interface', 'virtualization.vminterface', 'ipam.fhrpgroup', 'ipam.ipaddress'],
  brief: ['id', 'url', 'display', 'interface_type', 'interface_id', 'group', 'priority'],
  ordering: ['-priority', 'id'],
  search: [],
  unique: [{ fields: ['interface_type', 'interface_id', 'group'] }],
  filters: {
    group_id: { kind: 'related', target: 'ipam.fhrpgroup', path: ['group'] },
    group: false,
    ...holderFilters('device', DEVICE_HOLDER, ON_INTERFACE),
    ...holderFilters('virtual_machine', VIRTUAL_MACHINE_HOLDER, ON_INTERFACE),
  },
  hooks: {
    display: assignmentDisplay,
  },
};
