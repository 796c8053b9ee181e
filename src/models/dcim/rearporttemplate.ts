// Field facts come from NetBox 3.4's REST API reference (scripts/import-reference.ts); hooks are hand-written.
import { descriptionField, identityFields } from '../commonFields.js';
import { nameWithLabel } from '../hooks.js';
import type { ModelDefinition } from '../types.js';
import { naturalSortKey } from '../values/naturalSortKey.js';
import { PORT_TYPE_CHOICES } from './choices.js';
import { modularTemplateParentProblem, templateParent } from './componentParents.js';
import { rearPortPositionsProblem } from './portMapping.js';

export const rearporttemplate: ModelDefinition = {
  key: 'dcim.rearporttemplate',
  app: 'dcim',
  model: 'rearporttemplate',
  path: 'rear-port-templates',
  verboseName: 'rear port template',
  verboseNamePlural: 'rear port templates',
  fields: [
    ...identityFields,
    { name: 'device_type', type: 'fk', target: 'dcim.devicetype', onDelete: 'CASCADE', nullable: true, default: null },
    { name: 'module_type', type: 'fk', target: 'dcim.moduletype', onDelete: 'CASCADE', nullable: true, default: null },
    { name: 'name', type: 'string', required: true, maxLength: 64 },
    { name: 'label', type: 'string', blank: true, default: '', maxLength: 64 },
    { name: 'type', type: 'choice', required: true, choices: PORT_TYPE_CHOICES },
    { name: 'color', type: 'string', blank: true, default: '', maxLength: 6, pattern: '^[0-9a-f]{6}$' },
    { name: 'positions', type: 'integer', default: 1, min: 1, max: 1024 },
    descriptionField,
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
    derive: (obj) => ({ _name: naturalSortKey(obj.name) }),
    validate: async (obj, view, previous) =>
      modularTemplateParentProblem(obj, previous) ??
      rearPortPositionsProblem('dcim.frontporttemplate', obj, view, previous),
    relatedObject: templateParent,
  },
};
