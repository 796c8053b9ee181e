import type { FieldErrors } from '../../errors/fieldErrors.js';
import { fieldError } from '../hooks.js';
import type { StoredObject } from '../storedObject.js';

/** A device component stays on the device it was created on. */
export function componentMoveProblem(obj: StoredObject, previous: StoredObject | null): FieldErrors | undefined {
  if (previous && previous.device !== obj.device) {
    return fieldError('device', 'Components cannot be moved to a different device.');
  }
  return undefined;
}

/** A template stays on the device type it was created on. */
export function templateMoveProblem(obj: StoredObject, previous: StoredObject | null): FieldErrors | undefined {
  if (previous && previous.device_type != null && previous.device_type !== obj.device_type) {
    return fieldError('device_type', 'Component templates cannot be moved to a different device type.');
  }
  return undefined;
}

/**
 * A template of a component a module can also have belongs to exactly one of a device type
 * and a module type (its name may hold '{module}', replaced by the module bay's position
 * when a module is installed).
 */
export function modularTemplateParentProblem(
  obj: StoredObject,
  previous: StoredObject | null,
): FieldErrors | undefined {
  const moved = templateMoveProblem(obj, previous);
  if (moved) return moved;
  if (obj.device_type != null && obj.module_type != null) {
    return fieldError(
      '__all__',
      'A component template cannot be associated with both a device type and a module type.',
    );
  }
  if (obj.device_type == null && obj.module_type == null) {
    return fieldError('__all__', 'A component template must be associated with either a device type or a module type.');
  }
  return undefined;
}

/** The object change records of a component name its device. */
export function deviceParent(obj: StoredObject): { type: string; id: number } | null {
  return typeof obj.device === 'number' ? { type: 'dcim.device', id: obj.device } : null;
}

/** The object change records of a template name its device type, else its module type. */
export function templateParent(obj: StoredObject): { type: string; id: number } | null {
  if (typeof obj.device_type === 'number') return { type: 'dcim.devicetype', id: obj.device_type };
  if (typeof obj.module_type === 'number') return { type: 'dcim.moduletype', id: obj.module_type };
  return null;
}

/** A cabled object cannot also be marked connected (NetBox's CabledObjectModel.clean). */
export function markedWhileCabledProblem(obj: StoredObject): FieldErrors | undefined {
  if (obj.mark_connected === true && obj.cable != null)
    return fieldError('mark_connected', 'Cannot mark as connected with a cable attached.');
  return undefined;
}
