// Field facts come from NetBox 3.4's REST API reference (scripts/import-reference.ts); hooks are hand-written.
import { depthField } from '../commonFields.js';
import { treeDepth } from '../hooks.js';
import { componentTemplateModel } from './componentTemplateModel.js';
import {
  INVENTORY_COMPONENT_TEMPLATE_TYPES,
  inventoryComponentFields,
  inventoryItemTemplateProblem,
  inventoryParentField,
  partFields,
} from './inventoryItems.js';

export const inventoryitemtemplate = componentTemplateModel({
  key: 'dcim.inventoryitemtemplate',
  path: 'inventory-item-templates',
  verboseName: 'inventory item template',
  beforeName: [inventoryParentField('dcim.inventoryitemtemplate')],
  fields: partFields,
  afterDescription: inventoryComponentFields(INVENTORY_COMPONENT_TEMPLATE_TYPES),
  last: [depthField],
  brief: ['id', 'url', 'display', 'name', '_depth'],
  ordering: ['device_type', 'parent', '_name', 'id'],
  // NetBox: ('device_type__id', 'parent__id', '_name')
  idOrderedRelations: ['device_type', 'parent'],
  search: ['name', 'part_id', 'description'],
  unique: [{ fields: ['device_type', 'parent', 'name'] }],
  filters: {
    role: { kind: 'related', target: 'dcim.inventoryitemrole', by: 'slug', path: ['role'] },
    parent: false,
  },
  rule: inventoryItemTemplateProblem,
  hooks: { compute: { _depth: treeDepth('dcim.inventoryitemtemplate') } },
});
