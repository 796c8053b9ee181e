/**
 * The cable path sub-resources: /trace/ on path endpoints (each segment of the path as
 * [near ends, cable or wireless link, far ends], continued through a bridged interface at the far end) and
 * /paths/ on pass-through objects (every path running through the port or circuit
 * termination). Both trace on read from the stored cables.
 */
import type { DetailView, DetailViewRequest } from '../../detailEndpoints.js';
import type { GenericListItem } from '../../fieldDefinition.js';
import type { StoredObject } from '../../storedObject.js';
import {
  type CablePath,
  destinations,
  originsOf,
  PASS_THROUGH,
  PATH_ENDPOINTS,
  pathFrom,
  type PathNode,
  PathReader,
  tracePath,
} from './tracePath.js';

/** The cable as a trace shows it (type and status as raw strings); a wireless link shows those of these fields it has. */
const TRACED_CABLE_FIELDS = ['id', 'url', 'type', 'status', 'label', 'color', 'length', 'length_unit', 'description'];

/** Guards a bridge loop (an interface bridged back into the path it ends). */
const MAX_BRIDGE_HOPS = 64;

const nodeSchema = { type: 'array', items: { type: 'object' } };

/** /trace/ on a path endpoint. */
export const traceView: DetailView = {
  path: 'trace',
  summary: 'The cable path from this object: segments [near ends, cable, far ends]',
  responses: {
    'application/json': { type: 'array', items: { type: 'array', minItems: 3, maxItems: 3, items: {} } },
  },
  respond: async (obj, request) => ({ body: await traceSegments(request.model, obj, request) }),
};

async function traceSegments(model: string, obj: StoredObject, request: DetailViewRequest): Promise<unknown[]> {
  const reader = new PathReader(request.view);
  const steps: PathNode[][] = [];
  let origin: StoredObject | null = obj;
  let type = model;
  const seen = new Set<number>();
  for (let hop = 0; origin && hop < MAX_BRIDGE_HOPS; hop++) {
    const path = await pathFrom(reader, type, origin);
    if (!path) break;
    steps.push(...path.path);
    // A path ending at an unconnected pass-through port has no cable nor far end; one ending
    // at a site or provider network has no cable before it.
    if (steps.length % 3 === 1) steps.push([], []);
    else if (steps.length % 3 === 2) steps.splice(steps.length - 1, 0, []);
    const ends = destinations(path);
    origin = null;
    if (ends.length === 1 && ends[0].object_type === 'dcim.interface') {
      const end = await reader.get('dcim.interface', ends[0].object_id);
      if (end && typeof end.bridge === 'number' && !seen.has(end.bridge)) {
        seen.add(end.bridge);
        origin = await reader.get('dcim.interface', end.bridge);
        type = 'dcim.interface';
      }
    }
  }
  const segments: unknown[] = [];
  for (let i = 0; i + 2 < steps.length; i += 3) {
    const [near, cable, far] = [steps[i], steps[i + 1], steps[i + 2]];
    if (near.length === 0) break;
    const renderedCable = cable.length ? (await request.nested(cable.slice(0, 1), TRACED_CABLE_FIELDS))[0] : [];
    segments.push([await rendered(request, near), renderedCable, await rendered(request, far)]);
  }
  return segments;
}

async function rendered(request: DetailViewRequest, nodes: PathNode[]): Promise<unknown[]> {
  return (await request.nested(nodes)).filter((x) => x !== null);
}

/** /paths/ on a pass-through object. */
export const pathsView: DetailView = {
  path: 'paths',
  summary: 'Every cable path passing through this object',
  responses: {
    'application/json': {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          id: { type: 'integer' },
          path: { type: 'array', items: nodeSchema },
          is_active: { type: 'boolean' },
          is_complete: { type: 'boolean' },
          is_split: { type: 'boolean' },
        },
      },
    },
  },
  respond: async (obj, request) => ({ body: await pathsThrough(request.model, obj, request) }),
};

/** How far the search for origins spreads from the port (objects visited). */
const MAX_VISITED = 10_000;

async function pathsThrough(model: string, obj: StoredObject, request: DetailViewRequest): Promise<unknown[]> {
  const reader = new PathReader(request.view);
  const origins = await endpointsAround(reader, { object_type: model, object_id: obj.id });
  const found: CablePath[] = [];
  const traced = new Set<string>();
  for (const endpoint of origins) {
    const o = await reader.get(endpoint.object_type, endpoint.object_id);
    if (!o) continue;
    const group = await originsOf(reader, endpoint.object_type, o);
    const key = group
      .map((n) => `${n.object_type}:${n.object_id}`)
      .sort()
      .join(',');
    if (traced.has(key)) continue;
    traced.add(key);
    const path = await tracePath(reader, group);
    if (path && path.path.some((step) => step.some((n) => n.object_type === model && n.object_id === obj.id)))
      found.push(path);
  }
  const out: unknown[] = [];
  for (const [i, path] of found.entries()) {
    const steps = await Promise.all(path.path.map((step) => rendered(request, step)));
    // NetBox's stored paths have ids; ours are traced on read, numbered in the order found.
    out.push({
      id: i + 1,
      path: steps,
      is_active: path.isActive,
      is_complete: path.isComplete,
      is_split: path.isSplit,
    });
  }
  return out;
}

/** The cabled path endpoints reachable from `start` through cables and pass-through objects, in either direction. */
async function endpointsAround(reader: PathReader, start: PathNode): Promise<PathNode[]> {
  const queue: PathNode[] = [start];
  const seen = new Set<string>([`${start.object_type}:${start.object_id}`]);
  const endpoints: PathNode[] = [];
  const visit = (n: PathNode) => {
    const key = `${n.object_type}:${n.object_id}`;
    if (seen.has(key) || seen.size >= MAX_VISITED) return;
    seen.add(key);
    if (PATH_ENDPOINTS.has(n.object_type)) endpoints.push(n);
    else if (PASS_THROUGH.has(n.object_type)) queue.push(n);
  };
  while (queue.length) {
    const n = queue.shift()!;
    const obj = await reader.get(n.object_type, n.object_id);
    if (!obj) continue;
    if (typeof obj.cable === 'number') {
      const cable = await reader.get('dcim.cable', obj.cable);
      for (const item of [
        ...((cable?.a_terminations as GenericListItem[]) ?? []),
        ...((cable?.b_terminations as GenericListItem[]) ?? []),
      ])
        visit(item);
    }
    if (n.object_type === 'dcim.frontport' && typeof obj.rear_port === 'number')
      visit({ object_type: 'dcim.rearport', object_id: obj.rear_port });
    if (n.object_type === 'dcim.rearport') {
      for (const front of await reader.view.find('dcim.frontport', { rear_port: obj.id }))
        visit({ object_type: 'dcim.frontport', object_id: front.id });
    }
    if (n.object_type === 'circuits.circuittermination') {
      for (const other of await reader.view.find('circuits.circuittermination', { circuit: obj.circuit }))
        visit({ object_type: n.object_type, object_id: other.id });
    }
  }
  return endpoints;
}
