import { randomUUID } from 'node:crypto';

import test from 'ava';

import { compileFilter } from '../../src/api/query/compileFilter.js';
import { Serializer } from '../../src/api/Serializer.js';
import { AuditLog } from '../../src/audit/AuditLog.js';
import { revertRequest } from '../../src/audit/revert.js';
import { SecretKeeper } from '../../src/auth/secrets.js';
import { createObjects } from '../../src/commands/createObjects.js';
import type { CommandEnvironment } from '../../src/commands/decideObject.js';
import { runFollowUps } from '../../src/commands/followUps.js';
import { WriteCoordinator } from '../../src/commands/WriteCoordinator.js';
import { ValidationError } from '../../src/errors/requestErrors.js';
import type { ModelDefinition } from '../../src/models/modelDefinition.js';
import { ModelRegistry } from '../../src/models/registry.js';
import { MemoryReadStore } from '../../src/projections/memory/MemoryReadStore.js';
import { Projector } from '../../src/projections/Projector.js';
import type { ReadStore } from '../../src/projections/ReadStore.js';
import { create, createMany, deciderSpec, patch, remove, TEST_USER } from '../support/deciderSpec.js';
import { MemoryEventLog } from '../support/MemoryEventLog.js';
import { widgetRegistry } from '../support/widgetModels.js';

const registry = widgetRegistry();
const spec = (t: Parameters<typeof deciderSpec>[0]) => deciderSpec(t, { registry });
const secrets = new SecretKeeper('mechanisms-secret', false);

const widgetType = [
  create('test.widgettype', { name: 'WT' }),
  create('test.widgetporttemplate', { widget_type: 1, name: 'p1' }),
  create('test.widgetporttemplate', { widget_type: 1, name: 'p2' }),
];
/** Two widgets with two ports each (ports 1-2 on widget 1, 3-4 on widget 2) and a front port. */
const twoWidgets = [
  ...widgetType,
  create('test.widget', { name: 'w1', widget_type: 1 }),
  create('test.widget', { name: 'w2', widget_type: 1 }),
  create('test.frontport', { name: 'f1' }),
];
const port = (id: number) => ({ object_type: 'test.widgetport', object_id: id });

function render(store: ReadStore, key: string, ids: number[]): Promise<Record<string, unknown>[]> {
  const serializer = new Serializer(registry, store, secrets);
  return store
    .getMany(key, ids)
    .then((docs) => serializer.render(registry.get(key), docs, 'complete', { baseUrl: 'http://x' }));
}

/* ------------------------------------------------------------- follow-ups */

test('follow-up: creating a widget instantiates a port per template of its type, each its own event of the same request', async (t) => {
  await spec(t)
    .given(widgetType)
    .when(create('test.widget', { name: 'w1', widget_type: 1 }))
    .then([
      { action: 'create', objectType: 'test.widget', objectId: 1 },
      { action: 'create', objectType: 'test.widgetport', objectId: 1, postchange: { widget: 1, name: 'p1' } },
      { action: 'create', objectType: 'test.widgetport', objectId: 2, postchange: { widget: 1, name: 'p2' } },
    ]);
});

test('follow-up: in a bulk create each item is followed by its own follow-ups', async (t) => {
  await spec(t)
    .given(widgetType)
    .when(
      createMany('test.widget', [
        { name: 'w1', widget_type: 1 },
        { name: 'w2', widget_type: 1 },
      ]),
    )
    .then((events, reply) => {
      t.deepEqual(
        events.map((e) => `${e.objectType} ${e.objectId}`),
        [
          'test.widget 1',
          'test.widgetport 1',
          'test.widgetport 2',
          'test.widget 2',
          'test.widgetport 3',
          'test.widgetport 4',
        ],
      );
      t.deepEqual(reply.ids, [1, 2], 'the reply names the objects asked for, not their follow-ups');
    });
});

test('follow-up: a refused follow-up refuses the whole request, naming what it would have written', async (t) => {
  await spec(t)
    .given([...widgetType, create('test.widgetporttemplate', { widget_type: 1, name: 'a-name-too-long' })])
    .when(create('test.widget', { name: 'w1', widget_type: 1 }))
    .thenThrows(ValidationError, {
      non_field_errors: ['widgetport: name: Ensure this field has no more than 10 characters.'],
    });
});

