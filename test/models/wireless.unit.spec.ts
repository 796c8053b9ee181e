import test from 'ava';
import { Query } from 'mingo';

import { pagePeers } from '../../src/models/dcim/cabling/pagePaths.js';
import { destinations, pathFrom, PathReader } from '../../src/models/dcim/cabling/tracePath.js';
import type { LookupView } from '../../src/models/lookupView.js';
import { registry } from '../../src/models/registry.js';
import type { StoredObject } from '../../src/models/storedObject.js';
import { cumulativeCountField } from '../../src/models/treeCounts.js';
import {
  recordInterfaceDevices,
  wirelessEndFollowUps,
  wirelessLinkProblem,
} from '../../src/models/wireless/wirelessLinkEnds.js';

function viewOf(objects: Record<string, StoredObject[]>): LookupView {
  return {
    async get(model, id) {
      return objects[model]?.find((o) => o.id === id) ?? null;
    },
    async find(model, query, limit) {
      const found = (objects[model] ?? []).filter((o) => new Query(query).test(o));
      return limit === undefined ? found : found.slice(0, limit);
    },
  };
}

const ref = (object_type: string, object_id: number) => ({ object_type, object_id });
const radio = (id: number, wireless_link: number | null = null, type = 'ieee802.11ac'): StoredObject => ({
  id,
  device: 100 + id,
  name: `wlan${id}`,
  type,
  cable: null,
  wireless_link,
});
const link = (id: number, a: number, b: number, status = 'connected'): StoredObject => ({
  id,
  interface_a: a,
  interface_b: b,
  status,
});

test('the tracer follows a wireless link from either end to the other radio, which ends the path', async (t) => {
  const view = viewOf({ 'dcim.interface': [radio(1, 7), radio(2, 7)], 'wireless.wirelesslink': [link(7, 1, 2)] });
  const reader = new PathReader(view);
  const fromA = await pathFrom(reader, 'dcim.interface', radio(1, 7));
  t.deepEqual(fromA?.path, [[ref('dcim.interface', 1)], [ref('wireless.wirelesslink', 7)], [ref('dcim.interface', 2)]]);
  t.like(fromA, { isComplete: true, isActive: true, isSplit: false });
  const fromB = await pathFrom(reader, 'dcim.interface', radio(2, 7));
  t.deepEqual(destinations(fromB), [ref('dcim.interface', 1)]);
});

test('a wireless link that is not connected makes the path inactive; no link, no path', async (t) => {
  const view = viewOf({
    'dcim.interface': [radio(1, 7), radio(2, 7), radio(3)],
    'wireless.wirelesslink': [link(7, 1, 2, 'planned')],
  });
  const reader = new PathReader(view);
  t.like(await pathFrom(reader, 'dcim.interface', radio(1, 7)), { isComplete: true, isActive: false });
  t.is(await pathFrom(reader, 'dcim.interface', radio(3)), null);
  // a link whose record is gone leaves the path at its origin, incomplete, as a missing cable does
  const orphan = await pathFrom(
    new PathReader(viewOf({ 'dcim.interface': [radio(1, 9)] })),
    'dcim.interface',
    radio(1, 9),
  );
  t.like(orphan, { path: [[ref('dcim.interface', 1)]], isComplete: false });
});

test('link peers of an interface on a wireless link are the other radio', async (t) => {
  const view = viewOf({
    'dcim.interface': [radio(1, 7), radio(2, 7), radio(3)],
    'wireless.wirelesslink': [link(7, 1, 2)],
  });
  const peers = await pagePeers([radio(1, 7), radio(2, 7), radio(3)], view, registry.get('dcim.interface'), new Map());
  t.deepEqual(peers, [[ref('dcim.interface', 2)], [ref('dcim.interface', 1)], []]);
});

test('both ends must be radios; a wrong end is reported under interface_a, as NetBox 3.4 does', async (t) => {
  const view = viewOf({ 'dcim.interface': [radio(1), radio(2), radio(3, null, '1000base-t')] });
  t.is(await wirelessLinkProblem(link(7, 1, 2), view), undefined);
  t.deepEqual(await wirelessLinkProblem(link(7, 3, 2), view), {
    interface_a: ['1000BASE-T (1GE) is not a wireless interface.'],
  });
  t.deepEqual(await wirelessLinkProblem(link(7, 1, 3), view), {
    interface_a: ['1000BASE-T (1GE) is not a wireless interface.'],
  });
});

test('a link records the devices of its ends, for the cascade when a device goes', async (t) => {
  const view = viewOf({ 'dcim.interface': [radio(1), radio(2)] });
  const obj = link(7, 1, 2);
  await recordInterfaceDevices(obj, view);
  t.like(obj, { interface_a_device: 101, interface_b_device: 102 });
});

test('follow-ups: a new link sets wireless_link on both ends; moving an end clears the one it left; nothing when unchanged', async (t) => {
  const created = await wirelessEndFollowUps(
    { action: 'create', obj: link(7, 1, 2), previous: null },
    viewOf({ 'dcim.interface': [radio(1), radio(2)] }),
  );
  t.deepEqual(created, [
    { kind: 'set', model: 'dcim.interface', id: 1, values: { wireless_link: 7 } },
    { kind: 'set', model: 'dcim.interface', id: 2, values: { wireless_link: 7 } },
  ]);
  const linked = viewOf({ 'dcim.interface': [radio(1, 7), radio(2, 7), radio(3)] });
  const moved = await wirelessEndFollowUps({ action: 'update', obj: link(7, 1, 3), previous: link(7, 1, 2) }, linked);
  t.deepEqual(moved, [
    { kind: 'set', model: 'dcim.interface', id: 2, values: { wireless_link: null } },
    { kind: 'set', model: 'dcim.interface', id: 3, values: { wireless_link: 7 } },
  ]);
  t.deepEqual(
    await wirelessEndFollowUps({ action: 'update', obj: link(7, 1, 2), previous: link(7, 1, 2) }, linked),
    [],
  );
});

test('a cumulative count adds the objects of every descendant node', async (t) => {
  const groups = [
    { id: 1, parent: null },
    { id: 2, parent: 1 },
    { id: 3, parent: 2 },
    { id: 4, parent: null },
  ];
  const lans = [
    { id: 1, group: 1 },
    { id: 2, group: 3 },
    { id: 3, group: 3 },
    { id: 4, group: null },
  ];
  const view = viewOf({ 'wireless.wirelesslangroup': groups, 'wireless.wirelesslan': lans });
  const field = cumulativeCountField('wirelesslan_count', 'wireless.wirelesslangroup', 'wireless.wirelesslan', 'group');
  const counts = await field.computeMany!(groups, view, registry.get('wireless.wirelesslangroup'), new Map(), registry);
  t.deepEqual(counts, [3, 2, 2, 0]);
});
