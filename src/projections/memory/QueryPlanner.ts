/**
 * How the memory store reaches the documents of a query, and how it decides each one.
 *
 * - Filter plan: an equality or `$in` of scalars on an indexed field (top level or in a
 *   top-level `$and`; `id` through the collection's Map) with the fewest candidates drives
 *   the query, and mingo only runs over those candidates; a literal text match (or a `$or`
 *   of them, `?q=`) narrowed by trigram indexes drives it instead when it is estimated to
 *   hold less than half as many (textCandidates). Cheap checks (scalar equality,
 *   `$in`, `$regex` on plain top-level fields) run before mingo; a top-level member they
 *   (or the driving index) decide exactly is taken out of the query mingo evaluates,
 *   everything else is mingo's call (a `$regex` meeting an array value hands the whole
 *   query to mingo).
 * - Access: a sorted index serving the requested order is walked until the page is full;
 *   a range on a sorted index's first field ($gt/$gte/$lt/$lte/equality, e.g. an IP
 *   `parent=` or a cursor's `id >= start`) is found by binary search, and counted from
 *   the positions alone when it is the whole query. The walk is compared with the
 *   candidate sets of the equality indexes and ranges by estimated documents touched.
 * - Matching: queries within the subset the list query compiler emits are decided by a
 *   compiled JavaScript predicate (nativeMatch), the rest by the filter plan.
 *
 * Disabled (`enabled: false`): no index, no prefilter, mingo over the whole query — the
 * reference behaviour the tests compare plans with.
 */
import { Query as MingoQuery } from 'mingo';

import type { Entry } from '../querySemantics/Entry.js';
import { compileNative } from '../querySemantics/nativeMatch.js';
import {
  collectConstraints,
  type EqConstraint,
  rangeOn,
  type RegexConstraint,
} from '../querySemantics/queryConstraints.js';
import { isIndexable, isOperatorObject, type Scalar } from '../querySemantics/queryShapes.js';
import type { SortKeySpec } from '../querySemantics/sortOrder.js';
import type { Query } from '../ReadStore.js';
import { exactLiterals } from '../textPatterns.js';
import type { MemoryCollection } from './MemoryCollection.js';
import { eqPrefilter, type Prefilter, regexPrefilter } from './prefilters.js';
import type { SortedIndex } from './SortedIndex.js';
import { textCandidates } from './textCandidates.js';

export interface FilterPlan {
  /** Candidate entries, or null to scan the whole collection (in natural order). */
  candidates: Entry[] | null;
  /** Cheap checks run before mingo. */
  prefilters: Prefilter[];
  /** mingo over the query minus the members the prefilters (or the index) decide exactly; null: nothing left. */
  residual: DocumentTest | null;
  /** mingo over the whole query, for documents a prefilter left undecided. */
  full: DocumentTest | null;
}

interface DocumentTest {
  test(doc: Record<string, unknown>): boolean;
}

/**
 * mingo's compiled query, built on its first use: compiling costs more than many whole
 * look-ups (a uniqueness check reaching one document by its index), and plans whose
 * candidates are all decided by the native match or the prefilters never use it.
 */
class LazyMingoQuery implements DocumentTest {
  private compiled: MingoQuery | null = null;
  constructor(private readonly query: Query) {}
  test(doc: Record<string, unknown>): boolean {
    return (this.compiled ??= new MingoQuery(this.query)).test(doc);
  }
}

export interface Walk {
  index: SortedIndex;
  /** Positions [from, to) of the index's entries. */
  from: number;
  to: number;
  reverse: boolean;
}

export interface Access {
  matches: (e: Entry) => boolean;
  /** Every document reached matches (no test needed). */
  matchesAll: boolean;
  walk: Walk | null;
  /** Candidate entries when not walking; null = every document. */
  candidates: Entry[] | null;
}

/** Positions [from, to) of a sorted index holding a range of its first field. */
interface IndexRange {
  index: SortedIndex;
  from: number;
  to: number;
  /** The query is nothing but this range (then every entry in it matches). */
  pure: boolean;
}

export class QueryPlanner {
  constructor(readonly enabled: boolean) {}

