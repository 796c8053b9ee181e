import type { FieldErrors } from '../errors/fieldErrors.js';
import type { ContentTypes } from '../models/contentTypes.js';
import type { AuditIndex } from './AuditIndex.js';
import {
  CHANGE_FILTER_COMPILERS,
  type ChangeFilter,
  type FilterCompilation,
  groupParameters,
  type UserLookup,
} from './changeFilters.js';

export type { ChangeFilter, UserLookup } from './changeFilters.js';

export class ChangeFilterError extends Error {
  constructor(readonly errors: FieldErrors) {
    super('invalid object-change filter');
  }
}

export { canonicalUuid, stringMatcher } from './changeFilters.js';

/** The filter set of /api/extras/object-changes/ (extras.json), over the audit index. */
export async function compileChangeFilter(
  index: AuditIndex,
  query: URLSearchParams,
  users: UserLookup,
  contentTypes: ContentTypes,
  options: { live?: boolean; loggedOnly?: boolean } = {},
): Promise<ChangeFilter> {
  // Live (a stream): positions beyond today's head count too, so index-driven clauses become tests.
  const live = options.live ?? false;
  const filter: ChangeFilter = {
    nothing: false,
    lo: 1,
    hi: live ? Infinity : index.head,
    drivers: null,
    tests: [],
    loggedOnly: options.loggedOnly ?? true,
  };
  const errors: FieldErrors = {};
  const compilation: FilterCompilation = {
    index,
    users,
    contentTypes,
    live,
    filter,
    groups: groupParameters(query),
    driverLists: [],
    objectType: null,
    fail: (param, message) => (errors[param] ??= []).push(message),
  };
  for (const compile of CHANGE_FILTER_COMPILERS) await compile(compilation);
  if (Object.keys(errors).length > 0) throw new ChangeFilterError(errors);
  filter.drivers = intersectDrivers(compilation.driverLists);
  return filter;
}

/** The positions every index-driven clause allows (each list ascending), or null without such clauses. */
function intersectDrivers(lists: number[][]): number[] | null {
  if (lists.length === 0) return null;
  let drivers = lists[0]!;
  for (const other of lists.slice(1)) {
    const set = new Set(other);
    drivers = drivers.filter((p) => set.has(p));
  }
  return drivers;
}

/** Whether a position passes the filter (for live delivery, where positions arrive one by one). */
export function matchesChange(index: AuditIndex, filter: ChangeFilter, p: number): boolean {
  if (filter.nothing || p < filter.lo || p > filter.hi) return false;
  if (filter.loggedOnly && !index.isLogged(p)) return false;
  if (filter.drivers !== null && !binaryHas(filter.drivers, p)) return false;
  for (const test of filter.tests) if (!test(p)) return false;
  return true;
}

function binaryHas(sorted: number[], value: number): boolean {
  let lo = 0;
  let hi = sorted.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const v = sorted[mid]!;
    if (v === value) return true;
    if (v < value) lo = mid + 1;
    else hi = mid - 1;
  }
  return false;
}

// ---------------------------------------------------------------- ordering

type SortKey = (p: number) => number | string;

const ORDERABLE = new Set([
  'id',
  'time',
  'user',
  'user_name',
  'request_id',
  'action',
  'changed_object_type',
  'changed_object_id',
]);

/** `?ordering=` terms NetBox accepts that we can sort by; unknown ones are dropped (then -time applies). */
export function parseOrdering(value: string | null): Array<{ name: string; desc: boolean }> {
  if (!value) return [];
  const terms: Array<{ name: string; desc: boolean }> = [];
  for (const raw of value.split(',')) {
    const term = raw.trim();
    const desc = term.startsWith('-');
    const name = desc ? term.slice(1) : term;
    if (ORDERABLE.has(name)) terms.push({ name, desc });
  }
  return terms;
}

function sortKey(index: AuditIndex, name: string): SortKey {
  switch (name) {
    case 'time':
      return (p) => index.timeAt(p);
    case 'user':
    case 'user_name':
      return (p) => index.userNameAt(p);
    case 'request_id':
      return (p) => index.requestIdAt(p);
    case 'action':
      return (p) => index.actionAt(p);
    case 'changed_object_type':
      return (p) => index.typeAt(p);
    case 'changed_object_id':
      return (p) => index.objectIdAt(p);
    default:
      return (p) => p;
  }
}

export interface ChangeSelection {
  count: number;
  /** The page's positions, in response order. */
  positions: number[];
}

/**
 * Runs a compiled filter: count plus one page of positions, newest first unless
 * `ordering` says otherwise. Unfiltered (or bounds-only) queries are answered from the
 * bounds without touching any row; others cost one pass over their candidates.
 */
export function selectChanges(
  index: AuditIndex,
  filter: ChangeFilter,
  ordering: Array<{ name: string; desc: boolean }>,
  offset: number,
  limit: number | null,
): ChangeSelection {
  const hi = Math.min(filter.hi, index.head);
  const lo = Math.max(1, filter.lo);
  if (filter.nothing || lo > hi) return { count: 0, positions: [] };
  const newestFirst =
    ordering.length === 0 ||
    ((ordering[0]!.name === 'id' || ordering[0]!.name === 'time') && ordering[0]!.desc && index.timesOrdered);
  const oldestFirst =
    ordering.length > 0 &&
    (ordering[0]!.name === 'id' || (ordering[0]!.name === 'time' && index.timesOrdered)) &&
    !ordering[0]!.desc;
  const byPosition = newestFirst || oldestFirst;

  if (filter.drivers === null && filter.tests.length === 0 && byPosition) {
    // Bounds only: answered by arithmetic over the dense positions, or by binary search
    // over the positions of change-logged events.
    const first = filter.loggedOnly ? index.loggedRank(lo) : lo;
    const last = filter.loggedOnly ? index.loggedRank(hi + 1) - 1 : hi;
    const at = filter.loggedOnly ? (i: number) => index.loggedAt(i) : (i: number) => i;
    const count = Math.max(0, last - first + 1);
    const end = limit === null ? count : Math.min(count, offset + limit);
    const positions: number[] = [];
    for (let i = offset; i < end; i++) positions.push(at(newestFirst ? last - i : first + i));
    return { count, positions };
  }

  const matches: number[] = [];
  const tests = filter.loggedOnly ? [(p: number) => index.isLogged(p), ...filter.tests] : filter.tests;
  const pass = (p: number) => {
    for (let t = 0; t < tests.length; t++) if (!tests[t]!(p)) return false;
    return true;
  };
  if (filter.drivers !== null) {
    for (const p of filter.drivers) if (p >= lo && p <= hi && pass(p)) matches.push(p);
  } else {
    for (let p = lo; p <= hi; p++) if (pass(p)) matches.push(p);
  }

  if (byPosition) {
    if (newestFirst) matches.reverse();
  } else {
    const keys = ordering.map((term) => ({ key: sortKey(index, term.name), desc: term.desc }));
    const tieDesc = ordering[0]!.desc;
    matches.sort((a, b) => {
      for (const { key, desc } of keys) {
        const x = key(a);
        const y = key(b);
        if (x < y) return desc ? 1 : -1;
        if (x > y) return desc ? -1 : 1;
      }
      return tieDesc ? b - a : a - b;
    });
  }
  const end = limit === null ? matches.length : offset + limit;
  return { count: matches.length, positions: matches.slice(offset, end) };
}
