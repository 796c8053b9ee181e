import test from 'ava';

import type { CommandEnvironment } from '../../src/commands/decideObject.js';
import { deleteObjects } from '../../src/commands/deleteObjects.js';
import { recordEach } from '../../src/commands/recordEach.js';
import type { WriteTransaction } from '../../src/commands/WriteCoordinator.js';
import type { ModelDefinition } from '../../src/models/modelDefinition.js';

/** Counts turns of the event loop until stopped (each setImmediate callback is one). */
function turnCounter() {
  let turns = 0;
  let running = true;
  const tick = () => {
    if (!running) return;
    turns++;
    setImmediate(tick);
  };
  setImmediate(tick);
  return {
    stop: () => {
      running = false;
      return turns;
    },
  };
}

function busyFor(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end);
}

test('a long decision gives the event loop turns (reads go on) and still records every item', async (t) => {
  const env = { followUps: async () => {} } as unknown as CommandEnvironment;
  const recorded: number[] = [];
  const tx = {
    record: (change: { objectId: number }) => recorded.push(change.objectId),
    documentOf: () => ({}),
  } as unknown as WriteTransaction;
  const counter = turnCounter();
  const items = Array.from({ length: 40 }, (_, i) => i + 1);
  const outcome = await recordEach(
    env,
    tx,
    { key: 'dcim.site' } as ModelDefinition,
    items,
    { bulk: true },
    async (id) => {
      busyFor(1); // 40 ms of work in all: one unbroken block before
      return { id, previous: null, decided: { obj: { id }, repr: String(id), revealed: {} } as never };
    },
  );
  t.true(counter.stop() >= 2, 'the event loop had turns during the decision');
  t.deepEqual(outcome.ids, items);
  t.deepEqual(recorded, items);
});

test("a bulk delete's walk of dependants gives the event loop turns and still deletes every object", async (t) => {
  const site = { key: 'dcim.site', fields: [] } as unknown as ModelDefinition;
  const reference = { model: { key: 'dcim.rack' }, field: { name: 'site', type: 'fk', onDelete: 'CASCADE' } };
  const env = { registry: { referencesTo: () => [reference] } } as unknown as CommandEnvironment;
  const deleted: number[] = [];
  const view = {
    get: async (_model: string, id: number) => ({ id, _pos: 1, display: `site ${id}` }),
    find: async () => {
      busyFor(1); // 40 ms of lookups in all: one unbroken block before
      return [];
    },
  };
  const tx = {
    view,
    time: 'now',
    record: (change: { objectId: number }) => deleted.push(change.objectId),
  } as unknown as WriteTransaction;
  const ids = Array.from({ length: 40 }, (_, i) => i + 1);
  const counter = turnCounter();
  await deleteObjects(env, tx, site, ids, { bulk: true });
  t.true(counter.stop() >= 2, 'the event loop had turns during the decision');
  t.deepEqual(
    deleted.sort((a, b) => a - b),
    ids,
  );
});
