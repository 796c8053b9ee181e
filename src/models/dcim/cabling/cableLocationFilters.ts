/**
 * A cable is found by where its ends are: the device, rack, location or site of any of
 * its terminations (a component's device; a power feed's rack; a circuit termination's
 * site). Answered from the ends as they are now, so a device moved to another rack moves
 * its cables with it (NetBox filters on copies cached when the cable was saved).
 */
import type { FilterEnvironment, FilterSpec } from '../../filterTypes.js';

const DEVICE_COMPONENTS = [
  'dcim.consoleport',
  'dcim.consoleserverport',
  'dcim.powerport',
  'dcim.poweroutlet',
  'dcim.interface',
  'dcim.frontport',
  'dcim.rearport',
];

type Scope = 'device' | 'rack' | 'location' | 'site';

/** The cables with an end among `query`'s objects of `model`. */
async function cablesOf(env: FilterEnvironment, model: string, query: Record<string, unknown>): Promise<number[]> {
  const ends = await env.find(model, { ...query, cable: { $ne: null } });
  return ends.map((e) => e.cable).filter((c): c is number => typeof c === 'number');
}

async function cablesAt(env: FilterEnvironment, scope: Scope, ids: number[]): Promise<number[]> {
  const within = { $in: ids };
  const devices = scope === 'device' ? ids : await env.ids('dcim.device', { [scope]: within });
  const found: number[] = [];
  for (const model of DEVICE_COMPONENTS) found.push(...(await cablesOf(env, model, { device: { $in: devices } })));
  if (scope !== 'device') {
    const racks = scope === 'rack' ? ids : await env.ids('dcim.rack', { [scope]: within });
    found.push(...(await cablesOf(env, 'dcim.powerfeed', { rack: { $in: racks } })));
  }
  if (scope === 'site') found.push(...(await cablesOf(env, 'circuits.circuittermination', { site: within })));
  return [...new Set(found)];
}

function byId(scope: Scope): FilterSpec {
  return {
    kind: 'method',
    value: 'integer',
    method: async (values, env) => ({ id: { $in: await cablesAt(env, scope, values as number[]) } }),
  };
}

function byAttribute(scope: Scope, model: string, attribute: string): FilterSpec {
  return {
    kind: 'method',
    method: async (values, env) => ({
      id: { $in: await cablesAt(env, scope, await env.ids(model, { [attribute]: { $in: values } })) },
    }),
  };
}

export const cableLocationFilters: Record<string, FilterSpec> = {
  device_id: byId('device'),
  device: byAttribute('device', 'dcim.device', 'name'),
  rack_id: byId('rack'),
  rack: byAttribute('rack', 'dcim.rack', 'name'),
  location_id: byId('location'),
  location: byAttribute('location', 'dcim.location', 'name'),
  site_id: byId('site'),
  site: byAttribute('site', 'dcim.site', 'slug'),
};
