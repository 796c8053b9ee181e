// Field facts come from NetBox 3.4's REST API reference (scripts/import-reference.ts); hooks are hand-written.
import { assetTagField, depthField } from '../commonFields.js';
import { treeDepth } from '../hooks.js';
import { deviceComponentModel } from './deviceComponentModel.js';
import {
  dropForeignComponent,
  INVENTORY_COMPONENT_TYPES,
  inventoryComponentFields,
  inventoryItemProblem,
  inventoryParentField,
  partFields,
} from './inventoryItems.js';

export const inventoryitem = deviceComponentModel({
  key: 'dcim.inventoryitem',
  path: 'inventory-items',
  verboseName: 'inventory item',
  beforeName: [inventoryParentField('dcim.inventoryitem')],
  fields: [
    ...partFields,
    { name: 'serial', type: 'string', blank: true, default: '', maxLength: 50 },
    assetTagField,
    { name: 'discovered', type: 'boolean', default: false },
  ],
  afterDescription: inventoryComponentFields(INVENTORY_COMPONENT_TYPES),
  last: [depthField],
  brief: ['id', 'url', 'display', 'device', 'name', '_depth'],
  ordering: ['device', 'parent', '_name', 'id'],
  // NetBox: ('device__id', 'parent__id', '_name')
  idOrderedRelations: ['device', 'parent'],
  search: ['name', 'part_id', 'serial', 'asset_tag', 'description'],
  unique: [{ fields: ['device', 'parent', 'name'] }],
  filters: {
    role: { kind: 'related', target: 'dcim.inventoryitemrole', by: 'slug', path: ['role'] },
    parent: false,
  },
  hooks: {
    // Items move between devices (letting go of their components, see dropForeignComponent): no shared move rule
    validate: inventoryItemProblem,
    beforeSave: dropForeignComponent,
    compute: { _depth: treeDepth('dcim.inventoryitem') },
  },
});
