// Field facts come from NetBox 3.4's REST API reference (scripts/import-reference.ts); hooks are hand-written.
import { changeLoggedFields, descriptionField, identityFields } from '../commonFields.js';
import { BEYOND_NETBOX, pairFilters, siteScopeFilters } from '../filterSpecs.js';
import { nameWithLabel } from '../hooks.js';
import type { ModelDefinition } from '../types.js';
import { naturalSortKey } from '../values/naturalSortKey.js';
import { componentMoveProblem, deviceParent } from './componentParents.js';
import { deviceBayProblem } from './deviceBays.js';

export const devicebay: ModelDefinition = {
  key: 'dcim.devicebay',
  app: 'dcim',
  model: 'devicebay',
  path: 'device-bays',
  verboseName: 'device bay',
  verboseNamePlural: 'device bays',
  fields: [
    ...identityFields,
    { name: 'device', type: 'fk', target: 'dcim.device', onDelete: 'CASCADE', required: true },
    { name: 'name', type: 'string', required: true, maxLength: 64 },
    { name: 'label', type: 'string', blank: true, default: '', maxLength: 64 },
    descriptionField,
    {
      name: 'installed_device',
      type: 'fk',
      target: 'dcim.device',
      onDelete: 'SET_NULL',
      oneToOne: true,
      nullable: true,
      default: null,
      unique: true,
    },
    ...changeLoggedFields,
  ],
  brief: ['id', 'url', 'display', 'device', 'name'],
  // NetBox orders device by its own ordering; here by id
  ordering: ['device', '_name', 'id'],
  search: ['name', 'label', 'description'],
  unique: [{ fields: ['device', 'name'] }],
  filters: {
    installed_device_id: BEYOND_NETBOX,
    installed_device: BEYOND_NETBOX,
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
    derive: (obj) => ({ _name: naturalSortKey(obj.name) }),
    validate: async (obj, view, previous) => componentMoveProblem(obj, previous) ?? deviceBayProblem(obj, view),
    relatedObject: deviceParent,
  },
};
