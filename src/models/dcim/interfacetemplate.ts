// Field facts come from NetBox 3.4's REST API reference (scripts/import-reference.ts); hooks are hand-written.
import { descriptionField, identityFields } from '../commonFields.js';
import { nameWithLabel } from '../hooks.js';
import type { ModelDefinition } from '../types.js';
import { naturalInterfaceKey } from '../values/naturalSortKey.js';
import { INTERFACE_POE_MODE_CHOICES, INTERFACE_POE_TYPE_CHOICES, INTERFACE_TYPE_CHOICES } from './choices.js';
import { modularTemplateParentProblem } from './componentParents.js';

export const interfacetemplate: ModelDefinition = {
  key: 'dcim.interfacetemplate',
  app: 'dcim',
  model: 'interfacetemplate',
  path: 'interface-templates',
  verboseName: 'interface template',
  verboseNamePlural: 'interface templates',
  fields: [
    ...identityFields,
    { name: 'device_type', type: 'fk', target: 'dcim.devicetype', onDelete: 'CASCADE', nullable: true, default: null },
    { name: 'module_type', type: 'fk', target: 'dcim.moduletype', onDelete: 'CASCADE', nullable: true, default: null },
    { name: 'name', type: 'string', required: true, maxLength: 64 },
    { name: 'label', type: 'string', blank: true, default: '', maxLength: 64 },
    { name: 'type', type: 'choice', required: true, choices: INTERFACE_TYPE_CHOICES },
    { name: 'mgmt_only', type: 'boolean', default: false },
    descriptionField,
    {
      name: 'poe_mode',
      type: 'choice',
      blank: true,
      emptyAsNull: true,
      default: '',
      choices: INTERFACE_POE_MODE_CHOICES,
    },
    {
      name: 'poe_type',
      type: 'choice',
      blank: true,
      emptyAsNull: true,
      default: '',
      choices: INTERFACE_POE_TYPE_CHOICES,
    },
    { name: 'created', type: 'date', readOnly: true, nullable: true },
    { name: 'last_updated', type: 'datetime', readOnly: true, nullable: true },
  ],
  brief: ['id', 'url', 'display', 'name'],
  // NetBox orders device_type and module_type by their own ordering; here by id
  ordering: ['device_type', 'module_type', '_name', 'id'],
  search: ['name'],
  unique: [{ fields: ['device_type', 'name'] }, { fields: ['module_type', 'name'] }],
  filters: {
    devicetype_id: { kind: 'related', target: 'dcim.devicetype', path: ['device_type'] },
    moduletype_id: { kind: 'related', target: 'dcim.moduletype', path: ['module_type'] },
    device_type_id: false,
    device_type: false,
    module_type_id: false,
  },
  hooks: {
    display: nameWithLabel,
    validate: async (obj, _view, previous) => modularTemplateParentProblem(obj, previous),
    derive: (obj) => ({ _name: naturalInterfaceKey(obj.name) }),
  },
};
