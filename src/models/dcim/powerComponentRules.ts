/**
 * The power rules of NetBox's power ports and outlets and their templates: draw limits and
 * an outlet's power port on the same parent.
 */
import type { FieldErrors } from '../../errors/fieldErrors.js';
import { fieldError, nameWithLabel, related } from '../hooks.js';
import type { LookupView } from '../lookupView.js';
import type { StoredObject } from '../storedObject.js';

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
