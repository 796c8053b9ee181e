import type { LookupView } from '../lookupView.js';
import type { StoredObject } from '../storedObject.js';
import type { CriterionValues } from './ContextIndex.js';
import type { ContextScope, Criterion, CriterionSource } from './contextScopes.js';

/**
 * Each object's values for the given criteria, read for a whole page at once: every
 * related model is fetched once per level of the chain (sites, then their regions, then
 * the regions' parents ...), never object by object.
 */
export async function criterionValues(
  objs: readonly StoredObject[],
  scope: ContextScope,
  criteria: readonly Criterion[],
  view: LookupView,
): Promise<CriterionValues[]> {
  const related = new RelatedObjects(view);
  const out = objs.map(() => new Map<Criterion, readonly number[]>());
  for (const criterion of criteria) {
    const source = scope[criterion];
    if (typeof source !== 'object') continue; // 'none': no value; 'ignored': not counted by the index
    const values = await valuesOf(objs, source, related);
    values.forEach((ids, i) => {
      if (ids.length > 0) out[i].set(criterion, ids);
    });
  }
  return out;
}

/** Per object, its values (repeats possible: the index counts a criterion once). */
async function valuesOf(
  objs: readonly StoredObject[],
  source: CriterionSource,
  related: RelatedObjects,
): Promise<number[][]> {
  const [first, ...rest] = source.hops;
  let current = objs.map((obj) => idsIn(obj[first[0]]));
  let model = first[1];
  for (const [field, next] of rest) {
    const docs = await related.load(model, current.flat());
    current = current.map((ids) => ids.flatMap((id) => idsIn(docs.get(id)?.[field])));
    model = next;
  }
  if (!source.ancestors) return current;
  const chains = await related.ancestry(model, current.flat());
  return current.map((ids) => ids.flatMap((id) => chains.get(id) ?? [id]));
}

function idsIn(value: unknown): number[] {
  if (typeof value === 'number') return [value];
  if (Array.isArray(value)) return value.filter((v): v is number => typeof v === 'number');
  return [];
}

/** Related objects read during one render, each fetched once. */
class RelatedObjects {
  private readonly byModel = new Map<string, Map<number, StoredObject | null>>();

  constructor(private readonly view: LookupView) {}

  /** The objects of `model` with these ids (absent ones map to nothing). */
  async load(model: string, ids: readonly number[]): Promise<Map<number, StoredObject | null>> {
    const known = this.byModel.get(model) ?? new Map<number, StoredObject | null>();
    this.byModel.set(model, known);
    const missing = [...new Set(ids)].filter((id) => !known.has(id));
    if (missing.length > 0) {
      for (const id of missing) known.set(id, null);
      for (const doc of await this.view.find(model, { id: { $in: missing } })) known.set(doc.id, doc);
    }
    return known;
  }

  /** Per id: the id and its ancestors through `parent`, nearest first. */
  async ancestry(model: string, ids: readonly number[]): Promise<Map<number, number[]>> {
    const visited = new Set<number>();
    let frontier = [...new Set(ids)];
    let docs = await this.load(model, []);
    while (frontier.length > 0) {
      docs = await this.load(model, frontier);
      for (const id of frontier) visited.add(id);
      const parents = frontier
        .map((id) => docs.get(id)?.parent)
        .filter((p): p is number => typeof p === 'number' && !visited.has(p));
      frontier = [...new Set(parents)];
    }
    const chains = new Map<number, number[]>();
    for (const id of new Set(ids)) {
      const chain: number[] = [];
      for (let at: number | undefined = id; at !== undefined && !chain.includes(at);) {
        chain.push(at);
        const parent: unknown = docs.get(at)?.parent;
        at = typeof parent === 'number' ? parent : undefined;
      }
      chains.set(id, chain);
    }
    return chains;
  }
}
