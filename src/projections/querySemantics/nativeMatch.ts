/**
 * A query compiled into a plain JavaScript predicate, for the MongoDB subset the query
 * compiler produces: field conditions with scalar equality, $eq $ne $in $nin $gt $gte
 * $lt $lte $regex $not($regex) $exists $all, combined with $and $or $nor. It answers
 * 1 (matches), 0 (does not) or 2 (cannot tell: an array of arrays or documents, a path
 * through an array, a Date ... — mingo then judges the whole query). Queries using
 * anything else compile to null and go to mingo entirely. Semantics are MongoDB's:
 * equality and comparisons reach into array elements, each operator of a condition may
 * be satisfied by a different element, negations are the complement (missing included),
 * comparisons only between values of the same type class (numbers, strings).
 */
import type { Query, ReadDocument } from '../ReadStore.js';
import { compareStrings, HIGH_UNITS } from './compareValues.js';
import { regexOf } from './queryConstraints.js';
import { isIndexable, isOperatorObject, isPlainObject, type Scalar } from './queryShapes.js';

/** 1: matches, 0: does not, 2: cannot tell (mingo judges the whole query). */
export type Tri = 0 | 1 | 2;
export type NativeMatch = (doc: ReadDocument) => Tri;

const UNDECIDED = Symbol('undecided');

/** The value at a dotted path; UNDECIDED when the path crosses an array. */
function valueAt(doc: ReadDocument, parts: string[]): unknown {
  let v: unknown = doc;
  for (const p of parts) {
    if (Array.isArray(v)) return UNDECIDED;
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string, unknown>)[p];
  }
  return v;
}

/** The candidates an operator looks at: the value, or the elements of an array of scalars. */
function elementsOf(v: unknown): unknown[] | typeof UNDECIDED {
  if (v === UNDECIDED) return UNDECIDED;
  if (Array.isArray(v)) {
    for (const el of v) if (el !== null && typeof el === 'object') return UNDECIDED;
    return v;
  }
  if (v !== null && typeof v === 'object') return UNDECIDED; // embedded documents, Dates
  return [v];
}

type ElementTest = (el: unknown) => boolean;
/** One operator over a field: positive tests are "some element", negated ones "no element". */
interface OpTest {
  test: ElementTest;
  negated: boolean;
  /** Equality with null (informative: the element test already accepts null and missing). */
  nullMatches: boolean;
  /** $exists: whether the field must be present (the test is then not used). */
  exists?: boolean;
}

function scalarOperand(x: unknown): x is Scalar | null {
  return x === null || isIndexable(x);
}

function equalsTest(x: Scalar | null): { test: ElementTest; nullMatches: boolean } {
  if (x === null) return { test: (el) => el === null || el === undefined, nullMatches: true };
  return { test: (el) => el === x, nullMatches: false };
}

function rangeTest(op: string, bound: unknown): ElementTest | null {
  if (typeof bound === 'number' && !Number.isNaN(bound)) {
    switch (op) {
      case '$gt':
        return (el) => typeof el === 'number' && el > bound;
      case '$gte':
        return (el) => typeof el === 'number' && el >= bound;
      case '$lt':
        return (el) => typeof el === 'number' && el < bound;
      case '$lte':
        return (el) => typeof el === 'number' && el <= bound;
    }
  }
  if (typeof bound === 'string' && !HIGH_UNITS.test(bound)) {
    // UTF-16 order is code point order here: at the first difference the bound's unit is
    // below 0xD800, so a surrogate or a unit >= 0xE000 in the value is greater either way.
    switch (op) {
      case '$gt':
        return (el) => typeof el === 'string' && el > bound;
      case '$gte':
        return (el) => typeof el === 'string' && el >= bound;
      case '$lt':
        return (el) => typeof el === 'string' && el < bound;
      case '$lte':
        return (el) => typeof el === 'string' && el <= bound;
    }
  }
  if (typeof bound === 'string') {
    switch (op) {
      case '$gt':
        return (el) => typeof el === 'string' && compareStrings(el, bound) > 0;
      case '$gte':
        return (el) => typeof el === 'string' && compareStrings(el, bound) >= 0;
      case '$lt':
        return (el) => typeof el === 'string' && compareStrings(el, bound) < 0;
      case '$lte':
        return (el) => typeof el === 'string' && compareStrings(el, bound) <= 0;
    }
  }
  return null;
}

function regexTest(v: unknown): ElementTest | null {
  const r = regexOf(v);
  if (!r || !r.pure) return null;
  const re = r.re;
  return (el) => typeof el === 'string' && re.test(el);
}

