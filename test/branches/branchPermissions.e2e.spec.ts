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
