// Field facts come from NetBox 3.4's REST API reference (scripts/import-reference.ts); hooks are hand-written.
import { descriptionField, identityFields } from '../commonFields.js';
import { nameWithLabel } from '../hooks.js';
import type { ModelDefinition } from '../types.js';
import { naturalSortKey } from '../values/naturalSortKey.js';
import { POWER_FEED_LEG_CHOICES, POWER_OUTLET_TYPE_CHOICES } from './choices.js';
import { componentTemplateFilters } from './componentFilters.js';
import { modularTemplateParentProblem, templateParent } from './componentParents.js';
import { outletTemplatePowerPortProblem } from './powerComponentRules.js';

export const poweroutlettemplate: ModelDefinition = {
  key: 'dcim.poweroutlettemplate',
  app: 'dcim',
  model: 'poweroutlettemplate',
  path: 'power-outlet-templates',
  verboseName: 'power outlet template',
  verboseNamePlural: 'power outlet templates',
  fields: [
    ...identityFields,
    { name: 'device_type', type: 'fk', target: 'dcim.devicetype', onDelete: 'CASCADE', nullable: true, default: null },
    { name: 'module_type', type: 'fk', target: 'dcim.moduletype', onDelete: 'CASCADE', nullable: true, default: null },
    { name: 'name', type: 'string', required: true, maxLength: 64 },
    { name: 'label', type: 'string', blank: true, default: '', maxLength: 64 },
    { name: 'type', type: 'choice', blank: true, emptyAsNull: true, default: '', choices: POWER_OUTLET_TYPE_CHOICES },
    {
      name: 'power_port',
      type: 'fk',
      target: 'dcim.powerporttemplate',
      onDelete: 'SET_NULL',
      nullable: true,
      default: null,
    },
    { name: 'feed_leg', type: 'choice', blank: true, emptyAsNull: true, default: '', choices: POWER_FEED_LEG_CHOICES },
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
    ...componentTemplateFilters,
    power_port_id: false,
    power_port: false,
  },
  hooks: {
    display: nameWithLabel,
    derive: (obj) => ({ _name: naturalSortKey(obj.name) }),
    validate: async (obj, view, previous) =>
      modularTemplateParentProblem(obj, previous) ?? (await outletTemplatePowerPortProblem(obj, view)),
    relatedObject: templateParent,
  },
};
