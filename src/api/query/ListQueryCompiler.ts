import type { Context } from 'koa';

import type { ModelDefinition } from '../../models/modelDefinition.js';
import { type ModelRegistry, registry as defaultRegistry } from '../../models/registry.js';
import type { Query } from '../../projections/ReadStore.js';
import { andQueries, compileFilter, type FilterReader } from './compileFilter.js';
import { withSavedFilters } from './savedFilters.js';

/**
 * A query parameter answered by something other than the read model's own fields
 * (e.g. created_by_request, resolved through the event log). It returns a clause to
 * AND into the query, or null to ignore the parameter.
 */
export type ParameterResolver = (values: string[], definition: ModelDefinition, ctx: Context) => Promise<Query | null>;

/**
 * Turns a list request's query string into one MongoDB query document: the model's
 * filters (src/api/query/filterSet.ts, compileFilter.ts) AND the registered resolvers,
 * with the parameters of the saved filters it names (`?filter=`, `?filter_id=`) merged in.
 */
export class ListQueryCompiler {
  private readonly resolvers = new Map<string, ParameterResolver>();

  /**
   * `reader`: the read models relations are resolved against when compile() is not
   * given one (the list view passes the store it reads, e.g. a past state).
   */
  constructor(
    private readonly reader?: FilterReader,
    private readonly registry: ModelRegistry = defaultRegistry,
  ) {}

  register(parameter: string, resolver: ParameterResolver): void {
    this.resolvers.set(parameter, resolver);
  }

  get parameters(): ReadonlySet<string> {
    return new Set(this.resolvers.keys());
  }

  async compile(
    definition: ModelDefinition,
    query: URLSearchParams,
    ctx: Context,
    reader?: FilterReader,
  ): Promise<Query> {
    const store: FilterReader | undefined = reader ?? ctx.state?.readStore ?? this.reader;
    if (!store) throw new Error('ListQueryCompiler: no read store to resolve filters against');
    query = await withSavedFilters(query, store);
    const clauses: Query[] = [
      await compileFilter(this.registry, definition, query, store, this.parameters, ctx.state?.eventUser?.id ?? null),
    ];
    for (const [parameter, resolver] of this.resolvers) {
      const values = query.getAll(parameter);
      if (values.length === 0) continue;
      const clause = await resolver(values, definition, ctx);
      if (clause) clauses.push(clause);
    }
    return andQueries(clauses);
  }
}

/** AND of query documents, dropping empty ones. */
export function and(...clauses: Query[]): Query {
  return andQueries(clauses);
}
