/** What a cable may connect (NetBox 3.4's Cable.clean and CableTermination.clean), first failing rule wins. */
import type { FieldErrors } from '../../../errors/fieldErrors.js';
import type { GenericListItem } from '../../fieldDefinition.js';
import { fieldError } from '../../hooks.js';
import type { LookupView } from '../../lookupView.js';
import type { StoredObject } from '../../storedObject.js';
import { INTERFACE_TYPE_CHOICES, VIRTUAL_INTERFACE_TYPES, WIRELESS_INTERFACE_TYPES } from '../choices.js';
import { COMPATIBLE_TERMINATION_TYPES } from './terminationTypes.js';

/** Interface types that carry no cable: virtual ones and wireless ones. */
export const NONCONNECTABLE_INTERFACE_TYPES = new Set([...VIRTUAL_INTERFACE_TYPES, ...WIRELESS_INTERFACE_TYPES]);

export function terminationsOf(obj: StoredObject | null, end: 'A' | 'B'): GenericListItem[] {
  const value = obj?.[end === 'A' ? 'a_terminations' : 'b_terminations'];
  return Array.isArray(value) ? (value as GenericListItem[]) : [];
}

function sameItems(a: GenericListItem[], b: GenericListItem[]): boolean {
  const key = (i: GenericListItem) => `${i.object_type}:${i.object_id}`;
  const left = new Set(a.map(key));
  return a.length === b.length && b.every((i) => left.has(key(i)));
}

const modelName = (type: string) => type.slice(type.indexOf('.') + 1);
const all = (message: string) => fieldError('__all__', message);

export async function cableProblem(
  obj: StoredObject,
  view: LookupView,
  previous: StoredObject | null,
): Promise<FieldErrors | undefined> {
  if (obj.length !== null && obj.length !== undefined && !obj.length_unit)
    return all('Must specify a unit when setting a cable length');
  const a = terminationsOf(obj, 'A');
  const b = terminationsOf(obj, 'B');
  if (!previous && (a.length === 0 || b.length === 0))
    return all('Must define A and B terminations when creating a new cable.');
  const modified =
    !previous || !sameItems(a, terminationsOf(previous, 'A')) || !sameItems(b, terminationsOf(previous, 'B'));
  if (!modified) return undefined;
  for (const end of [a, b]) {
    if (end.some((t) => t.object_type !== end[0].object_type))
      return all('Cannot connect different termination types to same end of cable.');
  }
  for (const end of [a, b]) {
    if (new Set(await Promise.all(end.map((t) => parentOf(view, t)))).size > 1) {
      return all('All terminations on one end of a cable must belong to the same parent object.');
    }
  }
  if (a.length && b.length) {
    const [aType, bType] = [modelName(a[0].object_type), modelName(b[0].object_type)];
    if (!(COMPATIBLE_TERMINATION_TYPES[aType] ?? []).includes(bType))
      return all(`Incompatible termination types: ${aType} and ${bType}`);
  }
  const seen = new Set<string>();
  for (const item of [...a, ...b]) {
    const key = `${item.object_type}:${item.object_id}`;
    const termination = await view.get(item.object_type, item.object_id);
    const holder = termination?.cable;
    if (seen.has(key) || (typeof holder === 'number' && holder !== obj.id)) {
      return all(
        `Duplicate termination found for ${item.object_type} ${item.object_id}: cable ${seen.has(key) ? obj.id : String(holder)}`,
      );
    }
    seen.add(key);
    const problem = terminationProblem(item.object_type, termination);
    if (problem) return problem;
  }
  return undefined;
}

function terminationProblem(type: string, termination: StoredObject | null): FieldErrors | undefined {
  if (!termination) return undefined;
  if (type === 'dcim.interface' && NONCONNECTABLE_INTERFACE_TYPES.has(String(termination.type))) {
    const label = INTERFACE_TYPE_CHOICES.find((c) => c.value === termination.type)?.label ?? String(termination.type);
    return all(`Cables cannot be terminated to ${label} interfaces`);
  }
  if (type === 'circuits.circuittermination' && termination.provider_network != null) {
    return all('Circuit terminations attached to a provider network may not be cabled.');
  }
  return undefined;
}

/**
 * The object a termination belongs to (a component's device, a feed's power panel, a
 * circuit termination's circuit): a path's origins share one, so NetBox's tracing
 * assumes it; this service refuses a cable end that breaks it.
 */
async function parentOf(view: LookupView, item: GenericListItem): Promise<string> {
  const obj = await view.get(item.object_type, item.object_id);
  if (!obj) return 'missing';
  if (item.object_type === 'dcim.powerfeed') return `panel:${String(obj.power_panel)}`;
  if (item.object_type === 'circuits.circuittermination') return `circuit:${String(obj.circuit)}`;
  return `device:${String(obj.device)}`;
}
