/**
 * Primary IP addresses of devices and virtual machines: the fields, whether an address
 * belongs to its holder, the list filters both models share, and the rule on the
 * address's side that a primary address stays with its holder.
 */
import type { FieldErrors } from '../errors/fieldErrors.js';
import type { FieldDefinition } from './fieldDefinition.js';
import type { FilterMethod, FilterSpec } from './filterTypes.js';
import { fieldError, pyStr, related } from './hooks.js';
import type { LookupView } from './lookupView.js';
import type { StoredObject } from './storedObject.js';

/** What holds primary IPs: the model, its interfaces and their field naming it, its name in messages. */
export interface PrimaryIpHolder {
  model: string;
  interfaceModel: string;
  /** The interface field that points at the holder. */
  parentField: string;
  /** NetBox's verbose name of the holder, as its messages spell it. */
  noun: string;
  /** The IP address form field NetBox names when an address would leave its holder. */
  assignmentField: string;
}

export const DEVICE_HOLDER: PrimaryIpHolder = {
  model: 'dcim.device',
  interfaceModel: 'dcim.interface',
  parentField: 'device',
  noun: 'device',
  assignmentField: 'interface',
};

export const VIRTUAL_MACHINE_HOLDER: PrimaryIpHolder = {
  model: 'virtualization.virtualmachine',
  interfaceModel: 'virtualization.vminterface',
  parentField: 'virtual_machine',
  noun: 'virtual machine',
  assignmentField: 'vminterface',
};

const HOLDERS = [DEVICE_HOLDER, VIRTUAL_MACHINE_HOLDER];

/** A primary address of one family: an address is the primary of one holder at most. */
export function primaryIpField(name: 'primary_ip4' | 'primary_ip6'): FieldDefinition {
  // the serializer declares the field (OPTIONS label 'Primary ip4'); the model's verbose name is in messages
  const verboseName = name === 'primary_ip4' ? 'Primary IPv4' : 'Primary IPv6';
  return {
    name,
    verboseName,
    type: 'fk',
    target: 'ipam.ipaddress',
    onDelete: 'SET_NULL',
    oneToOne: true,
    nullable: true,
    default: null,
    unique: true,
  };
}

/** NetBox's primary_ip with PREFER_IPV4 off: the IPv6 primary, else the IPv4 one. */
export const primaryIpShown: FieldDefinition = {
  name: 'primary_ip',
  type: 'computed',
  readOnly: true,
  nullable: true,
  target: 'ipam.ipaddress',
  coalesce: ['primary_ip6', 'primary_ip4'],
};

/** The id of the holder whose interface the address is assigned to, or null. */
async function holderOf(ip: StoredObject | null, holder: PrimaryIpHolder, view: LookupView): Promise<number | null> {
  if (!ip || ip.assigned_object_type !== holder.interfaceModel) return null;
  const iface = await related(view, holder.interfaceModel, ip.assigned_object_id);
  const parent = iface?.[holder.parentField];
  return typeof parent === 'number' ? parent : null;
}

/** The address is on one of the holder's interfaces, or is the NAT outside of an address that is. */
export async function belongsToHolder(
  ip: StoredObject,
  holderId: number,
  holder: PrimaryIpHolder,
  view: LookupView,
): Promise<boolean> {
  if ((await holderOf(ip, holder, view)) === holderId) return true;
  return (await holderOf(await related(view, 'ipam.ipaddress', ip.nat_inside), holder, view)) === holderId;
}

/**
 * An address that is a device's or VM's primary IP must stay assigned to it (or be the
 * NAT outside of an address that is): moving or unassigning it is refused.
 */
export async function primaryAddressLeavesHolder(ip: StoredObject, view: LookupView): Promise<FieldErrors | void> {
  for (const holder of HOLDERS) {
    const [owner] = await view.find(holder.model, { $or: [{ primary_ip4: ip.id }, { primary_ip6: ip.id }] }, 1);
    if (!owner || (await belongsToHolder(ip, owner.id, holder, view))) continue;
    const name = pyStr(owner.display ?? owner.name);
    return fieldError(
      holder.assignmentField,
      `IP address is primary for ${holder.noun} ${name} but not assigned to it!`,
    );
  }
}

/* ------------------------------------------------------------ list filters */

/** has_primary_ip: true → an IPv4 or IPv6 primary is set; false → neither. */
export const hasPrimaryIpFilter: FilterSpec = {
  kind: 'method',
  value: 'boolean',
  single: true,
  method: ([has]) =>
    has
      ? { $or: [{ primary_ip4: { $ne: null } }, { primary_ip6: { $ne: null } }] }
      : { primary_ip4: null, primary_ip6: null },
};

/** `q` also finds holders whose primary IPv4 or IPv6 address starts with the text. */
export const primaryIpStartsWith: FilterMethod = async ([text], env) => {
  const addresses = await env.ids('ipam.ipaddress', { address: env.textCondition('isw', String(text)) });
  if (addresses.length === 0) return null;
  return { $or: [{ primary_ip4: { $in: addresses } }, { primary_ip6: { $in: addresses } }] };
};
