/**
 * The list filters of a model as the OpenAPI document shows them: exactly the filter set
 * the list query compiler uses (src/api/query/filterSet.ts `filterSetOf`, derived from
 * the registry), each with its lookups, plus the parameters the compiler resolves
 * elsewhere (e.g. created_by_request). Custom-field filters (cf_<name>) depend on the
 * custom fields defined at run time and are described once, generically.
 */
import type { ModelDefinition } from '../../models/modelDefinition.js';
import type { ModelRegistry } from '../../models/registry.js';
import { type Filter, filterSetOf } from '../query/filterSet.js';

export interface FilterParameter {
  /** The query parameter, e.g. 'name__ic'. */
  name: string;
  /** 'exact' for the bare parameter, else the lookup suffix. */
  lookup: string;
  /** JSON Schema of one value. */
  schema: Record<string, unknown>;
  description: string;
  /** May be repeated (values OR together; for tags every value must match). */
  multi: boolean;
  /** The filter's kind in the compiler's filter set (absent for resolver parameters). */
  kind?: Filter['kind'];
}

/** What the face needs of the list query compiler: the parameters it resolves itself. */
export interface DescribesFilters {
  readonly parameters?: ReadonlySet<string>;
}

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

const NETWORK_TEXT: Record<string, string> = {
  within: 'networks strictly inside the given network',
  within_include: 'networks inside or equal to the given network',
  contains: 'networks containing the given network or address',
  network: 'networks equal to the value',
  parent: 'addresses inside the given network',
  address: 'addresses equal to the value',
};

function typeSchema(value: string | undefined): Record<string, unknown> {
  switch (value) {
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
    case 'uuid':
      return { type: 'string', format: 'uuid' };
    default:
      return { type: 'string' };
  }
}

/** The schema and wording of one filter's bare parameter. */
function describeFilter(
  name: string,
  filter: Filter,
): { schema: Record<string, unknown>; subject: string; single: boolean } {
  switch (filter.kind) {
    case 'value': {
      const schema =
        filter.value === 'choice' && filter.choices?.length ? { enum: filter.choices } : typeSchema(filter.value);
      return {
        schema,
        subject: filter.key.startsWith('_') ? name : filter.key,
        single: filter.single === true || filter.value === 'boolean',
      };
    }
    case 'related': {
      const schema = filter.by === 'id' ? { anyOf: [{ type: 'integer' }, { const: 'null' }] } : { type: 'string' };
      const every = filter.all ? ' (repeated: every value must match)' : '';
      const below = filter.includeDescendants ? ' or one of its descendants' : '';
      return {
        schema,
        subject: `the ${filter.by} of a related ${filter.target}${below} ('null': none)${every};`,
        single: filter.single === true,
      };
    }
    case 'network':
      return {
        schema: { type: 'string', description: 'an IP network or address' },
        subject: `${NETWORK_TEXT[filter.op] ?? filter.op};`,
        single: filter.single === true,
      };
    case 'method':
      return { schema: typeSchema(filter.value), subject: `${name}:`, single: filter.single === true };
    case 'search':
      return {
        schema: { type: 'string' },
        subject: `search: ${filter.fields.join(', ')} contain the value (case-insensitive);`,
        single: true,
      };
  }
}

export function modelFilters(
  registry: ModelRegistry,
  definition: ModelDefinition,
  compiler?: DescribesFilters,
): FilterParameter[] {
  const params: FilterParameter[] = [];
  for (const [name, filter] of filterSetOf(registry, definition)) {
    const { schema, subject, single } = describeFilter(name, filter);
    const plain = filter.kind === 'value';
    // a bare parameter may compare otherwise than by equality (NetBox's mask_length__gte filter)
    const compare = filter.kind === 'value' ? (filter.compare ?? 'exact') : 'exact';
    params.push({
      name,
      lookup: 'exact',
      schema,
      multi: !single,
      kind: filter.kind,
      description: plain ? `${subject} ${LOOKUP_TEXT[compare]} the value` : subject,
    });
    for (const lookup of filter.lookups) {
      params.push({
        name: `${name}__${lookup}`,
        lookup,
        schema: lookup === 'empty' ? { type: 'boolean' } : schema,
        multi: lookup !== 'empty' && !single,
        kind: filter.kind,
        description: plain ? `${subject} ${LOOKUP_TEXT[lookup] ?? lookup}` : `${subject} lookup ${lookup}`,
      });
    }
  }
  for (const name of compiler?.parameters ?? []) {
    if (params.some((p) => p.name === name)) continue;
    params.push({
      name,
      lookup: 'exact',
      schema: { type: 'string' },
      multi: true,
      description: `${name} (resolved by the server)`,
    });
  }
  return params;
}
