/**
 * The list filters of a model, derived from the registry: every field brings the
 * filters and lookups of its type (`<field>__<lookup>` suffixes on plain equality filters, as
 * NetBox's filter sets generate them), and the model's `filters`
 * declarations add what fields cannot say (relations by another name or through other
 * models, tree descendants, network containment, methods) or withdraw a derived filter
 * NetBox does not have. Custom-field filters (cf_<name>) depend on data and are built
 * per request (see compileFilter.ts).
 *
 *   field type                    parameter(s)                       lookups
 *   id                            id                                 n lt lte gt gte
 *   string                        <name>                             n ic nic isw nisw iew niew ie nie empty
 *   integer decimal date datetime <name>                             n lt lte gt gte empty
 *   boolean                       <name> (true/false/1/0; last value) —
 *   choice                        <name>                             n
 *   content_type                  <name> (last value)                n
 *   mac_address, wwn              <name> (exact value normalised)    n ic nic isw nisw iew niew ie nie
 *   fk, m2m                       <name>_id (ids, 'null'), <name> (target's slug, else name)  n
 *   tags                          tag (slugs, repeated = all)        n
 *   created / last_updated        as datetimes                       n lt lte gt gte
 *   search (model)                q
 */
import type { FieldDefinition } from '../../models/fieldDefinition.js';
import type {
  FieldFilterSpec,
  FilterMethod,
  FilterValueType,
  MethodFilterSpec,
  NetworkFilterSpec,
  RelatedFilterSpec,
} from '../../models/filterTypes.js';
import type { ModelDefinition } from '../../models/modelDefinition.js';
import type { ModelRegistry } from '../../models/registry.js';
import { RANGE_LOOKUPS, TEXT_LOOKUPS } from './textMatch.js';

export type ValueKind = FilterValueType | 'choice' | 'mac' | 'wwn';

/** A plain comparison of a stored key with parsed values. */
export interface ValueFilter {
  kind: 'value';
  key: string;
  value: ValueKind;
  lookups: ReadonlySet<string>;
  choices?: Array<string | number>;
  caseInsensitive?: boolean;
  single?: boolean;
  compare?: FieldFilterSpec['compare'];
}

export interface RelatedFilter extends Omit<RelatedFilterSpec, 'by'> {
  by: string;
  lookups: ReadonlySet<string>;
}

export interface NetworkFilter extends NetworkFilterSpec {
  lookups: ReadonlySet<string>;
}

export interface MethodFilter extends Omit<MethodFilterSpec, 'lookups'> {
  lookups: ReadonlySet<string>;
}

export interface SearchFilter {
  kind: 'search';
  fields: string[];
  also?: FilterMethod;
  lookups: ReadonlySet<string>;
}

/** A filter NetBox 3.4 does not have (BeyondNetBoxSpec): a value it cannot use leaves the parameter out instead of a 400. */
export type Filter = (ValueFilter | RelatedFilter | NetworkFilter | MethodFilter | SearchFilter) & {
  lenient?: true | ReadonlySet<string>;
};

/** Whether NetBox 3.4 lacks this filter's lookup, so a value it cannot use is ignored rather than refused. */
export function isLenient(filter: Filter, lookup: string): boolean {
  return filter.lenient === true || (filter.lenient !== undefined && filter.lenient.has(lookup));
}

const NONE: ReadonlySet<string> = new Set();
const NEGATION: ReadonlySet<string> = new Set(['n']);
const TEXT: ReadonlySet<string> = new Set(TEXT_LOOKUPS);
const TEXT_NO_EMPTY: ReadonlySet<string> = new Set(TEXT_LOOKUPS.filter((l) => l !== 'empty'));
const RANGE: ReadonlySet<string> = new Set(RANGE_LOOKUPS);
const ID_RANGE: ReadonlySet<string> = new Set(['n', 'lt', 'lte', 'gt', 'gte']);

/** Lookups a value type brings. */
export function lookupsOfType(value: ValueKind): ReadonlySet<string> {
  switch (value) {
    case 'string':
      return TEXT;
    case 'mac':
    case 'wwn':
      return TEXT_NO_EMPTY;
    case 'integer':
    case 'decimal':
    case 'date':
    case 'datetime':
      return RANGE;
    case 'choice':
    case 'uuid':
      return NEGATION;
    default:
      return NONE;
  }
}

/** The attribute a relation filter without `_id` matches on the target: slug, else name. */
export function naturalKeyOf(target: ModelDefinition | undefined): string | null {
  if (!target) return null;
  const names = new Set(target.fields.map((f) => f.name));
  if (names.has('slug')) return 'slug';
  if (names.has('name')) return 'name';
  return null;
}

