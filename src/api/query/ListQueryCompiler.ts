import type { Context } from 'koa';
import type { ModelDefinition } from '../../models/types.js';
import type { Query } from '../../projections/ReadStore.js';
import { compileFilter } from './compileFilter.js';

/**
 * A query parameter answered by something other than the read model's own fields
 * (e.g. created_by_request, resolved through the event log). It returns a clause to
 * AND into the query, or null to ignore the parameter.
 */
export type ParameterResolver = (values: string[], definition: ModelDefinition, ctx: Context) => Promise<Query | null>;

/** Turns a list request's query string into one MongoDB query document. */
export class ListQueryCompiler {
  private readonly resolvers = new Map<string, ParameterResolver>();

  register(parameter: string, resolver: ParameterResolver): void {
    this.resolvers.set(parameter, resolver);
  }

  get parameters(): ReadonlySet<string> {
    return new Set(this.resolvers.keys());
  }

  async compile(definition: ModelDefinition, query: URLSearchParams, ctx: Context): Promise<Query> {
    const clauses: Query[] = [compileFilter(definition, query, this.parameters)];
    for (const [parameter, resolver] of this.resolvers) {
      const values = query.getAll(parameter);
      if (values.length === 0) continue;
      const clause = await resolver(values, definition, ctx);
      if (clause) clauses.push(clause);
    }
    return and(...clauses);
  }
}

/** AND of query documents, dropping empty ones. */
export function and(...clauses: Query[]): Query {
  const real = clauses.filter((c) => Object.keys(c).length > 0);
  if (real.length === 0) return {};
  return real.length === 1 ? real[0] : { $and: real };
}
