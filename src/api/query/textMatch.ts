/**
 * NetBox's string lookups as MongoDB conditions that mingo (JavaScript RegExp) and
 * MongoDB (PCRE) evaluate identically. The user's text is always a literal:
 * - every regex metacharacter is escaped, control characters become \xNN;
 * - anchors are '^' (start of string in both engines without the m flag) and the
 *   lookahead (?![\s\S]) for the end ('$' would also match before a final newline in PCRE);
 * - the only options are 'iu' (case-insensitive, by Unicode simple case folding: see
 *   src/projections/caseFolding.ts);
 * - patterns are bounded: a value longer than MAX_TEXT_LOOKUP characters is refused
 *   (400) before any regex is built, and a literal pattern cannot backtrack.
 */
import type { Query } from '../../projections/ReadStore.js';

/** Longest value accepted by the regex-based lookups (ic, isw, iew, ie and negations, q). */
export const MAX_TEXT_LOOKUP = 1000;

export const TEXT_LOOKUPS = ['n', 'ic', 'nic', 'isw', 'nisw', 'iew', 'niew', 'ie', 'nie', 'empty'] as const;
export const RANGE_LOOKUPS = ['n', 'lt', 'lte', 'gt', 'gte', 'empty'] as const;

import { regexCondition } from '../../projections/textPatterns.js';

export { escapeRegex, lookupPattern, regexCondition } from '../../projections/textPatterns.js';

/** Positive lookup of a negated one ('nic' → 'ic'). */
export function positiveOf(lookup: string): string {
  return lookup === 'n' ? 'exact' : lookup.slice(1);
}

/**
 * The clause of a string lookup on `key` over `values` (OR'ed; negations exclude a
 * document matching any of them, keeping null and missing values as NetBox does).
 */
export function textClause(key: string, lookup: string, values: string[]): Query {
  switch (lookup) {
    case 'exact':
      return { [key]: { $in: values } };
    case 'n':
      return { [key]: { $nin: values } };
    case 'ic':
    case 'isw':
    case 'iew':
    case 'ie':
      return { [key]: regexCondition(lookup, values) };
    case 'nic':
    case 'nisw':
    case 'niew':
    case 'nie':
      return { [key]: { $not: regexCondition(positiveOf(lookup) as 'ic', values) } };
    default:
      throw new Error(`not a text lookup: ${lookup}`);
  }
}

/** `empty=true`: null, missing or ''; `empty=false`: anything else. */
export function emptyClause(key: string, empty: boolean): Query {
  return empty ? { [key]: { $in: [null, ''] } } : { [key]: { $nin: [null, ''] } };
}
