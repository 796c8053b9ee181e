import test from 'ava';
import { Query as MingoQuery } from 'mingo';
import { objectChangeModel } from '../../src/api/audit/changePermission.js';
import { AuditIndex } from '../../src/audit/AuditIndex.js';
import { changeScopeTest } from '../../src/audit/changeScope.js';
import { formatMicros } from '../../src/audit/time.js';
import { PermissionSet } from '../../src/auth/permissionSet.js';
import { registry } from '../../src/models/registry.js';
import type { LookupView } from '../../src/models/types.js';
import { makeEvent } from '../events/makeEvent.js';

const TYPES = ['dcim.site', 'dcim.rack', 'tenancy.tenant'];
const USERS = [{ id: 1, username: 'admin' }, { id: 7, username: 'ops' }, null];
const ACTIONS = ['create', 'update', 'delete'] as const;
const T0 = Date.UTC(2024, 0, 1) * 1000;

/** 300 changes cycling through types, users and actions, three per request. */
function index(): AuditIndex {
  const built = new AuditIndex();
  let requestId = '';
  for (let p = 1; p <= 300; p++) {
    if (p % 3 === 1) requestId = `00000000-0000-4000-8000-${String(p).padStart(12, '0')}`;
    built.add([
      makeEvent(p, {
        requestId,
        objectType: TYPES[p % 3]!,
        user: USERS[p % 5 % 3]!,
        action: ACTIONS[p % 7 % 3]!,
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
  const permissions = new PermissionSet(registry, userId, [{ objectTypes: ['extras.objectchange'], actions: ['view'], constraints }]);
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
  { no_such_field: 1 },
];

for (const constraints of CASES) {
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
    if (!JSON.stringify(constraints).includes('no_such_field')) t.true(expected.length > 0 && expected.length < idx.head);
  });
}

test('no constraints: no test at all (every record)', async (t) => {
  t.is(changeScopeTest(index(), await scopeOf(null)), null);
  t.is(changeScopeTest(index(), await scopeOf([{ action: 'create' }, {}])), null);
});
