/**
 * A cable path traced from its origin, as NetBox 3.4 traces one (CablePath.from_origin):
 * near-end terminations, the cable, far-end terminations, then on through pass-through
 * ports (front port to rear port, keeping the position for a multi-position rear port to
 * pop on the way out) and circuits (one termination to the other side's), until an
 * endpoint that is not a pass-through (complete), a missing cable (incomplete) or a fork
 * (split). An interface's wireless link is a link like a cable, from one radio to the
 * other (the far interface ends the path). Traced on read from the stored cables and
 * links, so it is never stale and `as_of` sees the path as it was.
 */
import type { GenericListItem } from '../../fieldDefinition.js';
import type { LookupView } from '../../lookupView.js';
import type { StoredObject } from '../../storedObject.js';

export type PathNode = GenericListItem;

export interface CablePath {
  /** Alternating steps: terminations, [cable or wireless link], terminations, ... (a site or provider network may end it). */
  path: PathNode[][];
  isComplete: boolean;
  isActive: boolean;
  isSplit: boolean;
}

/** The models a cable path passes through rather than ends at. */
export const PASS_THROUGH = new Set(['dcim.frontport', 'dcim.rearport', 'circuits.circuittermination']);

/** The models a cable path starts from (NetBox's PathEndpoint). */
export const PATH_ENDPOINTS = new Set([
  'dcim.interface',
  'dcim.consoleport',
  'dcim.consoleserverport',
  'dcim.powerport',
  'dcim.poweroutlet',
  'dcim.powerfeed',
]);

const CABLE = 'dcim.cable';
const WIRELESS_LINK = 'wireless.wirelesslink';
const INTERFACE = 'dcim.interface';

/** Objects read once per trace (or per page of traces sharing the reader). */
export class PathReader {
  private readonly cache = new Map<string, Promise<StoredObject | null>>();
  constructor(readonly view: LookupView) {}

  get(type: string, id: number): Promise<StoredObject | null> {
    const key = `${type}:${id}`;
    let found = this.cache.get(key);
    if (!found) {
      found = this.view.get(type, id);
      this.cache.set(key, found);
    }
    return found;
  }

  async all(nodes: PathNode[]): Promise<StoredObject[]> {
    const objs = await Promise.all(nodes.map((n) => this.get(n.object_type, n.object_id)));
    return objs.filter((o): o is StoredObject => o !== null);
  }
}

function node(type: string, obj: StoredObject): PathNode {
  return { object_type: type, object_id: obj.id };
}

function cableId(obj: StoredObject): number | null {
  return typeof obj.cable === 'number' ? obj.cable : null;
}

/** The wireless link an interface is on (only interfaces have one). */
export function wirelessLinkId(obj: StoredObject): number | null {
  return typeof obj.wireless_link === 'number' ? obj.wireless_link : null;
}

/** The interface at the other end of a wireless link from `near`. */
export function wirelessPeerId(link: StoredObject, near: number): number | null {
  const other = link.interface_a === near ? link.interface_b : link.interface_a;
  return typeof other === 'number' ? other : null;
}

/** The terminations at the same end of the same cable as `obj` (itself included): a path's origins. */
export async function originsOf(reader: PathReader, type: string, obj: StoredObject): Promise<PathNode[]> {
  const cable = cableId(obj);
  if (cable === null) return [node(type, obj)];
  const held = await reader.get(CABLE, cable);
  const end = obj.cable_end === 'B' ? 'b_terminations' : 'a_terminations';
  const items = (held?.[end] as GenericListItem[] | undefined) ?? [];
  const same = items.filter((i) => i.object_type === type);
  return same.some((i) => i.object_id === obj.id) ? same : [node(type, obj)];
}

