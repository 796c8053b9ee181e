import type { ContentTypes } from '../models/contentTypes.js';
import { IGNORE, parseEmptyFlag, parseInteger } from '../models/values/filterValues.js';
import { ACTIONS, type AuditIndex } from './AuditIndex.js';
import { parseTimeMicros } from './time.js';

/**
 * The object-change filter parameters, one small compiler each. A compiler reads its
 * parameter's values and narrows the filter: bounds on the position, candidate lists
 * from an index (`driverLists`), or tests over the index's columns. Invalid values are
 * reported through `fail` (all of them are collected before the request is refused).
 */

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

/** What the compilers share while compiling one query. */
export interface FilterCompilation {
  readonly index: AuditIndex;
  readonly users: UserLookup;
  readonly contentTypes: ContentTypes;
  /** A stream: positions beyond today's head count too, so index-driven clauses become tests. */
  readonly live: boolean;
  readonly filter: ChangeFilter;
  /** Parameter name → lookup suffix → non-empty values. */
  readonly groups: Map<string, Map<string, string[]>>;
  /** Ascending candidate positions from indexes; intersected at the end. */
  readonly driverLists: number[][];
  /** The content type `changed_object_type` named, for `changed_object_id` to use the object index. */
  objectType: string | null;
  fail(param: string, message: string): void;
}

type FilterCompiler = (c: FilterCompilation) => void | Promise<void>;

const STRING_LOOKUPS = new Set(['', 'n', 'ic', 'nic', 'isw', 'nisw', 'iew', 'niew', 'ie', 'nie', 'empty']);
const NUMBER_LOOKUPS = new Set(['', 'n', 'lt', 'lte', 'gt', 'gte']);
const UUID = /^(?:urn:uuid:)?\{?([0-9a-f]{8})-?([0-9a-f]{4})-?([0-9a-f]{4})-?([0-9a-f]{4})-?([0-9a-f]{12})\}?$/i;

/** A UUID in canonical form (lower case, dashed), or null. Django accepts hex without dashes too. */
export function canonicalUuid(text: string): string | null {
  const m = UUID.exec(text.trim());
  return m ? `${m[1]}-${m[2]}-${m[3]}-${m[4]}-${m[5]}`.toLowerCase() : null;
}

