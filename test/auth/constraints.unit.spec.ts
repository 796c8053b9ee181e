import test from 'ava';
import { Query } from 'mingo';

import { compileConstraint } from '../../src/auth/constraints.js';
import { defaultGrants, PermissionSet } from '../../src/auth/permissionSet.js';
import type { LookupView } from '../../src/models/lookupView.js';
import { MATCH_NOTHING } from '../../src/models/matchNothing.js';
import { registry } from '../../src/models/registry.js';
import type { StoredObject } from '../../src/models/storedObject.js';

const site = registry.get('dcim.site');

function compiled(constraint: unknown, userId: number | null = 7) {
  return compileConstraint(registry, site, constraint, userId);
}

test('lookups compile to operator documents written by the compiler, values kept as data', (t) => {
  t.deepEqual(compiled({ status: 'active', name__in: ['a', 'b'] }), {
    kind: 'static',
    query: { $and: [{ status: { $eq: 'active' } }, { name: { $in: ['a', 'b'] } }] },
  });
  t.deepEqual(compiled({ name__icontains: 'a.*(b' }), {
    kind: 'static',
    query: { name: { $regex: 'a\\.\\*\\(b', $options: 'iu' } },
  });
  t.deepEqual(compiled({ tenant_id: '3' }), { kind: 'static', query: { tenant: { $eq: 3 } } });
  t.deepEqual(compiled({ id__range: [1, 9] }), { kind: 'static', query: { id: { $gte: 1, $lte: 9 } } });
  t.deepEqual(compiled({ tenant__isnull: false }), { kind: 'static', query: { tenant: { $ne: null } } });
  t.deepEqual(compiled({ id: '$user' }), { kind: 'static', query: { id: { $eq: 7 } } });
  t.deepEqual(compiled({ id__in: ['$user', 1] }), { kind: 'static', query: { id: { $in: [7, 1] } } });
  t.is(compiled({ tenant__group__slug: 'x' }).kind, 'dynamic');
});

test('nothing from the constraint can become an operator: such constraints do not compile', (t) => {
  for (const constraint of [
    { $where: 'sleep(1000)' },
    { name: { $ne: null } },
    { name: { $regex: '.*' } },
    { name__in: [{ $gt: '' }] },
    { name__regex: '(a+)+$' },
    { name__in: 'abc' },
    { 'name.$': 1 },
    { name__: 'x' },
    { __proto__: 'x', constructor: 1 },
    { custom_fields: 1 },
    { tenant__password: 'x' },
    'status=active',
    [{ status: 'active' }],
    null,
  ]) {
    t.is(compiled(constraint).kind, 'invalid', JSON.stringify(constraint));
  }
});

test('relations are resolved in the view given at evaluation time', async (t) => {
  const tenants: StoredObject[] = [
    { id: 1, slug: 'acme', group: 5 },
    { id: 2, slug: 'other', group: null },
  ];
  const view: LookupView = {
    async get(model, id) {
      return model === 'tenancy.tenant' ? (tenants.find((x) => x.id === id) ?? null) : null;
    },
    async find(model, query) {
      if (model !== 'tenancy.tenant') return [];
      const q = new Query(query);
      return tenants.filter((x) => q.test(x));
    },
  };
  const result = compiled({ tenant__slug__iexact: 'ACME', status: 'active' });
  if (result.kind !== 'dynamic') return t.fail();
  const query = await result.resolve(view);
  t.deepEqual(query, { $and: [{ status: { $eq: 'active' } }, { tenant: { $in: [1] } }] });
  const matcher = new Query(query);
  t.true(matcher.test({ id: 1, status: 'active', tenant: 1 }));
  t.false(matcher.test({ id: 2, status: 'active', tenant: 2 }));
});

test('a permission set ORs the grants for one action; unrestricted wins; unknown actions are refused', async (t) => {
  const view: LookupView = { get: async () => null, find: async () => [] };
  const set = new PermissionSet(registry, 7, [
    { objectTypes: ['dcim.site'], actions: ['view'], constraints: { status: 'active' } },
    { objectTypes: ['dcim.site'], actions: ['view', 'change'], constraints: [{ name: 'x' }, { bogus: 1 }] },
    { objectTypes: ['dcim.site'], actions: ['delete'], constraints: null },
    ...defaultGrants({ 'users.view_token': [{ user: '$user' }], 'not a permission': null }),
  ]);
  t.deepEqual(await set.scope(site, 'view', view), { $or: [{ status: { $eq: 'active' } }, { name: { $eq: 'x' } }] });
  t.deepEqual(await set.scope(site, 'change', view), { name: { $eq: 'x' } });
  t.deepEqual(await set.scope(site, 'delete', view), {});
  t.is(await set.scope(site, 'add', view), null);
  t.true(set.has('dcim.site', 'change'));
  t.false(set.has('dcim.site', 'add'));
  t.deepEqual(await set.scope(registry.get('users.token'), 'view', view), { user: { $eq: 7 } });
  const broken = new PermissionSet(registry, 7, [
    { objectTypes: ['dcim.site'], actions: ['view'], constraints: { bogus: 1 } },
  ]);
  t.deepEqual(await broken.scope(site, 'view', view), MATCH_NOTHING);
});

test('text lookups match as the list filters do: literal, anchored at the very end, one case-folding rule', (t) => {
  const matches = (constraint: Record<string, unknown>, name: string) => {
    const result = compiled(constraint);
    if (result.kind !== 'static') throw new Error('expected a static constraint');
    return new Query(result.query).test({ name });
  };
  // A newline after the text is not the end (PCRE's '$' would also match before it).
  t.true(matches({ name__iexact: 'Edge' }, 'edge'));
  t.false(matches({ name__iexact: 'edge' }, 'edge\n'));
  t.false(matches({ name__endswith: 'edge' }, 'edge\n'));
  t.true(matches({ name__endswith: 'edge' }, 'core-edge'));
  t.false(matches({ name__startswith: 'Edge' }, 'edge-1'), 'case-sensitive lookups stay case-sensitive');
  t.true(matches({ name__istartswith: 'Edge' }, 'edge-1'));
  // Unicode simple case folding, as both read stores apply it: the Kelvin sign folds to k.
  t.true(matches({ name__icontains: 'k' }, '\u212a-site'));
  t.true(matches({ name__contains: '-' }, 'a-b'), 'a hyphen is a literal');
});
