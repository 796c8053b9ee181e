// Field facts come from NetBox 3.4's REST API reference (scripts/import-reference.ts); hooks are hand-written.
import { depthField, descriptionField, identityFields } from '../commonFields.js';
import { nameWithLabel, treeDepth } from '../hooks.js';
import type { ModelDefinition } from '../types.js';
import { naturalSortKey } from '../values/naturalSortKey.js';
import { templateMoveProblem, templateParent } from './componentParents.js';
import { componentField, INVENTORY_COMPONENT_TEMPLATE_TYPES, inventoryItemTemplateProblem } from './inventoryItems.js';

export const inventoryitemtemplate: ModelDefinition = {
  key: 'dcim.inventoryitemtemplate',
  app: 'dcim',
  model: 'inventoryitemtemplate',
  path: 'inventory-item-templates',
  verboseName: 'inventory item template',
  verboseNamePlural: 'inventory item templates',
  fields: [
    ...identityFields,
    { name: 'device_type', type: 'fk', target: 'dcim.devicetype', onDelete: 'CASCADE', required: true },
    {
      name: 'parent',
      type: 'fk',
      target: 'dcim.inventoryitemtemplate',
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
    descriptionField,
    {
      name: 'component_type',
      type: 'content_type',
      allowedTypes: INVENTORY_COMPONENT_TEMPLATE_TYPES,
      nullable: true,
      default: null,
    },
    { name: 'component_id', type: 'integer', nullable: true, default: null, min: 0, max: 9223372036854776000 },
    componentField(INVENTORY_COMPONENT_TEMPLATE_TYPES),
    { name: 'created', type: 'date', readOnly: true, nullable: true },
    { name: 'last_updated', type: 'datetime', readOnly: true, nullable: true },
    depthField,
  ],
  brief: ['id', 'url', 'display', 'name', '_depth'],
  ordering: ['device_type', 'parent', '_name', 'id'],
  // NetBox: ('device_type__id', 'parent__id', '_name')
  idOrderedRelations: ['device_type', 'parent'],
  search: ['name', 'part_id', 'description'],
  unique: [{ fields: ['device_type', 'parent', 'name'] }],
  filters: {
    devicetype_id: { kind: 'related', target: 'dcim.devicetype', path: ['device_type'] },
    role: { kind: 'related', target: 'dcim.inventoryitemrole', by: 'slug', path: ['role'] },
    device_type_id: false,
    device_type: false,
    parent: false,
  },
  hooks: {
    display: nameWithLabel,
    derive: (obj) => ({ _name: naturalSortKey(obj.name) }),
    validate: async (obj, view, previous) =>
      templateMoveProblem(obj, previous) ?? inventoryItemTemplateProblem(obj, view),
    relatedObject: templateParent,
    compute: { _depth: treeDepth('dcim.inventoryitemtemplate') },
  },
};
