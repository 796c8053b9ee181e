/**
 * The arguments of a `<model>_list` query: the model's REST filter set (src/api/query/filterSet.ts),
 * each filter and each of its lookups under the same name (`name`, `name__ic`, `site_id__n`),
 * as NetBox 3.4's ObjectListField derives them: booleans as Boolean, everything else as
 * String, a list of them where the filter takes several values (`q` one, `__empty` a list).
 * NetBox's choice filters taking one value (String there) and number filters (Int there)
 * are lists of strings here, as the REST filter takes them.
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

export const PAGING_ARGUMENTS = ['limit', 'offset', 'ordering'] as const;

export function listArguments(
  registry: ModelRegistry,
  definition: ModelDefinition,
): Record<string, GraphQLArgumentConfig> {
  const args: Record<string, GraphQLArgumentConfig> = {};
  for (const [name, filter] of filterSetOf(registry, definition)) {
    // the search (`q`) takes one value; `__empty` a list of strings, as NetBox types it
    const single = ('single' in filter && filter.single === true) || filter.kind === 'search';
    const type = (boolean: boolean): GraphQLInputType => {
      const scalar = boolean ? GraphQLBoolean : GraphQLString;
      return single || boolean ? scalar : new GraphQLList(scalar);
    };
    if (isGraphqlName(name)) args[name] = { type: type(isBoolean(filter)) };
    for (const lookup of filter.lookups) {
      const parameter = `${name}__${lookup}`;
      if (isGraphqlName(parameter)) args[parameter] = { type: type(lookup !== 'empty' && isBoolean(filter)) };
    }
  }
  args.limit ??= { type: GraphQLInt, description: 'At most this many objects (default and maximum: MAX_PAGE_SIZE).' };
  args.offset ??= { type: GraphQLInt, description: 'Skip this many objects first.' };
  args.ordering ??= {
    type: GraphQLString,
    description: 'As the REST ?ordering= (comma-separated fields, - reverses).',
  };
  return args;
}

function isBoolean(filter: Filter): boolean {
  return (filter.kind === 'value' || filter.kind === 'method') && filter.value === 'boolean';
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
