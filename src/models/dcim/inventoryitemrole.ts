// Field facts come from NetBox 3.4's REST API reference (scripts/import-reference.ts); hooks are hand-written.
import { countField } from '../commonFields.js';
import { organizationalModel } from '../organizationalModel.js';

export const inventoryitemrole = organizationalModel({
  key: 'dcim.inventoryitemrole',
  path: 'inventory-item-roles',
  verboseName: 'inventory item role',
  fields: [{ name: 'color', type: 'string', default: '9e9e9e', maxLength: 6, pattern: '^[0-9a-f]{6}$' }],
  counts: [countField('inventoryitem_count', 'dcim.inventoryitem', 'role')],
  brief: ['id', 'url', 'display', 'name', 'slug', 'inventoryitem_count'],
});
