/**
 * The interfaces a device's primary addresses (and its VDCs') may sit on: the device's
 * own, and, when it is a virtual chassis member, every other member's interfaces that
 * are not management-only.
 */
import { related } from '../hooks.js';
import type { LookupView } from '../lookupView.js';
import type { StoredObject } from '../storedObject.js';

/** The address is assigned to an interface of the device or, outside management, of another member of its chassis. */
export async function onDeviceOrChassis(
  address: StoredObject | null,
  device: StoredObject,
  view: LookupView,
): Promise<boolean> {
  if (!address || address.assigned_object_type !== 'dcim.interface') return false;
  const iface = await related(view, 'dcim.interface', address.assigned_object_id);
  if (!iface) return false;
  if (iface.device === device.id) return true;
  if (device.virtual_chassis == null || iface.mgmt_only === true) return false;
  const owner = await related(view, 'dcim.device', iface.device);
  return owner?.virtual_chassis === device.virtual_chassis;
}