  /** The candidates, prefilters and mingo queries that decide `query` document by document. */
  filterPlan(col: MemoryCollection, query: Query): FilterPlan {
    if (Object.keys(query).length === 0) return { candidates: null, prefilters: [], residual: null, full: null };
    if (!this.enabled) {
      const full = new LazyMingoQuery(query);
      return { candidates: null, prefilters: [], residual: full, full };
    }
    const eq: EqConstraint[] = [];
    const regexes: RegexConstraint[] = [];
    collectConstraints(query, true, eq, regexes);
    let driver = drivingConstraint(col, eq);
    // An exact case-insensitive match through the folded equality index, or a text match
    // through the trigram index, drives the plan when it promises fewer candidates.
    const driverSize = driver ? candidateCount(col, driver) : col.docs.size;
    const narrowed = caseInsensitiveCandidates(col, query, driverSize) ?? textCandidates(col, query, driverSize);
    if (narrowed) driver = null;
    const candidates = narrowed ?? (driver ? candidatesOf(col, driver) : null);
    const checks = prefiltersBeside(col, driver, eq, regexes);
    return { candidates, prefilters: checks.prefilters, ...mingoRemainder(query, checks.decided, checks.undecidable) };
  }

  /**
   * How to reach the documents of a query: a walk of a sorted index (in the sort's
   * order, possibly limited to a range of its first field) or a candidate list (from an
   * equality index or a range of a sorted index; null = every document), and the
   * predicate deciding each document (native when the query allows, else mingo).
   */
  access(col: MemoryCollection, query: Query, spec: SortKeySpec[], want: number, forCount = false): Access {
    // An empty collection, or a driving index holding no candidate (a check that nothing refers
    // to an object, and nothing does): no document can match, and no matcher is compiled for none.
    const plan = col.docs.size === 0 ? NOTHING : this.filterPlan(col, query);
    if (plan.candidates !== null && plan.candidates.length === 0)
      return { matches: matchesNone, matchesAll: false, walk: null, candidates: [] };
    const matches = matcherFor(query, plan);
    const n = col.docs.size;
    const eqSize = plan.candidates ? plan.candidates.length : n;
    const range = narrowestRange(col, query);
    const walk = walkInOrder(col, spec, range);
    const matchesAll = Object.keys(query).length === 0 || (range !== null && range.pure && walk?.index === range.index);
    const rangeSize = range ? range.to - range.from : n;
    const sourceSize = Math.min(eqSize, rangeSize);

    if (forCount && range?.pure) {
      // count() of a pure range: the range's size
      return {
        matches,
        matchesAll: true,
        walk: { index: range.index, from: range.from, to: range.to, reverse: false },
        candidates: null,
      };
    }
    if (walk) {
      const domain = walk.to - walk.from;
      const cost = walkCost(walk, query, plan, range, n, want, matchesAll);
      if (cost <= sourceSize * 2 || (want === Infinity && domain <= sourceSize)) {
        return { matches, matchesAll, walk, candidates: null };
      }
    }
    if (range && rangeSize < eqSize) {
      const candidates = range.index.entries.slice(range.from, range.to).map((k) => k.entry);
      return { matches, matchesAll: false, walk: null, candidates };
    }
    return { matches, matchesAll: false, walk: null, candidates: plan.candidates };
  }

  /** count() of a single-key query answered from an index alone, or null. */
  exactCount(col: MemoryCollection, field: string, value: unknown): number | null {
    if (field.indexOf('.') !== -1 || field.charCodeAt(0) === 36) return null;
    const values = isIndexable(value) ? [value] : null;
    let list = values;
    if (
      !list &&
      isOperatorObject(value) &&
      Object.keys(value).length === 1 &&
      Array.isArray(value.$in) &&
      value.$in.every(isIndexable)
    ) {
      list = value.$in as Scalar[];
    }
    if (!list) return null;
    if (field === 'id') {
      const ids = new Set(list.filter((v): v is number => typeof v === 'number'));
      let n = 0;
      for (const id of ids) if (col.docs.has(id)) n++;
      return n;
    }
    const index = col.index(field);
    if (!index) return null;
    const distinct = [...new Set(list)];
    if (distinct.length === 1) return index.size(distinct[0]!);
    if (!index.multiValued) return distinct.reduce<number>((n, v) => n + index.size(v), 0);
    const entries = new Set<Entry>();
    const out: Entry[] = [];
    for (const v of distinct) index.collect(v, out, entries);
    return entries.size;
  }
}

