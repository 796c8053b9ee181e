/** Query clauses combined: AND, OR and NOT of MongoDB query documents, simplified where they can be. */
import { MATCH_NOTHING } from '../../models/matchNothing.js';
import type { Query } from '../../projections/ReadStore.js';

/** AND of query documents, dropping empty ones. */
export function andQueries(clauses: Query[]): Query {
  const real = clauses.filter((c) => Object.keys(c).length > 0);
  if (real.length === 0) return {};
  return real.length === 1 ? real[0]! : { $and: real };
}

/** OR of query documents; none matches nothing. */
export function anyOf(clauses: Query[]): Query {
  if (clauses.length === 0) return MATCH_NOTHING;
  return clauses.length === 1 ? clauses[0]! : { $or: clauses };
}

/** NOT of a clause: `$in` becomes `$nin`, everything else `$nor`. */
export function negate(clause: Query): Query {
  const keys = Object.keys(clause);
  if (keys.length === 0) return MATCH_NOTHING;
  if (clause === MATCH_NOTHING) return {};
  if (keys.length === 1 && !keys[0]!.startsWith('$')) {
    const cond = clause[keys[0]!] as Record<string, unknown>;
    if (cond && typeof cond === 'object' && Object.keys(cond).length === 1 && Array.isArray(cond.$in))
      return { [keys[0]!]: { $nin: cond.$in } };
  }
  return { $nor: [clause] };
}
