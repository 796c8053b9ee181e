// Field facts come from NetBox 3.4's REST API reference (scripts/import-reference.ts); hooks are hand-written.
import { descriptionField, identityFields } from '../commonFields.js';
import { nameWithLabel } from '../hooks.js';
import type { ModelDefinition } from '../types.js';
import { naturalSortKey } from '../values/naturalSortKey.js';
import { CONSOLE_PORT_TYPE_CHOICES } from './choices.js';
import { componentTemplateFilters } from './componentFilters.js';
import { modularTemplateParentProblem, templateParent } from './componentParents.js';

export const consoleporttemplate: ModelDefinition = {
  key: 'dcim.consoleporttemplate',
  app: 'dcim',
  model: 'consoleporttemplate',
  path: 'console-port-templates',
  verboseName: 'console port template',
  verboseNamePlural: 'console port templates',
  fields: [
    ...identityFields,
    { name: 'device_type', type: 'fk', target: 'dcim.devicetype', onDelete: 'CASCADE', nullable: true, default: null },
    { name: 'module_type', type: 'fk', target: 'dcim.moduletype', onDelete: 'CASCADE', nullable: true, default: null },
    { name: 'name', type: 'string', required: true, maxLength: 64 },
    { name: 'label', type: 'string', blank: true, default: '', maxLength: 64 },
    { name: 'type', type: 'choice', blank: true, emptyAsNull: true, default: '', choices: CONSOLE_PORT_TYPE_CHOICES },
    descriptionField,
    { name: 'created', type: 'date', readOnly: true, nullable: true },
    { name: 'last_updated', type: 'datetime', readOnly: true, nullable: true },
  ],
  brief: ['id', 'url', 'display', 'name'],
  // NetBox orders device_type and module_type by their own ordering; here by id
  ordering: ['device_type', 'module_type', '_name', 'id'],
  search: ['name'],
  unique: [{ fields: ['device_type', 'name'] }, { fields: ['module_type', 'name'] }],
  filters: componentTemplateFilters,
  hooks: {
    display: nameWithLabel,
    derive: (obj) => ({ _name: naturalSortKey(obj.name) }),
    validate: async (obj, _view, previous) => modularTemplateParentProblem(obj, previous),
    relatedObject: templateParent,
  },
};
