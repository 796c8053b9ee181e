/**
 * The order keys of relations in default orderings (models/relationOrder.ts): each object of
 * a model ordered by a relation keeps `_ord_<field>`, the related object's order key, so a
 * list sorts by it in the store like any stored value (interfaces by their device's natural
 * name, VLANs by site, then group). The key of an object is its model's ordering terms,
 * encoded so that comparing keys as strings (byte order, as both read stores compare
 * strings) orders as the terms do, nulls last; a relation term of that ordering contributes
 * the object's own kept key, so keys compose (a power feed by its panel, the panel by its
 * site).
 *
 * A batch's documents get their keys from the related objects as the batch leaves them; an
 * object of the batch whose key changes (a device renamed) patches the objects that keep it
 * (its interfaces), and so on down (a site renamed: its power panels, then their feeds), as
 * column patches in the same apply, like projectedColumns.ts.
 */
import type { ModelDefinition } from '../models/modelDefinition.js';
import type { ModelRegistry } from '../models/registry.js';
import { orderedRelations } from '../models/relationOrder.js';
import type { DocumentChange, ReadDocument, ReadStore } from './ReadStore.js';

/** Ends every term of a key: below every character a name may hold, so a shorter text orders first. */
const END = '\u0000';
/** The kept key of no relation: after every key (each begins with its first term's '0' or '1'), so nulls come last. */
export const NO_RELATION = '2';
/** Deepest chain of relation orderings followed (a port template → device type → manufacturer is 2). */
const MAX_DEPTH = 8;

interface Holder {
  model: string;
  field: string;
  column: string;
}

interface OrderGraph {
  /** Models keeping order keys, with the relations they keep. */
  keeps: Map<string, ReturnType<typeof orderedRelations>>;
  /** Models whose objects' keys others keep, with who keeps them. */
  keptBy: Map<string, Holder[]>;
}

const graphs = new WeakMap<ModelRegistry, OrderGraph>();

function graphOf(registry: ModelRegistry): OrderGraph {
  let graph = graphs.get(registry);
  if (graph) return graph;
  graph = { keeps: new Map(), keptBy: new Map() };
  for (const definition of registry.all()) {
    const relations = orderedRelations(definition);
    if (relations.length === 0) continue;
    graph.keeps.set(definition.key, relations);
    for (const r of relations) {
      const list = graph.keptBy.get(r.target) ?? [];
      list.push({ model: definition.key, field: r.field, column: r.column });
      graph.keptBy.set(r.target, list);
    }
  }
  graphs.set(registry, graph);
  return graph;
}

/** A number as text that orders as the number does (integers exactly; fractions to 9 places). */
function encodeNumber(n: number): string {
  if (Number.isInteger(n)) {
    const digits = (n < 0 ? 10n ** 21n + BigInt(n) : BigInt(n)).toString().padStart(21, '0');
    return (n < 0 ? 'm' : 'p') + digits;
  }
  const whole = Math.floor(n);
  return `${encodeNumber(whole)}.${Math.round((n - whole) * 1e9)
    .toString()
    .padStart(9, '0')}`;
}

/** One term: '0' and the value, or '1' for null (nulls last, as PostgreSQL orders ascending). */
function encodeTerm(value: unknown): string {
  if (value === null || value === undefined) return `1${END}`;
  if (typeof value === 'number') return `0${encodeNumber(value)}${END}`;
  if (typeof value === 'boolean') return `0${value ? '1' : '0'}${END}`;
  return `0${String(value)}${END}`;
}

/** The order key of an object: its model's ordering terms, relations through the keys it keeps. */
export function orderKeyOf(definition: ModelDefinition, doc: ReadDocument): string {
  const kept = new Map(orderedRelations(definition).map((r) => [r.field, r.column]));
  let key = '';
  for (const term of definition.ordering) {
    const column = kept.get(term);
    key += encodeTerm(column ? doc[column] : doc[term]);
  }
  return key;
}

const at = (model: string, id: number) => `${model}#${id}`;

/**
 * In one read per collection, the stored documents the batch needs first: the related objects
 * its documents keep keys of, and the batch's own objects whose keys others keep (as before it).
 */
async function prefetch(
  registry: ModelRegistry,
  store: ReadStore,
  graph: OrderGraph,
  changes: DocumentChange[],
  latest: Map<string, number>,
): Promise<Map<string, ReadDocument | null>> {
  const wanted = new Map<string, Set<number>>();
  const want = (model: string, id: number) => {
    const set = wanted.get(model) ?? new Set<number>();
    set.add(id);
    wanted.set(model, set);
  };
  for (const index of latest.values()) {
    const change = changes[index]!;
    if (graph.keptBy.has(change.collection)) want(change.collection, change.id);
    for (const r of (change.doc && graph.keeps.get(change.collection)) || []) {
      const id = change.doc![r.field];
      if (typeof id === 'number' && !latest.has(at(r.target, id)) && registry.tryGet(r.target)) want(r.target, id);
    }
  }
  const found = new Map<string, ReadDocument | null>();
  for (const [model, ids] of wanted) {
    for (const id of ids) found.set(at(model, id), null);
    for (const doc of await store.getMany(model, [...ids])) found.set(at(model, doc.id), doc);
  }
  return found;
}

