// Field facts come from NetBox 3.4's REST API reference (scripts/import-reference.ts); hooks are hand-written.
import { changeLoggedFields, descriptionField, identityFields } from '../commonFields.js';
import { BEYOND_NETBOX, pairFilters, siteScopeFilters } from '../filterSpecs.js';
import { nameWithLabel } from '../hooks.js';
import type { ModelDefinition } from '../types.js';
import { naturalSortKey } from '../values/naturalSortKey.js';
import { cabledObjectFilters } from './cabledObjectFilters.js';
import { cableEndFields, occupiedField } from './cableFields.js';
import { pathsView } from './cabling/traceViews.js';
import { PORT_TYPE_CHOICES } from './choices.js';
import { componentMoveProblem, deviceParent, markedWhileCabledProblem } from './componentParents.js';
import { frontPortMappingProblem } from './portMapping.js';

export const frontport: ModelDefinition = {
  key: 'dcim.frontport',
  app: 'dcim',
  model: 'frontport',
  path: 'front-ports',
  verboseName: 'front port',
  verboseNamePlural: 'front ports',
  fields: [
    ...identityFields,
    { name: 'device', type: 'fk', target: 'dcim.device', onDelete: 'CASCADE', required: true },
    { name: 'module', type: 'fk', target: 'dcim.module', onDelete: 'CASCADE', nullable: true, default: null },
    { name: 'name', type: 'string', required: true, maxLength: 64 },
    { name: 'label', type: 'string', blank: true, default: '', maxLength: 64 },
    { name: 'type', type: 'choice', required: true, choices: PORT_TYPE_CHOICES },
    { name: 'color', type: 'string', blank: true, default: '', maxLength: 6, pattern: '^[0-9a-f]{6}$' },
    { name: 'rear_port', type: 'fk', target: 'dcim.rearport', onDelete: 'CASCADE', required: true },
    { name: 'rear_port_position', type: 'integer', default: 1, min: 1, max: 1024 },
    descriptionField,
    { name: 'mark_connected', type: 'boolean', default: false },
    ...cableEndFields,
    ...changeLoggedFields,
    occupiedField,
  ],
  brief: ['id', 'url', 'display', 'device', 'name', 'cable', '_occupied'],
  // NetBox orders device by its own ordering; here by id
  ordering: ['device', '_name', 'id'],
  search: ['name', 'label', 'description'],
  unique: [{ fields: ['device', 'name'] }, { fields: ['rear_port', 'rear_port_position'] }],
  filters: {
    rear_port_position: BEYOND_NETBOX,
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
    ...cabledObjectFilters,
    // NetBox does not filter front ports by rear port: the parameter is ignored (the collection's front port module sends it)
    rear_port: false,
    rear_port_id: false,
  },
  detailViews: [pathsView],
  hooks: {
    display: nameWithLabel,
    derive: (obj) => ({ _name: naturalSortKey(obj.name) }),
    validate: async (obj, view, previous) =>
      componentMoveProblem(obj, previous) ?? markedWhileCabledProblem(obj) ?? frontPortMappingProblem(obj, view),
    relatedObject: deviceParent,
  },
};
