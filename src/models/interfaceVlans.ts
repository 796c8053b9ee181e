/**
 * 802.1Q on interfaces, as device and VM interfaces share it (NetBox's BaseInterface):
 * which VLANs an interface may carry given its parent's site, what its mode clears when
 * it is saved, and the VLAN filters of both lists.
 */
import type { FieldErrors } from '../errors/fieldErrors.js';
import type { FilterEnvironment, FilterSpec } from './filterTypes.js';
import { fieldError, related } from './hooks.js';
import { vlanDisplay } from './ipam/vlan.js';
import type { LookupView } from './lookupView.js';
import type { SaveContext } from './modelHooks.js';
import type { StoredObject } from './storedObject.js';

/** The object an interface belongs to, as the VLAN messages name it. */
export interface InterfaceParent {
  /** Its site id (null: it has none, and only global VLANs are allowed). */
  site: unknown;
  /** 'device' or 'virtual machine'. */
  noun: string;
}

function allowedAt(vlan: StoredObject, parent: InterfaceParent): boolean {
  return vlan.site == null || vlan.site === parent.site;
}

/**
 * Tagged VLANs sent with the request must be global or at the parent's site. NetBox's
 * serializer checks the VLANs sent only, before the model's own rules.
 */
export async function taggedVlanSiteProblem(
  obj: StoredObject,
  view: LookupView,
  parent: InterfaceParent,
  written: ReadonlySet<string> | undefined,
): Promise<FieldErrors | void> {
  if (!written?.has('tagged_vlans') || !Array.isArray(obj.tagged_vlans)) return;
  for (const id of obj.tagged_vlans) {
    const vlan = await related(view, 'ipam.vlan', id);
    if (vlan && !allowedAt(vlan, parent)) {
      return fieldError(
        'tagged_vlans',
        `VLAN ${vlanDisplay(vlan)} must belong to the same site as the interface's parent ${parent.noun}, or it must be global.`,
      );
    }
  }
}

/** The untagged VLAN must be global or at the parent's site (a model rule: checked on every save). */
export async function untaggedVlanSiteProblem(
  obj: StoredObject,
  view: LookupView,
  parent: InterfaceParent,
): Promise<FieldErrors | void> {
  const vlan = await related(view, 'ipam.vlan', obj.untagged_vlan);
  if (vlan && !allowedAt(vlan, parent)) {
    return fieldError(
      'untagged_vlan',
      `The untagged VLAN (${vlanDisplay(vlan)}) must belong to the same site as the interface's parent ${parent.noun}, or it must be global.`,
    );
  }
}

/**
 * Saving an interface: without a mode it has no untagged VLAN; an existing interface
 * not in 'tagged' mode loses its tagged VLANs, unless the request sends new ones (NetBox
 * clears them on save, then applies the ones sent).
 */
export function applyVlanMode(obj: StoredObject, _view: LookupView, { previous, written }: SaveContext): void {
  if (!obj.mode) obj.untagged_vlan = null;
  if (previous && obj.mode !== 'tagged' && !written.has('tagged_vlans')) obj.tagged_vlans = [];
}

/* ------------------------------------------------------------ list filters */

/** vlan_id: interfaces carrying the VLAN, untagged or tagged (NetBox: a CharFilter). */
const byVlanId: FilterSpec = {
  kind: 'method',
  value: 'integer',
  single: true,
  netboxReads: 'text',
  method: ([id]) => ({ $or: [{ untagged_vlan: id }, { tagged_vlans: id }] }),
};

/** vlan: interfaces carrying a VLAN with this VID, untagged or tagged (NetBox: a CharFilter). */
const byVid: FilterSpec = {
  kind: 'method',
  value: 'integer',
  single: true,
  netboxReads: 'text',
  method: async ([vid], env: FilterEnvironment) => {
    const vlans = await env.ids('ipam.vlan', { vid });
    return { $or: [{ untagged_vlan: { $in: vlans } }, { tagged_vlans: { $in: vlans } }] };
  },
};

/** The VLAN filters of interface lists. */
export const interfaceVlanFilters: Record<string, FilterSpec> = { vlan_id: byVlanId, vlan: byVid };
