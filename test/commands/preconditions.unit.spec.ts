import test from 'ava';

import { SecretKeeper } from '../../src/auth/secrets.js';
import { createObjects } from '../../src/commands/createObjects.js';
import type { CommandEnvironment } from '../../src/commands/decideObject.js';
import { deleteObjects } from '../../src/commands/deleteObjects.js';
import { runFollowUps } from '../../src/commands/followUps.js';
import { Overlay, StagedView } from '../../src/commands/StagedView.js';
import { updateObjects } from '../../src/commands/updateObjects.js';
import { WriteTransaction } from '../../src/commands/WriteCoordinator.js';
import { PreconditionFailedError, ValidationError } from '../../src/errors/requestErrors.js';
import { registry } from '../../src/models/registry.js';
import { evolve } from '../../src/projections/evolve.js';
import { MemoryReadStore } from '../../src/projections/memory/MemoryReadStore.js';

// Write decisions against a given state, with no log: a request's events are what
// the transaction recorded; a refused request records none.

const env: CommandEnvironment = {
  registry,
  secrets: new SecretKeeper('test-secret-key', true),
  settings: { enforceGlobalUnique: false },
  followUps: runFollowUps,
};
const tags = registry.get('extras.tag');
const clock = { now: () => '2024-01-01T00:00:00.000000Z' };

/**
 * The read models after `build`'s events, and the next requests' transactions on them.
 * `stage` leaves a decided request where the writer keeps it until it is projected;
 * `commit` projects it.
 */
async function given(build: (tx: WriteTransaction) => Promise<unknown>) {
  const store = new MemoryReadStore();
  const staged = new Overlay();
  let head = 0;
  const nextIds = new Map<string, number>();
  const transaction = () =>
    new WriteTransaction(
      registry,
      { requestId: crypto.randomUUID(), user: null },
      head + 1,
      nextIds,
      store,
      staged,
      clock,
    );
  const stage = (tx: WriteTransaction) => {
    head += tx.events.length;
    for (const [model, next] of tx.allocations) nextIds.set(model, next);
    tx.overlay.mergeInto(staged);
  };
  const commit = async (tx: WriteTransaction) => {
    stage(tx);
    await store.apply(
      tx.events.map((e) => evolve(registry, e)),
      head,
    );
  };
  const setup = transaction();
  await build(setup);
  await commit(setup);
  const version = async (id: number) => (await new StagedView(store, [staged]).get(tags.key, id))!._pos as number;
  return { transaction, stage, commit, version };
}

const twoTags = (tx: WriteTransaction) =>
  createObjects(
    env,
    tx,
    tags,
    [
      { name: 'A', slug: 'a' },
      { name: 'B', slug: 'b' },
    ],
    { bulk: true },
  );

test('bulk update with every object at its expected version: written', async (t) => {
  const { transaction, version } = await given(twoTags);
  const tx = transaction();
  const outcome = await updateObjects(
    env,
    tx,
    tags,
    [
      { id: 1, input: { description: 'x' } },
      { id: 2, input: { description: 'y' } },
    ],
    {
      mode: 'patch',
      bulk: true,
      preconditions: [
        { id: 1, versions: new Set([await version(1)]) },
        { id: 2, versions: new Set([await version(2)]) },
      ],
    },
  );
  t.is(tx.events.length, 2);
  t.deepEqual(
    outcome.documents.map((d) => [d.id, d.description, d._pos]),
    [
      [1, 'x', tx.events[0].position],
      [2, 'y', tx.events[1].position],
    ],
  );
});

test('bulk update with one stale version: 412 naming that object, no events', async (t) => {
  const { transaction, commit, version } = await given(twoTags);
  const seen = await version(2);
  const other = transaction();
  await updateObjects(env, other, tags, [{ id: 2, input: { description: 'someone else' } }], {
    mode: 'patch',
    bulk: false,
  });
  await commit(other);

  const tx = transaction();
  const error = await t.throwsAsync(
    updateObjects(
      env,
      tx,
      tags,
      [
        { id: 1, input: { description: 'x' } },
        { id: 2, input: { description: 'y' } },
      ],
      {
        mode: 'patch',
        bulk: true,
        preconditions: [
          { id: 1, versions: new Set([await version(1)]) },
          { id: 2, versions: new Set([seen]) },
        ],
      },
    ),
    { instanceOf: PreconditionFailedError },
  );
  t.deepEqual(error?.objects, ['B (2)']);
  t.is(error?.message, '1 object has changed since the version named in If-Match: B (2)');
  t.deepEqual(tx.events, []);
});