/** The path traced from `origins` (all of one type, on one end of one cable); null when the first has no cable. */
export async function tracePath(reader: PathReader, origins: PathNode[]): Promise<CablePath | null> {
  const path: PathNode[][] = [];
  const positionStack: number[][] = [];
  let isComplete = false;
  let isActive = true;
  let isSplit = false;
  let type = origins[0]?.object_type;
  let terminations = await reader.all(origins);

  while (terminations.length > 0 && type) {
    const cables = new Set(terminations.map(cableId));
    if (cables.size > 1) {
      isSplit = true;
      break;
    }
    path.push(terminations.map((t) => node(type!, t)));
    const link = cableId(terminations[0]);
    if (link === null) {
      const wireless = wirelessLinkId(terminations[0]);
      if (wireless === null && path.length === 1) return null;
      if (wireless === null) break;
      const held = await reader.get(WIRELESS_LINK, wireless);
      if (!held) break;
      path.push([{ object_type: WIRELESS_LINK, object_id: wireless }]);
      if (held.status !== 'connected') isActive = false;
      const peer = wirelessPeerId(held, terminations[0].id);
      const far = peer === null ? null : await reader.get(INTERFACE, peer);
      path.push(far ? [node(INTERFACE, far)] : []);
      // an interface is never a pass-through: the radio at the far end ends the path
      isComplete = far !== null;
      break;
    }
    const cable = await reader.get(CABLE, link);
    if (!cable) break;
    path.push([{ object_type: CABLE, object_id: link }]);
    if (cable.status !== 'connected') isActive = false;

    const farEnd = terminations[0].cable_end === 'B' ? 'a_terminations' : 'b_terminations';
    const farItems = (cable[farEnd] as GenericListItem[] | undefined) ?? [];
    const far = await reader.all(farItems);
    const farType = farItems[0]?.object_type;
    path.push(far.map((t) => node(farType!, t)));
    if (far.length === 0 || !farType) break;

    if (farType === 'dcim.frontport') {
      const rearIds = [...new Set(far.map((f) => f.rear_port).filter((id): id is number => typeof id === 'number'))];
      const rears = await reader.all(rearIds.map((id) => ({ object_type: 'dcim.rearport', object_id: id })));
      if (rears.length === 1 && Number(rears[0].positions ?? 1) > 1)
        positionStack.push(far.map((f) => Number(f.rear_port_position)));
      terminations = rears;
      type = 'dcim.rearport';
    } else if (farType === 'dcim.rearport') {
      let fronts: StoredObject[];
      if (far.length > 1 || Number(far[0].positions ?? 1) === 1) {
        fronts = await reader.view.find('dcim.frontport', {
          rear_port: { $in: far.map((r) => r.id) },
          rear_port_position: 1,
        });
      } else if (positionStack.length > 0) {
        fronts = await reader.view.find('dcim.frontport', {
          rear_port: far[0].id,
          rear_port_position: { $in: positionStack.pop()! },
        });
      } else {
        isSplit = true;
        break;
      }
      terminations = fronts.sort((a, b) => a.id - b.id);
      type = 'dcim.frontport';
    } else if (farType === 'circuits.circuittermination') {
      if (far.length > 1) {
        isSplit = true;
        break;
      }
      const otherSide = far[0].term_side === 'A' ? 'Z' : 'A';
      const [other] = await reader.view.find(
        'circuits.circuittermination',
        { circuit: far[0].circuit, term_side: otherSide },
        1,
      );
      if (!other) break;
      if (typeof other.provider_network === 'number') {
        path.push(
          [node('circuits.circuittermination', other)],
          [{ object_type: 'circuits.providernetwork', object_id: other.provider_network }],
        );
        isComplete = true;
        break;
      }
      if (typeof other.site === 'number' && cableId(other) === null) {
        path.push([node('circuits.circuittermination', other)], [{ object_type: 'dcim.site', object_id: other.site }]);
        break;
      }
      terminations = [other];
      type = 'circuits.circuittermination';
    } else {
      isComplete = true;
      break;
    }
  }
  return { path, isComplete, isActive, isSplit };
}

/** Where a complete path ends (NetBox's `destinations`): the last step's objects; none while incomplete. */
export function destinations(path: CablePath | null): PathNode[] {
  if (!path || !path.isComplete) return [];
  return path.path[path.path.length - 1] ?? [];
}

/** The path from an endpoint's own cable end (or wireless link); null without either. */
export async function pathFrom(reader: PathReader, type: string, obj: StoredObject): Promise<CablePath | null> {
  if (cableId(obj) === null && wirelessLinkId(obj) === null) return null;
  return tracePath(reader, await originsOf(reader, type, obj));
}
