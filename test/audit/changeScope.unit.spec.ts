import test from 'ava';
import { Query as MingoQuery } from 'mingo';

import { objectChangeModel } from '../../src/api/audit/changePermission.js';
import { AuditIndex } from '../../src/audit/AuditIndex.js';
import { changeScopeTest } from '../../src/audit/changeScope.js';
import { queryPredicate } from '../../src/audit/queryPredicate.js';
import { formatMicros } from '../../src/audit/time.js';
import { PermissionSet } from '../../src/auth/permissionSet.js';
import type { LookupView } from '../../src/models/lookupView.js';
import { registry } from '../../src/models/registry.js';
import { makeEvent } from '../support/makeEvent.js';

const TYPES = ['dcim.site', 'dcim.rack', 'tenancy.tenant'];
const USERS = [{ id: 1, username: 'admin' }, { id: 7, username: 'ops' }, null];
const ACTIONS = ['create', 'update', 'delete'] as const;
const T0 = Date.UTC(2024, 0, 1) * 1000;

/** 300 changes cycling through types, users and actions, three per request. */
function index(): AuditIndex {
  const built = new AuditIndex(registry);
  let requestId = '';
  for (let p = 1; p <= 300; p++) {
    if (p % 3 === 1) requestId = `00000000-0000-4000-8000-${p.toString(16).padStart(12, '0')}`;
    built.add([
      makeEvent(p, {
        requestId,
        objectType: TYPES[p % 3]!,
        user: USERS[(p % 5) % 3]!,
        action: ACTIONS[(p % 7) % 3]!,
        objectId: (p % 11) + 1,
        objectRepr: `thing-${p}`,
        time: formatMicros(T0 + p * 1_000_000),
      }),
    ]);
  }
  return built;
}

/** Every column of the record, as the API shows it: what a naive evaluation tests. */
function record(idx: AuditIndex, p: number) {
  const user = idx.userIdAt(p);
  return {
    id: p,
    time: new Date(idx.timeAt(p) / 1000).toISOString(),
    user: user < 0 ? null : user,
    user_name: idx.userNameAt(p),
    request_id: idx.requestIdAt(p),
    action: idx.actionAt(p),
    changed_object_type: idx.typeAt(p),
    changed_object_id: idx.objectIdAt(p),
    object_repr: idx.reprAt(p),
  };
}

const noLookups: LookupView = { find: async () => [], get: async () => undefined } as unknown as LookupView;

async function scopeOf(constraints: unknown, userId = 7) {
  const grants = [{ objectTypes: ['extras.objectchange'], actions: ['view'], constraints }];
  const permissions = new PermissionSet(registry, userId, grants);
  return (await permissions.scope(objectChangeModel, 'view', noLookups))!;
}

const CASES: unknown[] = [
  { action: 'create' },
  { changed_object_type: 'dcim.site' },
  { changed_object_type: 'dcim.site', user_name: 'admin' },
  [{ action: 'delete' }, { changed_object_type__in: ['dcim.rack'] }],
  { user: '$user' },
  { user__isnull: true },
  { request_id: '00000000-0000-4000-8000-000000000004' },
  { changed_object_id__gte: 5, action: 'update' },
  { object_repr__istartswith: 'THING-1' },
  { id__range: [10, 20] },
  { time__gte: new Date((T0 + 250 * 1_000_000) / 1000).toISOString() },
  { changed_object_id__lt: '4' },
  { user_name__contains: 'dm', action__in: ['create', 'delete'] },
  { request_id__iexact: '00000000-0000-4000-8000-00000000000A' },
  { user_name__in: ['ops', null] },
  { action__isnull: false, user__isnull: false },
];

/** Constraints that select no record (evaluated all the same). */
const SELECTING_NOTHING: unknown[] = [{ no_such_field: 1 }, { user_name__gt: 5 }, { changed_object_id__lte: 'a' }];

for (const constraints of [...CASES, ...SELECTING_NOTHING]) {
  test(`the scope test agrees with evaluating every record: ${JSON.stringify(constraints)}`, async (t) => {
    const idx = index();
    const scope = await scopeOf(constraints);
    const readable = changeScopeTest(idx, scope);
    t.not(readable, null);
    const naive = new MingoQuery(scope);
    const expected: number[] = [];
    const got: number[] = [];
    // Twice over: the second pass answers from remembered verdicts.
    for (let round = 0; round < 2; round++) {
      for (let p = 1; p <= idx.head; p++) {
        if (round === 0 && naive.test(record(idx, p))) expected.push(p);
        if (readable!(p)) got.push(p);
      }
    }
    t.deepEqual(got, [...expected, ...expected]);
    if (SELECTING_NOTHING.includes(constraints)) t.is(expected.length, 0);
    else t.true(expected.length > 0 && expected.length < idx.head);
    t.not(queryPredicate(scope), null, 'evaluated without the query engine');
  });
}

test('no constraints: no test at all (every record)', async (t) => {
  t.is(changeScopeTest(index(), await scopeOf(null)), null);
  t.is(changeScopeTest(index(), await scopeOf([{ action: 'create' }, {}])), null);
});

test('shapes the constraints never compile to are left to the query engine', (t) => {
  const others = [
    { $where: 'true' },
    { a: { $exists: true } },
    { a: { $gt: null } },
    { a: { $in: [{}] } },
    { $nor: [{ a: 1 }] },
    { a: { b: 1 } },
  ];
  for (const query of others) {
    t.is(queryPredicate(query), null, JSON.stringify(query));
  }
  t.true(queryPredicate({ $or: [{ a: 1 }, { b: { $regex: '^x', $options: 'iu' } }] })!({ a: 2, b: 'X1' }));
});
