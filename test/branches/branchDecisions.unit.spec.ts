import test from 'ava';

import { BranchConflictError } from '../../src/branches/mergeBranch.js';
import { ConflictError, ValidationError } from '../../src/errors/requestErrors.js';
import {
  create,
  createBranchCommand,
  deciderSpec,
  GIVEN_TIME,
  inBranch,
  mergeCommand,
  objectCreated,
  patch,
  remove,
  syncCommand,
} from '../support/deciderSpec.js';

const B = 'plan0001';
const site = (name: string) => create('dcim.site', { name, slug: name.toLowerCase() });
/** The last event of every merge: its branch marked merged, in the same request. */
const merged = { action: 'update', objectType: 'netbox_branching.branch', postchange: { status: 'merged' } } as const;

test('a write in a branch is decided in the branch: its events name it, main does not see them', async (t) => {
  await deciderSpec(t)
    .given([site('DC-1'), createBranchCommand(B)])
    .when(inBranch(B, site('DC-2')))
    .then(async (events, _reply, { store }) => {
      t.like(events[0], { action: 'create', objectType: 'dcim.site', objectId: 2, branch: B });
      t.is(await store.get('dcim.site', 2), null, "main's read models skip the branch's change");
    });
});

test('ids are shared with main: main never takes an id a branch took', async (t) => {
  await deciderSpec(t)
    .given([site('DC-1'), createBranchCommand(B), inBranch(B, site('DC-2'))])
    .when(site('DC-3'))
    .then([{ action: 'create', objectType: 'dcim.site', objectId: 3 }]);
});

test('a branch is isolated from main after the fork: uniqueness is decided against the branch', async (t) => {
  // Main took the name after the fork: the branch does not see it ...
  await deciderSpec(t)
    .given([createBranchCommand(B), site('Edge')])
    .when(inBranch(B, site('Edge')))
    .then([{ action: 'create', objectType: 'dcim.site', branch: B }]);
  // ... but the branch's own objects count.
  await deciderSpec(t)
    .given([createBranchCommand(B), inBranch(B, site('Edge'))])
    .when(inBranch(B, site('Edge')))
    .thenThrows(ValidationError);
});

test('merge: each change of the branch replayed on main in one request, its author kept, its branch named', async (t) => {
  const planner = { id: 7, username: 'planner' };
  const madeInBranch = {
    ...objectCreated('dcim.site', 2, { name: 'DC-2', slug: 'dc-2', status: 'active' }),
    branch: B,
    user: planner,
  };
  await deciderSpec(t)
    .given([
      site('DC-1'),
      createBranchCommand(B),
      madeInBranch,
      inBranch(B, patch('dcim.site', 2, { description: 'x' })),
    ])
    .when(mergeCommand(B))
    .then(async (events, _reply, { store }) => {
      t.like(events[0], { action: 'create', objectId: 2, user: planner, mergedFrom: B, branch: undefined });
      t.like(events[1], { action: 'update', objectId: 2, postchange: { description: 'x' }, mergedFrom: B });
      t.is(events[1]!.user?.id, 1);
      t.like(await store.get('dcim.site', 2), { name: 'DC-2', description: 'x' });
      t.is(events[0]!.time !== GIVEN_TIME, true, 'the merge is a change of now');
      t.like(events.at(-1), merged);
      t.is(events.at(-1)!.postchange!.merge_request, events[0]!.requestId);
    });
});

test("merge keeps main's changes to other fields; the same field changed on both sides is a conflict", async (t) => {
  const given = [site('DC-1'), createBranchCommand(B), patch('dcim.site', 1, { comments: 'main' })];
  await deciderSpec(t)
    .given([...given, inBranch(B, patch('dcim.site', 1, { description: 'branch' }))])
    .when(mergeCommand(B))
    .then([{ action: 'update', objectId: 1, postchange: { comments: 'main', description: 'branch' } }, merged]);
  const refused = await deciderSpec(t)
    .given([...given, inBranch(B, patch('dcim.site', 1, { comments: 'branch' }))])
    .when(mergeCommand(B))
    .thenThrows(BranchConflictError);
  t.deepEqual(
    (refused as BranchConflictError).conflicts.map((c) => [c.object_type, c.object_id, c.conflicts]),
    [['dcim.site', 1, ['comments']]],
  );
});

