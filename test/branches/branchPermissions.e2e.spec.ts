import test from 'ava';

import { as, grant, ok, userWithToken } from '../support/callers.js';
import { startService } from '../support/startService.js';

const BRANCHES = '/api/plugins/branching/branches/';

test("branches take NetBox's model permissions, and inside a branch a user writes only what they could on main", async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const planner = await userWithToken(service, 'planner');
  const call = as(service, planner.key);
  t.is((await call('GET', BRANCHES)).status, 403, 'no permission on netbox_branching.branch');
  await grant(service, {
    object_types: ['netbox_branching.branch'],
    actions: ['view', 'add'],
    users: [planner.user.id],
  });
  await grant(service, { object_types: ['dcim.site'], actions: ['view'], users: [planner.user.id] });
  const branch = await ok(call('POST', BRANCHES, { name: 'planned' }));
  t.is(branch.owner.username, 'planner');
  t.is((await call('POST', `${BRANCHES}${branch.id}/merge/`, { commit: true })).status, 403, 'merge is its own action');
  const inBranch = { 'X-NetBox-Branch': branch.schema_id };
  t.is((await call('GET', '/api/dcim/sites/', undefined, inBranch)).status, 200);
  t.is((await call('POST', '/api/dcim/sites/', { name: 'S', slug: 's' }, inBranch)).status, 403, 'no add on main');
  await grant(service, {
    object_types: ['dcim.site'],
    actions: ['add'],
    constraints: { status: 'planned' },
    users: [planner.user.id],
  });
  t.is((await call('POST', '/api/dcim/sites/', { name: 'S', slug: 's' }, inBranch)).status, 403, 'constraints hold');
  await ok(call('POST', '/api/dcim/sites/', { name: 'S', slug: 's', status: 'planned' }, inBranch));
  await grant(service, { object_types: ['netbox_branching.branch'], actions: ['merge'], users: [planner.user.id] });
  const merged = await ok(call('POST', `${BRANCHES}${branch.id}/merge/`, { commit: true }), 200);
  t.is(merged.branch.status.value, 'merged');
  t.is(merged.branch.merged_by.username, 'planner');
  // A merged branch can be archived (by whoever may); an archived one neither syncs nor merges again.
  t.is((await call('POST', `${BRANCHES}${branch.id}/archive/`, { commit: true })).status, 403);
  const dry = await ok(service.api('POST', `${BRANCHES}${branch.id}/archive/`, { commit: false }), 200);
  t.is(dry.branch.status.value, 'archived', 'a dry run shows what would be');
  t.is((await ok(service.api('GET', `${BRANCHES}${branch.id}/`), 200)).status.value, 'merged', 'and writes nothing');
  await ok(service.api('POST', `${BRANCHES}${branch.id}/archive/`, { commit: true }), 200);
  t.is((await service.api('POST', `${BRANCHES}${branch.id}/sync/`, { commit: true })).status, 409);
  t.is((await service.api('POST', `${BRANCHES}${branch.id}/merge/`, { commit: true })).status, 409);
  t.is((await service.api('GET', '/api/dcim/sites/', undefined, inBranch)).status, 400, 'archived: no header');
});

