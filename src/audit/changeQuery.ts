import { IGNORE, parseEmptyFlag, parseInteger } from '../api/query/filterValues.js';
import type { FieldErrors } from '../models/types.js';
import { ACTIONS, type AuditIndex } from './AuditIndex.js';
import type { ContentTypes } from './contentTypes.js';
import { parseTimeMicros } from './time.js';

/** Users, for the `user` (username) and `user_id` filters: only current users can be named. */
export interface UserLookup {
  idsByUsername(names: string[]): Promise<Map<string, number>>;
  existingIds(ids: number[]): Promise<Set<number>>;
}

/**
 * An object-change filter compiled against the audit index: bounds on the position,
 * optionally the candidate positions an index gives (request id, object), and tests
 * over the index's per-position columns. Never touches event bodies.
 */
export interface ChangeFilter {
  /** Known to match nothing (e.g. an unknown content type). */
  nothing: boolean;
  lo: number;
  hi: number;
  /** Ascending candidate positions from an index, or null to scan [lo, hi]. */
  drivers: number[] | null;
  tests: Array<(p: number) => boolean>;
  /** Only events of change-logged models (NetBox's object changes leave out users, tokens ...). */
  loggedOnly: boolean;
}

export class ChangeFilterError extends Error {
  constructor(readonly errors: FieldErrors) {
    super('invalid object-change filter');
  }
}

const STRING_LOOKUPS = new Set(['', 'n', 'ic', 'nic', 'isw', 'nisw', 'iew', 'niew', 'ie', 'nie', 'empty']);
const NUMBER_LOOKUPS = new Set(['', 'n', 'lt', 'lte', 'gt', 'gte']);
const UUID = /^(?:urn:uuid:)?\{?([0-9a-f]{8})-?([0-9a-f]{4})-?([0-9a-f]{4})-?([0-9a-f]{4})-?([0-9a-f]{12})\}?$/i;

/** A UUID in canonical form (lower case, dashed), or null. Django accepts hex without dashes too. */
export function canonicalUuid(text: string): string | null {
  const m = UUID.exec(text.trim());
  return m ? `${m[1]}-${m[2]}-${m[3]}-${m[4]}-${m[5]}`.toLowerCase() : null;
}

/** Parameter name → lookup suffix → non-empty values (NetBox ignores empty values). */
function groupParameters(query: URLSearchParams): Map<string, Map<string, string[]>> {
  const groups = new Map<string, Map<string, string[]>>();
  for (const [key, value] of query) {
    if (value === '') continue;
    const at = key.indexOf('__');
    const name = at < 0 ? key : key.slice(0, at);
    const lookup = at < 0 ? '' : key.slice(at + 2);
    let byLookup = groups.get(name);
    if (!byLookup) groups.set(name, (byLookup = new Map()));
    const values = byLookup.get(lookup) ?? [];
    values.push(value);
    byLookup.set(lookup, values);
  }
  return groups;
}

function paramName(name: string, lookup: string): string {
  return lookup ? `${name}__${lookup}` : name;
}

/** NetBox's string lookups: repeated values are OR'ed; negated lookups exclude a match of any. */
export function stringMatcher(lookup: string, values: string[]): ((s: string) => boolean) | { error: string } {
  const upper = values.map((v) => v.toUpperCase());
  switch (lookup) {
    case '':
      return (s) => values.includes(s);
    case 'n':
      return (s) => !values.includes(s);
    case 'ie':
      return (s) => upper.includes(s.toUpperCase());
    case 'nie':
      return (s) => !upper.includes(s.toUpperCase());
    case 'ic':
      return (s) => upper.some((v) => s.toUpperCase().includes(v));
    case 'nic':
      return (s) => !upper.some((v) => s.toUpperCase().includes(v));
    case 'isw':
      return (s) => upper.some((v) => s.toUpperCase().startsWith(v));
    case 'nisw':
      return (s) => !upper.some((v) => s.toUpperCase().startsWith(v));
    case 'iew':
      return (s) => upper.some((v) => s.toUpperCase().endsWith(v));
    case 'niew':
      return (s) => !upper.some((v) => s.toUpperCase().endsWith(v));
    case 'empty': {
      const flag = parseEmptyFlag(values[values.length - 1]!);
      if (flag === IGNORE || !flag.ok) return { error: 'Enter a valid boolean (true or false).' };
      return flag.value ? (s) => s === '' : (s) => s !== '';
    }
    default:
      return { error: 'unknown lookup' };
  }
}

/** A whole number the index can compare exactly, or null. */
function safeInteger(value: string): number | null {
  const parsed = parseInteger(value);
  return parsed !== IGNORE && parsed.ok && Number.isSafeInteger(parsed.value) ? parsed.value : null;
}

