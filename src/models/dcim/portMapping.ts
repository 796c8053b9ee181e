import type { FieldErrors } from '../../errors/fieldErrors.js';
import { fieldError, nameWithLabel, related } from '../hooks.js';
import type { LookupView } from '../lookupView.js';
import type { StoredObject } from '../storedObject.js';

/** A front port maps to one position of a rear port of its own device. */
export async function frontPortMappingProblem(obj: StoredObject, view: LookupView): Promise<FieldErrors | undefined> {
  const rear = await related(view, 'dcim.rearport', obj.rear_port);
  if (!rear) return undefined;
  if (rear.device !== obj.device) {
    return fieldError('rear_port', `Rear port (${nameWithLabel(rear)}) must belong to the same device`);
  }
  const position = Number(obj.rear_port_position);
  if (position > Number(rear.positions)) {
    return fieldError(
      'rear_port_position',
      `Invalid rear port position (${position}): Rear port ${String(rear.name)} has only ${String(rear.positions)} positions`,
    );
  }
  return undefined;
}

/** A front port template maps to one position of a rear port template of its own device type or module type. */
export async function frontPortTemplateMappingProblem(
  obj: StoredObject,
  view: LookupView,
): Promise<FieldErrors | undefined> {
  const rear = await related(view, 'dcim.rearporttemplate', obj.rear_port);
  if (!rear) return undefined;
  if ((rear.device_type ?? null) !== (obj.device_type ?? null)) {
    return fieldError('__all__', `Rear port (${nameWithLabel(rear)}) must belong to the same device type`);
  }
  // NetBox compares only the device types, so two module types' templates would pass there.
  if ((rear.module_type ?? null) !== (obj.module_type ?? null)) {
    return fieldError('__all__', `Rear port (${nameWithLabel(rear)}) must belong to the same module type`);
  }
  const position = Number(obj.rear_port_position);
  if (position > Number(rear.positions)) {
    return fieldError(
      '__all__',
      `Invalid rear port position (${position}); rear port ${String(rear.name)} has only ${String(rear.positions)} positions`,
    );
  }
  return undefined;
}

/**
 * A rear port (or template) keeps at least as many positions as front ports map to it, and no
 * fewer than the highest position one of them uses (NetBox checks only the count, which lets a
 * front port keep a position the rear port no longer has).
 */
export async function rearPortPositionsProblem(
  frontModel: 'dcim.frontport' | 'dcim.frontporttemplate',
  obj: StoredObject,
  view: LookupView,
  previous: StoredObject | null,
): Promise<FieldErrors | undefined> {
  if (!previous) return undefined;
  const positions = Number(obj.positions);
  const fronts = await view.find(frontModel, { rear_port: obj.id });
  if (positions < fronts.length) {
    return fieldError(
      'positions',
      `The number of positions cannot be less than the number of mapped front ports (${fronts.length})`,
    );
  }
  const highest = Math.max(0, ...fronts.map((front) => Number(front.rear_port_position)));
  if (positions < highest) {
    return fieldError(
      'positions',
      `The number of positions cannot be less than the highest mapped position (${highest})`,
    );
  }
  return undefined;
}