test('follow-up: reverting the request removes the object and everything its follow-ups created', async (t) => {
  const log = new MemoryEventLog();
  const store = new MemoryReadStore();
  await log.open();
  await store.open();
  const projector = new Projector(log, store, registry);
  await projector.start();
  const audit = new AuditLog(log, registry);
  await audit.open();
  const coordinator = new WriteCoordinator(log, store, projector, registry, {
    now: () => '2024-01-01T00:00:00.000000Z',
  });
  await coordinator.init();
  const env: CommandEnvironment = {
    registry,
    secrets,
    settings: { enforceGlobalUnique: false },
    followUps: runFollowUps,
  };
  const run = (model: string, input: unknown, requestId = randomUUID()) =>
    coordinator.execute({ requestId, user: TEST_USER }, (tx) =>
      createObjects(env, tx, registry.get(model), [input], { bulk: false }),
    );
  try {
    await run('test.widgettype', { name: 'WT' });
    await run('test.widgetporttemplate', { widget_type: 1, name: 'p1' });
    await run('test.widgetporttemplate', { widget_type: 1, name: 'p2' });
    const target = randomUUID();
    await run('test.widget', { name: 'w1', widget_type: 1 }, target);
    t.is(await store.count('test.widgetport', {}), 2);

    const events = await revertRequest({ registry, coordinator, audit }, target, {
      requestId: randomUUID(),
      user: TEST_USER,
    });
    t.deepEqual(
      events.map((e) => `${e.action} ${e.objectType} ${e.objectId}`),
      ['delete test.widgetport 2', 'delete test.widgetport 1', 'delete test.widget 1'],
    );
    t.is(await store.count('test.widgetport', {}), 0);
    t.is(await store.count('test.widget', {}), 0);
  } finally {
    coordinator.close();
    await projector.stop();
    await log.close();
    await store.close();
  }
});

/* ----------------------------------------------------------- generic lists */

test('generic list: items are stored as (type, id) pairs, in the order written', async (t) => {
  await spec(t)
    .given(twoWidgets)
    .when(
      create('test.link', {
        a_terminations: [port(2), port(1)],
        b_terminations: [{ object_type: 'test.frontport', object_id: '1' }],
      }),
    )
    .then([
      {
        action: 'create',
        objectType: 'test.link',
        postchange: {
          a_terminations: [port(2), port(1)],
          b_terminations: [{ object_type: 'test.frontport', object_id: 1 }],
        },
      },
    ]);
});

test('generic list: each item is checked for its type, existence and repetition, errors per item', async (t) => {
  await spec(t)
    .given(twoWidgets)
    .when(
      create('test.link', {
        a_terminations: [
          port(1),
          { object_type: 'test.widget', object_id: 1 },
          port(99),
          port(1),
          'x',
          { object_id: 'a' },
        ],
        b_terminations: { object_type: 'test.widgetport', object_id: 2 },
      }),
    )
    .thenThrows(ValidationError, {
      a_terminations: [
        {},
        { object_type: ['Invalid content type: test.widget'] },
        { object_id: ['Related object not found using the provided numeric ID: 99'] },
        { object_id: ['This object is listed more than once.'] },
        { non_field_errors: ['Invalid data. Expected a dictionary, but got str.'] },
        { object_type: ['This field is required.'], object_id: ['A valid integer is required.'] },
      ],
      b_terminations: ['Expected a list of items but got type "dict".'],
    } as never);
});

test('generic list: rendered with each object nested, fetched per model', async (t) => {
  await spec(t)
    .given(twoWidgets)
    .when(
      create('test.link', {
        a_terminations: [port(1), port(2)],
        b_terminations: [{ object_type: 'test.frontport', object_id: 1 }],
      }),
    )
    .then(async (_events, _reply, { store }) => {
      const [link] = await render(store, 'test.link', [1]);
      t.deepEqual(link.a_terminations, [
        {
          object_type: 'test.widgetport',
          object_id: 1,
          object: { id: 1, url: 'http://x/api/test/widget-ports/1/', display: 'p1', name: 'p1' },
        },
        {
          object_type: 'test.widgetport',
          object_id: 2,
          object: { id: 2, url: 'http://x/api/test/widget-ports/2/', display: 'p2', name: 'p2' },
        },
      ]);
      t.deepEqual(link.b_terminations, [
        {
          object_type: 'test.frontport',
          object_id: 1,
          object: { id: 1, url: 'http://x/api/test/front-ports/1/', display: 'f1', name: 'f1' },
        },
      ]);
    });
});