/** Numeric lookups over one column. Returns the test, or an error message. */
function numberTest(lookup: string, numbers: number[], get: (p: number) => number): (p: number) => boolean {
  switch (lookup) {
    case '': {
      const set = new Set(numbers);
      return (p) => set.has(get(p));
    }
    case 'n': {
      const set = new Set(numbers);
      return (p) => !set.has(get(p));
    }
    case 'lt': {
      const bound = Math.max(...numbers);
      return (p) => get(p) < bound;
    }
    case 'lte': {
      const bound = Math.max(...numbers);
      return (p) => get(p) <= bound;
    }
    case 'gt': {
      const bound = Math.min(...numbers);
      return (p) => get(p) > bound;
    }
    default: {
      const bound = Math.min(...numbers);
      return (p) => get(p) >= bound;
    }
  }
}

function sortedUnion(lists: number[][]): number[] {
  if (lists.length === 1) return lists[0]!;
  return [...new Set(lists.flat())].sort((a, b) => a - b);
}

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
  const fail = (param: string, message: string) => (errors[param] ??= []).push(message);
  const groups = groupParameters(query);
  const driverLists: number[][] = [];

  const integers = (name: string, lookup: string, values: string[]): number[] | null => {
    const out: number[] = [];
    for (const v of values) {
      const n = safeInteger(v);
      if (n === null) {
        fail(paramName(name, lookup), 'Enter a whole number.');
        return null;
      }
      out.push(n);
    }
    return out;
  };

  // id: the log position.
  for (const [lookup, values] of groups.get('id') ?? []) {
    if (!NUMBER_LOOKUPS.has(lookup)) continue;
    const numbers = integers('id', lookup, values);
    if (!numbers) continue;
    if (lookup === '' && live) filter.tests.push(numberTest('', numbers, (p) => p));
    else if (lookup === '') driverLists.push(numbers.filter((n) => n >= 1 && n <= index.head).sort((a, b) => a - b));
    else if (lookup === 'lt') filter.hi = Math.min(filter.hi, Math.max(...numbers) - 1);
    else if (lookup === 'lte') filter.hi = Math.min(filter.hi, Math.max(...numbers));
    else if (lookup === 'gt') filter.lo = Math.max(filter.lo, Math.min(...numbers) + 1);
    else if (lookup === 'gte') filter.lo = Math.max(filter.lo, Math.min(...numbers));
    else filter.tests.push(numberTest('n', numbers, (p) => p));
  }

  // request_id: through the request index.
  const requestIds = groups.get('request_id')?.get('');
  if (requestIds) {
    const canonical = requestIds.map(canonicalUuid);
    if (canonical.some((c) => c === null)) fail('request_id', 'Enter a valid UUID.');
    else if (live) {
      const wanted = new Set(canonical as string[]);
      filter.tests.push((p) => wanted.has(index.requestIdAt(p)));
    } else driverLists.push(sortedUnion(canonical.map((id) => index.requestPositions(id!))));
  }

  // changed_object_type: single value ('<app>.<model>'); unknown or malformed → no rows; __n does not negate.
  let objectType: string | null = null;
  for (const lookup of ['', 'n']) {
    const values = groups.get('changed_object_type')?.get(lookup);
    if (!values) continue;
    const value = values[values.length - 1]!.toLowerCase();
    const wellFormed = /^[a-z0-9_]+\.[a-z0-9_]+$/.test(value);
    const code = wellFormed ? index.typeCode(value) : undefined;
    if (code !== undefined) {
      objectType = value;
      filter.tests.push((p) => index.typeCodeAt(p) === code);
    } else if (live && wellFormed) {
      // Not in the log yet: it may come.
      objectType = value;
      filter.tests.push((p) => index.typeAt(p) === value);
    } else {
      filter.nothing = true;
    }
  }

  // changed_object_type_id: the content type's id, repeatable.
  for (const [lookup, values] of groups.get('changed_object_type_id') ?? []) {
    if (lookup !== '' && lookup !== 'n') continue;
    const numbers = integers('changed_object_type_id', lookup, values);
    if (!numbers) continue;
    const keys = new Set<string>();
    for (const n of numbers) {
      const key = contentTypes.key(n);
      if (key === null) fail(paramName('changed_object_type_id', lookup), `Select a valid choice. ${n} is not one of the available choices.`);
      else keys.add(key);
    }
    // By type code (a small dictionary), or by name while live (types may appear later).
    const codes = new Set([...keys].map((k) => index.typeCode(k)).filter((c): c is number => c !== undefined));
    const has = live ? (p: number) => keys.has(index.typeAt(p)) : (p: number) => codes.has(index.typeCodeAt(p));
    filter.tests.push(lookup === 'n' ? (p) => !has(p) : has);
  }

  // changed_object_id: numbers; with one type and exact ids, through the object index.
  for (const [lookup, values] of groups.get('changed_object_id') ?? []) {
    if (!NUMBER_LOOKUPS.has(lookup)) continue;
    const numbers = integers('changed_object_id', lookup, values);
    if (!numbers) continue;
    if (lookup === '' && objectType !== null && !live) {
      const type = objectType;
      driverLists.push(sortedUnion(numbers.map((id) => index.objectPositions(type, id))));
    } else {
      filter.tests.push(numberTest(lookup, numbers, (p) => index.objectIdAt(p)));
    }
  }

  // action: single value.
  for (const lookup of ['', 'n']) {
    const values = groups.get('action')?.get(lookup);
    if (!values) continue;
    const value = values[values.length - 1]!;
    const code = ACTIONS.indexOf(value as (typeof ACTIONS)[number]);
    if (code < 0) fail(paramName('action', lookup), `Select a valid choice. ${value} is not one of the available choices.`);
    else filter.tests.push(lookup === 'n' ? (p) => index.actionCodeAt(p) !== code : (p) => index.actionCodeAt(p) === code);
  }

  // user (username of a current user) and user_id.
  for (const [lookup, values] of groups.get('user') ?? []) {
    if (lookup !== '' && lookup !== 'n') continue;
    const found = await users.idsByUsername(values);
    const ids = new Set<number>();
    for (const name of values) {
      const id = found.get(name);
      if (id === undefined) fail(paramName('user', lookup), `Select a valid choice. ${name} is not one of the available choices.`);
      else ids.add(id);
    }
    filter.tests.push(lookup === 'n' ? (p) => !ids.has(index.userIdAt(p)) : (p) => ids.has(index.userIdAt(p)));
  }
  for (const [lookup, values] of groups.get('user_id') ?? []) {
    if (lookup !== '' && lookup !== 'n') continue;
    const ids = new Set<number>();
    const wanted: number[] = [];
    for (const value of values) {
      if (value === 'null') {
        ids.add(-1);
        continue;
      }
      const n = safeInteger(value);
      if (n === null) fail(paramName('user_id', lookup), `“${value}” is not a valid value.`);
      else wanted.push(n);
    }
    const existing = await users.existingIds(wanted);
    for (const n of wanted) {
      if (!existing.has(n)) fail(paramName('user_id', lookup), `Select a valid choice. ${n} is not one of the available choices.`);
      else ids.add(n);
    }
    filter.tests.push(lookup === 'n' ? (p) => !ids.has(index.userIdAt(p)) : (p) => ids.has(index.userIdAt(p)));
  }

  // user_name: the dictionary of names is tiny, so the lookup runs once per name.
  for (const [lookup, values] of groups.get('user_name') ?? []) {
    if (!STRING_LOOKUPS.has(lookup)) continue;
    const match = stringMatcher(lookup, values);
    if (typeof match !== 'function') {
      fail(paramName('user_name', lookup), match.error);
      continue;
    }
    if (live) filter.tests.push((p) => match(index.userNameAt(p)));
    else {
      const codes = index.userNameCodes(match);
      filter.tests.push((p) => codes.has(index.userNameCodeAt(p)));
    }
  }

  // object_repr.
  for (const [lookup, values] of groups.get('object_repr') ?? []) {
    if (!STRING_LOOKUPS.has(lookup)) continue;
    const match = stringMatcher(lookup, values);
    if (typeof match !== 'function') {
      fail(paramName('object_repr', lookup), match.error);
      continue;
    }
    filter.tests.push((p) => match(index.reprAt(p)));
  }

  // time_after (>=) and time_before (<=): single values.
  const timeBound = (name: string): number | null | undefined => {
    const values = groups.get(name)?.get('');
    if (!values) return undefined;
    const micros = parseTimeMicros(values[values.length - 1]!);
    if (micros === null) fail(name, 'Enter a valid date/time.');
    return micros;
  };
  const after = timeBound('time_after');
  if (typeof after === 'number') {
    filter.lo = Math.max(filter.lo, index.firstPositionFrom(after));
    if (!index.timesOrdered) filter.tests.push((p) => index.timeAt(p) >= after);
  }
  const before = timeBound('time_before');
  if (typeof before === 'number') {
    if (index.timesOrdered) filter.hi = Math.min(filter.hi, index.positionAtTime(before));
    else filter.tests.push((p) => index.timeAt(p) <= before);
  }

  // q: user name or object repr contains, case-insensitive.
  const q = groups.get('q')?.get('')?.at(-1)?.trim();
  if (q) {
    const needle = q.toUpperCase();
    const nameMatches = (name: string) => name.toUpperCase().includes(needle);
    const names = index.userNameCodes(nameMatches);
    const userMatches = live ? (p: number) => nameMatches(index.userNameAt(p)) : (p: number) => names.has(index.userNameCodeAt(p));
    filter.tests.push((p) => userMatches(p) || index.reprAt(p).toUpperCase().includes(needle));
  }

  if (Object.keys(errors).length > 0) throw new ChangeFilterError(errors);
  if (driverLists.length > 0) {
    // Intersect the index-driven candidate lists (each ascending).
    let drivers = driverLists[0]!;
    for (const other of driverLists.slice(1)) {
      const set = new Set(other);
      drivers = drivers.filter((p) => set.has(p));
    }
    filter.drivers = drivers;
  }
  return filter;
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

const ORDERABLE = new Set(['id', 'time', 'user', 'user_name', 'request_id', 'action', 'changed_object_type', 'changed_object_id']);

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
  const newestFirst = ordering.length === 0 || ((ordering[0]!.name === 'id' || ordering[0]!.name === 'time') && ordering[0]!.desc && index.timesOrdered);
  const oldestFirst = ordering.length > 0 && (ordering[0]!.name === 'id' || (ordering[0]!.name === 'time' && index.timesOrdered)) && !ordering[0]!.desc;
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
