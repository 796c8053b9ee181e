import test from 'ava';

import type { PastChange } from '../../src/commands/importHistory.js';
import { ImportRefusedError } from '../../src/commands/importObjects.js';
import { derivedObjectsOf } from '../../src/migration/derivedObjects.js';
import { create, deciderSpec, importMany, type WriteCommand } from '../support/deciderSpec.js';

const SOURCE_CREATED = '2021-03-08T11:33:24.812949Z';
const SOURCE_UPDATED = '2022-07-01T08:00:00.000001Z';

/** Site, role, manufacturer and a device type with two interface templates, as a source would hold them (ids 1). */
const catalog: WriteCommand[] = [
  create('dcim.site', { name: 'DC-1', slug: 'dc-1' }),
  create('dcim.devicerole', { name: 'Router', slug: 'router', color: 'ff0000' }),
  create('dcim.manufacturer', { name: 'Juniper', slug: 'juniper' }),
  create('dcim.devicetype', { manufacturer: 1, model: 'MX204', slug: 'mx204' }),
  create('dcim.interfacetemplate', { device_type: 1, name: 'ge-0/0/0', type: '1000base-t' }),
  create('dcim.interfacetemplate', { device_type: 1, name: 'ge-0/0/1', type: '1000base-t' }),
];

test("given an empty registry, when sites are imported, then they keep their ids and the source's times", async (t) => {
  await deciderSpec(t)
    .when(
      importMany('dcim.site', [
        { id: 42, input: { name: 'DC-42', slug: 'dc-42' }, created: SOURCE_CREATED, lastUpdated: SOURCE_UPDATED },
        { id: 7, input: { name: 'DC-7', slug: 'dc-7' } },
      ]),
    )
    .then((events, reply) => {
      t.deepEqual(reply.ids, [42, 7]);
      t.like(events[0], {
        action: 'create',
        objectType: 'dcim.site',
        objectId: 42,
        postchange: { name: 'DC-42', created: SOURCE_CREATED, last_updated: SOURCE_UPDATED },
      });
      t.like(events[1], { objectId: 7, postchange: { created: '2024-06-01T12:00:00.000000Z' } });
    });
});

test('given imported sites up to id 42, when a site is created, then it continues after the highest imported id', async (t) => {
  await deciderSpec(t)
    .given([
      importMany('dcim.site', [
        { id: 42, input: { name: 'DC-42', slug: 'dc-42' } },
        { id: 7, input: { name: 'DC-7', slug: 'dc-7' } },
      ]),
    ])
    .when(create('dcim.site', { name: 'DC-new', slug: 'dc-new' }))
    .then([{ action: 'create', objectType: 'dcim.site', objectId: 43 }]);
});

test('given a device type with templates, when a device is imported, then no component is instantiated (the import brings them)', async (t) => {
  await deciderSpec(t)
    .given(catalog)
    .when(importMany('dcim.device', [{ id: 5, input: { name: 'r1', device_type: 1, device_role: 1, site: 1 } }]))
    .then([{ action: 'create', objectType: 'dcim.device', objectId: 5 }]);
});

test('given a site 3, when a site 3 is imported, then the import is refused naming the object, and nothing is written', async (t) => {
  const error = await deciderSpec(t)
    .given([importMany('dcim.site', [{ id: 3, input: { name: 'DC-3', slug: 'dc-3' } }])])
    .when(importMany('dcim.site', [{ id: 3, input: { name: 'Other', slug: 'other' } }]))
    .thenThrows(ImportRefusedError);
  t.regex(error.message, /dcim\.site 3 refused: .*exists already/);
});

test('given an empty registry, when an object breaking a rule is imported, then the refusal names it and the field', async (t) => {
  const error = (await deciderSpec(t)
    .when(importMany('dcim.site', [{ id: 9, input: { name: 'no slug' } }]))
    .thenThrows(ImportRefusedError)) as ImportRefusedError;
  t.is(error.model, 'dcim.site');
  t.is(error.id, 9);
  t.truthy((error.body as Record<string, unknown>).slug);
});

test('given a user created with a password, when a user is imported without one, then it has no usable password', async (t) => {
  await deciderSpec(t)
    .given([create('auth.user', { username: 'admin', password: 'admin-password' })])
    .when(importMany('auth.user', [{ id: 4, input: { username: 'operator', is_active: true } }]))
    .then((events) => {
      t.like(events[0], {
        action: 'create',
        objectType: 'auth.user',
        objectId: 4,
        postchange: { username: 'operator', password: null },
      });
    });
});

const alice = { id: 3, username: 'alice' };
const REQ_1 = '11111111-1111-4111-8111-111111111111';
const REQ_2 = '22222222-2222-4222-8222-222222222222';