test('a list of versions (If-Match header) must name the current version of every object', async (t) => {
  const { transaction, version } = await given(twoTags);
  const onlyA = new Set([await version(1)]);
  const tx = transaction();
  await t.throwsAsync(
    updateObjects(
      env,
      tx,
      tags,
      [
        { id: 1, input: { description: 'x' } },
        { id: 2, input: { description: 'y' } },
      ],
      {
        mode: 'put',
        bulk: true,
        preconditions: [
          { id: 1, versions: onlyA },
          { id: 2, versions: onlyA },
        ],
      },
    ),
    { instanceOf: PreconditionFailedError, message: /: B \(2\)$/ },
  );
  t.deepEqual(tx.events, []);
  const any = transaction();
  await updateObjects(env, any, tags, [{ id: 2, input: { description: 'y' } }], {
    mode: 'patch',
    bulk: true,
    preconditions: [{ id: 2, versions: 'any' }],
  });
  t.is(any.events.length, 1, "'*' accepts any version");
});

test('the check sees changes decided earlier in the same writer, not yet in the read models', async (t) => {
  const { transaction, stage, version } = await given(twoTags);
  const seen = await version(1);
  const first = transaction();
  await updateObjects(env, first, tags, [{ id: 1, input: { description: 'first' } }], { mode: 'patch', bulk: false });
  stage(first); // decided, still being made durable

  const second = transaction();
  await t.throwsAsync(
    updateObjects(env, second, tags, [{ id: 1, input: { description: 'second' } }], {
      mode: 'patch',
      bulk: true,
      preconditions: [{ id: 1, versions: new Set([seen]) }],
    }),
    { instanceOf: PreconditionFailedError },
  );
  t.deepEqual(second.events, []);
});

test('bulk delete with a stale version: 412, nothing deleted; at the current versions: deleted', async (t) => {
  const { transaction, commit, version } = await given(twoTags);
  const seen = await version(1);
  const other = transaction();
  await updateObjects(env, other, tags, [{ id: 1, input: { color: '00ff00' } }], { mode: 'patch', bulk: false });
  await commit(other);

  const stale = transaction();
  await t.throwsAsync(
    deleteObjects(env, stale, tags, [1, 2], {
      bulk: true,
      preconditions: [
        { id: 1, versions: new Set([seen]) },
        { id: 2, versions: new Set([await version(2)]) },
      ],
    }),
    { instanceOf: PreconditionFailedError, message: /A \(1\)/ },
  );
  t.deepEqual(stale.events, []);

  const fresh = transaction();
  await deleteObjects(env, fresh, tags, [1, 2], {
    bulk: true,
    preconditions: [
      { id: 1, versions: new Set([await version(1)]) },
      { id: 2, versions: new Set([await version(2)]) },
    ],
  });
  t.deepEqual(
    fresh.events.map((e) => [e.action, e.objectId]),
    [
      ['delete', 2],
      ['delete', 1],
    ],
  );
});

test('a single object with a stale version: the generic 412 message (its URL names it)', async (t) => {
  const { transaction } = await given(twoTags);
  const tx = transaction();
  const error = await t.throwsAsync(
    updateObjects(env, tx, tags, [{ id: 1, input: { description: 'x' } }], {
      mode: 'patch',
      bulk: false,
      preconditions: [{ id: 1, versions: new Set([999]) }],
    }),
    { instanceOf: PreconditionFailedError },
  );
  t.is(error?.message, 'The object has changed since the version named in If-Match.');
  t.deepEqual(tx.events, []);
});

test('a precondition on an object that does not exist is left to the write: 404 single, failed element bulk', async (t) => {
  const { transaction } = await given(twoTags);
  const tx = transaction();
  await t.throwsAsync(
    updateObjects(env, tx, tags, [{ id: 9, input: { description: 'x' } }], {
      mode: 'patch',
      bulk: true,
      preconditions: [{ id: 9, versions: new Set([1]) }],
    }),
    { instanceOf: ValidationError },
  );
  t.deepEqual(tx.events, []);
});
