import type { ModelDefinition } from '../../models/modelDefinition.js';
import { type ModelRegistry, registry as defaultRegistry } from '../../models/registry.js';
import type { Query } from '../../projections/ReadStore.js';
import { andQueries } from './clauses.js';
import { compileFilter } from './compileFilter.js';
import type { FilterReader } from './filterContext.js';
import { withSavedFilters } from './savedFilters.js';

/**
 * What a list query needs of the request it answers, as plain data: the query layer knows
 * no web framework, so a REST route, GraphQL or a test each adapt their request to this.
 */
export interface ListQueryRequest {
  /** The query string: filters, `?filter=`/`?filter_id=`, and the resolvers' parameters. */
  parameters: URLSearchParams;
  /** The caller's user id (filters relative to the requester), null when anonymous. */
  requesterId: number | null;
  /**
   * The rows of a model the caller may read ({} for all), for resolvers that reveal other
   * records than the model's; refuses (PermissionDeniedError) when the caller may read none.
   */
  viewScope: (definition: ModelDefinition) => Promise<Query>;
}

/**
 * A query parameter answered by something other than the read model's own fields
 * (e.g. created_by_request, resolved through the event log). It returns a clause to
 * AND into the query, or null to ignore the parameter.
 */
export type ParameterResolver = (
  values: string[],
  definition: ModelDefinition,
  request: ListQueryRequest,
) => Promise<Query | null>;

/**
 * Turns a list request's query string into one MongoDB query document: the model's
 * filters (src/api/query/filterSet.ts, compileFilter.ts) AND the registered resolvers,
 * with the parameters of the saved filters it names (`?filter=`, `?filter_id=`) merged in.
 */
export class ListQueryCompiler {
  private readonly resolvers = new Map<string, ParameterResolver>();

  constructor(private readonly registry: ModelRegistry = defaultRegistry) {}

  register(parameter: string, resolver: ParameterResolver): void {
    this.resolvers.set(parameter, resolver);
  }

  get parameters(): ReadonlySet<string> {
    return new Set(this.resolvers.keys());
  }

  /** `reader`: the read models relations are resolved against, the ones the list reads (e.g. a past state). */
  async compile(definition: ModelDefinition, request: ListQueryRequest, reader: FilterReader): Promise<Query> {
    const parameters = await withSavedFilters(request.parameters, reader);
    const withSaved = { ...request, parameters };
    const clauses: Query[] = [
      await compileFilter(this.registry, definition, parameters, reader, this.parameters, request.requesterId),
    ];
    for (const [parameter, resolver] of this.resolvers) {
      const values = parameters.getAll(parameter);
      if (values.length === 0) continue;
      const clause = await resolver(values, definition, withSaved);
      if (clause) clauses.push(clause);
    }
    return andQueries(clauses);
  }
}

/** AND of query documents, dropping empty ones. */
export function and(...clauses: Query[]): Query {
  return andQueries(clauses);
}
