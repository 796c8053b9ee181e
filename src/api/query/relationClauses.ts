/**
 * Relation filters: values name related objects (by id, slug, name ...), resolved against the read
 * models first, then followed back along the relation path (or through a generic holder) to ids.
 */
import type { GenericHolder } from '../../models/filterTypes.js';
import { MATCH_NOTHING } from '../../models/matchNothing.js';
import type { ModelDefinition } from '../../models/modelDefinition.js';
import type { ModelRegistry } from '../../models/registry.js';
import {
  IGNORE,
  invalidChoice as invalidValueChoice,
  invalidPk as invalidPkValue,
  parseValue,
  UNKNOWN_CHOICE,
} from '../../models/values/filterValues.js';
import type { Query } from '../../projections/ReadStore.js';
import { andQueries, negate } from './clauses.js';
import { type FilterContext, type FilterReader, ids, report } from './filterContext.js';
import type { RelatedFilter } from './filterSet.js';

/** Deepest tree walked for descendant-including filters. */
const MAX_TREE_DEPTH = 100;

/** Models reached along a relation path: models[i] holds path[i]; null when a step is not a relation here. */
function pathModels(registry: ModelRegistry, definition: ModelDefinition, path: string[]): ModelDefinition[] | null {
  const models: ModelDefinition[] = [definition];
  for (let i = 0; i < path.length; i++) {
    const field = models[i]!.fields.find((f) => f.name === path[i]);
    if (!field || !(field.type === 'fk' || field.type === 'm2m' || field.type === 'tags') || !field.target) return null;
    if (i < path.length - 1) {
      const next = registry.tryGet(field.target);
      if (!next) return null;
      models.push(next);
    }
  }
  return models;
}

/** Every descendant of the nodes (following `parent`), the nodes included. */
async function withDescendants(reader: FilterReader, model: string, roots: number[]): Promise<number[]> {
  const all = new Set(roots);
  let frontier = roots;
  for (let depth = 0; depth < MAX_TREE_DEPTH && frontier.length > 0; depth++) {
    const children = await ids(reader, model, { parent: { $in: frontier } });
    frontier = children.filter((id) => !all.has(id));
    for (const id of frontier) all.add(id);
  }
  return [...all];
}

/**
 * The target ids each value names; unknown values are reported, a single-value filter's as
 * Django's ModelChoiceField words any value it cannot take (no value quoted).
 */
async function resolveTargets(
  ctx: FilterContext,
  param: string,
  filter: RelatedFilter,
  values: string[],
): Promise<Map<string, number[]> | null> {
  const target = ctx.registry.tryGet(filter.target);
  const byValue = new Map<string, number[]>();
  let failed = false;
  const invalidChoice = (v: string) => (filter.single ? UNKNOWN_CHOICE : invalidValueChoice(v));
  const invalidPk = (v: string) => (filter.single ? UNKNOWN_CHOICE : invalidPkValue(v));
  if (filter.by === 'id') {
    const wanted = new Map<string, number>();
    for (const v of values) {
      const parsed = parseValue('integer', v);
      if (parsed === IGNORE || !parsed.ok) {
        report(ctx, param, invalidPk(v));
        failed = true;
      } else wanted.set(v, parsed.value as number);
    }
    const found = new Set(
      target && wanted.size ? await ids(ctx.reader, target.key, { id: { $in: [...new Set(wanted.values())] } }) : [],
    );
    for (const [v, id] of wanted) {
      if (found.has(id)) byValue.set(v, [id]);
      else {
        report(ctx, param, invalidChoice(v));
        failed = true;
      }
    }
  } else {
    // An attribute stored as a number (a VDC's identifier, an ASN) is named by its digits.
    const numbers = values.filter((v) => /^-?\d+$/.test(v)).map(Number);
    const docs = target ? await ctx.reader.find(target.key, { [filter.by]: { $in: [...values, ...numbers] } }) : [];
    for (const doc of docs) {
      const key = String(doc[filter.by]);
      const list = byValue.get(key);
      if (list) list.push(doc.id);
      else byValue.set(key, [doc.id]);
    }
    for (const v of values) {
      if (!byValue.has(v)) {
        report(ctx, param, invalidChoice(v));
        failed = true;
      }
    }
  }
  if (failed) return null;
  if (filter.includeDescendants && target) {
    for (const [v, list] of byValue) byValue.set(v, await withDescendants(ctx.reader, target.key, list));
  }
  return byValue;
}

/** The clause "path[0] leads to one of `targetIds`" (or to nothing, when includeNull). */
async function walkPath(
  ctx: FilterContext,
  filter: RelatedFilter,
  targetIds: number[],
  includeNull: boolean,
): Promise<Query> {
  if (filter.through) return walkThrough(ctx, filter, filter.through, targetIds, includeNull);
  return walkPathFrom(ctx, ctx.definition, filter, targetIds, includeNull);
}

/** The clause "path[0] of a `definition` object leads to one of `targetIds`" (or to nothing, when includeNull). */
async function walkPathFrom(
  ctx: FilterContext,
  definition: ModelDefinition,
  filter: RelatedFilter,
  targetIds: number[],
  includeNull: boolean,
): Promise<Query> {
  const models = filter.path.length ? pathModels(ctx.registry, definition, filter.path) : null;
  if (!models) return includeNull ? {} : MATCH_NOTHING;
  let current = targetIds;
  for (let i = filter.path.length - 1; i >= 1; i--) {
    const operand = includeNull ? [...current, null] : current;
    current = await ids(ctx.reader, models[i]!.key, { [filter.path[i]!]: { $in: operand } });
  }
  return { [filter.path[0]!]: { $in: includeNull ? [...current, null] : current } };
}

/**
 * The clause "a holder naming this object leads to one of `targetIds`" (a JOIN across a
 * generic relation); with includeNull, objects no holder names match too, as an outer
 * join's missing row does.
 */
async function walkThrough(
  ctx: FilterContext,
  filter: RelatedFilter,
  through: GenericHolder,
  targetIds: number[],
  includeNull: boolean,
): Promise<Query> {
  const holder = ctx.registry.tryGet(through.model);
  if (!holder) return includeNull ? {} : MATCH_NOTHING;
  const own = { [through.typeField]: ctx.definition.key };
  const leading = await walkPathFrom(ctx, holder, filter, targetIds, includeNull);
  const heldIds = async (query: Query) => [
    ...new Set((await ctx.reader.find(holder.key, query)).map((d) => d[through.idField])),
  ];
  const matching = { id: { $in: await heldIds(andQueries([own, leading])) } };
  if (!includeNull) return matching;
  return { $or: [matching, { id: { $nin: await heldIds(own) } }] };
}

export async function relatedClause(
  ctx: FilterContext,
  param: string,
  filter: RelatedFilter,
  lookup: string,
  raws: string[],
): Promise<Query | null> {
  const values = [...new Set(filter.single ? [raws[raws.length - 1]!] : raws)];
  let includeNull = false;
  const named: string[] = [];
  for (const v of values) {
    if (v === 'null' && !filter.all) includeNull = true;
    else named.push(v);
  }
  const byValue = named.length ? await resolveTargets(ctx, param, filter, named) : new Map<string, number[]>();
  if (!byValue) return null;
  const negated = lookup === 'n';
  if (filter.all && !negated && byValue.size > 1) {
    const each = await Promise.all([...byValue.values()].map((list) => walkPath(ctx, filter, list, false)));
    return andQueries(each);
  }
  const union = [...new Set([...byValue.values()].flat())];
  const positive = await walkPath(ctx, filter, union, includeNull);
  return negated ? negate(positive) : positive;
}
