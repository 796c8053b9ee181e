/**
 * What a wireless link asks of its two interfaces and does to them (NetBox's
 * WirelessLink.clean and save, and the signal that keeps each interface's
 * `wireless_link`): both must be radios; each interface names the link it is on, set as
 * the link is created or moved and cleared from an interface it leaves (deleting the link
 * clears it through the interface's SET_NULL reference). Recorded as events of the link's
 * request, so history, revert and replay see the interfaces change with the link.
 */
import type { FieldErrors } from '../../errors/fieldErrors.js';
import type { DecidedChange, FollowUpCommand } from '../compositeWrites.js';
import { INTERFACE_TYPE_CHOICES, WIRELESS_INTERFACE_TYPES } from '../dcim/choices.js';
import { fieldError, refId, related } from '../hooks.js';
import type { LookupView } from '../lookupView.js';
import type { StoredObject } from '../storedObject.js';

const INTERFACE = 'dcim.interface';
const ENDS = ['interface_a', 'interface_b'] as const;

function typeLabel(type: unknown): string {
  return INTERFACE_TYPE_CHOICES.find((c) => c.value === type)?.label ?? String(type);
}

/** Both ends must be wireless interfaces. */
export async function wirelessLinkProblem(obj: StoredObject, view: LookupView): Promise<FieldErrors | void> {
  for (const end of ENDS) {
    const iface = await related(view, INTERFACE, obj[end]);
    if (iface && !WIRELESS_INTERFACE_TYPES.has(String(iface.type))) {
      // NetBox 3.4 reports either end's wrong type under interface_a.
      return fieldError('interface_a', `${typeLabel(iface.type)} is not a wireless interface.`);
    }
  }
}

/** Each end's device, kept for the cascade when a device is deleted. */
export async function recordInterfaceDevices(obj: StoredObject, view: LookupView): Promise<void> {
  for (const end of ENDS) {
    const iface = await related(view, INTERFACE, obj[end]);
    obj[`${end}_device`] = refId(iface?.device);
  }
}

export async function wirelessEndFollowUps(
  { obj, previous }: DecidedChange,
  view: LookupView,
): Promise<FollowUpCommand[]> {
  const now = new Set(ENDS.map((end) => refId(obj[end])).filter((id): id is number => id !== null));
  const before = new Set(
    previous ? ENDS.map((end) => refId(previous[end])).filter((id): id is number => id !== null) : [],
  );
  const commands: FollowUpCommand[] = [];
  for (const id of before) {
    if (now.has(id)) continue;
    const iface = await view.get(INTERFACE, id);
    if (iface && iface.wireless_link === obj.id)
      commands.push({ kind: 'set', model: INTERFACE, id, values: { wireless_link: null } });
  }
  for (const id of now) {
    const iface = await view.get(INTERFACE, id);
    if (iface && iface.wireless_link !== obj.id)
      commands.push({ kind: 'set', model: INTERFACE, id, values: { wireless_link: obj.id } });
  }
  return commands;
}
