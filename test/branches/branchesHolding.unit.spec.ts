import test from 'ava';

import { Branches } from '../../src/branches/Branches.js';
import { ConflictError } from '../../src/errors/requestErrors.js';
import { registry } from '../../src/models/registry.js';
import { MemoryReadStore } from '../../src/projections/memory/MemoryReadStore.js';
import { MemoryEventLog } from '../support/MemoryEventLog.js';

test('while a merge of a branch is under way, another action on it is refused with 409; then it is free again', async (t) => {
  const branches = new Branches(registry, new MemoryReadStore(), new MemoryEventLog());
  let release!: () => void;
  const underWay = branches.holding('plan0001', 'merge', () => new Promise<void>((resolve) => (release = resolve)));
  t.throws(() => branches.assertIdle('plan0001'), { instanceOf: ConflictError, message: /merge of branch plan0001/ });
  await t.throwsAsync(
    branches.holding('plan0001', 'revert', async () => {}),
    { instanceOf: ConflictError },
  );
  t.notThrows(() => branches.assertIdle('other001'), 'other branches are free');
  release();
  await underWay;
  t.notThrows(() => branches.assertIdle('plan0001'));
  await t.throwsAsync(
    branches.holding('plan0001', 'merge', async () => {
      throw new Error('refused');
    }),
    { message: 'refused' },
  );
  t.notThrows(() => branches.assertIdle('plan0001'), 'a failed action frees the branch too');
});