test('generic list: cable-style filters select by the type and the id of an item', async (t) => {
  await spec(t)
    .given([
      ...twoWidgets,
      create('test.link', { a_terminations: [port(1)], b_terminations: [port(3)] }),
      create('test.link', {
        a_terminations: [{ object_type: 'test.frontport', object_id: 1 }],
        b_terminations: [port(4)],
      }),
    ])
    .when(
      create('test.link', {
        a_terminations: [port(2)],
        b_terminations: [{ object_type: 'test.frontport', object_id: 1 }],
      }),
    )
    .then(async (_events, _reply, { store }) => {
      const ids = async (params: string) => {
        const query = await compileFilter(registry, registry.get('test.link'), new URLSearchParams(params), store);
        return (await store.find('test.link', query)).map((d) => d.id);
      };
      t.deepEqual(await ids('termination_a_type=test.widgetport'), [1, 3]);
      t.deepEqual(await ids('termination_a_type=test.frontport'), [2]);
      t.deepEqual(await ids('termination_a_id=1&termination_a_id=2'), [1, 2, 3]);
      t.deepEqual(await ids('termination_a_type=test.widgetport&termination_a_id=2'), [3]);
      t.deepEqual(await ids('termination_b_type=test.frontport'), [3]);
      // NetBox's ContentTypeFilter: any letter case; a text that is no '<app_label>.<model>' selects nothing
      t.deepEqual(await ids('termination_a_type=Test.FrontPort'), [2]);
      t.deepEqual(await ids('termination_a_type=not a type'), []);
      t.deepEqual(await ids('termination_a_type__n=not a type'), [1, 2, 3]);
    });
});

test('generic list: deleting a listed object takes it out of the list with an update event', async (t) => {
  await spec(t)
    .given([...twoWidgets, create('test.link', { a_terminations: [port(1), port(2)], b_terminations: [port(3)] })])
    .when(remove('test.widgetport', 1))
    .then([
      {
        action: 'update',
        objectType: 'test.link',
        objectId: 1,
        prechange: { a_terminations: [port(1), port(2)] },
        postchange: { a_terminations: [port(2)], b_terminations: [port(3)] },
      },
      { action: 'delete', objectType: 'test.widgetport', objectId: 1 },
    ]);
});

/* --------------------------------------------------------- computed fields */

test('computed field: a port renders its link peer, recomputed when the link changes or goes', async (t) => {
  const given = [...twoWidgets, create('test.link', { a_terminations: [port(1)], b_terminations: [port(3)] })];
  await spec(t)
    .given(given)
    .when(create('test.widgetporttemplate', { widget_type: 1, name: 'p3' }))
    .then(async (_events, _reply, { store }) => {
      const [p1, p2, p3] = await render(store, 'test.widgetport', [1, 2, 3]);
      t.deepEqual(p1.link_peer, [port(3)]);
      t.is(p2.link_peer, null);
      t.deepEqual(p3.link_peer, [port(1)]);
    });
  await spec(t)
    .given(given)
    .when(patch('test.link', 1, { b_terminations: [port(4)] }))
    .then(async (_events, _reply, { store }) => {
      const [p1, p3, p4] = await render(store, 'test.widgetport', [1, 3, 4]);
      t.deepEqual(p1.link_peer, [port(4)]);
      t.is(p3.link_peer, null);
      t.deepEqual(p4.link_peer, [port(1)]);
    });
  await spec(t)
    .given(given)
    .when(remove('test.link', 1))
    .then(async (_events, _reply, { store }) => {
      const [p1] = await render(store, 'test.widgetport', [1]);
      t.is(p1.link_peer, null);
    });
});

test('computed field: the registry names the values a model can change, and refuses undeclared dependencies', (t) => {
  t.deepEqual(
    registry.dependentsOf('test.link').map((r) => `${r.model.key}.${r.field.name}`),
    ['test.widgetport.link_peer'],
  );
  t.deepEqual(registry.dependentsOf('test.widget'), []);
  const broken: ModelDefinition = {
    ...registry.get('test.widgetport'),
    hooks: {},
    fields: [
      ...registry.get('test.widgetport').fields.filter((f) => f.name !== 'link_peer'),
      { name: 'link_peer', type: 'computed', readOnly: true, dependsOn: ['test.nothing'] },
      { name: 'ends', type: 'generic_list' },
    ],
  };
  const error = t.throws(() =>
    new ModelRegistry([broken, registry.get('test.widget'), registry.get('test.widgettype')]).validate(),
  );
  t.regex(error!.message, /depends on unknown model 'test.nothing'/);
  t.regex(error!.message, /dependsOn without a computed field and its compute hook/);
  t.regex(error!.message, /generic_list without targets/);
});