test('the same value on both sides is no conflict; a sync makes main before it the fork', async (t) => {
  const given = [site('DC-1'), createBranchCommand(B), patch('dcim.site', 1, { comments: 'main' })];
  await deciderSpec(t)
    .given([...given, inBranch(B, patch('dcim.site', 1, { comments: 'main' }))])
    .when(mergeCommand(B))
    .then([{ action: 'update', objectId: 1, mergedFrom: B }, merged]);
  // After a sync main's value stands (netbox-branching applies main's changes onto the branch):
  // the merge carries only what the branch changed since.
  await deciderSpec(t)
    .given([...given, inBranch(B, patch('dcim.site', 1, { comments: 'branch' })), syncCommand(B)])
    .when(mergeCommand(B))
    .then([{ action: 'update', objectId: 1, postchange: { comments: 'main' } }, merged]);
});

test("sync: main's value wins where both changed, the branch's other changes stay", async (t) => {
  await deciderSpec(t)
    .given([
      site('DC-1'),
      createBranchCommand(B),
      patch('dcim.site', 1, { comments: 'main', description: 'main' }),
      inBranch(B, patch('dcim.site', 1, { comments: 'branch', facility: 'F-1' })),
    ])
    .when(syncCommand(B))
    .then(async (events, _reply, { branches }) => {
      t.is(events.length, 2);
      t.like(events[0], { action: 'update', objectId: 1, branch: B, postchange: { comments: 'main' } });
      t.like(events[1], { action: 'update', objectType: 'netbox_branching.branch', branch: undefined });
      const inView = await branches.view(B)!.store.get('dcim.site', 1);
      t.like(inView, { comments: 'main', description: 'main', facility: 'F-1' });
    });
});

test('sync then re-apply: the change the branch makes after a sync merges without conflict', async (t) => {
  await deciderSpec(t)
    .given([
      site('DC-1'),
      createBranchCommand(B),
      patch('dcim.site', 1, { comments: 'main' }),
      inBranch(B, patch('dcim.site', 1, { comments: 'branch' })),
      syncCommand(B),
      inBranch(B, patch('dcim.site', 1, { comments: 'branch again' })),
    ])
    .when(mergeCommand(B))
    .then([{ action: 'update', objectId: 1, postchange: { comments: 'branch again' } }, merged]);
});

test('a sync without fields changed on both sides writes nothing in the branch', async (t) => {
  await deciderSpec(t)
    .given([
      site('DC-1'),
      createBranchCommand(B),
      patch('dcim.site', 1, { description: 'main' }),
      inBranch(B, patch('dcim.site', 1, { comments: 'branch' })),
    ])
    .when(syncCommand(B))
    .then([{ action: 'update', objectType: 'netbox_branching.branch', branch: undefined }]);
});

test('an object the branch changed and main deleted is a conflict; a name main took meanwhile refuses the merge', async (t) => {
  await deciderSpec(t)
    .given([
      site('DC-1'),
      createBranchCommand(B),
      inBranch(B, patch('dcim.site', 1, { description: 'b' })),
      { ...objectCreated('dcim.site', 1, {}), action: 'delete', prechange: { name: 'DC-1' }, postchange: null },
    ])
    .when(mergeCommand(B))
    .thenThrows(BranchConflictError);
  await deciderSpec(t)
    .given([createBranchCommand(B), inBranch(B, site('Edge')), site('Edge')])
    .when(mergeCommand(B))
    .thenThrows(ConflictError, /uniqueness/);
});

test('a merge refuses a reference main broke since the fork, both ways', async (t) => {
  const rack = (name: string) => create('dcim.rack', { name, site: 1 });
  // The branch put a rack in a site main deleted meanwhile.
  await deciderSpec(t)
    .given([
      site('DC-1'),
      createBranchCommand(B),
      inBranch(B, rack('R1')),
      { ...objectCreated('dcim.site', 1, {}), action: 'delete', prechange: { name: 'DC-1' }, postchange: null },
    ])
    .when(mergeCommand(B))
    .thenThrows(ConflictError, /refers to dcim\.site 1/);
  // The branch deleted a site main put a rack in meanwhile.
  await deciderSpec(t)
    .given([site('DC-1'), createBranchCommand(B), inBranch(B, remove('dcim.site', 1)), rack('R1')])
    .when(mergeCommand(B))
    .thenThrows(ConflictError, /referred to by dcim\.rack/);
});