/** The batch with every document's kept order keys, and patches for the objects whose kept keys it changes. */
export async function withRelationOrderKeys(
  registry: ModelRegistry,
  store: ReadStore,
  changes: DocumentChange[],
): Promise<DocumentChange[]> {
  const graph = graphOf(registry);
  if (!changes.some((c) => !c.columns && (graph.keeps.has(c.collection) || graph.keptBy.has(c.collection))))
    return changes;

  // The batch's documents as it leaves them (the last change of each wins).
  const latest = new Map<string, number>();
  changes.forEach((c, i) => {
    if (!c.columns) latest.set(at(c.collection, c.id), i);
  });
  const out = [...changes];
  const keys = new Map<string, string | null>();
  const settled = new Set<number>();
  const stored = await prefetch(registry, store, graph, changes, latest);

  /** The order key of an object as the batch leaves it (null: no such object). */
  const keyOf = async (model: string, id: number, depth: number): Promise<string | null> => {
    const name = at(model, id);
    if (keys.has(name)) return keys.get(name)!;
    const definition = registry.tryGet(model);
    const index = latest.get(name);
    let doc: ReadDocument | null;
    if (index !== undefined) doc = await settle(index, depth + 1);
    else {
      doc = stored.has(name) ? stored.get(name)! : await store.get(model, id);
      // Its own kept keys as the batch leaves them: a power feed's panel keeps its site's key,
      // and the batch may rename the site without touching the panel.
      if (doc) doc = await keptAsLeft(model, doc, depth + 1);
    }
    const key = doc && definition ? orderKeyOf(definition, doc) : null;
    keys.set(name, key);
    return key;
  };

  /** A document outside the batch with the keys it keeps worked out from the related objects as the batch leaves them. */
  const keptAsLeft = async (model: string, doc: ReadDocument, depth: number): Promise<ReadDocument> => {
    const relations = graph.keeps.get(model);
    if (!relations) return doc;
    if (depth > MAX_DEPTH) throw new Error(`relation orderings deeper than ${MAX_DEPTH} at ${model}`);
    const columns: Record<string, unknown> = {};
    for (const r of relations) {
      const id = doc[r.field];
      columns[r.column] = (typeof id === 'number' ? await keyOf(r.target, id, depth) : null) ?? NO_RELATION;
    }
    return { ...doc, ...columns } as ReadDocument;
  };

  /** The batch's change at `index` with its kept keys filled in. */
  const settle = async (index: number, depth: number): Promise<ReadDocument | null> => {
    const change = out[index]!;
    if (settled.has(index) || !change.doc) return change.doc;
    if (depth > MAX_DEPTH) throw new Error(`relation orderings deeper than ${MAX_DEPTH} at ${change.collection}`);
    settled.add(index);
    const relations = graph.keeps.get(change.collection);
    if (!relations) return change.doc;
    const columns: Record<string, unknown> = {};
    for (const r of relations) {
      const id = change.doc[r.field];
      columns[r.column] = (typeof id === 'number' ? await keyOf(r.target, id, depth) : null) ?? NO_RELATION;
    }
    const doc = { ...change.doc, ...columns } as ReadDocument;
    out[index] = { ...change, doc };
    return doc;
  };

  for (const index of latest.values()) await settle(index, 0);

  // Objects of the batch whose key others keep and which it changes: patch the keepers outside the batch.
  const position = changes.reduce((highest, c) => Math.max(highest, c.position), 0);
  const patches = new Map<string, DocumentChange>();
  let moved: Array<{ model: string; id: number; key: string }> = [];
  for (const [name, index] of latest) {
    const change = out[index]!;
    if (!change.doc || !graph.keptBy.has(change.collection)) continue;
    const before = stored.get(name) ?? null;
    const definition = registry.get(change.collection);
    const key = orderKeyOf(definition, change.doc);
    if (before && orderKeyOf(definition, before) !== key) moved.push({ model: change.collection, id: change.id, key });
    keys.set(name, key);
  }
  for (let depth = 0; moved.length > 0; depth++) {
    if (depth > MAX_DEPTH) throw new Error(`relation orderings deeper than ${MAX_DEPTH}`);
    const next: typeof moved = [];
    for (const { model, id, key } of moved) {
      for (const holder of graph.keptBy.get(model) ?? []) {
        const holderDefinition = registry.get(holder.model);
        for (const doc of await store.find(holder.model, { [holder.field]: id })) {
          const name = at(holder.model, doc.id);
          if (latest.has(name)) continue; // the batch's own document took the new key already
          const patch = patches.get(name) ?? { collection: holder.model, id: doc.id, position, doc: null, columns: {} };
          const current = { ...doc, ...patch.columns } as ReadDocument;
          patch.columns![holder.column] = key;
          patches.set(name, patch);
          if (graph.keptBy.has(holder.model)) {
            const updated = orderKeyOf(holderDefinition, { ...current, [holder.column]: key } as ReadDocument);
            if (updated !== orderKeyOf(holderDefinition, current))
              next.push({ model: holder.model, id: doc.id, key: updated });
          }
        }
      }
    }
    moved = next;
  }
  return patches.size ? [...out, ...patches.values()] : out;
}
