import type { LookupView } from '../lookupView.js';
import type { ColumnTransition, ProjectedColumns } from '../modelHooks.js';
import type { StoredObject } from '../storedObject.js';
import { addressSortKey, type Family, sortKeyValue } from '../values/ipNetworks.js';

/**
 * A prefix's place in its VRF's hierarchy, kept as columns by the projection:
 * `_children` counts the prefixes strictly inside it, `_depth` the distinct prefixes
 * strictly around it (same VRF, the global table being its own VRF; families never mix;
 * an equal prefix is neither). A batch changes the columns of the prefixes it creates,
 * moves (new prefix or VRF) or deletes, of the prefixes around their old and new places
 * (`_children`) and of those inside them (`_depth`).
 */
export const prefixHierarchyColumns: ProjectedColumns = {
  names: ['_children', '_depth'],
  project: projectHierarchy,
};

export interface Place {
  family: Family;
  vrf: number | null;
  /** Sort keys of the network's first and last addresses. */
  network: string;
  last: string;
  length: number;
}

const MODEL = 'ipam.prefix';

export function placeOf(doc: StoredObject | null | undefined): Place | null {
  if (!doc) return null;
  const { _family: family, _network: network, _last: last, _prefixlen: length } = doc;
  if (
    (family !== 4 && family !== 6) ||
    typeof network !== 'string' ||
    typeof last !== 'string' ||
    typeof length !== 'number'
  )
    return null;
  return { family, vrf: typeof doc.vrf === 'number' ? doc.vrf : null, network, last, length };
}

const keyOf = (p: Place) => `${p.vrf}|${p.family}|${p.network}|${p.length}`;
const groupOf = (p: Place) => `${p.vrf}|${p.family}`;
const sameGroup = (a: Place, b: Place) => a.vrf === b.vrf && a.family === b.family;

async function projectHierarchy(
  transitions: ColumnTransition[],
  readModels: LookupView,
): Promise<Map<number, Record<string, unknown>>> {
  const view = new PlaceLookups(readModels);
  const changed = new Set(transitions.map((t) => t.id));
  const batch = new BatchPlaces(transitions.flatMap((t) => (placeOf(t.after) ? [placeOf(t.after)!] : [])));
  const result = new Map<number, Record<string, unknown>>();

  // The prefixes the batch leaves: their columns as the state after it has them.
  for (const t of transitions) {
    if (!t.after) continue;
    const place = placeOf(t.after);
    result.set(t.id, place ? await hierarchyAt(place, view, changed, batch) : { _children: 0, _depth: 0 });
  }

  // Their neighbours: where the number of prefixes at a place changes, the prefixes
  // around it count that many more (or fewer) children; where a place gains its first
  // prefix (or loses its last), the prefixes inside it are one deeper (or shallower).
  const places = new Map<string, Place>();
  for (const t of transitions) {
    const before = placeOf(t.before);
    const after = placeOf(t.after);
    if (before && after && keyOf(before) === keyOf(after)) continue;
    for (const place of [before, after]) if (place) places.set(keyOf(place), place);
  }
  const neighbours = new Map<number, StoredObject>();
  const childDelta = new Map<number, number>();
  const depthDelta = new Map<number, number>();
  const add = (deltas: Map<number, number>, doc: StoredObject, by: number) => {
    neighbours.set(doc.id, doc);
    deltas.set(doc.id, (deltas.get(doc.id) ?? 0) + by);
  };
  for (const place of places.values()) {
    const there = await storedAt(place, readModels);
    const before = there.length;
    const after = there.filter((d) => !changed.has(d.id)).length + batch.at(place).length;
    if (after !== before)
      for (const d of await view.around(place)) if (!changed.has(d.id)) add(childDelta, d, after - before);
    const presence = Number(after > 0) - Number(before > 0);
    if (presence !== 0) for (const d of await view.inside(place)) if (!changed.has(d.id)) add(depthDelta, d, presence);
  }
  for (const [id, doc] of neighbours) {
    const children = childDelta.get(id) ?? 0;
    const depth = depthDelta.get(id) ?? 0;
    if (children === 0 && depth === 0) continue;
    if (typeof doc._children === 'number' && typeof doc._depth === 'number') {
      result.set(id, { _children: doc._children + children, _depth: doc._depth + depth });
    } else {
      // a document projected before the columns existed: counted afresh
      result.set(id, await hierarchyAt(placeOf(doc)!, view, changed, batch));
    }
  }
  return result;
}

type Lookups = Pick<PlaceLookups, 'inside' | 'around'>;

/** The read models' prefixes inside and around a place, each looked up once per batch (a new prefix's own columns and its neighbours' ask the same). */
class PlaceLookups {
  private readonly insides = new Map<string, Promise<StoredObject[]>>();
  private readonly arounds = new Map<string, Promise<StoredObject[]>>();

