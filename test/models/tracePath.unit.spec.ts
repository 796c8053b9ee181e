import test from 'ava';
import { Query } from 'mingo';

import { destinations, pathFrom, PathReader, tracePath } from '../../src/models/dcim/cabling/tracePath.js';
import type { LookupView } from '../../src/models/lookupView.js';
import type { StoredObject } from '../../src/models/storedObject.js';

/** Objects by model, answering the view's get and find as the read models would. */
function viewOf(objects: Record<string, StoredObject[]>): LookupView & { reads: number } {
  const view = {
    reads: 0,
    async get(model: string, id: number) {
      view.reads++;
      return objects[model]?.find((o) => o.id === id) ?? null;
    },
    async find(model: string, query: Record<string, unknown>, limit?: number) {
      view.reads++;
      const found = (objects[model] ?? []).filter((o) => new Query(query).test(o));
      return limit === undefined ? found : found.slice(0, limit);
    },
  };
  return view;
}

const ref = (object_type: string, object_id: number) => ({ object_type, object_id });
const iface = (id: number, cable: number | null, end: 'A' | 'B' | '' = cable === null ? '' : 'A'): StoredObject => ({
  id,
  device: id,
  name: `e${id}`,
  cable,
  cable_end: end,
});
const cable = (
  id: number,
  a: Array<{ object_type: string; object_id: number }>,
  b: typeof a,
  status = 'connected',
): StoredObject => ({ id, a_terminations: a, b_terminations: b, status });

/**
 * Interfaces 1 and 2 enter panel 1 on front ports 1 and 2 (positions 1 and 2 of rear port 1,
 * 2 positions); a trunk (cable 3) joins rear port 1 to rear port 2 of panel 2, whose front
 * ports 3 and 4 (positions 1 and 2) lead to interfaces 3 and 4.
 */
function trunk(status = 'connected') {
  return viewOf({
    'dcim.interface': [iface(1, 1), iface(2, 2), iface(3, 4, 'B'), iface(4, 5, 'B')],
    'dcim.frontport': [
      { id: 1, device: 10, rear_port: 1, rear_port_position: 1, cable: 1, cable_end: 'B' },
      { id: 2, device: 10, rear_port: 1, rear_port_position: 2, cable: 2, cable_end: 'B' },
      { id: 3, device: 11, rear_port: 2, rear_port_position: 1, cable: 4, cable_end: 'A' },
      { id: 4, device: 11, rear_port: 2, rear_port_position: 2, cable: 5, cable_end: 'A' },
    ],
    'dcim.rearport': [
      { id: 1, device: 10, positions: 2, cable: 3, cable_end: 'A' },
      { id: 2, device: 11, positions: 2, cable: 3, cable_end: 'B' },
    ],
    'dcim.cable': [
      cable(1, [ref('dcim.interface', 1)], [ref('dcim.frontport', 1)]),
      cable(2, [ref('dcim.interface', 2)], [ref('dcim.frontport', 2)]),
      cable(3, [ref('dcim.rearport', 1)], [ref('dcim.rearport', 2)], status),
      cable(4, [ref('dcim.frontport', 3)], [ref('dcim.interface', 3)]),
      cable(5, [ref('dcim.frontport', 4)], [ref('dcim.interface', 4)]),
    ],
  });
}

test('a multi-position trunk keeps each position: interface 1 reaches interface 3, interface 2 reaches interface 4', async (t) => {
  const view = trunk();
  const reader = new PathReader(view);
  const one = await pathFrom(reader, 'dcim.interface', iface(1, 1));
  t.deepEqual(destinations(one), [ref('dcim.interface', 3)]);
  t.like(one, { isComplete: true, isActive: true, isSplit: false });
  t.deepEqual(
    one!.path.map((step) => step.map((n) => `${n.object_type.slice(5)}${n.object_id}`)),
    [
      ['interface1'],
      ['cable1'],
      ['frontport1'],
      ['rearport1'],
      ['cable3'],
      ['rearport2'],
      ['frontport3'],
      ['cable4'],
      ['interface3'],
    ],
  );
  t.deepEqual(destinations(await pathFrom(reader, 'dcim.interface', iface(2, 2))), [ref('dcim.interface', 4)]);
  t.deepEqual(destinations(await pathFrom(reader, 'dcim.interface', iface(4, 5, 'B'))), [ref('dcim.interface', 2)]);
});

test('a cable not connected leaves the path complete but inactive', async (t) => {
  const path = await pathFrom(new PathReader(trunk('planned')), 'dcim.interface', iface(1, 1));
  t.like(path, { isComplete: true, isActive: false });
});

test('entering a multi-position rear port with no position to follow splits the path there', async (t) => {
  const view = viewOf({
    'dcim.interface': [iface(1, 1)],
    'dcim.rearport': [{ id: 1, device: 10, positions: 2, cable: 1, cable_end: 'B' }],
    'dcim.frontport': [],
    'dcim.cable': [cable(1, [ref('dcim.interface', 1)], [ref('dcim.rearport', 1)])],
  });
  const path = await tracePath(new PathReader(view), [ref('dcim.interface', 1)]);
  t.like(path, { isComplete: false, isSplit: true });
  t.deepEqual(destinations(path), []);
});

test('a circuit in the middle: through its A termination to the Z side, on to the far interface; a Z side at a provider network ends the path there', async (t) => {
  const objects = {
    'dcim.interface': [iface(1, 1), iface(2, 2, 'B')],
    'circuits.circuittermination': [
      { id: 1, circuit: 7, term_side: 'A', site: 1, provider_network: null, cable: 1, cable_end: 'B' },
      { id: 2, circuit: 7, term_side: 'Z', site: 2, provider_network: null, cable: 2, cable_end: 'A' },
    ],
    'dcim.cable': [
      cable(1, [ref('dcim.interface', 1)], [ref('circuits.circuittermination', 1)]),
      cable(2, [ref('circuits.circuittermination', 2)], [ref('dcim.interface', 2)]),
    ],
  } as Record<string, StoredObject[]>;
  const through = await pathFrom(new PathReader(viewOf(objects)), 'dcim.interface', iface(1, 1));
  t.deepEqual(destinations(through), [ref('dcim.interface', 2)]);
  t.is(through!.path.length, 6);

  objects['circuits.circuittermination'][1] = {
    id: 2,
    circuit: 7,
    term_side: 'Z',
    site: null,
    provider_network: 3,
    cable: null,
    cable_end: '',
  };
  const cloud = await pathFrom(new PathReader(viewOf(objects)), 'dcim.interface', iface(1, 1));
  t.deepEqual(destinations(cloud), [ref('circuits.providernetwork', 3)]);
  t.true(cloud!.isComplete);

  objects['circuits.circuittermination'][1] = {
    id: 2,
    circuit: 7,
    term_side: 'Z',
    site: 2,
    provider_network: null,
    cable: null,
    cable_end: '',
  };
  const site = await pathFrom(new PathReader(viewOf(objects)), 'dcim.interface', iface(1, 1));
  t.deepEqual(site!.path.at(-1), [ref('dcim.site', 2)]);
  t.false(site!.isComplete);
});

test('each object is read once per trace, however often the path passes it', async (t) => {
  const view = trunk();
  const reader = new PathReader(view);
  await pathFrom(reader, 'dcim.interface', iface(1, 1));
  const first = view.reads;
  await pathFrom(reader, 'dcim.interface', iface(1, 1));
  t.true(view.reads - first <= 2, `only the front port lookups repeat (${view.reads - first})`);
});
