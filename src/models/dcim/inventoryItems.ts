import type { FieldErrors } from '../../errors/fieldErrors.js';
import type { FieldDefinition } from '../fieldDefinition.js';
import { fieldError, refId, treeParentErrors } from '../hooks.js';
import type { LookupView } from '../lookupView.js';
import type { StoredObject } from '../storedObject.js';

/** The components an inventory item may be assigned to. */
export const INVENTORY_COMPONENT_TYPES = [
  'dcim.consoleport',
  'dcim.consoleserverport',
  'dcim.frontport',
  'dcim.interface',
  'dcim.poweroutlet',
  'dcim.powerport',
  'dcim.rearport',
];

/** The components an inventory item template may be assigned to. */
export const INVENTORY_COMPONENT_TEMPLATE_TYPES = [
  'dcim.consoleporttemplate',
  'dcim.consoleserverporttemplate',
  'dcim.frontporttemplate',
  'dcim.interfacetemplate',
  'dcim.poweroutlettemplate',
  'dcim.powerporttemplate',
  'dcim.rearporttemplate',
];

/** An item's (or template's) parent in its tree, rendered as its id: deleting an item deletes its subtree. */
export function inventoryParentField(model: string): FieldDefinition {
  return {
    name: 'parent',
    type: 'fk',
    target: model,
    onDelete: 'CASCADE',
    representation: 'id',
    nullable: true,
    default: null,
    relatedName: 'child_items',
  };
}

/** What an item (or template) is: its role, its manufacturer and part number. */
export const partFields: FieldDefinition[] = [
  { name: 'role', type: 'fk', target: 'dcim.inventoryitemrole', onDelete: 'PROTECT', nullable: true, default: null },
  { name: 'manufacturer', type: 'fk', target: 'dcim.manufacturer', onDelete: 'PROTECT', nullable: true, default: null },
  { name: 'part_id', type: 'string', blank: true, default: '', maxLength: 50 },
];

/**
 * The component (or component template) an item is assigned to, of `targets`: its type and
 * id, and the nested component they name (deleting the component deletes the item, as
 * NetBox's generic relation does).
 */
export function inventoryComponentFields(targets: string[]): FieldDefinition[] {
  return [
    { name: 'component_type', type: 'content_type', allowedTypes: targets, nullable: true, default: null },
    { name: 'component_id', type: 'integer', nullable: true, default: null, min: 0, max: 9223372036854776000 },
    {
      name: 'component',
      type: 'generic_fk',
      readOnly: true,
      nullable: true,
      typeField: 'component_type',
      idField: 'component_id',
      targets,
    },
  ];
}

async function componentOf(obj: StoredObject, view: LookupView): Promise<StoredObject | null> {
  const id = refId(obj.component_id);
  return typeof obj.component_type === 'string' && id !== null ? view.get(obj.component_type, id) : null;
}

/**
 * An item's tree stays on one device: its parent is neither itself nor one of its
 * descendants and is on the same device; an item with children does not move to another
 * device; a new item's component is on its device.
 */
export async function inventoryItemProblem(
  obj: StoredObject,
  view: LookupView,
  previous: StoredObject | null,
): Promise<FieldErrors | undefined> {
  if (obj.parent != null && obj.parent === obj.id) return fieldError('parent', 'Cannot assign self as parent.');
  const cycle = await treeParentErrors('dcim.inventoryitem', 'inventory item', obj, view);
  if (cycle) return cycle;
  const parent = refId(obj.parent) === null ? null : await view.get('dcim.inventoryitem', refId(obj.parent)!);
  // NetBox checks this on updates only; a new item under another device's item would split the tree too.
  if (parent && parent.device !== obj.device) {
    return fieldError('parent', 'Parent inventory item does not belong to the same device.');
  }
  if (previous) {
    const [child] = await view.find('dcim.inventoryitem', { parent: obj.id }, 1);
    if (child && child.device !== obj.device)
      return fieldError('__all__', 'Cannot move an inventory item with dependent children');
    return undefined;
  }
  const component = await componentOf(obj, view);
  if (component && component.device !== obj.device) {
    return fieldError('device', 'Cannot assign inventory item to component on another device');
  }
  return undefined;
}

/** An item moved to another device lets go of a component left on the old one. */
export async function dropForeignComponent(
  obj: StoredObject,
  view: LookupView,
  change: { previous: StoredObject | null },
): Promise<void> {
  if (!change.previous) return;
  const component = await componentOf(obj, view);
  if (component && component.device !== obj.device) {
    obj.component_type = null;
    obj.component_id = null;
  }
}

/** A template's tree stays on one device type (NetBox does not check this; a split tree could not be instantiated). */
export async function inventoryItemTemplateProblem(
  obj: StoredObject,
  view: LookupView,
): Promise<FieldErrors | undefined> {
  const cycle = await treeParentErrors('dcim.inventoryitemtemplate', 'inventory item template', obj, view);
  if (cycle) return cycle;
  const parent = refId(obj.parent) === null ? null : await view.get('dcim.inventoryitemtemplate', refId(obj.parent)!);
  if (parent && parent.device_type !== obj.device_type) {
    return fieldError('parent', 'Parent inventory item template does not belong to the same device type.');
  }
  // NetBox does not check that the component template is of the same device type; neither does this.
  return undefined;
}
