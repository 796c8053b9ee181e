// Field facts come from NetBox 3.4's REST API reference (scripts/import-reference.ts); hooks are hand-written.
import { changeLoggedFields, descriptionField, identityFields } from '../commonFields.js';
import { pairFilters, siteScopeFilters } from '../filterSpecs.js';
import { nameWithLabel } from '../hooks.js';
import type { ModelDefinition } from '../types.js';
import { naturalSortKey } from '../values/naturalSortKey.js';
import { componentMoveProblem } from './componentParents.js';

export const modulebay: ModelDefinition = {
  key: 'dcim.modulebay',
  app: 'dcim',
  model: 'modulebay',
  path: 'module-bays',
  verboseName: 'module bay',
  verboseNamePlural: 'module bays',
  fields: [
    ...identityFields,
    { name: 'device', type: 'fk', target: 'dcim.device', onDelete: 'CASCADE', required: true },
    { name: 'name', type: 'string', required: true, maxLength: 64 },
    // Owned by the module's module_bay: a module is installed by creating it in the bay.
    {
      name: 'installed_module',
      type: 'reverse',
      target: 'dcim.module',
      via: 'module_bay',
      oneToOne: true,
      readOnly: true,
      nullable: true,
    },
    { name: 'label', type: 'string', blank: true, default: '', maxLength: 64 },
    { name: 'position', type: 'string', blank: true, default: '', maxLength: 30 },
    descriptionField,
    ...changeLoggedFields,
  ],
  brief: ['id', 'url', 'display', 'name'],
  // NetBox orders device by its own ordering; here by id
  ordering: ['device', '_name', 'id'],
  search: ['name', 'label', 'description'],
  unique: [{ fields: ['device', 'name'] }],
  filters: {
    ...siteScopeFilters(['device', 'site']),
    ...pairFilters('site_id', 'site', 'dcim.site', ['device', 'site']),
    ...pairFilters('location_id', 'location', 'dcim.location', ['device', 'location']),
    ...pairFilters('rack_id', 'rack', 'dcim.rack', ['device', 'rack'], 'name'),
    ...pairFilters(
      'virtual_chassis_id',
      'virtual_chassis',
      'dcim.virtualchassis',
      ['device', 'virtual_chassis'],
      'name',
    ),
  },
  hooks: {
    display: nameWithLabel,
    validate: async (obj, _view, previous) => componentMoveProblem(obj, previous),
    derive: (obj) => ({ _name: naturalSortKey(obj.name) }),
  },
};
