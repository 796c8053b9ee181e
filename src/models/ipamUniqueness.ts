/**
 * IPAM's uniqueness rules that depend on address space rather than on equal fields:
 * duplicate prefixes and addresses within a VRF that enforces uniqueness (or in the
 * global table under ENFORCE_GLOBAL_UNIQUE), and aggregates that overlap.
 */
import type { FieldErrors } from '../errors/fieldErrors.js';
import { fieldError } from './hooks.js';
import type { LookupView } from './lookupView.js';
import type { ModelSettings } from './modelHooks.js';
import type { StoredObject } from './storedObject.js';
import { hostKeys, networkKeys } from './values/ipNetworks.js';

/** Roles whose addresses may legitimately be shared by several interfaces. */
const SHARED_ROLES = new Set(['anycast', 'vip', 'vrrp', 'hsrp', 'glbp', 'carp']);

/** Does uniqueness apply in this object's VRF? Returns the VRF's wording for messages, or null. */
async function uniqueScope(
  obj: StoredObject,
  view: LookupView,
  settings: ModelSettings | undefined,
): Promise<string | null> {
  if (obj.vrf === null || obj.vrf === undefined) return settings?.enforceGlobalUnique ? 'global table' : null;
  const vrf = await view.get('ipam.vrf', Number(obj.vrf));
  return vrf?.enforce_unique ? `VRF ${String(vrf.display ?? vrf.name)}` : null;
}

export async function duplicatePrefix(
  obj: StoredObject,
  view: LookupView,
  settings?: ModelSettings,
): Promise<FieldErrors | void> {
  const scope = await uniqueScope(obj, view, settings);
  const keys = networkKeys(obj.prefix);
  if (!scope || !keys) return;
  const [duplicate] = await view.find(
    'ipam.prefix',
    { id: { $ne: obj.id }, vrf: obj.vrf ?? null, _network: keys._network, _prefixlen: keys._prefixlen },
    1,
  );
  if (duplicate) return fieldError('prefix', `Duplicate prefix found in ${scope}: ${String(duplicate.prefix)}`);
}

export async function duplicateAddress(
  obj: StoredObject,
  view: LookupView,
  settings?: ModelSettings,
): Promise<FieldErrors | void> {
  const scope = await uniqueScope(obj, view, settings);
  if (!scope) return;
  const keys = hostKeys(obj.address);
  if (!keys) return;
  const duplicates = await view.find('ipam.ipaddress', {
    id: { $ne: obj.id },
    vrf: obj.vrf ?? null,
    _address: keys._address,
  });
  if (duplicates.length === 0) return;
  const shared = SHARED_ROLES.has(String(obj.role)) && duplicates.every((d) => SHARED_ROLES.has(String(d.role)));
  if (!shared) return fieldError('address', `Duplicate IP address found in ${scope}: ${String(duplicates[0].address)}`);
}

export async function overlappingAggregate(obj: StoredObject, view: LookupView): Promise<FieldErrors | void> {
  const keys = networkKeys(obj.prefix);
  if (!keys) return;
  const [covering] = await view.find(
    'ipam.aggregate',
    { id: { $ne: obj.id }, _family: keys._family, _network: { $lte: keys._network }, _last: { $gte: keys._last } },
    1,
  );
  if (covering) {
    return fieldError(
      'prefix',
      `Aggregates cannot overlap. ${String(obj.prefix)} is already covered by an existing aggregate (${String(covering.prefix)}).`,
    );
  }
  const [covered] = await view.find(
    'ipam.aggregate',
    { id: { $ne: obj.id }, _family: keys._family, _network: { $gte: keys._network }, _last: { $lte: keys._last } },
    1,
  );
  if (covered)
    return fieldError(
      'prefix',
      `Aggregates cannot overlap. ${String(obj.prefix)} covers an existing aggregate (${String(covered.prefix)}).`,
    );
}
