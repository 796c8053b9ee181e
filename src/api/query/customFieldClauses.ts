/** `cf_<name>` filters: each custom field of the model filters by the lookups its type and filter_logic allow. */
import { MATCH_NOTHING } from '../../models/matchNothing.js';
import type { Query, ReadDocument } from '../../projections/ReadStore.js';
import type { FilterContext } from './filterContext.js';
import { type ValueFilter, type ValueKind } from './filterSet.js';
import { valueClause } from './valueClauses.js';

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

export async function compileCustomFields(
  ctx: FilterContext,
  params: URLSearchParams,
  names: string[],
): Promise<Query[]> {
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
