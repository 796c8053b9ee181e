import test from 'ava';

import { eventTime, pastChangesOf } from '../../src/migration/pastChanges.js';
import { registry } from '../../src/models/registry.js';
import { NETBOX_REQUEST, netboxChange } from '../support/netboxChanges.js';

const REQ = NETBOX_REQUEST;
const change = netboxChange;

test("a history that begins with an update gets a baseline creation holding the state before it, at the object's created time", (t) => {
  const before = { name: 'DC-5', slug: 'dc-5', created: '2020-05-01T10:00:00.000000Z', tags: ['Production'] };
  const after = { ...before, description: 'main' };
  const { changes, baselines } = pastChangesOf(
    registry,
    [change(9, 'update', '2023-01-01T00:00:00.000000Z', before, after)],
    new Map([['Production', 4]]),
  );
  t.is(baselines, 1);
  t.deepEqual(
    changes.map((c) => [c.action, c.time, c.user?.username ?? null]),
    [
      ['create', '2020-05-01T10:00:00.000000Z', null],
      ['update', '2023-01-01T00:00:00.000000Z', 'bob'],
    ],
  );
  t.not(changes[0].requestId, REQ, "the baseline is the migration's own request");
  t.deepEqual(changes[0].postchange, { ...before, id: 5, tags: [4] }, 'tags by id, as netledger stores them');
});

test('a complete history gets no baseline; changes come oldest first whatever order the source lists them in', (t) => {
  const created = { name: 'DC-5', slug: 'dc-5' };
  const { changes, baselines } = pastChangesOf(
    registry,
    [
      change(2, 'delete', '2023-01-02T00:00:00.000000Z', created, null),
      change(1, 'create', '2023-01-01T00:00:00.000000Z', null, created),
    ],
    new Map(),
  );
  t.is(baselines, 0);
  t.deepEqual(
    changes.map((c) => c.action),
    ['create', 'delete'],
  );
});

test('changes of models netledger does not know are left out and counted', (t) => {
  const { changes, skipped } = pastChangesOf(
    registry,
    [{ ...change(1, 'create', '2023-01-01T00:00:00Z', null, {}), changed_object_type: 'plugin.widget' }],
    new Map(),
  );
  t.is(changes.length, 0);
  t.is(skipped, 1);
});

test("NetBox's times become the event log's form, microseconds kept", (t) => {
  t.is(eventTime('2021-03-08T11:33:24.812949Z'), '2021-03-08T11:33:24.812949Z');
  t.is(eventTime('2021-03-08T11:33:24.812949+00:00'), '2021-03-08T11:33:24.812949Z');
  t.is(eventTime('2021-03-08T12:33:24+01:00'), '2021-03-08T11:33:24.000000Z');
  t.is(eventTime('2021-03-08'), '2021-03-08T00:00:00.000000Z');
});

test("NetBox's snapshots name content types by row id: they become '<app>.<model>' as netledger stores them", (t) => {
  const assignment = {
    ...change(1, 'create', '2023-01-01T00:00:00Z', null, {
      assigned_object_type: 12,
      assigned_object_id: 3,
      address: '10.0.0.1/24',
    }),
    changed_object_type: 'ipam.ipaddress',
  };
  const field = {
    ...change(2, 'create', '2023-01-01T00:00:01Z', null, { name: 'owner', type: 'text', content_types: [7, 12] }),
    changed_object_type: 'extras.customfield',
  };
  const types = new Map([
    [12, 'dcim.interface'],
    [7, 'dcim.site'],
  ]);
  const { changes } = pastChangesOf(registry, [assignment, field], new Map(), types);
  t.like(changes[0].postchange, { assigned_object_type: 'dcim.interface', assigned_object_id: 3 });
  t.deepEqual(changes[1].postchange?.content_types, ['dcim.site', 'dcim.interface']);
});

test("NetBox 3.4 serves no object_repr: it is read from the change's display", (t) => {
  const { object_repr: _none, ...bare } = change(1, 'update', '2023-01-01T00:00:00Z', { name: 'R1' }, { name: 'R1' });
  const rack = {
    ...bare,
    changed_object_type: 'dcim.rackreservation',
    display: 'dcim | rack reservation R1 (U1) updated by bob',
  };
  t.is(pastChangesOf(registry, [rack], new Map()).changes.at(-1)?.objectRepr, 'R1 (U1)');
});

test("a tag deleted since is named in older snapshots by its id, found in the tag's own changes; a current tag's name stays its own", (t) => {
  const tagChange = (id: number, action: string, time: string, name: string, tagId: number) => ({
    ...change(
      id,
      action,
      time,
      action === 'create' ? null : { name, slug: name },
      action === 'delete' ? null : { name, slug: name },
      tagId,
    ),
    changed_object_type: 'extras.tag',
  });
  const site = { name: 'DC-5', slug: 'dc-5', tags: ['legacy', 'Production'] };
  const { changes } = pastChangesOf(
    registry,
    [
      tagChange(1, 'create', '2023-01-01T00:00:00.000000Z', 'legacy', 7),
      change(2, 'create', '2023-01-02T00:00:00.000000Z', null, site),
      tagChange(3, 'delete', '2023-01-03T00:00:00.000000Z', 'legacy', 7),
      tagChange(4, 'create', '2023-01-04T00:00:00.000000Z', 'Production', 9),
    ],
    new Map([['Production', 4]]),
  );
  const created = changes.find((c) => c.objectType === 'dcim.site');
  t.deepEqual(created?.postchange?.tags, [7, 4]);
});
