/**
 * The arguments of a `<model>_list` query: the model's REST filter set (src/api/query/filterSet.ts),
 * each filter and each of its lookups under the same name (`name`, `name__ic`, `site_id__n`),
 * typed as NetBox 3.4's ObjectListField types them from the django-filter class of each filter
 * (netbox/graphql/utils.py get_graphene_type): a filter taking several values is a list of
 * strings whatever it compares; one taking one value is a Boolean (BooleanFilter), an Int
 * (NumberFilter), a Date or DateTime (DateFilter, DateTimeFilter), else a String (CharFilter,
 * ChoiceFilter, ModelChoiceFilter, the search). A lookup is typed as its filter (NetBox makes
 * each lookup a filter of the same class). The values reach the REST filter code as the query
 * string would carry them (filterParameters).
 * Custom-field filters (`cf_<name>`) depend on data and are not in the schema.
 * `limit`, `offset` and `ordering` page and order the list (NetBox 3.4 has none of them).
 */
import {
  type GraphQLArgumentConfig,
  GraphQLBoolean,
  type GraphQLInputType,
  GraphQLInt,
  GraphQLList,
  GraphQLString,
} from 'graphql';

import type { ModelDefinition } from '../../models/modelDefinition.js';
import type { ModelRegistry } from '../../models/registry.js';
import { type Filter, filterSetOf } from '../query/filterSet.js';
import { isGraphqlName } from './names.js';
import { GraphQLDateInput, GraphQLDateTimeInput } from './scalars.js';

export const PAGING_ARGUMENTS = ['limit', 'offset', 'ordering'] as const;

export function listArguments(
  registry: ModelRegistry,
  definition: ModelDefinition,
): Record<string, GraphQLArgumentConfig> {
  const args: Record<string, GraphQLArgumentConfig> = {};
  for (const [name, filter] of filterSetOf(registry, definition)) {
    const type = argumentType(filter);
    for (const parameter of [name, ...[...filter.lookups].map((lookup) => `${name}__${lookup}`)])
      if (isGraphqlName(parameter)) args[parameter] = { type };
  }
  args.limit ??= { type: GraphQLInt, description: 'At most this many objects (default and maximum: MAX_PAGE_SIZE).' };
  args.offset ??= { type: GraphQLInt, description: 'Skip this many objects first.' };
  args.ordering ??= {
    type: GraphQLString,
    description: 'As the REST ?ordering= (comma-separated fields, - reverses).',
  };
  return args;
}

/** A list of strings for a filter taking several values, else the scalar of its one value. */
function argumentType(filter: Filter): GraphQLInputType {
  return takesOneValue(filter) ? oneValueType(filter) : new GraphQLList(GraphQLString);
}

function takesOneValue(filter: Filter): boolean {
  switch (filter.kind) {
    case 'search':
      return true;
    case 'value':
      return filter.single === true || filter.value === 'boolean';
    default:
      return filter.single === true;
  }
}

/** The scalar NetBox's filter class gives one value: what it compares, unless NetBox reads it as text or an object. */
function oneValueType(filter: Filter): GraphQLInputType {
  if (filter.kind !== 'value' && filter.kind !== 'method') return GraphQLString;
  if (filter.kind === 'method' && filter.netboxReads) return GraphQLString;
  switch (filter.value) {
    case 'boolean':
      return GraphQLBoolean;
    case 'integer':
    case 'decimal':
      // NetBox's NumberFilter, decimals included (its get_graphene_type: "TODO: Floats?")
      return GraphQLInt;
    case 'date':
      return GraphQLDateInput;
    case 'datetime':
      return GraphQLDateTimeInput;
    default:
      return GraphQLString;
  }
}

/** The arguments as the REST query string they stand for (null and absent arguments left out). */
export function filterParameters(args: Record<string, unknown>): URLSearchParams {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(args)) {
    if ((PAGING_ARGUMENTS as readonly string[]).includes(name)) continue;
    for (const item of Array.isArray(value) ? value : [value]) {
      if (item !== null && item !== undefined) query.append(name, String(item));
    }
  }
  return query;
}
