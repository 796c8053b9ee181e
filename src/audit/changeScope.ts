import { Query as MingoQuery } from 'mingo';

import { MATCH_NOTHING } from '../models/matchNothing.js';
import type { Query } from '../projections/ReadStore.js';
import type { AuditIndex } from './AuditIndex.js';
import { queryPredicate } from './queryPredicate.js';

/** Whether the change record at a log position is one a permission's constraints select. */
export type ChangeTest = (p: number) => boolean;

interface Column {
  /** The value as the API shows it (what a constraint compares with). */
  value(index: AuditIndex, p: number): unknown;
  /** A small integer standing for the value, for columns with few distinct values. */
  code?(index: AuditIndex, p: number): number;
}

/**
 * The columns of a change record that `extras.objectchange` permission constraints may
 * name (the fields of objectChangeModel in the API layer), read from the audit index.
 */
const COLUMNS: Record<string, Column> = {
  id: { value: (_, p) => p },
  time: { value: (index, p) => new Date(index.timeAt(p) / 1000).toISOString() },
  user: {
    value: (index, p) => {
      const user = index.userIdAt(p);
      return user < 0 ? null : user;
    },
    code: (index, p) => index.userIdAt(p),
  },
  user_name: { value: (index, p) => index.userNameAt(p), code: (index, p) => index.userNameCodeAt(p) },
  request_id: { value: (index, p) => index.requestIdAt(p), code: (index, p) => index.requestOrdinalAt(p) },
  action: { value: (index, p) => index.actionAt(p), code: (index, p) => index.actionCodeAt(p) },
  changed_object_type: { value: (index, p) => index.typeAt(p), code: (index, p) => index.typeCodeAt(p) },
  changed_object_id: { value: (index, p) => index.objectIdAt(p) },
  object_repr: { value: (index, p) => index.reprAt(p) },
};

/** Verdicts remembered per combination of codes; a long-lived stream starts over beyond this. */
const MEMO_LIMIT = 10_000;

/** The fields a query document tests (through $and / $or / $nor), or null for other top-level operators. */
function fieldsOf(query: Query): Set<string> | null {
  const fields = new Set<string>();
  const walk = (q: Query): boolean => {
    for (const [key, value] of Object.entries(q)) {
      if (key === '$and' || key === '$or' || key === '$nor') {
        if (!Array.isArray(value) || !value.every((item) => walk(item as Query))) return false;
      } else if (key.startsWith('$')) return false;
      else fields.add(key);
    }
    return true;
  };
  return walk(query) ? fields : null;
}

/**
 * The change records a permission scope (the query document PermissionSet.scope gives for
 * `extras.objectchange`) selects, as a test over log positions; null when it selects all.
 * Only the columns the scope names are built, from the index (never from event bodies).
 * When it names only columns with few distinct values (action, type, user, request), the
 * verdict is remembered per combination, so a scan costs a few array reads per position.
 * The scope is evaluated as a plain function when it has the shapes constraints compile to.
 */
export function changeScopeTest(index: AuditIndex, scope: Query): ChangeTest | null {
  if (Object.keys(scope).length === 0) return null;
  if (scope === MATCH_NOTHING) return () => false;
  const compiled = queryPredicate(scope);
  const engine = compiled ? null : new MingoQuery(scope);
  const matcher = { test: compiled ?? ((doc: Record<string, unknown>) => engine!.test(doc)) };
  const names = [...(fieldsOf(scope) ?? Object.keys(COLUMNS))].filter((name) => name in COLUMNS);
  const columns = names.map((name) => [name, COLUMNS[name]!] as const);
  const record = (p: number) => {
    const doc: Record<string, unknown> = {};
    for (const [name, column] of columns) doc[name] = column.value(index, p);
    return doc;
  };
  const codes = columns.map(([, column]) => column.code);
  if (codes.length === 0 || codes.some((code) => code === undefined)) return (p) => matcher.test(record(p));

  const coded = codes as Array<NonNullable<Column['code']>>;
  const memo = new Map<number | string, boolean>();
  const keyOf =
    coded.length === 1
      ? (p: number) => coded[0]!(index, p)
      : (p: number) => coded.map((code) => code(index, p)).join(',');
  return (p) => {
    const key = keyOf(p);
    let verdict = memo.get(key);
    if (verdict === undefined) {
      if (memo.size >= MEMO_LIMIT) memo.clear();
      verdict = matcher.test(record(p));
      memo.set(key, verdict);
    }
    return verdict;
  };
}
