import test from 'ava';

import { ValidationError } from '../../src/errors/requestErrors.js';
import { create, deciderSpec, patch, remove, type WriteCommand } from '../support/deciderSpec.js';

/** Site 1; device 1 "sw"; interfaces 1 "e0", 2 "e1", 3 "e2" and 4 "lag0" (LAG); console port 1; device 2 "other" with interface 5 "x0". */
const switchPorts: WriteCommand[] = [
  create('dcim.site', { name: 'DC-1', slug: 'dc-1' }),
  create('dcim.manufacturer', { name: 'Acme', slug: 'acme' }),
  create('dcim.devicetype', { manufacturer: 1, model: 'S', slug: 's' }),
  create('dcim.devicerole', { name: 'Switch', slug: 'switch' }),
  create('dcim.device', { name: 'sw', device_type: 1, device_role: 1, site: 1 }),
  create('dcim.interface', { device: 1, name: 'e0', type: '1000base-t' }),
  create('dcim.interface', { device: 1, name: 'e1', type: '1000base-t' }),
  create('dcim.interface', { device: 1, name: 'e2', type: '1000base-t' }),
  create('dcim.interface', { device: 1, name: 'lag0', type: 'lag' }),
  create('dcim.consoleport', { device: 1, name: 'con' }),
  create('dcim.device', { name: 'other', device_type: 1, device_role: 1, site: 1 }),
  create('dcim.interface', { device: 2, name: 'x0', type: '1000base-t' }),
];

const i = (id: number) => ({ object_type: 'dcim.interface', object_id: id });

/** switchPorts plus cable 1 from e0 (A) to e1 (B). */
const cabled: WriteCommand[] = [
  ...switchPorts,
  create('dcim.cable', { a_terminations: [i(1)], b_terminations: [i(2)] }),
];

test('cable create: the cable, a termination per end, each end told its cable and end, one request', async (t) => {
  const events = await deciderSpec(t)
    .given(switchPorts)
    .when(create('dcim.cable', { a_terminations: [i(1)], b_terminations: [i(2)], label: 'c1' }))
    .then([
      {
        action: 'create',
        objectType: 'dcim.cable',
        objectId: 1,
        postchange: { label: 'c1', a_terminations: [i(1)], b_terminations: [i(2)] },
      },
      {
        action: 'create',
        objectType: 'dcim.cabletermination',
        objectId: 1,
        postchange: { cable: 1, cable_end: 'A', termination_type: 'dcim.interface', termination_id: 1 },
      },
      { action: 'update', objectType: 'dcim.interface', objectId: 1, postchange: { cable: 1, cable_end: 'A' } },
      {
        action: 'create',
        objectType: 'dcim.cabletermination',
        objectId: 2,
        postchange: { cable: 1, cable_end: 'B', termination_id: 2 },
      },
      { action: 'update', objectType: 'dcim.interface', objectId: 2, postchange: { cable: 1, cable_end: 'B' } },
    ]);
  t.is(new Set(events.map((e) => e.requestId)).size, 1);
  // the end's own last_updated is the interface's, as NetBox leaves it
  t.is(events[2].postchange!.last_updated, events[2].prechange!.last_updated);
});

test('cable re-terminated: the old end is released, the new one taken', async (t) => {
  await deciderSpec(t)
    .given(cabled)
    .when(patch('dcim.cable', 1, { b_terminations: [i(3)] }))
    .then([
      { action: 'update', objectType: 'dcim.cable', objectId: 1, postchange: { b_terminations: [i(3)] } },
      { action: 'delete', objectType: 'dcim.cabletermination', objectId: 2 },
      { action: 'update', objectType: 'dcim.interface', objectId: 2, postchange: { cable: null, cable_end: '' } },
      {
        action: 'create',
        objectType: 'dcim.cabletermination',
        objectId: 3,
        postchange: { cable: 1, cable_end: 'B', termination_id: 3 },
      },
      { action: 'update', objectType: 'dcim.interface', objectId: 3, postchange: { cable: 1, cable_end: 'B' } },
    ]);
});

