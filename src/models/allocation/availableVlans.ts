/**
 * A VLAN group's free VLAN IDs: those of its [min_vid, max_vid] that no VLAN of the
 * group uses, listed lowest first and handed out lowest first to new VLANs of the group.
 */
import type { DetailAction } from '../detailEndpoints.js';
import type { LookupView } from '../lookupView.js';
import type { StoredObject } from '../storedObject.js';
import { isPlainObject } from './plainObject.js';

/** What a request for a VLAN may say; anything else it carries is ignored. */
const REQUEST_FIELDS = ['name', 'site', 'tenant', 'status', 'role', 'description', 'tags', 'custom_fields'];

export async function freeVids(group: StoredObject, view: LookupView): Promise<number[]> {
  const min = Number(group.min_vid ?? 1);
  const max = Number(group.max_vid ?? 4094);
  const used = new Set((await view.find('ipam.vlan', { group: group.id })).map((vlan) => Number(vlan.vid)));
  const free: number[] = [];
  for (let vid = min; vid <= max; vid++) if (!used.has(vid)) free.push(vid);
  return free;
}

function requestOnly(request: unknown): unknown {
  if (!isPlainObject(request)) return request;
  return Object.fromEntries(
    REQUEST_FIELDS.filter((name) => Object.hasOwn(request, name)).map((name) => [name, request[name]]),
  );
}

/** A VLAN group's `available-vlans`. */
export const vlanGroupAvailableVlans: DetailAction = {
  path: 'available-vlans',
  creates: 'ipam.vlan',
  allocator: {
    shape: {
      entry: { vid: 'integer', group: { nested: 'ipam.vlangroup' } },
      limited: true,
      fields: REQUEST_FIELDS,
      assigned: ['vid', 'group'],
    },
    async available(group, view, limit) {
      const vids = await freeVids(group, view);
      return (limit === null ? vids : vids.slice(0, limit)).map((vid) => ({
        vid,
        group: { nested: 'ipam.vlangroup', id: group.id },
      }));
    },
    /**
     * The requests' own fields are checked before any VID is handed out (the VID and the
     * group are not known yet, so the group's rules wait for the VLANs themselves).
     */
    async allocate(group, requests, { view, checkFields }) {
      const asked = requests.map(requestOnly);
      const placeholder = { vid: Number(group.min_vid ?? 1), group: group.id };
      const problems = await checkFields(
        asked.map((request) => (isPlainObject(request) ? { ...request, ...placeholder } : request)),
      );
      if (problems.some((p) => Object.keys(p).length > 0)) return { invalid: problems };
      const vids = await freeVids(group, view);
      if (vids.length < asked.length) return { conflict: 'The requested number of VLANs is not available' };
      return {
        inputs: asked.map((request, i) => ({ ...(request as Record<string, unknown>), vid: vids[i], group: group.id })),
      };
    },
  },
};