test('given an empty registry, when a site is imported with its history, then the past changes come first, each with its own time, request and user', async (t) => {
  const history: PastChange[] = [
    {
      time: '2022-01-02T00:00:00.000000Z',
      requestId: REQ_2,
      user: alice,
      action: 'update',
      objectType: 'dcim.site',
      objectId: 42,
      objectRepr: 'DC-42',
      prechange: { id: 42, name: 'DC-42', slug: 'dc-42', description: '' },
      postchange: { id: 42, name: 'DC-42', slug: 'dc-42', description: 'main' },
      related: null,
    },
    {
      time: '2022-01-01T00:00:00.000000Z',
      requestId: REQ_1,
      user: null,
      action: 'create',
      objectType: 'dcim.site',
      objectId: 42,
      objectRepr: 'DC-42',
      prechange: null,
      postchange: { id: 42, name: 'DC-42', slug: 'dc-42', description: '' },
      related: null,
    },
  ];
  await deciderSpec(t)
    .when(
      importMany(
        'dcim.site',
        [{ id: 42, input: { name: 'DC-42', slug: 'dc-42', description: 'main' }, created: SOURCE_CREATED }],
        history,
      ),
    )
    .then((events) => {
      t.deepEqual(
        events.map((e) => [e.action, e.requestId, e.time, e.user?.username ?? null]),
        [
          ['create', REQ_1, '2022-01-01T00:00:00.000000Z', null],
          ['update', REQ_2, '2022-01-02T00:00:00.000000Z', 'alice'],
          ['create', events[2].requestId, '2024-06-01T12:00:00.000000Z', 'admin'],
        ],
      );
      t.like(events[1].postchange, { description: 'main' });
      t.like(events[2], { objectId: 42, postchange: { description: 'main', created: SOURCE_CREATED } });
    });
});

test("given a site, when a journal entry is imported, then its display is made of the source's time, not the import's", async (t) => {
  await deciderSpec(t)
    .given([create('dcim.site', { name: 'DC-1', slug: 'dc-1' })])
    .when(
      importMany('extras.journalentry', [
        {
          id: 3,
          input: { assigned_object_type: 'dcim.site', assigned_object_id: 1, kind: 'info', comments: 'racked' },
          created: SOURCE_CREATED,
        },
      ]),
    )
    .then([{ action: 'create', objectId: 3, objectRepr: '2021-03-08 11:33 (Info)' }]);
});

test("given two devices' interfaces, when a cable is imported, then its terminations are derived under the source's ids and times (cables deleted there left a gap)", async (t) => {
  const derived = derivedObjectsOf(
    new Map([
      [
        'dcim.cabletermination',
        [
          {
            id: 7,
            cable: 4,
            cable_end: 'A',
            termination_type: 'dcim.interface',
            termination_id: 1,
            created: SOURCE_CREATED,
            last_updated: SOURCE_UPDATED,
          },
          {
            id: 9,
            cable: 4,
            cable_end: 'B',
            termination_type: 'dcim.interface',
            termination_id: 2,
            created: SOURCE_CREATED,
            last_updated: SOURCE_UPDATED,
          },
        ],
      ],
    ]),
  );
  await deciderSpec(t)
    .given([
      ...catalog,
      importMany('dcim.device', [{ id: 5, input: { name: 'r1', device_type: 1, device_role: 1, site: 1 } }]),
      importMany('dcim.interface', [
        { id: 1, input: { device: 5, name: 'ge-0/0/0', type: '1000base-t' } },
        { id: 2, input: { device: 5, name: 'ge-0/0/1', type: '1000base-t' } },
      ]),
    ])
    .when(
      importMany(
        'dcim.cable',
        [
          {
            id: 4,
            input: {
              a_terminations: [{ object_type: 'dcim.interface', object_id: 1 }],
              b_terminations: [{ object_type: 'dcim.interface', object_id: 2 }],
            },
          },
        ],
        undefined,
        derived,
      ),
    )
    .then((events) => {
      const terminations = events.filter((e) => e.objectType === 'dcim.cabletermination');
      t.deepEqual(
        terminations.map((e) => [e.action, e.objectId, e.postchange?.termination_id, e.postchange?.created]),
        [
          ['create', 7, 1, SOURCE_CREATED],
          ['create', 9, 2, SOURCE_CREATED],
        ],
      );
    });
});

test('given a cable termination the source does not show, when its cable is imported, then it is derived under a fresh id', async (t) => {
  await deciderSpec(t)
    .given([
      ...catalog,
      importMany('dcim.device', [{ id: 5, input: { name: 'r1', device_type: 1, device_role: 1, site: 1 } }]),
      importMany('dcim.interface', [
        { id: 1, input: { device: 5, name: 'ge-0/0/0', type: '1000base-t' } },
        { id: 2, input: { device: 5, name: 'ge-0/0/1', type: '1000base-t' } },
      ]),
    ])
    .when(
      importMany(
        'dcim.cable',
        [
          {
            id: 4,
            input: {
              a_terminations: [{ object_type: 'dcim.interface', object_id: 1 }],
              b_terminations: [{ object_type: 'dcim.interface', object_id: 2 }],
            },
          },
        ],
        undefined,
        derivedObjectsOf(new Map([['dcim.cabletermination', []]])),
      ),
    )
    .then((events) => {
      t.deepEqual(
        events.filter((e) => e.objectType === 'dcim.cabletermination').map((e) => e.objectId),
        [1, 2],
      );
    });
});