/** Whether a document passes a filter plan: prefilters first, then mingo on what they left. */
export function matchEntry(plan: FilterPlan, e: Entry): boolean {
  const doc = e.doc;
  let undecided = false;
  for (let i = 0; i < plan.prefilters.length; i++) {
    const r = plan.prefilters[i]!(e);
    if (r === 0) return false;
    if (r === 2) undecided = true;
  }
  const q = undecided ? plan.full : plan.residual;
  return q === null || q.test(doc);
}

/* ------------------------------------------------------------ filter plan */

/** How many entries an equality's index holds for its values; Infinity when the field has no index. */
function candidateCount(col: MemoryCollection, c: EqConstraint): number {
  if (c.field === 'id') return c.values.length;
  const index = col.index(c.field);
  if (!index) return Infinity;
  let cost = 0;
  for (const v of c.values) cost += index.size(v);
  return cost;
}

/** The indexed equality with the fewest candidates, or null when none is smaller than the collection. */
function drivingConstraint(col: MemoryCollection, eq: EqConstraint[]): EqConstraint | null {
  let best: EqConstraint | null = null;
  let bestCost = Infinity;
  for (const c of eq) {
    const cost = candidateCount(col, c);
    if (cost < bestCost) {
      best = c;
      bestCost = cost;
    }
  }
  return best && bestCost < col.docs.size ? best : null;
}

/**
 * The candidates of an exact case-insensitive match of literals (`name__ie=`, a
 * case-insensitive uniqueness rule) on an indexed top-level field, through the index's
 * folded values, when they are fewer than `fewerThan`; or null. A superset of the
 * matches: the regex itself still decides each candidate, as a prefilter.
 */
function caseInsensitiveCandidates(col: MemoryCollection, query: Query, fewerThan: number): Entry[] | null {
  let best: Entry[] | null = null;
  for (const [field, condition] of Object.entries(query)) {
    const index = col.index(field);
    if (!index || field.indexOf('.') !== -1) continue;
    const literals = exactLiterals(condition);
    if (!literals) continue;
    const found: Entry[] = [];
    index.collectFolded(literals, found);
    if (found.length < (best ? best.length : fewerThan)) best = found;
  }
  return best;
}

/** The entries the driving equality's index holds (each once). */
function candidatesOf(col: MemoryCollection, driver: EqConstraint): Entry[] {
  const candidates: Entry[] = [];
  if (driver.field === 'id') {
    const seen = new Set<number>();
    for (const v of driver.values) {
      if (typeof v !== 'number' || seen.has(v)) continue;
      seen.add(v);
      const e = col.docs.get(v);
      if (e) candidates.push(e);
    }
    return candidates;
  }
  const index = col.index(driver.field)!;
  const values = driver.values.length > 1 ? [...new Set(driver.values)] : driver.values;
  const seen = values.length > 1 && index.multiValued ? new Set<Entry>() : null;
  for (const v of values) index.collect(v, candidates, seen);
  return candidates;
}

/**
 * The cheap checks for the conditions the driving index does not cover, equality
 * checks before regexes (cheapest first), and the top-level members decided exactly
 * (by the driving index or a prefilter). `undecidable`: an exact regex may meet an
 * array value, which only mingo over the whole query can judge.
 */
function prefiltersBeside(
  col: MemoryCollection,
  driver: EqConstraint | null,
  eq: EqConstraint[],
  regexes: RegexConstraint[],
): { prefilters: Prefilter[]; decided: Set<string>; undecidable: boolean } {
  const decided = new Set<string>();
  const prefilters: Prefilter[] = [];
  if (driver?.exact) decided.add(driver.field);
  for (const c of eq) {
    if (c === driver) continue;
    if (c.field.indexOf('.') === -1) {
      prefilters.push(eqPrefilter(c));
      if (c.exact) decided.add(c.field);
    } else {
      const index = col.index(c.field);
      if (index) {
        const values = c.values;
        prefilters.push((e) => (values.some((v) => index.has(v, e)) ? 1 : 0));
      }
    }
  }
  let undecidable = false;
  for (const r of regexes) {
    if (decided.has(r.field)) continue;
    prefilters.push(regexPrefilter(r));
    if (r.exact) {
      decided.add(r.field);
      undecidable = true;
    }
  }
  return { prefilters, decided, undecidable };
}

