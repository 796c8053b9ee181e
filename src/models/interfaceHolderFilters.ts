/**
 * The `device`/`device_id` and `virtual_machine`/`virtual_machine_id` filters of objects that
 * sit on interfaces (the interfaces themselves, IP addresses, FHRP group assignments). For a
 * device NetBox 3.4 selects its `vc_interfaces`: the device's own interfaces and, when the
 * device is the master of a virtual chassis (or, with `anyMember`, any member of it), the
 * other members' interfaces that are not management-only, so a chassis answers as one device.
 */
import type { FilterEnvironment, FilterSpec } from './filterTypes.js';
import { DEVICE_HOLDER, type PrimaryIpHolder } from './primaryIps.js';
import type { StoredObject } from './storedObject.js';

/** Where the object names its interface: it is the interface, or it holds a (content type, id) pair. */
export type InterfacePlace = 'self' | { typeField: string; idField: string };

export interface HolderFilterOptions {
  /** How the values name the holders. */
  by: 'id' | 'name';
  place: InterfacePlace;
  /** Devices only: members other than the master also bring their chassis's interfaces (NetBox's `if_master=False`). */
  anyMember?: boolean;
}

/** NetBox's `Device.vc_interfaces()` of several devices, as a query over interfaces. */
export async function chassisInterfaceQuery(
  devices: StoredObject[],
  env: FilterEnvironment,
  anyMember: boolean,
): Promise<Record<string, unknown>> {
  const ids = devices.map((d) => d.id);
  let chassis = [
    ...new Set(devices.filter((d) => typeof d.virtual_chassis === 'number').map((d) => d.virtual_chassis as number)),
  ];
  if (!anyMember && chassis.length) {
    chassis = (await env.find('dcim.virtualchassis', { id: { $in: chassis }, master: { $in: ids } })).map(
      (vc) => vc.id,
    );
  }
  if (chassis.length === 0) return { device: { $in: ids } };
  const members = await env.ids('dcim.device', { virtual_chassis: { $in: chassis } });
  return { $or: [{ device: { $in: ids } }, { device: { $in: members }, mgmt_only: false }] };
}

/** Objects on the interfaces of the holders the values name; no such holder: nothing. */
export function holderInterfaceFilter(holder: PrimaryIpHolder, options: HolderFilterOptions): FilterSpec {
  return {
    kind: 'method',
    value: options.by === 'id' ? 'integer' : 'string',
    method: async (values, env) => {
      const holders = await env.find(holder.model, { [options.by]: { $in: values } });
      const interfaces =
        holder === DEVICE_HOLDER
          ? await chassisInterfaceQuery(holders, env, options.anyMember === true)
          : { [holder.parentField]: { $in: holders.map((h) => h.id) } };
      if (options.place === 'self') return interfaces;
      const ids = holders.length ? await env.ids(holder.interfaceModel, interfaces) : [];
      return { [options.place.typeField]: holder.interfaceModel, [options.place.idField]: { $in: ids } };
    },
  };
}

/** `<holder>` (by name) and `<holder>_id` filters of objects naming their interface at `place`. */
export function holderFilters(
  name: string,
  holder: PrimaryIpHolder,
  place: InterfacePlace,
  anyMemberById = false,
): Record<string, FilterSpec> {
  return {
    [name]: holderInterfaceFilter(holder, { by: 'name', place }),
    [`${name}_id`]: holderInterfaceFilter(holder, { by: 'id', place, anyMember: anyMemberById }),
  };
}
