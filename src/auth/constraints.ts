import type { FieldDefinition } from '../models/fieldDefinition.js';
import type { LookupView } from '../models/lookupView.js';
import type { ModelDefinition } from '../models/modelDefinition.js';
import type { ModelRegistry } from '../models/registry.js';
import type { Query } from '../projections/ReadStore.js';
import { lookupPattern, regexCondition } from '../projections/textPatterns.js';

/**
 * Object-permission constraints (NetBox's Django ORM lookups) compiled to MongoDB query
 * documents. Constraint JSON is data, never a query: every key must name a field of the
 * model (optionally through foreign keys, `site__region__slug`) followed by one of the
 * lookups below; every value must be a JSON scalar (or a list of scalars for `in` and
 * `range`). The operators in the result are written here, so nothing from the
 * constraint can reach the store as an operator. `"$user"` becomes the user's id.
 *
 * A constraint that does not compile (unknown field, unsupported lookup, object value)
 * matches nothing: permissions fail closed. NetBox raises a server error instead.
 */

export const LOOKUPS = new Set([
  'exact',
  'iexact',
  'in',
  'contains',
  'icontains',
  'startswith',
  'istartswith',
  'endswith',
  'iendswith',
  'gt',
  'gte',
  'lt',
  'lte',
  'isnull',
  'range',
]);

/** Field types a constraint can test (stored values; computed and rendered-only fields are not). */
const CONSTRAINABLE = new Set([
  'id',
  'string',
  'integer',
  'decimal',
  'boolean',
  'date',
  'datetime',
  'choice',
  'cidr',
  'ip_address',
  'mac_address',
  'wwn',
  'fk',
  'm2m',
  'tags',
  'content_type',
  'array',
]);

const RELATION = new Set(['fk', 'm2m', 'tags']);
const NUMERIC = new Set(['id', 'integer', 'decimal', 'fk', 'm2m', 'tags']);

export type Compiled =
  | { kind: 'static'; query: Query }
  | { kind: 'dynamic'; resolve(view: LookupView): Promise<Query> }
  | { kind: 'invalid'; reason: string };

type Scalar = string | number | boolean | null;

class ConstraintError extends Error {}

function isScalar(value: unknown): value is Scalar {
  return (
    value === null ||
    typeof value === 'string' ||
    typeof value === 'boolean' ||
    (typeof value === 'number' && Number.isFinite(value))
  );
}

/** '$user' (as a value or a list item) is the requesting user. */
function substituteUser(value: unknown, userId: number | null): unknown {
  if (value === '$user') return userId;
  if (Array.isArray(value)) return value.map((v) => (v === '$user' ? userId : v));
  return value;
}

function findField(definition: ModelDefinition, name: string): FieldDefinition | null {
  if (name === 'pk') name = 'id';
  const direct = definition.fields.find((f) => f.name === name);
  if (direct) return direct;
  // Django's attname for a foreign key: site_id is the column behind site.
  if (name.endsWith('_id')) {
    const fk = definition.fields.find((f) => f.name === name.slice(0, -3) && f.type === 'fk');
    if (fk) return fk;
  }
  return null;
}

function usable(field: FieldDefinition): boolean {
  return CONSTRAINABLE.has(field.type) && !field.internal && !field.writeOnly && !field.secret;
}

function coerce(field: FieldDefinition, value: Scalar): Scalar {
  if (typeof value === 'string' && NUMERIC.has(field.type) && /^-?\d+(\.\d+)?$/.test(value)) return Number(value);
  if (typeof value === 'string' && field.type === 'boolean' && /^(true|false)$/i.test(value))
    return value.toLowerCase() === 'true';
  return value;
}

function scalar(field: FieldDefinition, value: unknown): Scalar {
  if (!isScalar(value)) throw new ConstraintError('values must be strings, numbers, booleans or null');
  return coerce(field, value);
}

function text(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  throw new ConstraintError('text lookups need a string');
}

