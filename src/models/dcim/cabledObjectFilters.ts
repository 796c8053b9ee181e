/**
 * What every cabled object is found by (NetBox's CabledObjectFilterSet: device components,
 * power feeds, circuit terminations), and what path endpoints are also found by
 * (PathEndpointFilterSet: whether their path is active).
 */
import { BEYOND_NETBOX } from '../filterSpecs.js';
import type { FilterEnvironment, FilterSpec } from '../filterTypes.js';
import type { StoredObject } from '../storedObject.js';
import { pathFrom, PathReader } from './cabling/tracePath.js';

const isCabled = { cable: { $ne: null } };
const notCabled = { cable: null };

export const cabledObjectFilters: Record<string, FilterSpec> = {
  // NetBox 3.4 has no cable filter on cabled objects (3.5 adds cable_id)
  cable_id: BEYOND_NETBOX,
  // NetBox: a ChoiceFilter (one value)
  cable_end: { kind: 'field', field: 'cable_end', value: 'string', lookups: ['n'], choices: ['A', 'B'], single: true },
  cabled: { kind: 'method', value: 'boolean', single: true, method: ([cabled]) => (cabled ? isCabled : notCabled) },
  // Occupied: cabled, or marked connected.
  occupied: {
    kind: 'method',
    value: 'boolean',
    single: true,
    method: ([occupied]) =>
      occupied ? { $or: [isCabled, { mark_connected: true }] } : { ...notCabled, mark_connected: { $ne: true } },
  },
};

/**
 * Interfaces on a wireless link, which have a path too: found from the links (few) by id,
 * rather than by scanning the interfaces for a set `wireless_link`, which no index answers.
 */
async function wirelesslyLinked(env: FilterEnvironment): Promise<StoredObject[]> {
  const links = await env.find('wireless.wirelesslink', {});
  if (links.length === 0) return [];
  const ends = links
    .flatMap((l) => [l.interface_a, l.interface_b])
    .filter((id): id is number => typeof id === 'number');
  return env.find('dcim.interface', { id: { $in: [...new Set(ends)] }, cable: null, wireless_link: { $ne: null } });
}

/**
 * Connected: the object's path is active (every cable or wireless link on it connected),
 * whether or not it reaches an endpoint, as NetBox 3.4 filters. Paths are traced on read,
 * so this traces the path of every cabled (or wirelessly linked) object of the model listed.
 */
export const pathEndpointFilters: Record<string, FilterSpec> = {
  connected: {
    kind: 'method',
    value: 'boolean',
    single: true,
    method: async ([connected], env) => {
      const cabled = await env.find(env.model, isCabled);
      if (env.model === 'dcim.interface') cabled.push(...(await wirelesslyLinked(env)));
      const reader = new PathReader({
        get: async (model, id) => (await env.find(model, { id }, 1))[0] ?? null,
        find: (model, query, limit) => env.find(model, query, limit),
      });
      const active: number[] = [];
      for (const obj of cabled) {
        const path = await pathFrom(reader, env.model, obj);
        if (path?.isActive) active.push(obj.id);
      }
      return connected ? { id: { $in: active } } : { id: { $nin: active } };
    },
  },
};