/** mingo over the members not decided exactly, and over the whole query when a prefilter may leave a document undecided. */
function mingoRemainder(
  query: Query,
  decided: Set<string>,
  undecidable: boolean,
): { residual: DocumentTest | null; full: DocumentTest | null } {
  const keys = Object.keys(query);
  const residualQuery: Query = {};
  let residualKeys = 0;
  for (const k of keys) {
    if (decided.has(k)) continue;
    residualQuery[k] = query[k];
    residualKeys++;
  }
  const full = residualKeys === keys.length ? null : undecidable ? new LazyMingoQuery(query) : null;
  const residual = residualKeys > 0 ? new LazyMingoQuery(residualQuery) : null;
  return { residual, full: full ?? residual };
}

/* ----------------------------------------------------------------- access */

/** The predicate deciding one document: the native match where it can tell, else mingo. */
const matchesNone = (): boolean => false;
const NOTHING: FilterPlan = { candidates: [], prefilters: [], residual: null, full: null };

function matcherFor(query: Query, plan: FilterPlan): (e: Entry) => boolean {
  const native = Object.keys(query).length === 0 ? null : compileNative(query);
  if (!native) return (e: Entry) => matchEntry(plan, e);
  let full: MingoQuery | null = null;
  return (e: Entry) => {
    const r = native(e.doc);
    if (r !== 2) return r === 1;
    full ??= new MingoQuery(query);
    return full.test(e.doc);
  };
}

/** The narrowest range of a sorted index's first field the query states, or null. */
function narrowestRange(col: MemoryCollection, query: Query): IndexRange | null {
  let range: IndexRange | null = null;
  for (const candidate of col.sorted.values()) {
    const r = rangeOn(query, candidate.fields[0]!);
    if (!r) continue;
    const index = col.fresh(candidate);
    if (!index) continue;
    const from = r.lo ? index.lowerBound(r.lo.value, r.lo.exclusive) : 0;
    const to = r.hi ? index.lowerBound(r.hi.value, !r.hi.exclusive) : index.entries.length;
    const sameType = r.lo && r.hi && typeof r.lo.value === typeof r.hi.value;
    const keys = Object.keys(query);
    const pure = r.pure && !!sameType && keys.length === 1 && keys[0] === candidate.fields[0];
    if (!range || to - from < range.to - range.from) range = { index, from, to: Math.max(from, to), pure };
  }
  return range;
}

/**
 * A walk of the sorted index serving the requested order (all ascending or all
 * descending, ending with id), limited to `range` when it is on that index; or null.
 */
function walkInOrder(col: MemoryCollection, spec: SortKeySpec[], range: IndexRange | null): Walk | null {
  if (spec.length === 0 || spec[spec.length - 1]!.field !== 'id' || !spec.every((k) => k.dir === spec[0]!.dir))
    return null;
  const named = col.sorted.get(spec.map((k) => k.field).join(','));
  const index = named ? col.fresh(named) : null;
  if (!index) return null;
  const reverse = spec[0]!.dir === -1;
  return range && range.index === index
    ? { index, from: range.from, to: range.to, reverse }
    : { index, from: 0, to: index.entries.length, reverse };
}

/** Estimated documents a walk touches before its page of `want` is full. */
function walkCost(
  walk: Walk,
  query: Query,
  plan: FilterPlan,
  range: IndexRange | null,
  n: number,
  want: number,
  matchesAll: boolean,
): number {
  const domain = walk.to - walk.from;
  if (matchesAll) return Math.min(domain, want);
  const eqSize = plan.candidates ? plan.candidates.length : n;
  const rangeSize = range ? range.to - range.from : n;
  const otherConditions =
    Object.keys(query).length > (plan.candidates ? 1 : 0) + (range && walk.index === range.index ? 1 : 0);
  const eqFraction = plan.candidates ? eqSize / Math.max(n, 1) : 1;
  const rangeFraction = range && range.index !== walk.index ? rangeSize / Math.max(n, 1) : 1;
  const selectivity = Math.max(1 / Math.max(n, 1), Math.min(eqFraction, rangeFraction) * (otherConditions ? 0.25 : 1));
  return Math.min(domain, want / selectivity);
}
