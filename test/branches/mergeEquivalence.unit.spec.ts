import { randomUUID } from 'node:crypto';

import test from 'ava';

import { SecretKeeper } from '../../src/auth/secrets.js';
import { createBranch } from '../../src/branches/branchCommands.js';
import { Branches } from '../../src/branches/Branches.js';
import { mergeBranch } from '../../src/branches/mergeBranch.js';
import { createObjects } from '../../src/commands/createObjects.js';
import type { CommandEnvironment } from '../../src/commands/decideObject.js';
import { deleteObjects } from '../../src/commands/deleteObjects.js';
import { runFollowUps } from '../../src/commands/followUps.js';
import { storedForm } from '../../src/commands/storedForm.js';
import { updateObjects } from '../../src/commands/updateObjects.js';
import { type WriteContext, WriteCoordinator, type WriteTransaction } from '../../src/commands/WriteCoordinator.js';
import { ConflictError, ValidationError } from '../../src/errors/requestErrors.js';
import { registry } from '../../src/models/registry.js';
import { MemoryReadStore } from '../../src/projections/memory/MemoryReadStore.js';
import { Projector } from '../../src/projections/Projector.js';
import { readModelIndexes } from '../../src/projections/readModelIndexes.js';
import type { ReadStore } from '../../src/projections/ReadStore.js';
import { MemoryEventLog } from '../support/MemoryEventLog.js';
import { seededRandom } from '../support/seededRandom.js';

const MODELS = ['dcim.site', 'dcim.rack', 'extras.tag'];
const env: CommandEnvironment = {
  registry,
  secrets: new SecretKeeper('merge-equivalence', false),
  settings: { enforceGlobalUnique: false },
  followUps: runFollowUps,
};

/** Every object of the models, as stored (without what every write stamps). */
async function contents(store: ReadStore): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for (const model of MODELS)
    for (const doc of await store.find(model, {}, { sort: { id: 1 } })) {
      const { last_updated: _l, ...rest } = storedForm(doc);
      out[`${model}:${doc.id}`] = rest;
    }
  return out;
}

/**
 * Random work inside a branch while main changes other objects: after the merge, main holds
 * the branch's version of every object the branch changed and main's of every other.
 */
for (const seed of [1, 2, 3, 4, 5, 6, 7, 8]) {
  test(`a merge makes main what the branch showed, plus main's own changes elsewhere (seed ${seed})`, async (t) => {
    const random = seededRandom(seed);
    const pick = <T>(items: T[]): T => items[Math.floor(random() * items.length)]!;
    const log = new MemoryEventLog();
    const store = new MemoryReadStore();
    await log.open();
    await store.open();
    for (const [collection, fields] of readModelIndexes(registry)) await store.ensureIndexes(collection, fields);
    const projector = new Projector(log, store, registry);
    const branches = new Branches(registry, store, log);
    projector.beforeApply = (events, changes) => branches.observe(events, changes);
    await projector.start();
    const clock = { now: () => '2026-01-01T00:00:00.000000Z' };
    const coordinator = new WriteCoordinator(log, store, projector, registry, clock, { branches });
    await coordinator.init();
    t.teardown(async () => {
      coordinator.close();
      await projector.stop();
    });
    const context = (): WriteContext => ({ requestId: randomUUID(), user: { id: 1, username: 'admin' } });
    const run = (decide: (tx: WriteTransaction) => Promise<unknown>, branch?: string) =>
      coordinator.execute({ ...context(), ...(branch ? { branch: branches.view(branch)!.target() } : {}) }, decide);
    let n = 0;
    const create = (model: string, body: Record<string, unknown>, branch?: string) =>
      run((tx) => createObjects(env, tx, registry.get(model), [body], { bulk: false }), branch);

    // Main before the fork: sites with racks.
    for (let i = 0; i < 6; i++) {
      await create('dcim.site', { name: `S${i}`, slug: `s${i}` });
      await create('dcim.rack', { name: `R${i}`, site: 1 + i });
    }
    const { result } = await run((tx) => createBranch(tx, { name: 'b' }, 'equiv001'));
    t.truthy(result);
    const B = 'equiv001';
    const touchedByMain = new Set<string>();
    for (let step = 0; step < 40; step++) {
      const inBranch = random() < 0.75;
      const view = inBranch ? branches.view(B)!.store : store;
      const model = pick(['dcim.site', 'dcim.rack', 'extras.tag']);
      const existing = (await view.find(model, {}, {})).filter((d) => {
        // main changes only objects of its own, the branch only the others: no conflicts
        const mine = inBranch ? d.id % 2 === 1 : d.id % 2 === 0 && d.id <= 6;
        return mine;
      });
      // main deletes no site: a rack the branch put in it would be a real conflict
      const deletes = inBranch || model !== 'dcim.site' ? ['delete'] : [];
      const kind = existing.length === 0 ? 'create' : pick(['create', 'update', 'update', ...deletes]);
      try {
        if (kind === 'create') {
          n++;
          if (model === 'dcim.rack') {
            // main's racks go to its own sites: one in a site the branch deletes would be a real conflict
            const sites = (await view.find('dcim.site', {}, {})).filter((d) => inBranch || d.id % 2 === 0);
            if (sites.length === 0) continue;
            await create(model, { name: `new-${n}`, site: pick(sites).id }, inBranch ? B : undefined);
          } else if (model === 'extras.tag')
            await create(model, { name: `tag-${n}`, slug: `tag-${n}` }, inBranch ? B : undefined);
          else await create(model, { name: `site-${n}`, slug: `site-${n}` }, inBranch ? B : undefined);
        } else if (kind === 'update') {
          const target = pick(existing);
          const input = { description: `${inBranch ? 'branch' : 'main'} ${step}` };
          await run(
            (tx) =>
              updateObjects(env, tx, registry.get(model), [{ id: target.id, input }], { mode: 'patch', bulk: false }),
            inBranch ? B : undefined,
          );
          if (!inBranch) touchedByMain.add(`${model}:${target.id}`);
        } else {
          const target = pick(existing);
          await run(
            (tx) => deleteObjects(env, tx, registry.get(model), [target.id], { bulk: false }),
            inBranch ? B : undefined,
          );
          if (!inBranch) touchedByMain.add(`${model}:${target.id}`);
        }
      } catch (error) {
        // a refused write (a name taken, a site its racks protect) changes nothing
        if (!(error instanceof ValidationError) && !(error instanceof ConflictError)) throw error;
      }
    }
    const view = branches.view(B)!;
    const inBranchView = await contents(view.store);
    const ownKeys = new Set(view.own.map((e) => `${e.objectType}:${e.objectId}`));
    const mainBefore = await contents(store);
    await run((tx) => mergeBranch(registry, tx, view));
    const mainAfter = await contents(store);
    const expected: Record<string, unknown> = {};
    for (const key of new Set([...Object.keys(inBranchView), ...Object.keys(mainBefore)])) {
      const source = ownKeys.has(key) ? inBranchView : mainBefore;
      if (key in source) expected[key] = source[key];
    }
    t.deepEqual(mainAfter, expected);
    t.true(view.own.length > 0, 'the branch did something');
    const actions = new Map<string, number>();
    for (const e of view.own) actions.set(e.action, (actions.get(e.action) ?? 0) + 1);
    t.log(
      `branch: ${[...actions].map(([a, k]) => `${k} ${a}`).join(', ')}; main changed ${touchedByMain.size} objects`,
    );
  });
}
