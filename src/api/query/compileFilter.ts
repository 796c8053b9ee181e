/**
 * Compiles a list request's filter parameters into ONE MongoDB query document that
 * MemoryReadStore (mingo) and MongoReadStore (MongoDB) evaluate identically.
 *
 * - Different parameters AND together; a repeated parameter ORs (tags: AND); empty
 *   values are ignored; parameters that are not filters are ignored (`?name[$ne]=x` is
 *   just an unknown parameter).
 * - Values are data: they are parsed to the filter's type and only ever appear as
 *   operands ($in, $nin, $lt ..., $regex with escaped text), never as keys or operators.
 * - Relations named by slug/name/id are resolved against the read models first (an
 *   unknown one is a 400, as in NetBox); the query then compares ids.
 * - All invalid values of a request are reported together: 400 `{<param>: [message]}`.
 */
import { ValidationError } from '../../errors/requestErrors.js';
import { ContentTypes } from '../../models/contentTypes.js';
import type { FilterEnvironment } from '../../models/filterTypes.js';
import type { ModelDefinition } from '../../models/modelDefinition.js';
import type { ModelRegistry } from '../../models/registry.js';
import type { StoredObject } from '../../models/storedObject.js';
import type { Query } from '../../projections/ReadStore.js';
import { andQueries } from './clauses.js';
import { compileCustomFields } from './customFieldClauses.js';
import { type FilterContext, type FilterReader, ids, report, tooLong } from './filterContext.js';
import { type Filter, filterSetOf, isLenient, type MethodFilter, resolveParameter } from './filterSet.js';
import { networkClause } from './networkClause.js';
import { relatedClause } from './relationClauses.js';
import { MAX_TEXT_LOOKUP, regexCondition } from './textMatch.js';
import { parseAll, valueClause } from './valueClauses.js';

/** Query parameters that are never filters. */
export const RESERVED = new Set([
  'limit',
  'offset',
  'start',
  'ordering',
  'brief',
  'exclude',
  'fields',
  'format',
  'export',
  'filter',
  'filter_id',
]);

class InvalidValue extends Error {}

/**
 * Compiles every filter parameter of `params` for `definition`. Parameters in
 * `handledElsewhere` are left to their own resolvers.
 */
export async function compileFilter(
  registry: ModelRegistry,
  definition: ModelDefinition,
  params: URLSearchParams,
  reader: FilterReader,
  handledElsewhere: ReadonlySet<string> = new Set(),
  requesterId: number | null = null,
): Promise<Query> {
  const ctx: FilterContext = { registry, definition, reader, errors: {}, requesterId };
  const filters = filterSetOf(registry, definition);
  const clauses: Query[] = [];
  const customParams: string[] = [];
  for (const param of new Set(params.keys())) {
    if (RESERVED.has(param) || handledElsewhere.has(param)) continue;
    if (param.startsWith('cf_')) {
      customParams.push(param);
      continue;
    }
    const resolved = resolveParameter(filters, param);
    if (!resolved) continue;
    const values = params.getAll(param).filter((v) => v !== '');
    if (values.length === 0) continue;
    const clause = await compileOne(ctx, param, resolved.filter, resolved.lookup, values);
    if (ctx.errors[param] && isLenient(resolved.filter, resolved.lookup)) {
      // NetBox has no such filter and ignores the parameter: a value we cannot use is no reason for a 400
      delete ctx.errors[param];
      continue;
    }
    if (clause) clauses.push(clause);
  }
  if (customParams.length > 0) clauses.push(...(await compileCustomFields(ctx, params, customParams)));
  if (Object.keys(ctx.errors).length > 0) throw new ValidationError(ctx.errors);
  return andQueries(clauses);
}

async function compileOne(
  ctx: FilterContext,
  param: string,
  filter: Filter,
  lookup: string,
  values: string[],
): Promise<Query | null> {
  switch (filter.kind) {
    case 'value':
      return valueClause(ctx, param, filter, lookup, values);
    case 'related':
      return relatedClause(ctx, param, filter, lookup, values);
    case 'network':
      return networkClause(filter, values);
    case 'method':
      return methodClause(ctx, param, filter, lookup, values);
    case 'search': {
      const text = values[values.length - 1]!.trim();
      if (text === '') return null;
      if (text.length > MAX_TEXT_LOOKUP) {
        report(ctx, param, tooLong(text));
        return null;
      }
      const alternatives: Query[] = filter.fields.map((f) => ({ [f]: regexCondition('ic', [text]) }));
      if (filter.also) {
        const extra = await methodClause(
          ctx,
          param,
          { kind: 'method', method: filter.also, lookups: new Set() },
          'exact',
          [text],
        );
        if (extra) alternatives.push(extra);
      }
      if (alternatives.length === 0) return null;
      return alternatives.length === 1 ? alternatives[0]! : { $or: alternatives };
    }
  }
}

/* Method filters: the function a filter declares (`method`) turns the values into a clause. */

const contentTypes = new WeakMap<ModelRegistry, ContentTypes>();

function contentTypesOf(registry: ModelRegistry): ContentTypes {
  let known = contentTypes.get(registry);
  if (!known) contentTypes.set(registry, (known = new ContentTypes(registry)));
  return known;
}

async function methodClause(
  ctx: FilterContext,
  param: string,
  filter: MethodFilter,
  lookup: string,
  raws: string[],
): Promise<Query | null> {
  const values = filter.single ? [raws[raws.length - 1]!] : raws;
  const parsed = parseAll(ctx, param, { value: filter.value ?? 'string' }, values);
  if (parsed.length === 0 || ctx.errors[param]) return null;
  const env: FilterEnvironment & { lookup: string } = {
    param,
    lookup,
    model: ctx.definition.key,
    ids: (model, query, limit) => ids(ctx.reader, model, query, limit),
    find: async (model, query, limit) =>
      (await ctx.reader.find(model, query, limit === undefined ? {} : { limit })) as unknown as StoredObject[],
    invalid: (message) => {
      throw new InvalidValue(message);
    },
    textCondition: (textLookup, value) => {
      if (value.length > MAX_TEXT_LOOKUP) throw new InvalidValue(tooLong(value));
      return regexCondition(textLookup, [value]);
    },
    contentTypeKey: (id) => contentTypesOf(ctx.registry).key(id),
    requesterId: ctx.requesterId,
  };
  try {
    return await filter.method(parsed, env);
  } catch (error) {
    if (error instanceof InvalidValue) {
      report(ctx, param, error.message);
      return null;
    }
    throw error;
  }
}
