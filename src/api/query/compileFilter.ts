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
import { ValidationError } from '../../commands/errors.js';
import { ContentTypes } from '../../models/contentTypes.js';
import type { FieldErrors } from '../../models/fieldErrors.js';
import type { FilterEnvironment, GenericHolder } from '../../models/filterTypes.js';
import { MATCH_NOTHING } from '../../models/matchNothing.js';
import type { ModelDefinition } from '../../models/modelDefinition.js';
import type { ModelRegistry } from '../../models/registry.js';
import type { StoredObject } from '../../models/storedObject.js';
import {
  IGNORE,
  invalidChoice,
  invalidPk,
  type Parsed,
  parseEmptyFlag,
  parseValue,
} from '../../models/values/filterValues.js';
import { canonicalMac, canonicalWwn } from '../../models/values/hardwareAddress.js';
import { addressSortKey, type Cidr, lastAddress, networkAddress, parseCidr } from '../../models/values/ipNetworks.js';
import type { FindOptions, Query, ReadDocument } from '../../projections/ReadStore.js';
import {
  type Filter,
  filterSetOf,
  isLenient,
  type MethodFilter,
  type NetworkFilter,
  type RelatedFilter,
  resolveParameter,
  type ValueFilter,
  type ValueKind,
} from './filterSet.js';
import { emptyClause, MAX_TEXT_LOOKUP, regexCondition, textClause } from './textMatch.js';

export { compileSort } from './sort.js';

/** The read access the compiler needs (a ReadStore satisfies it). */
export interface FilterReader {
  find(collection: string, query: Query, options?: FindOptions): Promise<ReadDocument[]>;
}

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

/** Deepest tree walked for descendant-including filters. */
const MAX_TREE_DEPTH = 100;

class InvalidValue extends Error {}

/** AND of query documents, dropping empty ones. */
export function andQueries(clauses: Query[]): Query {
  const real = clauses.filter((c) => Object.keys(c).length > 0);
  if (real.length === 0) return {};
  return real.length === 1 ? real[0]! : { $and: real };
}

function tooLong(value: string): string {
  return `Ensure this value has at most ${MAX_TEXT_LOOKUP} characters (it has ${value.length}).`;
}

interface Context {
  registry: ModelRegistry;
  definition: ModelDefinition;
  reader: FilterReader;
  errors: FieldErrors;
  requesterId: number | null;
}

function report(ctx: Context, param: string, message: string): void {
  const list = (ctx.errors[param] ??= []);
  if (!list.includes(message)) list.push(message);
}

async function ids(reader: FilterReader, model: string, query: Query, limit?: number): Promise<number[]> {
  const docs = await reader.find(model, query, limit === undefined ? {} : { limit });
  return docs.map((d) => d.id);
}

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
  const ctx: Context = { registry, definition, reader, errors: {}, requesterId };
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
  ctx: Context,
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

/* ------------------------------------------------------------ plain values */

function parseOne(
  ctx: Context,
  param: string,
  filter: Pick<ValueFilter, 'value' | 'choices'>,
  raw: string,
): Parsed<string | number | boolean> {
  switch (filter.value) {
    case 'choice': {
      const match = filter.choices?.find((c) => String(c) === raw);
      return match === undefined ? { ok: false, message: invalidChoice(raw) } : { ok: true, value: match };
    }
    case 'mac':
      return { ok: true, value: canonicalMac(raw) ?? raw };
    case 'wwn':
      return { ok: true, value: canonicalWwn(raw) ?? raw };
    default:
      return parseValue(filter.value, raw);
  }
}

/** The values parsed for the filter's type; errors are reported under `param`. */
function parseAll(
  ctx: Context,
  param: string,
  filter: Pick<ValueFilter, 'value' | 'choices'>,
  raws: string[],
): Array<string | number | boolean> {
  const out: Array<string | number | boolean> = [];
  for (const raw of raws) {
    const parsed = parseOne(ctx, param, filter, raw);
    if (parsed === IGNORE) continue;
    if (!parsed.ok) report(ctx, param, parsed.message);
    else out.push(parsed.value);
  }
  return out;
}

const TEXTUAL: ReadonlySet<ValueKind> = new Set(['string', 'mac', 'wwn']);

