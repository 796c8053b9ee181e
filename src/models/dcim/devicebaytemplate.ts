// Field facts come from NetBox 3.4's REST API reference (scripts/import-reference.ts); hooks are hand-written.
import { descriptionField, identityFields } from '../commonFields.js';
import { nameWithLabel } from '../hooks.js';
import type { ModelDefinition } from '../types.js';
import { naturalSortKey } from '../values/naturalSortKey.js';
import { templateMoveProblem, templateParent } from './componentParents.js';
import { deviceBayTemplateProblem } from './deviceBays.js';

export const devicebaytemplate: ModelDefinition = {
  key: 'dcim.devicebaytemplate',
  app: 'dcim',
  model: 'devicebaytemplate',
  path: 'device-bay-templates',
  verboseName: 'device bay template',
  verboseNamePlural: 'device bay templates',
  fields: [
    ...identityFields,
    { name: 'device_type', type: 'fk', target: 'dcim.devicetype', onDelete: 'CASCADE', required: true },
    { name: 'name', type: 'string', required: true, maxLength: 64 },
    { name: 'label', type: 'string', blank: true, default: '', maxLength: 64 },
    descriptionField,
    { name: 'created', type: 'date', readOnly: true, nullable: true },
    { name: 'last_updated', type: 'datetime', readOnly: true, nullable: true },
  ],
  brief: ['id', 'url', 'display', 'name'],
  // NetBox orders device_type by its own ordering; here by id
  ordering: ['device_type', '_name', 'id'],
  search: ['name'],
  unique: [{ fields: ['device_type', 'name'] }],
  filters: {
    devicetype_id: { kind: 'related', target: 'dcim.devicetype', path: ['device_type'] },
    device_type_id: false,
    device_type: false,
  },
  hooks: {
    display: nameWithLabel,
    derive: (obj) => ({ _name: naturalSortKey(obj.name) }),
    validate: async (obj, view, previous) => templateMoveProblem(obj, previous) ?? deviceBayTemplateProblem(obj, view),
    relatedObject: templateParent,
  },
};
