/**
 * Small building blocks shared by the hand-written model hooks.
 */
import type { FieldErrors } from '../errors/fieldErrors.js';
import type { LookupView } from './lookupView.js';
import type { ModelHooks } from './modelHooks.js';
import type { StoredObject } from './storedObject.js';

/** A value as Python's str() would interpolate it into a NetBox message (null -> 'None'). */
export function pyStr(value: unknown): string {
  if (value === null || value === undefined) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  return String(value);
}

/** A display hook rendering one attribute (e.g. name). */
export function displayAttribute(attribute: string): (obj: StoredObject) => string {
  return (obj) => {
    const value = obj[attribute];
    return value === null || value === undefined ? '' : String(value);
  };
}

/** str(component) of NetBox's device components: the name, followed by ' (<label>)' when a label is set. */
export function nameWithLabel(obj: StoredObject): string {
  return obj.label ? `${pyStr(obj.name)} (${String(obj.label)})` : pyStr(obj.name);
}

/** A display hook rendering one attribute when it is set, else '#<id>' (e.g. a cable's label). */
export function attributeOrNumber(attribute: string): (obj: StoredObject) => string {
  return (obj) => {
    const value = obj[attribute];
    return value === null || value === undefined || value === '' ? `#${obj.id}` : String(value);
  };
}

/** The id held by a foreign-key attribute, or null. */
export function refId(value: unknown): number | null {
  return typeof value === 'number' && Number.isInteger(value) ? value : null;
}

/** The object an fk attribute points to (null when unset or missing). */
export async function related(view: LookupView, model: string, value: unknown): Promise<StoredObject | null> {
  const id = refId(value);
  return id === null ? null : view.get(model, id);
}

const MAX_TREE_DEPTH = 1000;

/** A tree node's ancestors, nearest first, following `parent` (stops at a cycle or a missing node). */
export async function ancestors(model: string, obj: StoredObject, view: LookupView): Promise<StoredObject[]> {
  const found: StoredObject[] = [];
  const seen = new Set<number>([obj.id]);
  let next = refId(obj.parent);
  while (next !== null && !seen.has(next) && found.length < MAX_TREE_DEPTH) {
    seen.add(next);
    const node = await view.get(model, next);
    if (!node) break;
    found.push(node);
    next = refId(node.parent);
  }
  return found;
}

/** compute hook for a tree's `_depth`: the number of ancestors (0 for a root). */
export function treeDepth(model: string): (obj: StoredObject, view: LookupView) => Promise<number> {
  return async (obj, view) => (await ancestors(model, obj, view)).length;
}

/** NetBox's nested-group rule: the parent may not be the node itself or one of its descendants. */
export async function treeParentErrors(
  model: string,
  verboseName: string,
  obj: StoredObject,
  view: LookupView,
): Promise<FieldErrors | undefined> {
  const parent = refId(obj.parent);
  if (parent === null) return undefined;
  const message = { parent: [`Cannot assign self or child ${verboseName} as parent.`] };
  if (parent === obj.id) return message;
  let next: number | null = parent;
  const seen = new Set<number>();
  while (next !== null && !seen.has(next) && seen.size < MAX_TREE_DEPTH) {
    seen.add(next);
    const node = await view.get(model, next);
    if (!node) return undefined;
    next = refId(node.parent);
    if (next === obj.id) return message;
  }
  return undefined;
}

/** The display of a named object as NetBox interpolates it ('None' when absent). */
export function nameOf(obj: StoredObject | null): string {
  return obj ? pyStr(obj.name) : 'None';
}

/** A single validation error; '__all__' for errors not tied to one field. */
export function fieldError(field: string, message: string): FieldErrors {
  return { [field]: [message] };
}

/** The hooks a plain named tree node needs beyond the default display by name: no cycles, depth. */
export function treeNodeHooks(model: string, verboseName: string): ModelHooks {
  return {
    validate: (obj, view) => treeParentErrors(model, verboseName, obj, view),
    compute: { _depth: treeDepth(model) },
  };
}
