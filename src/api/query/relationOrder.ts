/**
 * `?ordering=<relation>` as NetBox orders it: by the related object's own default ordering
 * (a device by its site's name, an interface by its device's natural name), not by the
 * stored id. Relations without a related object sort last ascending and first descending
 * (PostgreSQL's NULLS LAST / NULLS FIRST). The related model's ordering may itself name a
 * relation (a rack: site, location, name): the projection keeps its order key
 * (models/relationOrder.ts), so the related objects sort by their stored keys alone.
 * A relation of the listed model's own default ordering has such a key too, and never
 * comes here (sort.ts sorts by it in the store).
 *
 * A read-model sort cannot reach another collection, so such a page is ordered at query
 * time: the store returns every match ordered by the terms after the last relation term,
 * the related objects of the matches are ranked in their model's order, and a stable sort
 * by the leading terms puts the matches in order. Its cost grows with the matches (not the
 * page), which is what a list ordered by a relation costs in any case without a stored key.
 */
import type { ModelDefinition } from '../../models/modelDefinition.js';
import { type ModelRegistry, registry as defaultRegistry } from '../../models/registry.js';
import {
  compareKeys,
  compileSort as compileDocumentSort,
  sortKey,
  type SortKeySpec,
  sortValue,
} from '../../projections/querySemantics/sortOrder.js';
import type { Query, ReadDocument, ReadStore, Sort } from '../../projections/ReadStore.js';
import { compileSort, parseOrdering, sortKeysOf } from './sort.js';

/** The sort keys of a list order that are relations ordered by their target's ordering: key → target model. */
export function requestedRelations(
  definition: ModelDefinition,
  ordering: string | null,
  sort: Sort,
): Map<string, string> {
  const out = new Map<string, string>();
  for (const { name } of parseOrdering(ordering)) {
    const field = definition.fields.find((f) => f.name === name);
    if (!field || field.type !== 'fk' || !field.target || !Object.hasOwn(sort, name)) continue;
    const keys = sortKeysOf(definition, name);
    if (keys?.length === 1 && keys[0] === name) out.set(name, field.target);
  }
  return out;
}

/** A relation key's rank of each related id (0 = first in the related model's order). */
type Ranks = Map<string, Map<number, number>>;

/** Ranks the related objects the documents name, for every relation key. */
async function rankRelations(
  store: ReadStore,
  registry: ModelRegistry,
  docs: readonly ReadDocument[],
  relations: Map<string, string>,
): Promise<Ranks> {
  const ranks: Ranks = new Map();
  for (const [key, target] of relations) {
    const ids = new Set<number>();
    for (const d of docs) {
      const v = d[key];
      if (typeof v === 'number') ids.add(v);
    }
    const targetDefinition = registry.tryGet(target);
    const related = ids.size ? await store.getMany(target, [...ids]) : [];
    // the target's own default order: its relations through the order keys the projection keeps
    const ordered = targetDefinition
      ? sortByKeys(related, compileDocumentSort(compileSort(targetDefinition, null)), new Map())
      : related;
    ranks.set(key, new Map(ordered.map((d, i) => [d.id, i])));
  }
  return ranks;
}

/** A stable sort of `docs` by `spec`, relation keys by their rank, a missing relation after every ranked one. */
function sortByKeys(docs: ReadDocument[], spec: SortKeySpec[], ranks: Ranks): ReadDocument[] {
  const keyed = docs.map((doc) => ({
    doc,
    keys: spec.map((s) => {
      const rank = ranks.get(s.field);
      if (!rank) return sortKey(sortValue(doc, s));
      const v = doc[s.field];
      return (typeof v === 'number' ? rank.get(v) : undefined) ?? Infinity;
    }),
  }));
  keyed.sort((a, b) => {
    for (let i = 0; i < spec.length; i++) {
      const r = compareKeys(a.keys[i], b.keys[i]);
      if (r !== 0) return r * spec[i]!.dir;
    }
    return 0;
  });
  return keyed.map((k) => k.doc);
}

/**
 * The documents (in the order of the remaining terms) grouped by the rank of one relation,
 * each group keeping that order: the common `?ordering=<relation>` in one pass, no comparisons.
 */
function bucketByRank(docs: ReadDocument[], key: string, dir: 1 | -1, rank: Map<number, number>): ReadDocument[] {
  const buckets: ReadDocument[][] = Array.from({ length: rank.size + 1 }, () => []);
  const none = rank.size;
  for (const d of docs) {
    const v = d[key];
    buckets[(typeof v === 'number' ? rank.get(v) : undefined) ?? none]!.push(d);
  }
  if (dir === -1) buckets.reverse();
  // Copied by index: Array.prototype.flat is several times slower on large lists.
  const out = new Array<ReadDocument>(docs.length);
  let i = 0;
  for (const bucket of buckets) for (let j = 0; j < bucket.length; j++) out[i++] = bucket[j]!;
  return out;
}

/**
 * A page (and the count) of a list whose order names relations: the matches in the
 * order of the terms after the last relation term from the store, then sorted by the
 * leading terms with the relations ranked.
 */
export async function relationOrderedPage(
  store: ReadStore,
  definition: ModelDefinition,
  filter: Query,
  sort: Sort,
  relations: Map<string, string>,
  skip: number,
  limit: number | undefined,
  registry: ModelRegistry = defaultRegistry,
): Promise<{ count: number; docs: ReadDocument[] }> {
  const keys = Object.keys(sort);
  let last = -1;
  keys.forEach((k, i) => {
    if (relations.has(k)) last = i;
  });
  const leading: Sort = {};
  const trailing: Sort = {};
  keys.forEach((k, i) => ((i <= last ? leading : trailing)[k] = sort[k]!));
  const matches = await store.find(definition.key, filter, { sort: trailing });
  const ranks = await rankRelations(store, registry, matches, relations);
  const ordered =
    last === 0
      ? bucketByRank(matches, keys[0]!, sort[keys[0]!]!, ranks.get(keys[0]!)!)
      : sortByKeys(matches, compileDocumentSort(leading), ranks);
  return { count: ordered.length, docs: ordered.slice(skip, limit === undefined ? undefined : skip + limit) };
}
