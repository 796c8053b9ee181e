/**
 * Case-insensitive exact matches through an index. A `name__ie=` filter, a device's
 * bare `?name=` (NetBox's iexact) and the case-insensitive uniqueness checks compile to
 * an anchored literal regex with the 'i' option, which MongoDB cannot answer from an
 * index: it scans. For the fields that take such matches the store writes the folded
 * value beside the document (`_lc.<field>`, indexed) and answers the regex, when it is
 * an exact match of literals, by equality on that key. The folding is caseFolding.ts's,
 * the rule the regex itself follows, so both ways give the same documents.
 */
import type { ModelRegistry } from '../../models/registry.js';
import { foldCase } from '../caseFolding.js';
import type { Query } from '../ReadStore.js';
import { exactLiterals } from '../textPatterns.js';

export const SHADOW = '_lc';

/** collection → the fields compared case-insensitively as a whole. */
export type CaseInsensitiveFields = Map<string, string[]>;

/** From the models: fields of case-insensitive uniqueness rules and case-insensitive exact filters. */
export function caseInsensitiveFields(registry: ModelRegistry): CaseInsensitiveFields {
  const out: CaseInsensitiveFields = new Map();
  for (const definition of registry.all()) {
    const fields = new Set<string>();
    for (const constraint of definition.unique ?? []) for (const name of constraint.caseInsensitive ?? []) fields.add(name);
    for (const spec of Object.values(definition.filters ?? {})) {
      if (spec && typeof spec === 'object' && spec.kind === 'field' && spec.caseInsensitive && spec.value === 'string' && !spec.field.includes('.')) {
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
 * The query with every exact case-insensitive match on a shadowed field answered by its
 * shadow key (top level and inside $and/$or/$nor); anything else is left as it is.
 */
export function useShadowKeys(query: Query, fields: readonly string[] | undefined): Query {
  if (!fields || fields.length === 0) return query;
  let out: Query | null = null;
  for (const [key, value] of Object.entries(query)) {
    let replacement: [string, unknown] | null = null;
    if ((key === '$and' || key === '$or' || key === '$nor') && Array.isArray(value)) {
      const parts = value.map((part) => (part && typeof part === 'object' ? useShadowKeys(part as Query, fields) : part));
      if (parts.some((p, i) => p !== value[i])) replacement = [key, parts];
    } else if (fields.includes(key)) {
      const literals = exactLiterals(value);
      if (literals) {
        const folded = [...new Set(literals.map(foldCase))];
        replacement = [`${SHADOW}.${key}`, folded.length === 1 ? folded[0] : { $in: folded }];
      }
    }
    if (replacement) {
      out ??= { ...query };
      if (replacement[0] !== key) delete out[key];
      out[replacement[0]] = replacement[1];
    }
  }
  return out ?? query;
}