function valueClause(ctx: Context, param: string, filter: ValueFilter, lookup: string, raws: string[]): Query | null {
  const values = filter.single ? [raws[raws.length - 1]!] : raws;
  const key = filter.key;
  if (lookup === 'empty') {
    const flag = parseEmptyFlag(values[values.length - 1]!);
    return flag === IGNORE || !flag.ok ? null : emptyClause(key, flag.value);
  }
  let effective = lookup;
  if (filter.caseInsensitive && (lookup === 'exact' || lookup === 'n')) effective = lookup === 'exact' ? 'ie' : 'nie';
  if (TEXTUAL.has(filter.value) && effective !== 'exact' && effective !== 'n') {
    const long = values.find((v) => v.length > MAX_TEXT_LOOKUP);
    if (long !== undefined) {
      report(ctx, param, tooLong(long));
      return null;
    }
    return textClause(key, effective, values);
  }
  const parsed = parseAll(ctx, param, filter, values);
  if (parsed.length === 0) return null;
  switch (effective) {
    case 'exact':
      return parsed.length === 1 ? { [key]: parsed[0] } : { [key]: { $in: parsed } };
    case 'n':
      return { [key]: { $nin: parsed } };
    case 'lt':
    case 'lte':
      return { [key]: { [`$${effective}`]: extreme(parsed, 1) } };
    case 'gt':
    case 'gte':
      return { [key]: { [`$${effective}`]: extreme(parsed, -1) } };
    default:
      return null;
  }
}

/** The largest (dir 1) or smallest (dir -1) value: "less than any of" is "less than the largest". */
function extreme(values: Array<string | number | boolean>, dir: 1 | -1): string | number | boolean {
  return values.reduce((a, b) => ((dir === 1 ? b > a : b < a) ? b : a));
}

/* ------------------------------------------------------------ relations */

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

/** The target ids each value names; unknown values are reported. */
async function resolveTargets(
  ctx: Context,
  param: string,
  filter: RelatedFilter,
  values: string[],
): Promise<Map<string, number[]> | null> {
  const target = ctx.registry.tryGet(filter.target);
  const byValue = new Map<string, number[]>();
  let failed = false;
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
  ctx: Context,
  filter: RelatedFilter,
  targetIds: number[],
  includeNull: boolean,
): Promise<Query> {
  if (filter.through) return walkThrough(ctx, filter, filter.through, targetIds, includeNull);
  return walkPathFrom(ctx, ctx.definition, filter, targetIds, includeNull);
}

