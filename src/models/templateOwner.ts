import { fieldError } from './hooks.js';
import type { FieldErrors, StoredObject } from './types.js';

/** A component template belongs to a device type or to a module type, never both nor neither. */
export async function exactlyOneOwner(obj: StoredObject, _view: unknown, previous: StoredObject | null): Promise<FieldErrors | void> {
  const hasDeviceType = obj.device_type != null;
  const hasModuleType = obj.module_type != null;
  if (hasDeviceType && hasModuleType) return fieldError('__all__', 'A component template cannot be associated with both a device type and a module type.');
  if (!hasDeviceType && !hasModuleType) return fieldError('__all__', 'A component template must be associated with either a device type or a module type.');
  if (previous && previous.device_type != null && previous.device_type !== obj.device_type) return fieldError('device_type', 'Component templates cannot be moved to a different device type.');
}
