/**
 * Case-insensitive exact and prefix matches through an index. A `name__ie=` filter, a
 * device's bare `?name=` (NetBox's iexact), the case-insensitive uniqueness checks and
 * `name__isw=` compile to an anchored literal regex with the 'i' option, which MongoDB
 * cannot answer from an index range: it scans. For the fields that take exact matches
 * the store writes the folded value beside the document (`_lc.<field>`, indexed) and
 * answers the regex, when it is an exact match of literals, by equality on that key, and
 * when it is a prefix match of literals, by a case-sensitive prefix regex on it, which
 * MongoDB bounds by the index. The folding is caseFolding.ts's, the rule the regex itself
 * follows, character by character and never changing a string's length: a text starts
 * with a prefix whatever the case exactly when its folded form starts with the folded
 * prefix, so both ways give the same documents. Contains and ends-with have no index
 * range to use and stay regexes on the field.
 */
import type { ModelRegistry } from '../../models/registry.js';
import { foldCase } from '../caseFolding.js';
import type { Query } from '../ReadStore.js';
import { exactLiterals, lookupPattern, prefixLiterals } from '../textPatterns.js';

export const SHADOW = '_lc';

/** collection → the fields compared case-insensitively as a whole. */
export type CaseInsensitiveFields = Map<string, string[]>;

/** From the models: fields of case-insensitive uniqueness rules and case-insensitive exact filters. */
export function caseInsensitiveFields(registry: ModelRegistry): CaseInsensitiveFields {
  const out: CaseInsensitiveFields = new Map();
  for (const definition of registry.all()) {
    const fields = new Set<string>();
    for (const constraint of definition.unique ?? [])
      for (const name of constraint.caseInsensitive ?? []) fields.add(name);
    for (const spec of Object.values(definition.filters ?? {})) {
      if (
        spec &&
        typeof spec === 'object' &&
        spec.kind === 'field' &&
        spec.caseInsensitive &&
        spec.value === 'string' &&
        !spec.field.includes('.')
      ) {
        fields.add(spec.field);
      }
    }
    if (fields.size > 0) out.set(definition.key, [...fields]);
  }
  return out;
}

/** The shadow keys of a document about to be stored (strings only: a null matches no regex). */
export function shadowOf(doc: Record<string, unknown>, fields: readonly string[]): Record<string, string> | undefined {
  let out: Record<string, string> | undefined;
  for (const field of fields) {
    const value = doc[field];
    if (typeof value === 'string') (out ??= {})[field] = foldCase(value);
  }
  return out;
}

/**
 * The query with every exact or prefix case-insensitive match on a shadowed field answered
 * by its shadow key (top level and inside $and/$or/$nor); anything else is left as it is.
 */
export function useShadowKeys(query: Query, fields: readonly string[] | undefined): Query {
  if (!fields || fields.length === 0) return query;
  let out: Query | null = null;
  for (const [key, value] of Object.entries(query)) {
    let replacement: [string, unknown] | null = null;
    if ((key === '$and' || key === '$or' || key === '$nor') && Array.isArray(value)) {
      const parts = value.map((part) =>
        part && typeof part === 'object' ? useShadowKeys(part as Query, fields) : part,
      );
      if (parts.some((p, i) => p !== value[i])) replacement = [key, parts];
    } else if (fields.includes(key)) {
      const condition = onShadowKey(value);
      if (condition !== null) replacement = [`${SHADOW}.${key}`, condition];
    }
    if (replacement) {
      out ??= { ...query };
      if (replacement[0] !== key) delete out[key];
      out[replacement[0]] = replacement[1];
    }
  }
  return out ?? query;
}

/** A case-insensitive exact or prefix match of literals as the same match on the folded key (so case-sensitive), or null. */
function onShadowKey(condition: unknown): unknown {
  const exact = exactLiterals(condition);
  if (exact) {
    const folded = foldedOnce(exact);
    return folded.length === 1 ? folded[0] : { $in: folded };
  }
  const prefixes = prefixLiterals(condition);
  return prefixes ? { $regex: lookupPattern('isw', foldedOnce(prefixes)) } : null;
}

function foldedOnce(literals: string[]): string[] {
  return [...new Set(literals.map(foldCase))];
}