test('cable changed without touching its ends: the cable alone', async (t) => {
  await deciderSpec(t)
    .given(cabled)
    .when(patch('dcim.cable', 1, { status: 'planned', length: 5, length_unit: 'm' }))
    .then([
      {
        action: 'update',
        objectType: 'dcim.cable',
        objectId: 1,
        postchange: { status: 'planned', length: 5, length_unit: 'm' },
      },
    ]);
});

test('cable deleted: its terminations go and its ends are cleared, cable and end together', async (t) => {
  await deciderSpec(t)
    .given(cabled)
    .when(remove('dcim.cable', 1))
    .then((events) => {
      const ends = events.filter((e) => e.objectType === 'dcim.interface');
      t.deepEqual(
        ends.map((e) => [e.objectId, e.postchange!.cable, e.postchange!.cable_end]),
        [
          [1, null, ''],
          [2, null, ''],
        ],
      );
      t.deepEqual(
        events
          .filter((e) => e.action === 'delete')
          .map((e) => e.objectType)
          .sort(),
        ['dcim.cable', 'dcim.cabletermination', 'dcim.cabletermination'],
      );
    });
});

test("cable rules: NetBox's messages, nothing recorded", async (t) => {
  const refused = (input: unknown, message: string, given = switchPorts) =>
    deciderSpec(t)
      .given(given)
      .when(create('dcim.cable', input))
      .thenThrows(ValidationError, { __all__: [message] });
  await refused(
    { a_terminations: [i(1)], b_terminations: [] },
    'Must define A and B terminations when creating a new cable.',
  );
  await refused(
    { a_terminations: [i(1)], b_terminations: [i(2)], length: 1 },
    'Must specify a unit when setting a cable length',
  );
  await refused(
    { a_terminations: [i(1), { object_type: 'dcim.consoleport', object_id: 1 }], b_terminations: [i(2)] },
    'Cannot connect different termination types to same end of cable.',
  );
  await refused(
    { a_terminations: [i(1)], b_terminations: [{ object_type: 'dcim.consoleport', object_id: 1 }] },
    'Incompatible termination types: interface and consoleport',
  );
  await refused(
    { a_terminations: [i(1)], b_terminations: [i(4)] },
    'Cables cannot be terminated to Link Aggregation Group (LAG) interfaces',
  );
  await refused(
    { a_terminations: [i(3)], b_terminations: [i(2)] },
    'Duplicate termination found for dcim.interface 2: cable 1',
    cabled,
  );
  await refused(
    { a_terminations: [i(3)], b_terminations: [i(3)] },
    'Duplicate termination found for dcim.interface 3: cable 1',
  );
  await refused(
    { a_terminations: [i(1), i(5)], b_terminations: [i(2)] },
    'All terminations on one end of a cable must belong to the same parent object.',
  );
});

test('a cabled interface: not marked connected, not made virtual', async (t) => {
  await deciderSpec(t)
    .given(cabled)
    .when(patch('dcim.interface', 1, { mark_connected: true }))
    .thenThrows(ValidationError, { mark_connected: ['Cannot mark as connected with a cable attached.'] });
  await deciderSpec(t)
    .given(cabled)
    .when(patch('dcim.interface', 1, { type: 'virtual' }))
    .thenThrows(ValidationError, { type: ['Virtual interfaces cannot have a cable attached.'] });
});

test('an interface edited after cabling keeps its cable', async (t) => {
  await deciderSpec(t)
    .given(cabled)
    .when(patch('dcim.interface', 1, { description: 'uplink' }))
    .then([
      {
        action: 'update',
        objectType: 'dcim.interface',
        objectId: 1,
        postchange: { description: 'uplink', cable: 1, cable_end: 'A' },
      },
    ]);
});
