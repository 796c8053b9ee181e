/**
 * The list filters of a model, as documented in the OpenAPI document: derived from the
 * field types with NetBox's lookup vocabulary (SPEC 4.3) — strings take the text
 * lookups, numbers and dates the range lookups, relations `<name>_id` (and `<name>` by
 * slug or name), everything `__n` — plus `q` and the parameters the list query
 * compiler resolves elsewhere (e.g. created_by_request).
 *
 * A query compiler that knows better may describe its own filters by offering
 * `describeFilters(definition)`; those entries are merged over the derived ones.
 */
import type { ModelRegistry } from '../../models/registry.js';
import type { FieldDefinition, ModelDefinition } from '../../models/types.js';

export interface FilterParameter {
  /** The query parameter, e.g. 'name__ic'. */
  name: string;
  /** The field it filters, when it filters one. */
  field?: string;
  /** 'exact' for the bare parameter, else the lookup suffix. */
  lookup: string;
  /** JSON Schema of one value. */
  schema: Record<string, unknown>;
  description: string;
  /** May be repeated (values OR together; tags AND). */
  multi: boolean;
}

export interface DescribesFilters {
  describeFilters?(definition: ModelDefinition): FilterParameter[];
  readonly parameters?: ReadonlySet<string>;
}

export const STRING_LOOKUPS = ['n', 'ic', 'nic', 'isw', 'nisw', 'iew', 'niew', 'ie', 'nie', 'empty'];
export const NUMERIC_LOOKUPS = ['n', 'lt', 'lte', 'gt', 'gte', 'empty'];
export const ID_LOOKUPS = ['n', 'lt', 'lte', 'gt', 'gte'];

const LOOKUP_TEXT: Record<string, string> = {
  exact: 'equals',
  n: 'does not equal',
  ic: 'contains (case-insensitive)',
  nic: 'does not contain (case-insensitive)',
  isw: 'starts with (case-insensitive)',
  nisw: 'does not start with (case-insensitive)',
  iew: 'ends with (case-insensitive)',
  niew: 'does not end with (case-insensitive)',
  ie: 'equals (case-insensitive)',
  nie: 'does not equal (case-insensitive)',
  lt: 'is less than',
  lte: 'is less than or equal to',
  gt: 'is greater than',
  gte: 'is greater than or equal to',
  empty: 'is empty (true) or not empty (false)',
};

function valueSchema(field: FieldDefinition): Record<string, unknown> {
  switch (field.type) {
    case 'integer':
      return { type: 'integer' };
    case 'decimal':
      return { type: 'number' };
    case 'boolean':
      return { type: 'boolean' };
    case 'date':
      return { type: 'string', format: 'date' };
    case 'datetime':
      return { type: 'string', format: 'date-time' };
    case 'choice':
      return { enum: (field.choices ?? []).map((c) => c.value) };
    case 'content_type':
      return { type: 'string', enum: field.allowedTypes ?? [] };
    default:
      return { type: 'string' };
  }
}

function lookupsOf(field: FieldDefinition): string[] | null {
  switch (field.type) {
    case 'string':
      return STRING_LOOKUPS;
    case 'integer':
    case 'decimal':
    case 'date':
    case 'datetime':
      return NUMERIC_LOOKUPS;
    case 'boolean':
      return [];
    case 'choice':
    case 'cidr':
    case 'ip_address':
    case 'mac_address':
    case 'wwn':
    case 'content_type':
      return ['n'];
    default:
      return null;
  }
}

function withLookups(base: Omit<FilterParameter, 'lookup' | 'name' | 'description'>, name: string, subject: string, lookups: string[]): FilterParameter[] {
  const out: FilterParameter[] = [{ ...base, name, lookup: 'exact', description: `${subject} ${LOOKUP_TEXT.exact} the value` }];
  for (const lookup of lookups) {
    const schema = lookup === 'empty' ? { type: 'boolean' } : base.schema;
    out.push({ ...base, schema, multi: lookup !== 'empty' && base.multi, name: `${name}__${lookup}`, lookup, description: `${subject} ${LOOKUP_TEXT[lookup]}` });
  }
  return out;
}

/** The attribute a relation filter without `_id` matches on the related model: slug, else name. */
function naturalKey(registry: ModelRegistry, target: string | undefined): string | null {
  const definition = target ? registry.tryGet(target) : undefined;
  if (!definition) return null;
  const names = new Set(definition.fields.map((f) => f.name));
  if (names.has('slug')) return 'slug';
  if (names.has('name')) return 'name';
  return null;
}

export function deriveFilters(registry: ModelRegistry, definition: ModelDefinition, compiler?: DescribesFilters): FilterParameter[] {
  const params: FilterParameter[] = [];
  params.push(...withLookups({ field: 'id', schema: { type: 'integer' }, multi: true }, 'id', 'id', ID_LOOKUPS));
  for (const field of definition.fields) {
    if (field.internal || field.secret || field.writeOnly || field.type === 'id') continue;
    if (field.type === 'fk' || field.type === 'm2m' || field.type === 'tags') {
      const target = field.target ?? 'the related object';
      if (field.type === 'tags') {
        params.push(...withLookups({ field: field.name, schema: { type: 'string' }, multi: true }, 'tag', 'a tag slug (repeated: every tag must be present)', ['n']));
      }
      params.push(
        ...withLookups({ field: field.name, schema: { anyOf: [{ type: 'integer' }, { const: 'null' }] }, multi: true }, `${field.name}_id`, `${field.name}: the id of ${target} ('null': none)`, ['n']),
      );
      const key = field.type === 'tags' ? null : naturalKey(registry, field.target);
      if (key) {
        params.push(...withLookups({ field: field.name, schema: { type: 'string' }, multi: true }, field.name, `${field.name}: the ${key} of ${target}`, ['n']));
      }
      continue;
    }
    const lookups = lookupsOf(field);
    if (lookups === null) continue;
    params.push(...withLookups({ field: field.name, schema: valueSchema(field), multi: field.type !== 'boolean' }, field.name, field.name, lookups));
  }
  if (definition.search?.length) {
    params.push({ name: 'q', lookup: 'exact', schema: { type: 'string' }, multi: false, description: `Search: ${definition.search.join(', ')} contain the value (case-insensitive)` });
  }
  for (const name of compiler?.parameters ?? []) {
    params.push({ name, lookup: 'exact', schema: { type: 'string' }, multi: true, description: `${name} (resolved by the server)` });
  }
  const described = compiler?.describeFilters?.(definition) ?? [];
  const byName = new Map(params.map((p) => [p.name, p]));
  for (const p of described) byName.set(p.name, p);
  return [...byName.values()];
}
