import type { FieldErrors } from '../../errors/fieldErrors.js';
import type { DecidedChange, FollowUpCommand } from '../compositeWrites.js';
import type { FieldDefinition } from '../fieldDefinition.js';
import { existingIds } from '../filterSpecs.js';
import type { FilterSpec } from '../filterTypes.js';
import { fieldError, nameWithLabel, pyStr, related } from '../hooks.js';
import type { LookupView } from '../lookupView.js';
import type { StoredObject } from '../storedObject.js';
import { invalidPk } from '../values/filterValues.js';

/** A device type houses child devices in bays only when its subdevice role is 'parent'. */
export async function deviceBayTemplateProblem(obj: StoredObject, view: LookupView): Promise<FieldErrors | undefined> {
  const type = await related(view, 'dcim.devicetype', obj.device_type);
  if (type && type.subdevice_role !== 'parent') {
    return fieldError(
      '__all__',
      `Subdevice role of device type (${pyStr(type.model)}) must be set to "parent" to allow device bays.`,
    );
  }
  return undefined;
}

/**
 * A bay is on a device of a parent type, never holds its own device, and holds a device
 * no other bay holds. NetBox's API does not require the installed device's type to be a
 * child type (only its web form offers child devices alone), so neither does this.
 */
export async function deviceBayProblem(obj: StoredObject, view: LookupView): Promise<FieldErrors | undefined> {
  const device = await related(view, 'dcim.device', obj.device);
  const type = device ? await related(view, 'dcim.devicetype', device.device_type) : null;
  if (type && type.subdevice_role !== 'parent') {
    return fieldError('__all__', `This type of device (${pyStr(type.model)}) does not support device bays.`);
  }
  if (obj.installed_device != null && obj.installed_device === obj.device) {
    return fieldError('__all__', 'Cannot install a device into itself.');
  }
  if (obj.installed_device != null) {
    const [current] = await view.find(
      'dcim.devicebay',
      { installed_device: obj.installed_device, id: { $ne: obj.id } },
      1,
    );
    if (current) {
      return fieldError(
        'installed_device',
        `Cannot install the specified device; device is already installed in ${nameWithLabel(current)}`,
      );
    }
  }
  return undefined;
}

/** A device's parent_device: the device whose bay holds it, with that bay as `device_bay`. */
export const parentDeviceField: FieldDefinition = {
  name: 'parent_device',
  type: 'computed',
  readOnly: true,
  nullable: true,
  value: null,
  heldBy: { model: 'dcim.devicebay', via: 'installed_device', parent: 'device', as: 'device_bay' },
};

/**
 * Devices installed in a bay of one of these devices (NetBox's ModelMultipleChoiceFilter on
 * `parent_bay__device`): an unknown device is a 400, 'null' selects the devices in no bay.
 */
export const parentDeviceIdFilter: FilterSpec = {
  kind: 'method',
  lookups: ['n'],
  async method(values, env) {
    const texts = values.map((v) => String(v).trim());
    const numbers = texts
      .filter((v) => v !== 'null')
      .map((v) => (/^\d+$/.test(v) ? Number(v) : env.invalid(invalidPk(v))));
    const parents = numbers.length ? await existingIds(env, 'dcim.device', 'id', numbers) : [];
    const installed = await env.find('dcim.devicebay', { installed_device: { $ne: null } });
    const wanted = new Set(parents);
    const clauses: Array<Record<string, unknown>> = [];
    if (parents.length)
      clauses.push({
        id: { $in: installed.filter((bay) => wanted.has(bay.device as number)).map((bay) => bay.installed_device) },
      });
    if (texts.includes('null')) clauses.push({ id: { $nin: installed.map((bay) => bay.installed_device) } });
    const positive = clauses.length === 1 ? clauses[0]! : { $or: clauses };
    return env.lookup === 'n' ? { $nor: [positive] } : positive;
  },
};

/** Where a device is: what a child device installed in one of its bays takes from it. */
const PLACEMENT = ['site', 'location', 'rack'] as const;

/**
 * Saving a parent device moves the child devices installed in its bays to its site,
 * location and rack (only those that are elsewhere get an update).
 */
export async function childDevicesFollowParent(change: DecidedChange, view: LookupView): Promise<FollowUpCommand[]> {
  if (change.action !== 'update') return [];
  const parent = change.obj;
  const bays = await view.find('dcim.devicebay', { device: parent.id, installed_device: { $ne: null } });
  const commands: FollowUpCommand[] = [];
  for (const bay of bays) {
    const child = await related(view, 'dcim.device', bay.installed_device);
    if (!child || PLACEMENT.every((field) => (child[field] ?? null) === (parent[field] ?? null))) continue;
    const input = Object.fromEntries(PLACEMENT.map((field) => [field, parent[field] ?? null]));
    commands.push({ kind: 'update', model: 'dcim.device', id: child.id, input });
  }
  return commands;
}
