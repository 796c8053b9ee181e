/**
 * Rules shared by device components (console ports, power ports, ...) and their templates
 * on device types / module types: the checks NetBox's component models make on save.
 */
import type { FieldErrors, LookupView, StoredObject } from '../types.js';
import { fieldError, nameWithLabel, related } from '../hooks.js';

/** A component stays on the device it was created on. */
export function componentMoveProblem(obj: StoredObject, previous: StoredObject | null): FieldErrors | void {
  if (previous && previous.device !== obj.device) {
    return fieldError('device', 'Components cannot be moved to a different device.');
  }
}

/**
 * A template stays on its device type, and belongs to exactly one of a device type or a
 * module type (the move is checked first, as NetBox's base class does).
 */
export function templateParentProblem(obj: StoredObject, previous: StoredObject | null): FieldErrors | void {
  if (previous && previous.device_type !== obj.device_type) {
    return fieldError('device_type', 'Component templates cannot be moved to a different device type.');
  }
  const onDeviceType = obj.device_type != null;
  const onModuleType = obj.module_type != null;
  if (onDeviceType && onModuleType) {
    return fieldError('__all__', 'A component template cannot be associated with both a device type and a module type.');
  }
  if (!onDeviceType && !onModuleType) {
    return fieldError('__all__', 'A component template must be associated with either a device type or a module type.');
  }
}

/** A power port (or its template) cannot have more allocated than its maximum draw. */
export function drawProblem(obj: StoredObject): FieldErrors | void {
  const maximum = obj.maximum_draw;
  const allocated = obj.allocated_draw;
  if (typeof maximum === 'number' && typeof allocated === 'number' && allocated > maximum) {
    return fieldError('allocated_draw', `Allocated draw cannot exceed the maximum draw (${maximum}W).`);
  }
}

/** An outlet's power port is one of the same device's power ports. */
export async function outletPowerPortProblem(obj: StoredObject, view: LookupView): Promise<FieldErrors | void> {
  const port = await related(view, 'dcim.powerport', obj.power_port);
  if (port && port.device !== obj.device) {
    return fieldError('__all__', `Parent power port (${nameWithLabel(port)}) must belong to the same device`);
  }
}

/** An outlet template's power port template is one of the same device type's (or module type's). */
export async function outletTemplatePowerPortProblem(obj: StoredObject, view: LookupView): Promise<FieldErrors | void> {
  const port = await related(view, 'dcim.powerporttemplate', obj.power_port);
  if (!port) return;
  if (obj.device_type != null && port.device_type !== obj.device_type) {
    return fieldError('__all__', `Parent power port (${nameWithLabel(port)}) must belong to the same device type`);
  }
  if (obj.module_type != null && port.module_type !== obj.module_type) {
    return fieldError('__all__', `Parent power port (${nameWithLabel(port)}) must belong to the same module type`);
  }
}

/** The device a component belongs to, for its change records. */
export function componentRelatedObject(obj: StoredObject): { type: string; id: number } | null {
  return typeof obj.device === 'number' ? { type: 'dcim.device', id: obj.device } : null;
}

/** The device type (or else module type) a template belongs to, for its change records. */
export function templateRelatedObject(obj: StoredObject): { type: string; id: number } | null {
  if (typeof obj.device_type === 'number') return { type: 'dcim.devicetype', id: obj.device_type };
  if (typeof obj.module_type === 'number') return { type: 'dcim.moduletype', id: obj.module_type };
  return null;
}