  constructor(private readonly view: LookupView) {}

  inside(place: Place): Promise<StoredObject[]> {
    return remembered(this.insides, keyOf(place), () => storedInside(place, this.view));
  }

  around(place: Place): Promise<StoredObject[]> {
    return remembered(this.arounds, keyOf(place), () => storedAround(place, this.view));
  }
}

function remembered<T>(cache: Map<string, Promise<T>>, key: string, load: () => Promise<T>): Promise<T> {
  let found = cache.get(key);
  if (!found) cache.set(key, (found = load()));
  return found;
}

/** The columns of a prefix at `place` in the state after the batch (the read models without the batch's prefixes, plus them). */
async function hierarchyAt(
  place: Place,
  view: Lookups,
  changed: Set<number>,
  batch: BatchPlaces,
): Promise<Record<string, number>> {
  const inside = (await view.inside(place)).filter((d) => !changed.has(d.id)).length + batch.inside(place).length;
  const around = new Set([
    ...(await view.around(place)).filter((d) => !changed.has(d.id)).map((d) => keyOf(placeOf(d)!)),
    ...batch.around(place).map(keyOf),
  ]);
  return { _children: inside, _depth: around.size };
}

/** A prefix's columns counted from the read models (for a document that does not carry them). */
export function liveHierarchy(doc: StoredObject, view: LookupView): Promise<Record<string, number>> {
  const place = placeOf(doc);
  return place
    ? hierarchyAt(place, new PlaceLookups(view), new Set([doc.id]), new BatchPlaces([]))
    : Promise.resolve({ _children: 0, _depth: 0 });
}

// The VRF is compared after the look-up: as a query term it would send the look-up
// through the VRF index instead of the network order.

async function storedAt(place: Place, view: LookupView): Promise<StoredObject[]> {
  const found = await view.find(MODEL, {
    _network: { $gte: place.network, $lte: place.network },
    _prefixlen: place.length,
  });
  return found.filter((d) => samePlace(d, place));
}

async function storedInside(place: Place, view: LookupView): Promise<StoredObject[]> {
  const found = await view.find(MODEL, {
    _network: { $gte: place.network, $lte: place.last },
    _prefixlen: { $gt: place.length },
  });
  return found.filter((d) => {
    const p = placeOf(d);
    return p !== null && sameGroup(p, place);
  });
}

/** A container's network is this network cut to a shorter mask: one look-up of those networks. */
async function storedAround(place: Place, view: LookupView): Promise<StoredObject[]> {
  if (place.length === 0) return [];
  const found = await Promise.all(shorterNetworks(place).map((network) => view.find(MODEL, { _network: network })));
  return found.flat().filter((d) => {
    const p = placeOf(d);
    return p !== null && sameGroup(p, place) && p.length < place.length && p.last >= place.last;
  });
}

function samePlace(doc: StoredObject, place: Place): boolean {
  const p = placeOf(doc);
  return p !== null && keyOf(p) === keyOf(place);
}

function shorterNetworks(place: Place): string[] {
  const bits = place.family === 4 ? 32 : 128;
  const value = sortKeyValue(place.network, place.family) ?? 0n;
  const all = (1n << BigInt(bits)) - 1n;
  const networks = new Set<string>();
  for (let length = 0; length < place.length; length++) {
    const mask = all ^ ((1n << BigInt(bits - length)) - 1n);
    networks.add(addressSortKey(place.family, value & mask));
  }
  return [...networks];
}

/** The places a batch leaves prefixes at, ordered by network per VRF and family, for the same look-ups as the read models'. */
export class BatchPlaces {
  private readonly groups = new Map<string, Place[]>();

  constructor(places: Place[]) {
    for (const place of places) {
      const group = this.groups.get(groupOf(place));
      if (group) group.push(place);
      else this.groups.set(groupOf(place), [place]);
    }
    for (const group of this.groups.values())
      group.sort((a, b) => (a.network < b.network ? -1 : a.network > b.network ? 1 : a.length - b.length));
  }

  at(place: Place): Place[] {
    return this.from(place, place.network, place.network).filter((p) => p.length === place.length);
  }

  inside(place: Place): Place[] {
    return this.from(place, place.network, place.last).filter((p) => p.length > place.length);
  }

  around(place: Place): Place[] {
    return shorterNetworks(place).flatMap((network) =>
      this.from(place, network, network).filter((p) => p.length < place.length && p.last >= place.last),
    );
  }

  /** The places of `place`'s group whose network is within first..last. */
  private from(place: Place, first: string, last: string): Place[] {
    const group = this.groups.get(groupOf(place));
    if (!group) return [];
    let low = 0;
    let high = group.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (group[middle]!.network < first) low = middle + 1;
      else high = middle;
    }
    const out: Place[] = [];
    for (let i = low; i < group.length && group[i]!.network <= last; i++) out.push(group[i]!);
    return out;
  }
}