/** The condition on one stored field for one lookup, as a MongoDB operator document. */
function condition(field: FieldDefinition, lookup: string, raw: unknown): Record<string, unknown> {
  switch (lookup) {
    case 'exact':
      return { $eq: scalar(field, raw) };
    // The same literal patterns and case folding as the list filters, so that both read
    // stores decide a constraint alike ('$' would also match before a final newline in MongoDB).
    case 'iexact':
      return regexCondition('ie', [text(raw)]);
    case 'contains':
      return { $regex: lookupPattern('ic', [text(raw)]), $options: 'u' };
    case 'icontains':
      return regexCondition('ic', [text(raw)]);
    case 'startswith':
      return { $regex: lookupPattern('isw', [text(raw)]), $options: 'u' };
    case 'istartswith':
      return regexCondition('isw', [text(raw)]);
    case 'endswith':
      return { $regex: lookupPattern('iew', [text(raw)]), $options: 'u' };
    case 'iendswith':
      return regexCondition('iew', [text(raw)]);
    case 'gt':
    case 'gte':
    case 'lt':
    case 'lte': {
      const value = scalar(field, raw);
      if (value === null || typeof value === 'boolean')
        throw new ConstraintError(`${lookup} needs a number or a string`);
      return { [`$${lookup}`]: value };
    }
    case 'in': {
      if (!Array.isArray(raw)) throw new ConstraintError('in needs a list');
      return { $in: raw.map((v) => scalar(field, v)) };
    }
    case 'range': {
      if (!Array.isArray(raw) || raw.length !== 2) throw new ConstraintError('range needs [low, high]');
      return { $gte: scalar(field, raw[0]), $lte: scalar(field, raw[1]) };
    }
    case 'isnull': {
      if (typeof raw !== 'boolean') throw new ConstraintError('isnull needs true or false');
      return raw ? { $eq: null } : { $ne: null };
    }
    default:
      throw new ConstraintError(`unsupported lookup '${lookup}'`);
  }
}

interface Step {
  model: ModelDefinition;
  field: FieldDefinition;
}

/** One `key: value` of a constraint: the fields walked and the final condition. */
function compileTerm(
  registry: ModelRegistry,
  definition: ModelDefinition,
  key: string,
  raw: unknown,
): { steps: Step[]; cond: Record<string, unknown> } {
  const parts = key.split('__');
  if (parts.some((p) => p === '')) throw new ConstraintError(`malformed lookup '${key}'`);
  let lookup = 'exact';
  if (parts.length > 1 && LOOKUPS.has(parts[parts.length - 1])) lookup = parts.pop()!;
  const steps: Step[] = [];
  let model = definition;
  for (let i = 0; i < parts.length; i++) {
    const field = findField(model, parts[i]);
    if (!field || !usable(field)) throw new ConstraintError(`unknown field '${parts[i]}' of ${model.key}`);
    steps.push({ model, field });
    if (i < parts.length - 1) {
      const target = RELATION.has(field.type) && field.target ? registry.tryGet(field.target) : undefined;
      if (!target) throw new ConstraintError(`'${parts[i]}' of ${model.key} is not a relation`);
      model = target;
    }
  }
  return { steps, cond: condition(steps[steps.length - 1].field, lookup, raw) };
}

function storedName(field: FieldDefinition): string {
  return field.type === 'id' ? 'id' : field.name;
}

/** Resolve a term across relations from the far end: ids of the targets, then the clause on the first field. */
async function resolveTerm(view: LookupView, steps: Step[], cond: Record<string, unknown>): Promise<Query> {
  let clause: Query = { [storedName(steps[steps.length - 1].field)]: cond };
  for (let i = steps.length - 2; i >= 0; i--) {
    const target = steps[i + 1].model;
    const ids = (await view.find(target.key, clause)).map((o) => o.id);
    clause = { [storedName(steps[i].field)]: { $in: ids } };
  }
  return clause;
}

/**
 * One alternative of a permission's constraints (a JSON object: AND of its lookups).
 * Lookups through relations are resolved per evaluation, against the view given then.
 */
export function compileConstraint(
  registry: ModelRegistry,
  definition: ModelDefinition,
  constraint: unknown,
  userId: number | null,
): Compiled {
  if (constraint === null || typeof constraint !== 'object' || Array.isArray(constraint)) {
    return { kind: 'invalid', reason: 'a constraint must be an object of lookups' };
  }
  try {
    const terms = Object.entries(constraint as Record<string, unknown>).map(([key, value]) =>
      compileTerm(registry, definition, key, substituteUser(value, userId)),
    );
    const local = terms.filter((t) => t.steps.length === 1).map((t) => ({ [storedName(t.steps[0].field)]: t.cond }));
    const remote = terms.filter((t) => t.steps.length > 1);
    const combine = (clauses: Query[]): Query =>
      clauses.length === 0 ? {} : clauses.length === 1 ? clauses[0] : { $and: clauses };
    if (remote.length === 0) return { kind: 'static', query: combine(local) };
    return {
      kind: 'dynamic',
      async resolve(view) {
        const resolved = await Promise.all(remote.map((t) => resolveTerm(view, t.steps, t.cond)));
        return combine([...local, ...resolved]);
      },
    };
  } catch (error) {
    if (error instanceof ConstraintError) return { kind: 'invalid', reason: error.message };
    throw error;
  }
}

/** The alternatives of a permission's `constraints`: null/{} = everything (returned as null), a list = OR. */
export function constraintAlternatives(constraints: unknown): unknown[] | null {
  if (constraints === null || constraints === undefined) return null;
  const list = Array.isArray(constraints) ? constraints : [constraints];
  if (list.length === 0) return null;
  if (list.some((c) => c !== null && typeof c === 'object' && !Array.isArray(c) && Object.keys(c).length === 0))
    return null;
  return list;
}
