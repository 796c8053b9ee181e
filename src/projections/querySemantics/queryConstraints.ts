/**
 * What the planner reads out of a query document: equality and `$in` conditions, `$regex`
 * conditions and ranges, each on one field, from the top level or a top-level `$and`.
 */
import type { Query } from '../ReadStore.js';
import { isIndexable, isOperatorObject, isPlainObject, type Scalar } from './queryShapes.js';

/**
 * A condition on a field: the document's `field` equals (or, as an array, has an
 * element equal to) one of `values`. `exact` when it is a whole top-level member
 * of the query on a plain (undotted) field: the condition is then exactly that
 * member's meaning in MongoDB, and it can be taken out of what mingo evaluates.
 */
export interface EqConstraint {
  field: string;
  values: Scalar[];
  exact: boolean;
}

export interface RegexConstraint {
  field: string;
  re: RegExp;
  exact: boolean;
}

/** Values of an equality/$in member; `pure` when the member is nothing else. */
export function equalityValues(v: unknown): { values: Scalar[]; pure: boolean } | null {
  if (isIndexable(v)) return { values: [v], pure: true };
  if (isOperatorObject(v)) {
    const pure = Object.keys(v).length === 1;
    if ('$eq' in v && isIndexable(v.$eq)) return { values: [v.$eq], pure };
    const list = v.$in;
    if (Array.isArray(list) && list.every(isIndexable)) return { values: list as Scalar[], pure };
  }
  return null;
}

/** A stateless RegExp for a `$regex` member; `pure` when the member is nothing else. */
export function regexOf(v: unknown): { re: RegExp; pure: boolean } | null {
  let re: RegExp | null = null;
  let pure = true;
  try {
    if (v instanceof RegExp) re = v;
    else if (isOperatorObject(v) && '$regex' in v) {
      const src = v.$regex;
      const opts = v.$options;
      if (opts !== undefined && (typeof opts !== 'string' || !/^[imsu]*$/.test(opts))) return null;
      if (typeof src === 'string' || src instanceof RegExp) re = new RegExp(src, opts as string | undefined);
      pure = Object.keys(v).every((k) => k === '$regex' || k === '$options');
    }
  } catch {
    return null;
  }
  if (!re) return null;
  // Without g/y, test() keeps no state and the expression can be shared; with them, a private
  // copy without them (a uniqueness check compiled each of its expressions twice before).
  if (re.global || re.sticky) re = new RegExp(re.source, re.flags.replace(/[gy]/g, ''));
  return { re, pure };
}

/** Appends the equality and regex conditions of `query` (and of its top-level `$and`). */
export function collectConstraints(
  query: Query,
  topLevel: boolean,
  eq: EqConstraint[],
  regexes: RegexConstraint[],
): void {
  for (const key of Object.keys(query)) {
    const v = query[key];
    if (key === '$and') {
      if (Array.isArray(v)) for (const sub of v) if (isPlainObject(sub)) collectConstraints(sub, false, eq, regexes);
      continue;
    }
    if (key.charCodeAt(0) === 36) continue;
    const plain = key.indexOf('.') === -1;
    const e = equalityValues(v);
    if (e) eq.push({ field: key, values: e.values, exact: topLevel && plain && e.pure });
    if (plain) {
      const r = regexOf(v);
      if (r) regexes.push({ field: key, re: r.re, exact: topLevel && r.pure });
    }
  }
}

export interface RangeBound {
  value: Scalar;
  exclusive: boolean;
}

export interface FieldRange {
  lo?: RangeBound;
  hi?: RangeBound;
  /** The member is nothing but this range (so the range decides it exactly, for strings). */
  pure: boolean;
}

/**
 * The range a query states on one field (from a member at the top level or in a
 * top-level $and; the tightest one when several), or null.
 */
export function rangeOn(query: Query, field: string): FieldRange | null {
  const members: unknown[] = [];
  if (field in query) members.push(query[field]);
  const and = query.$and;
  if (Array.isArray(and)) for (const sub of and) if (isPlainObject(sub) && field in sub) members.push(sub[field]);
  let best: FieldRange | null = null;
  for (const m of members) {
    const range: FieldRange = { pure: true };
    if (isIndexable(m)) {
      range.lo = { value: m, exclusive: false };
      range.hi = { value: m, exclusive: false };
    } else if (isOperatorObject(m)) {
      for (const [op, arg] of Object.entries(m)) {
        if (!isIndexable(arg) || typeof arg === 'boolean') {
          range.pure = false;
          continue;
        }
        if (op === '$gt' || op === '$gte') range.lo = { value: arg, exclusive: op === '$gt' };
        else if (op === '$lt' || op === '$lte') range.hi = { value: arg, exclusive: op === '$lt' };
        else if (op === '$eq') range.lo = range.hi = { value: arg, exclusive: false };
        else range.pure = false;
      }
    } else continue;
    if (range.lo || range.hi) {
      // the tightest member wins: prefer two bounds
      if (!best || (range.lo && range.hi && !(best.lo && best.hi))) best = range;
    }
  }
  return best;
}