/** Parameter name → lookup suffix → non-empty values (NetBox ignores empty values). */
export function groupParameters(query: URLSearchParams): Map<string, Map<string, string[]>> {
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

/** Whole numbers, or null after reporting the first value that is not one. */
function integers(c: FilterCompilation, name: string, lookup: string, values: string[]): number[] | null {
  const out: number[] = [];
  for (const v of values) {
    const n = safeInteger(v);
    if (n === null) {
      c.fail(paramName(name, lookup), 'Enter a whole number.');
      return null;
    }
    out.push(n);
  }
  return out;
}

/** id: the log position; exact ids drive, ranges bound. */
function compileId(c: FilterCompilation): void {
  const { filter, index, live } = c;
  for (const [lookup, values] of c.groups.get('id') ?? []) {
    if (!NUMBER_LOOKUPS.has(lookup)) continue;
    const numbers = integers(c, 'id', lookup, values);
    if (!numbers) continue;
    if (lookup === '' && live) filter.tests.push(numberTest('', numbers, (p) => p));
    else if (lookup === '') c.driverLists.push(numbers.filter((n) => n >= 1 && n <= index.head).sort((a, b) => a - b));
    else if (lookup === 'lt') filter.hi = Math.min(filter.hi, Math.max(...numbers) - 1);
    else if (lookup === 'lte') filter.hi = Math.min(filter.hi, Math.max(...numbers));
    else if (lookup === 'gt') filter.lo = Math.max(filter.lo, Math.min(...numbers) + 1);
    else if (lookup === 'gte') filter.lo = Math.max(filter.lo, Math.min(...numbers));
    else filter.tests.push(numberTest('n', numbers, (p) => p));
  }
}

/** request_id: through the request index. */
function compileRequestId(c: FilterCompilation): void {
  const requestIds = c.groups.get('request_id')?.get('');
  if (!requestIds) return;
  const canonical = requestIds.map(canonicalUuid);
  if (canonical.some((id) => id === null)) c.fail('request_id', 'Enter a valid UUID.');
  else if (c.live) {
    const wanted = new Set(canonical as string[]);
    c.filter.tests.push((p) => wanted.has(c.index.requestIdAt(p)));
  } else c.driverLists.push(sortedUnion(canonical.map((id) => c.index.requestPositions(id!))));
}

/** changed_object_type: single value ('<app>.<model>'); unknown or malformed → no rows; __n does not negate. */
function compileObjectType(c: FilterCompilation): void {
  const { index, filter } = c;
  for (const lookup of ['', 'n']) {
    const values = c.groups.get('changed_object_type')?.get(lookup);
    if (!values) continue;
    const value = values[values.length - 1]!.toLowerCase();
    const wellFormed = /^[a-z0-9_]+\.[a-z0-9_]+$/.test(value);
    const code = wellFormed ? index.typeCode(value) : undefined;
    if (code !== undefined) {
      c.objectType = value;
      filter.tests.push((p) => index.typeCodeAt(p) === code);
    } else if (c.live && wellFormed) {
      // Not in the log yet: it may come.
      c.objectType = value;
      filter.tests.push((p) => index.typeAt(p) === value);
    } else {
      filter.nothing = true;
    }
  }
}

/** changed_object_type_id: the content type's id, repeatable. */
function compileObjectTypeId(c: FilterCompilation): void {
  const { index } = c;
  for (const [lookup, values] of c.groups.get('changed_object_type_id') ?? []) {
    if (lookup !== '' && lookup !== 'n') continue;
    const numbers = integers(c, 'changed_object_type_id', lookup, values);
    if (!numbers) continue;
    const keys = new Set<string>();
    for (const n of numbers) {
      const key = c.contentTypes.key(n);
      if (key === null)
        c.fail(
          paramName('changed_object_type_id', lookup),
          `Select a valid choice. ${n} is not one of the available choices.`,
        );
      else keys.add(key);
    }
    // By type code (a small dictionary), or by name while live (types may appear later).
    const codes = new Set([...keys].map((k) => index.typeCode(k)).filter((code): code is number => code !== undefined));
    const has = c.live ? (p: number) => keys.has(index.typeAt(p)) : (p: number) => codes.has(index.typeCodeAt(p));
    c.filter.tests.push(lookup === 'n' ? (p) => !has(p) : has);
  }
}

/** changed_object_id: numbers; with one type and exact ids, through the object index. */
function compileObjectId(c: FilterCompilation): void {
  for (const [lookup, values] of c.groups.get('changed_object_id') ?? []) {
    if (!NUMBER_LOOKUPS.has(lookup)) continue;
    const numbers = integers(c, 'changed_object_id', lookup, values);
    if (!numbers) continue;
    const type = c.objectType;
    if (lookup === '' && type !== null && !c.live) {
      c.driverLists.push(sortedUnion(numbers.map((id) => c.index.objectPositions(type, id))));
    } else {
      c.filter.tests.push(numberTest(lookup, numbers, (p) => c.index.objectIdAt(p)));
    }
  }
}

/** action: single value. */
function compileAction(c: FilterCompilation): void {
  for (const lookup of ['', 'n']) {
    const values = c.groups.get('action')?.get(lookup);
    if (!values) continue;
    const value = values[values.length - 1]!;
    const code = ACTIONS.indexOf(value as (typeof ACTIONS)[number]);
    if (code < 0)
      c.fail(paramName('action', lookup), `Select a valid choice. ${value} is not one of the available choices.`);
    else
      c.filter.tests.push(
        lookup === 'n' ? (p) => c.index.actionCodeAt(p) !== code : (p) => c.index.actionCodeAt(p) === code,
      );
  }
}

/** The test for "the change was made by one of `ids`" (or by none of them). */
function userTest(c: FilterCompilation, lookup: string, ids: Set<number>): (p: number) => boolean {
  return lookup === 'n' ? (p) => !ids.has(c.index.userIdAt(p)) : (p) => ids.has(c.index.userIdAt(p));
}

/** user: usernames of current users. */
async function compileUser(c: FilterCompilation): Promise<void> {
  for (const [lookup, values] of c.groups.get('user') ?? []) {
    if (lookup !== '' && lookup !== 'n') continue;
    const found = await c.users.idsByUsername(values);
    const ids = new Set<number>();
    for (const name of values) {
      const id = found.get(name);
      if (id === undefined)
        c.fail(paramName('user', lookup), `Select a valid choice. ${name} is not one of the available choices.`);
      else ids.add(id);
    }
    c.filter.tests.push(userTest(c, lookup, ids));
  }
}

/** user_id: ids of current users; 'null' for changes made by no user. */
async function compileUserId(c: FilterCompilation): Promise<void> {
  for (const [lookup, values] of c.groups.get('user_id') ?? []) {
    if (lookup !== '' && lookup !== 'n') continue;
    const ids = new Set<number>();
    const wanted: number[] = [];
    for (const value of values) {
      if (value === 'null') {
        ids.add(-1);
        continue;
      }
      const n = safeInteger(value);
      if (n === null) c.fail(paramName('user_id', lookup), `“${value}” is not a valid value.`);
      else wanted.push(n);
    }
    const existing = await c.users.existingIds(wanted);
    for (const n of wanted) {
      if (!existing.has(n))
        c.fail(paramName('user_id', lookup), `Select a valid choice. ${n} is not one of the available choices.`);
      else ids.add(n);
    }
    c.filter.tests.push(userTest(c, lookup, ids));
  }
}

/** One matcher per lookup the string parameter was given with; invalid ones are reported. */
function stringMatchers(c: FilterCompilation, name: string): Array<(s: string) => boolean> {
  const matchers: Array<(s: string) => boolean> = [];
  for (const [lookup, values] of c.groups.get(name) ?? []) {
    if (!STRING_LOOKUPS.has(lookup)) continue;
    const match = stringMatcher(lookup, values);
    if (typeof match === 'function') matchers.push(match);
    else c.fail(paramName(name, lookup), match.error);
  }
  return matchers;
}

/** user_name: the dictionary of names is tiny, so the lookup runs once per name. */
function compileUserName(c: FilterCompilation): void {
  for (const match of stringMatchers(c, 'user_name')) {
    if (c.live) c.filter.tests.push((p) => match(c.index.userNameAt(p)));
    else {
      const codes = c.index.userNameCodes(match);
      c.filter.tests.push((p) => codes.has(c.index.userNameCodeAt(p)));
    }
  }
}

function compileObjectRepr(c: FilterCompilation): void {
  for (const match of stringMatchers(c, 'object_repr')) c.filter.tests.push((p) => match(c.index.reprAt(p)));
}

/** A single time value in microseconds; undefined when absent, null after reporting it invalid. */
function timeBound(c: FilterCompilation, name: string): number | null | undefined {
  const values = c.groups.get(name)?.get('');
  if (!values) return undefined;
  const micros = parseTimeMicros(values[values.length - 1]!);
  if (micros === null) c.fail(name, 'Enter a valid date/time.');
  return micros;
}

/** time_after (>=): a bound on the position when times are in log order, else a test. */
function compileTimeAfter(c: FilterCompilation): void {
  const after = timeBound(c, 'time_after');
  if (typeof after !== 'number') return;
  c.filter.lo = Math.max(c.filter.lo, c.index.firstPositionFrom(after));
  if (!c.index.timesOrdered) c.filter.tests.push((p) => c.index.timeAt(p) >= after);
}

/** time_before (<=). */
function compileTimeBefore(c: FilterCompilation): void {
  const before = timeBound(c, 'time_before');
  if (typeof before !== 'number') return;
  if (c.index.timesOrdered) c.filter.hi = Math.min(c.filter.hi, c.index.positionAtTime(before));
  else c.filter.tests.push((p) => c.index.timeAt(p) <= before);
}

/** q: user name or object repr contains, case-insensitive. */
function compileSearch(c: FilterCompilation): void {
  const q = c.groups.get('q')?.get('')?.at(-1)?.trim();
  if (!q) return;
  const { index } = c;
  const needle = q.toUpperCase();
  const nameMatches = (name: string) => name.toUpperCase().includes(needle);
  const names = index.userNameCodes(nameMatches);
  const userMatches = c.live
    ? (p: number) => nameMatches(index.userNameAt(p))
    : (p: number) => names.has(index.userNameCodeAt(p));
  c.filter.tests.push((p) => userMatches(p) || index.reprAt(p).toUpperCase().includes(needle));
}

/** The object-change filter parameters, in the order they compile (the object type before the object id). */
export const CHANGE_FILTER_COMPILERS: readonly FilterCompiler[] = [
  compileId,
  compileRequestId,
  compileObjectType,
  compileObjectTypeId,
  compileObjectId,
  compileAction,
  compileUser,
  compileUserId,
  compileUserName,
  compileObjectRepr,
  compileTimeAfter,
  compileTimeBefore,
  compileSearch,
];