test("a branch's object changes: main's filters, ordering and permission narrowing", async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const branch = await ok(service.api('POST', BRANCHES, { name: 'changes' }), 201);
  const inBranch = { 'X-NetBox-Branch': branch.schema_id };
  const site = await ok(service.api('POST', '/api/dcim/sites/', { name: 'A', slug: 'a' }, inBranch), 201);
  await ok(service.api('PATCH', `/api/dcim/sites/${site.id}/`, { description: 'x' }, inBranch), 200);
  await ok(service.api('POST', '/api/dcim/sites/', { name: 'B', slug: 'b' }, inBranch), 201);
  await ok(service.api('POST', '/api/dcim/sites/', { name: 'main', slug: 'main' }), 201);
  const list = (query: string, key?: string) => {
    const path = `/api/extras/object-changes/?${query}`;
    return key ? as(service, key)('GET', path, undefined, inBranch) : service.api('GET', path, undefined, inBranch);
  };
  const reprs = async (query: string, key?: string) =>
    (await ok(list(query, key), 200)).results.map(
      (c: { object_repr: string; action: { value: string } }) => `${c.action.value} ${c.object_repr}`,
    );
  t.deepEqual(await reprs(''), ['create B', 'update A', 'create A'], "the branch's own, newest first, not main's");
  t.deepEqual(await reprs('ordering=time'), ['create A', 'update A', 'create B']);
  t.deepEqual(await reprs('q=B'), ['create B']);
  t.deepEqual(await reprs('action=create&ordering=id'), ['create A', 'create B']);
  t.deepEqual(await reprs('user=admin&limit=1'), ['create B']);
  t.deepEqual(await reprs('time_before=2000-01-01T00:00:00Z'), []);
  t.is((await list('time_after=not-a-time')).status, 400, "main's validation");
  // A user whose permission on object changes is constrained sees only those records, in a branch too.
  const auditor = await userWithToken(service, 'auditor');
  await grant(service, {
    object_types: ['extras.objectchange'],
    actions: ['view'],
    constraints: { action: 'update' },
    users: [auditor.user.id],
  });
  await grant(service, { object_types: ['dcim.site'], actions: ['view'], users: [auditor.user.id] });
  t.deepEqual(await reprs('', auditor.key), ['update A']);
  const history = await ok(
    as(service, auditor.key)('GET', `/api/dcim/sites/${site.id}/history/`, undefined, inBranch),
    200,
  );
  t.deepEqual(
    history.results.map((c: { action: { value: string } }) => c.action.value),
    ['update'],
  );
});

test("branch filters as netbox-branching's BranchFilterSet: owner, dates, tag, q", async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const planner = await userWithToken(service, 'planner');
  await grant(service, {
    object_types: ['netbox_branching.branch'],
    actions: ['view', 'add', 'sync'],
    users: [planner.user.id],
  });
  const tag = await ok(service.api('POST', '/api/extras/tags/', { name: 'Rollout', slug: 'rollout' }), 201);
  const alpha = await ok(service.api('POST', BRANCHES, { name: 'alpha', description: 'rack 12 rollout' }), 201);
  const beta = await ok(as(service, planner.key)('POST', BRANCHES, { name: 'beta', tags: [tag.id] }), 201);
  await ok(as(service, planner.key)('POST', `${BRANCHES}${beta.id}/sync/`, { commit: true }), 200);
  const names = async (query: string) => {
    const listed = await ok(service.api('GET', `${BRANCHES}?${query}`), 200);
    return listed.results.map((b: { name: string }) => b.name);
  };
  t.deepEqual(await names('owner=planner'), ['beta']);
  t.deepEqual(await names(`owner_id=${planner.user.id}`), ['beta']);
  t.deepEqual(await names('owner__n=planner'), ['alpha']);
  t.deepEqual(await names('description__ic=RACK'), ['alpha']);
  t.deepEqual(await names('q=rollout'), ['alpha'], 'q searches name and description');
  t.deepEqual(await names('tag=rollout'), ['beta']);
  t.deepEqual(await names('last_sync__gte=2000-01-01T00:00:00Z'), ['beta'], 'only beta was synced');
  t.deepEqual(await names(`created__gte=${alpha.created}&ordering=name`), ['alpha', 'beta']);
  t.deepEqual(await names('last_updated__lt=2000-01-01T00:00:00Z'), []);
  t.deepEqual(await names('merged_time__gte=2000-01-01T00:00:00Z'), [], 'none merged');
  t.deepEqual(await names('name__isw=AL'), ['alpha']);
  t.deepEqual(await names(`id__gt=${alpha.id}`), ['beta']);
  t.deepEqual(await names('status__n=ready'), []);
  t.is((await service.api('GET', `${BRANCHES}?owner=nobody`)).status, 400, 'an unknown user, as NetBox');
  t.is((await service.api('GET', `${BRANCHES}?created__gte=yesterday`)).status, 400);
});
