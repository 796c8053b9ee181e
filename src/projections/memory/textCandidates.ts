/**
 * Candidates of a query from the trigram indexes: a literal `$regex` on a plain field (a
 * `name__ic=` filter), or a `$or` each of whose branches is one (or an indexed equality)
 * — the shape of `?q=`, which searches several fields at once. Found at the top level of
 * the query or in a top-level `$and`. The candidates are a superset of the matches (the
 * query still decides each one), so they only narrow what is tested.
 */
import type { Entry } from '../querySemantics/Entry.js';
import { equalityValues, regexOf } from '../querySemantics/queryConstraints.js';
import { isPlainObject, type Scalar } from '../querySemantics/queryShapes.js';
import type { Query } from '../ReadStore.js';
import type { MemoryCollection } from './MemoryCollection.js';
import { foldedLiteralOf } from './regexLiteral.js';
import type { TrigramIndex } from './TrigramIndex.js';

/** Below this many documents to test, a query is not worth an index (in a collection at least this large). */
const FEW = 1000;

/** One way to narrow: an estimated count (an upper bound) and how to list the candidates. */
interface Source {
  estimate: number;
  list(): Entry[];
}

/** A member `field: {$regex}` whose literal the field's trigram index narrows; null otherwise. */
function regexSource(col: MemoryCollection, field: string, condition: unknown): Source | null {
  if (field.charCodeAt(0) === 36 || field.indexOf('.') !== -1) return null;
  const r = regexOf(condition);
  if (!r) return null;
  const literal = foldedLiteralOf(r.re);
  if (literal === null || literal.length < 3) return null;
  const index: TrigramIndex | null = col.textIndex(field);
  const estimate = index?.estimate(literal);
  if (!index || estimate === null || estimate === undefined) return null;
  return { estimate, list: () => index.candidates(literal)! };
}

/** A member `field: value | {$in}` an equality index (or the id map) answers; null otherwise. */
function equalitySource(col: MemoryCollection, field: string, condition: unknown): Source | null {
  const e = equalityValues(condition);
  if (!e) return null;
  const values = [...new Set(e.values)];
  if (field === 'id') {
    return {
      estimate: values.length,
      list: () => values.flatMap((v) => (typeof v === 'number' && col.docs.has(v) ? [col.docs.get(v)!] : [])),
    };
  }
  const index = col.index(field);
  if (!index) return null;
  return {
    estimate: values.reduce<number>((n, v: Scalar) => n + index.size(v), 0),
    list: () => {
      const out: Entry[] = [];
      const seen = new Set<Entry>();
      for (const v of values) index.collect(v, out, seen);
      return out;
    },
  };
}

/** A `$or` whose every branch is one narrowable member: the union of their candidates. */
function orSource(col: MemoryCollection, branches: unknown): Source | null {
  if (!Array.isArray(branches) || branches.length === 0) return null;
  const shaped: Array<[string, unknown]> = [];
  for (const b of branches) {
    if (!isPlainObject(b)) return null;
    const keys = Object.keys(b);
    if (keys.length !== 1 || keys[0]!.charCodeAt(0) === 36) return null;
    shaped.push([keys[0]!, b[keys[0]!]]);
  }
  // Every branch must narrow before any index is built for one of them.
  if (!shaped.every(([field, condition]) => isNarrowable(col, field, condition))) return null;
  // Every branch is asked (so each field's searches are counted towards its index), then judged.
  const found = shaped.map(
    ([field, condition]) => equalitySource(col, field, condition) ?? regexSource(col, field, condition),
  );
  if (found.some((s) => s === null)) return null;
  const sources = found as Source[];
  return {
    estimate: sources.reduce((n, s) => n + s.estimate, 0),
    list: () => {
      if (sources.length === 1) return sources[0]!.list();
      const seen = new Set<Entry>();
      const out: Entry[] = [];
      for (const s of sources) for (const e of s.list()) if (!seen.has(e)) (seen.add(e), out.push(e));
      return out;
    },
  };
}

/** Whether a branch could narrow, judged without building an index. */
function isNarrowable(col: MemoryCollection, field: string, condition: unknown): boolean {
  if (equalityValues(condition) && col.hasIndex(field)) return true;
  if (field.indexOf('.') !== -1) return false;
  const r = regexOf(condition);
  const literal = r ? foldedLiteralOf(r.re) : null;
  return literal !== null && literal.length >= 3;
}

/** The members a candidate source may come from: the query's own and those of a top-level `$and`. */
function* membersOf(query: Query): Generator<[string, unknown]> {
  for (const [key, v] of Object.entries(query)) {
    if (key === '$and' && Array.isArray(v)) {
      for (const sub of v)
        if (isPlainObject(sub)) for (const [k, w] of Object.entries(sub)) if (k !== '$and') yield [k, w];
    } else yield [key, v];
  }
}

/**
 * The candidates of the narrowest text source when it is estimated to hold fewer than
 * half of `budget` documents (the alternative's: the driving equality's candidates or the
 * whole collection); null when there is none worth it.
 */
export function textCandidates(col: MemoryCollection, query: Query, budget: number): Entry[] | null {
  // Testing a few hundred documents costs less than keeping an index for them: a query an
  // equality already narrows that far (a uniqueness check of a name within its device) neither
  // uses nor builds one, except in a small collection, where an index costs little either.
  if (budget < FEW && col.docs.size >= FEW) return null;
  let best: Source | null = null;
  for (const [key, condition] of membersOf(query)) {
    const source =
      key === '$or' ? orSource(col, condition) : key.charCodeAt(0) === 36 ? null : regexSource(col, key, condition);
    if (source && (!best || source.estimate < best.estimate)) best = source;
  }
  return best && best.estimate * 2 < budget ? best.list() : null;
}