/** The clause "path[0] of a `definition` object leads to one of `targetIds`" (or to nothing, when includeNull). */
async function walkPathFrom(
  ctx: Context,
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
  ctx: Context,
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

function negate(clause: Query): Query {
  const keys = Object.keys(clause);
  if (keys.length === 0) return MATCH_NOTHING;
  if (clause === MATCH_NOTHING) return {};
  if (keys.length === 1 && !keys[0]!.startsWith('$')) {
    const cond = clause[keys[0]!] as Record<string, unknown>;
    if (cond && typeof cond === 'object' && Object.keys(cond).length === 1 && Array.isArray(cond.$in))
      return { [keys[0]!]: { $nin: cond.$in } };
  }
  return { $nor: [clause] };
}

async function relatedClause(
  ctx: Context,
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

/* ------------------------------------------------------------ networks */

function networkBounds(cidr: Cidr): { net: string; last: string; floor: string } {
  return {
    net: addressSortKey(cidr.family, networkAddress(cidr)),
    last: addressSortKey(cidr.family, lastAddress(cidr)),
    floor: addressSortKey(cidr.family, 0n),
  };
}

function anyOf(clauses: Query[]): Query {
  if (clauses.length === 0) return MATCH_NOTHING;
  return clauses.length === 1 ? clauses[0]! : { $or: clauses };
}

function networkClause(filter: NetworkFilter, raws: string[]): Query {
  const values = filter.single ? [raws[raws.length - 1]!] : raws;
  const parsed = values.map((v) => (v.length > 100 ? null : parseCidr(v)));
  switch (filter.op) {
    case 'within':
    case 'within_include': {
      const cidr = parsed[parsed.length - 1];
      if (!cidr) return MATCH_NOTHING;
      const { net, last } = networkBounds(cidr);
      return {
        _network: { $gte: net, $lte: last },
        _prefixlen: { [filter.op === 'within' ? '$gt' : '$gte']: cidr.prefixlen },
      };
    }
    case 'contains': {
      const cidr = parsed[parsed.length - 1];
      if (!cidr) return MATCH_NOTHING;
      const { net, last, floor } = networkBounds(cidr);
      return { _network: { $gte: floor, $lte: net }, _last: { $gte: last }, _prefixlen: { $lte: cidr.prefixlen } };
    }
    case 'network':
      return anyOf(
        parsed
          .filter((c): c is Cidr => c !== null)
          .map((c) => ({ _network: networkBounds(c).net, _prefixlen: c.prefixlen })),
      );
    case 'parent': {
      if (parsed.some((c) => c === null)) return MATCH_NOTHING;
      return anyOf(
        (parsed as Cidr[]).map((c) => {
          const { net, last } = networkBounds(c);
          return { _address: { $gte: net, $lte: last } };
        }),
      );
    }
    case 'address':
      return anyOf(
        values.flatMap((v, i) => {
          const c = parsed[i];
          if (!c) return [];
          const key = addressSortKey(c.family, c.value);
          return [v.includes('/') ? { _address: key, _prefixlen: c.prefixlen } : { _address: key }];
        }),
      );
  }
}

/* ------------------------------------------------------------ methods */

const contentTypes = new WeakMap<ModelRegistry, ContentTypes>();

function contentTypesOf(registry: ModelRegistry): ContentTypes {
  let known = contentTypes.get(registry);
  if (!known) contentTypes.set(registry, (known = new ContentTypes(registry)));
  return known;
}

async function methodClause(
  ctx: Context,
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

/* ------------------------------------------------------------ custom fields */

const CF_TEXT_LOOKUPS = ['n', 'ic', 'nic', 'isw', 'nisw', 'iew', 'niew', 'ie', 'nie', 'empty'];
const CF_RANGE_LOOKUPS = ['n', 'lt', 'lte', 'gt', 'gte'];

/** The `cf_<name>` filter of one custom field, or null when its filter_logic is disabled. */
function customFieldFilter(
  field: ReadDocument,
): (ValueFilter & { loose?: boolean; emptyMatchesNothing?: boolean }) | null {
  const key = `custom_fields.${String(field.name)}`;
  const logic = field.filter_logic ?? 'loose';
  if (logic === 'disabled') return null;
  const make = (value: ValueKind, lookups: string[], extra: object = {}) => ({
    kind: 'value' as const,
    key,
    value,
    lookups: new Set(lookups),
    ...extra,
  });
  switch (field.type) {
    case 'text':
    case 'longtext':
    case 'url':
      return logic === 'exact'
        ? make('string', CF_TEXT_LOOKUPS, { emptyMatchesNothing: true })
        : make('string', [], { loose: true });
    case 'select':
      return make('string', CF_TEXT_LOOKUPS, { emptyMatchesNothing: true });
    case 'integer':
    case 'object':
      return make('integer', CF_RANGE_LOOKUPS);
    case 'decimal':
      return make('decimal', CF_RANGE_LOOKUPS);
    case 'date':
      return make('date', CF_RANGE_LOOKUPS);
    case 'boolean':
      return make('boolean', [], { single: true });
    case 'multiselect':
      return make('string', []);
    case 'multiobject':
      return make('integer', []);
    default:
      return null; // json
  }
}

async function compileCustomFields(ctx: Context, params: URLSearchParams, names: string[]): Promise<Query[]> {
  const defined = await ctx.reader.find('extras.customfield', { content_types: ctx.definition.key });
  const byName = new Map(defined.map((d) => [String(d.name), d]));
  const clauses: Query[] = [];
  for (const param of names) {
    let name = param.slice(3);
    let lookup = 'exact';
    if (!byName.has(name)) {
      const split = name.lastIndexOf('__');
      if (split <= 0) continue;
      lookup = name.slice(split + 2);
      name = name.slice(0, split);
    }
    const field = byName.get(name);
    const filter = field ? customFieldFilter(field) : null;
    if (!filter || (lookup !== 'exact' && !filter.lookups.has(lookup))) continue;
    const values = params.getAll(param).filter((v) => v !== '');
    if (values.length === 0) continue;
    if (lookup === 'empty' && filter.emptyMatchesNothing) {
      clauses.push(MATCH_NOTHING);
      continue;
    }
    const clause = filter.loose
      ? valueClause(ctx, param, filter, 'ic', values)
      : valueClause(ctx, param, filter, lookup, values);
    if (clause) clauses.push(clause);
  }
  return clauses;
}