function fieldFilters(registry: ModelRegistry, field: FieldDefinition): Array<[string, Filter]> {
  const value = (kind: ValueKind, extra: Partial<ValueFilter> = {}): Array<[string, Filter]> => [
    [field.name, { kind: 'value', key: field.name, value: kind, lookups: lookupsOfType(kind), ...extra }],
  ];
  if (field.internal || field.secret || field.writeOnly) return [];
  if (field.name === 'created' || field.name === 'last_updated') {
    return [[field.name, { kind: 'value', key: field.name, value: 'datetime', lookups: ID_RANGE }]];
  }
  switch (field.type) {
    case 'id':
      return [['id', { kind: 'value', key: 'id', value: 'integer', lookups: ID_RANGE }]];
    case 'string':
      return value('string');
    case 'integer':
    case 'decimal':
    case 'date':
    case 'datetime':
    case 'boolean':
      return value(field.type, field.type === 'boolean' ? { single: true } : {});
    case 'choice':
      return value('choice', { choices: (field.choices ?? []).map((c) => c.value) });
    case 'content_type':
      // NetBox's ContentTypeFilter, a CharFilter: one '<app>.<model>'
      return [[field.name, { kind: 'value', key: field.name, value: 'string', lookups: NEGATION, single: true }]];
    case 'array':
      return field.items === 'content_type'
        ? [[field.name, { kind: 'value', key: field.name, value: 'string', lookups: NEGATION, single: true }]]
        : [];
    case 'mac_address':
      return value('mac');
    case 'wwn':
      return value('wwn');
    case 'fk':
    case 'm2m': {
      const target = field.target!;
      const out: Array<[string, Filter]> = [
        [`${field.name}_id`, { kind: 'related', target, by: 'id', path: [field.name], lookups: NEGATION }],
      ];
      const key = naturalKeyOf(registry.tryGet(target));
      if (key) out.push([field.name, { kind: 'related', target, by: key, path: [field.name], lookups: NEGATION }]);
      return out;
    }
    case 'tags':
      return [
        [
          'tag',
          {
            kind: 'related',
            target: field.target ?? 'extras.tag',
            by: 'slug',
            path: [field.name],
            all: true,
            lookups: NEGATION,
          },
        ],
      ];
    default:
      return [];
  }
}

const cache = new WeakMap<ModelDefinition, ReadonlyMap<string, Filter>>();

/** Every filter parameter of the model (without cf_ filters), by name. */
export function filterSetOf(registry: ModelRegistry, definition: ModelDefinition): ReadonlyMap<string, Filter> {
  const cached = cache.get(definition);
  if (cached) return cached;
  const filters = new Map<string, Filter>();
  for (const field of definition.fields)
    for (const [name, filter] of fieldFilters(registry, field)) filters.set(name, filter);
  if (definition.search?.length) filters.set('q', { kind: 'search', fields: [...definition.search], lookups: NONE });
  for (const [name, spec] of Object.entries(definition.filters ?? {})) {
    if (spec === false) {
      filters.delete(name);
      continue;
    }
    switch (spec.kind) {
      case 'field': {
        const value: ValueKind = spec.choices ? 'choice' : spec.value;
        filters.set(name, {
          kind: 'value',
          key: spec.field,
          value,
          lookups: spec.lookups ? new Set(spec.lookups) : lookupsOfType(value),
          choices: spec.choices,
          caseInsensitive: spec.caseInsensitive,
          single: spec.single,
          compare: spec.compare,
        });
        break;
      }
      case 'related':
        filters.set(name, { ...spec, by: spec.by ?? 'id', lookups: NEGATION });
        break;
      case 'network':
        filters.set(name, { ...spec, lookups: NONE });
        break;
      case 'method':
        filters.set(name, { ...spec, lookups: new Set(spec.lookups ?? []) });
        break;
      case 'search':
        filters.set(name, {
          kind: 'search',
          fields: spec.fields ?? [...(definition.search ?? [])],
          also: spec.also,
          lookups: NONE,
        });
        break;
      case 'one_value': {
        const derived = filters.get(name);
        if (!derived)
          throw new Error(`${definition.key}: filter ${name} is declared one-valued but no field derives it`);
        filters.set(name, { ...derived, single: true } as Filter);
        break;
      }
      case 'beyond_netbox': {
        const derived = filters.get(name);
        if (!derived)
          throw new Error(`${definition.key}: filter ${name} is marked beyond NetBox but no field derives it`);
        filters.set(name, {
          ...derived,
          lenient: spec.lookups ? new Set(spec.lookups) : true,
          ...(spec.single ? { single: true } : {}),
        } as Filter);
        break;
      }
    }
  }
  cache.set(definition, filters);
  return filters;
}

/** Splits 'name__ic' into the filter and its lookup ('exact' for the bare parameter); null if not a filter. */
export function resolveParameter(
  filters: ReadonlyMap<string, Filter>,
  param: string,
): { name: string; filter: Filter; lookup: string } | null {
  const whole = filters.get(param);
  if (whole) return { name: param, filter: whole, lookup: 'exact' };
  const split = param.lastIndexOf('__');
  if (split <= 0) return null;
  const name = param.slice(0, split);
  const lookup = param.slice(split + 2);
  const filter = filters.get(name);
  if (!filter || !filter.lookups.has(lookup)) return null;
  return { name, filter, lookup };
}
