// Field facts come from NetBox 3.4's REST API reference (scripts/import-reference.ts); hooks are hand-written.
import { assetTagField, changeLoggedFields, depthField, descriptionField, identityFields } from '../commonFields.js';
import { pairFilters, siteScopeFilters } from '../filterSpecs.js';
import { nameWithLabel, treeDepth } from '../hooks.js';
import type { ModelDefinition } from '../types.js';
import { naturalSortKey } from '../values/naturalSortKey.js';
import { deviceParent } from './componentParents.js';
import {
  componentField,
  dropForeignComponent,
  INVENTORY_COMPONENT_TYPES,
  inventoryItemProblem,
} from './inventoryItems.js';

export const inventoryitem: ModelDefinition = {
  key: 'dcim.inventoryitem',
  app: 'dcim',
  model: 'inventoryitem',
  path: 'inventory-items',
  verboseName: 'inventory item',
  verboseNamePlural: 'inventory items',
  fields: [
    ...identityFields,
    { name: 'device', type: 'fk', target: 'dcim.device', onDelete: 'CASCADE', required: true },
    {
      name: 'parent',
      type: 'fk',
      target: 'dcim.inventoryitem',
      onDelete: 'CASCADE',
      representation: 'id',
      nullable: true,
      default: null,
    },
    { name: 'name', type: 'string', required: true, maxLength: 64 },
    { name: 'label', type: 'string', blank: true, default: '', maxLength: 64 },
    { name: 'role', type: 'fk', target: 'dcim.inventoryitemrole', onDelete: 'PROTECT', nullable: true, default: null },
    {
      name: 'manufacturer',
      type: 'fk',
      target: 'dcim.manufacturer',
      onDelete: 'PROTECT',
      nullable: true,
      default: null,
    },
    { name: 'part_id', type: 'string', blank: true, default: '', maxLength: 50 },
    { name: 'serial', type: 'string', blank: true, default: '', maxLength: 50 },
    assetTagField,
    { name: 'discovered', type: 'boolean', default: false },
    descriptionField,
    {
      name: 'component_type',
      type: 'content_type',
      allowedTypes: INVENTORY_COMPONENT_TYPES,
      nullable: true,
      default: null,
    },
    { name: 'component_id', type: 'integer', nullable: true, default: null, min: 0, max: 9223372036854776000 },
    componentField(INVENTORY_COMPONENT_TYPES),
    ...changeLoggedFields,
    depthField,
  ],
  brief: ['id', 'url', 'display', 'device', 'name', '_depth'],
  ordering: ['device', 'parent', '_name', 'id'],
  // NetBox: ('device__id', 'parent__id', '_name')
  idOrderedRelations: ['device', 'parent'],
  search: ['name', 'part_id', 'serial', 'asset_tag', 'description'],
  unique: [{ fields: ['device', 'parent', 'name'] }],
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
    role: { kind: 'related', target: 'dcim.inventoryitemrole', by: 'slug', path: ['role'] },
    parent: false,
  },
  hooks: {
    display: nameWithLabel,
    derive: (obj) => ({ _name: naturalSortKey(obj.name) }),
    validate: (obj, view, previous) => inventoryItemProblem(obj, view, previous),
    beforeSave: dropForeignComponent,
    relatedObject: deviceParent,
    compute: { _depth: treeDepth('dcim.inventoryitem') },
  },
};
