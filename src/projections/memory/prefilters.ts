/**
 * Cheap checks run before mingo on plain (undotted) fields: equality / `$in` and
 * `$regex`. They decide exactly what they can and leave the rest to mingo.
 */
import type { Entry } from '../querySemantics/Entry.js';
import type { EqConstraint, RegexConstraint } from '../querySemantics/queryConstraints.js';

/** 0: the document fails; 1: passes (exactly, or as far as this check can tell); 2: undecided, mingo must judge the whole query. */
export type Prefilter = (e: Entry) => 0 | 1 | 2;

/**
 * MongoDB equality on a plain field: the value itself, or an element of an array
 * value (not of a nested array). Exact for an exact constraint, a necessary
 * condition otherwise.
 */
export function eqPrefilter(c: EqConstraint): Prefilter {
  const f = c.field;
  if (c.values.length === 1) {
    const x = c.values[0];
    return (e) => {
      const v = e.doc[f];
      return v === x || (Array.isArray(v) && v.includes(x)) ? 1 : 0;
    };
  }
  const set = new Set<unknown>(c.values);
  return (e) => {
    const v = e.doc[f];
    if (set.has(v)) return 1;
    if (Array.isArray(v)) for (const el of v) if (set.has(el)) return 1;
    return 0;
  };
}

/** $regex on a plain field: decided for strings and non-arrays, arrays go to mingo. */
export function regexPrefilter(c: RegexConstraint): Prefilter {
  const { field, re } = c;
  const onArray = c.exact ? 2 : 1;
  return (e) => {
    const v = e.doc[field];
    if (typeof v === 'string') return re.test(v) ? 1 : 0;
    return Array.isArray(v) ? onArray : 0;
  };
}