/** The tests of one field condition, or null when it is outside the subset. */
function compileCondition(cond: unknown): OpTest[] | null {
  if (scalarOperand(cond)) return [{ negated: false, ...equalsTest(cond) }];
  if (cond instanceof RegExp) {
    const t = regexTest(cond);
    return t ? [{ test: t, negated: false, nullMatches: false }] : null;
  }
  if (!isOperatorObject(cond)) return null;
  const tests: OpTest[] = [];
  for (const [op, arg] of Object.entries(cond)) {
    switch (op) {
      case '$eq':
      case '$ne':
        if (!scalarOperand(arg)) return null;
        tests.push({ negated: op === '$ne', ...equalsTest(arg) });
        break;
      case '$in':
      case '$nin': {
        if (!Array.isArray(arg) || !arg.every(scalarOperand)) return null;
        const values = new Set<unknown>(arg.filter((x) => x !== null));
        const withNull = arg.includes(null);
        tests.push({
          negated: op === '$nin',
          test: withNull ? (el) => el === null || el === undefined || values.has(el) : (el) => values.has(el),
          nullMatches: withNull,
        });
        break;
      }
      case '$all': {
        if (!Array.isArray(arg) || arg.length === 0 || !arg.every(isIndexable)) return null;
        for (const x of arg) tests.push({ negated: false, ...equalsTest(x) });
        break;
      }
      case '$gt':
      case '$gte':
      case '$lt':
      case '$lte': {
        const t = rangeTest(op, arg);
        if (!t) return null;
        tests.push({ test: t, negated: false, nullMatches: false });
        break;
      }
      case '$regex': {
        const t = regexTest({ $regex: arg, ...(cond.$options !== undefined ? { $options: cond.$options } : {}) });
        if (!t) return null;
        tests.push({ test: t, negated: false, nullMatches: false });
        break;
      }
      case '$options':
        if (!('$regex' in cond)) return null;
        break;
      case '$not': {
        const t =
          arg instanceof RegExp ? regexTest(arg) : isOperatorObject(arg) && '$regex' in arg ? regexTest(arg) : null;
        if (!t) return null;
        tests.push({ test: t, negated: true, nullMatches: false });
        break;
      }
      case '$exists':
        if (typeof arg !== 'boolean') return null;
        tests.push({ test: () => true, negated: false, nullMatches: false, exists: arg });
        break;
      default:
        return null;
    }
  }
  return tests;
}

export function compileNative(query: Query): NativeMatch | null {
  const parts: NativeMatch[] = [];
  for (const [key, value] of Object.entries(query)) {
    if (key === '$and' || key === '$or' || key === '$nor') {
      if (!Array.isArray(value) || value.length === 0) return null;
      const subs: NativeMatch[] = [];
      for (const sub of value) {
        if (!isPlainObject(sub)) return null;
        const m = compileNative(sub);
        if (!m) return null;
        subs.push(m);
      }
      if (key === '$and') parts.push((doc) => andTri(subs, doc));
      else if (key === '$or') parts.push((doc) => orTri(subs, doc));
      else parts.push((doc) => notTri(orTri(subs, doc)));
      continue;
    }
    if (key.charCodeAt(0) === 36 || key === '') return null;
    const tests = compileCondition(value);
    if (!tests) return null;
    const path = key.split('.');
    const simple = path.length === 1;
    parts.push((doc) => {
      const raw = simple ? doc[key] : valueAt(doc, path);
      let els: unknown[] | null = null; // null: the scalar `raw` itself
      if (raw !== null && typeof raw === 'object') {
        const list = elementsOf(raw);
        if (list === UNDECIDED) return 2;
        els = list;
      } else if (raw === UNDECIDED) return 2;
      for (const t of tests) {
        if (t.exists !== undefined) {
          if ((raw !== undefined) !== t.exists) return 0;
          continue;
        }
        let any = false;
        if (els === null) any = t.test(raw);
        else {
          for (const el of els) {
            if (t.test(el)) {
              any = true;
              break;
            }
          }
        }
        if (any === t.negated) return 0;
      }
      return 1;
    });
  }
  if (parts.length === 1) return parts[0]!;
  return (doc) => andTri(parts, doc);
}

function andTri(subs: NativeMatch[], doc: ReadDocument): Tri {
  let r: Tri = 1;
  for (const m of subs) {
    const x = m(doc);
    if (x === 0) return 0;
    if (x === 2) r = 2;
  }
  return r;
}

function orTri(subs: NativeMatch[], doc: ReadDocument): Tri {
  let r: Tri = 0;
  for (const m of subs) {
    const x = m(doc);
    if (x === 1) return 1;
    if (x === 2) r = 2;
  }
  return r;
}

function notTri(x: Tri): Tri {
  return x === 2 ? 2 : x === 1 ? 0 : 1;
}
