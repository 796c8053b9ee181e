import test from 'ava';

import { ConflictError, ValidationError } from '../../src/errors/requestErrors.js';
import { terminationsOnSide } from '../../src/models/circuits/terminationFields.js';
import type { LookupView } from '../../src/models/lookupView.js';
import type { StoredObject } from '../../src/models/storedObject.js';
import { create, deciderSpec, patch, remove } from '../support/deciderSpec.js';

/** Site 1 "DC-1"; provider 1; circuit type 1; provider network 1 "MPLS"; circuit 1 "CID-1". */
const circuit = [
  create('dcim.site', { name: 'DC-1', slug: 'dc-1' }),
  create('circuits.provider', { name: 'Zayo', slug: 'zayo' }),
  create('circuits.circuittype', { name: 'Transit', slug: 'transit' }),
  create('circuits.providernetwork', { provider: 1, name: 'MPLS' }),
  create('circuits.circuit', { cid: 'CID-1', provider: 1, type: 1 }),
];

test('circuit termination: shown as "<cid>: Termination <side>", with its defaults', async (t) => {
  await deciderSpec(t)
    .given(circuit)
    .when(create('circuits.circuittermination', { circuit: 1, term_side: 'A', site: 1, port_speed: 10000 }))
    .then([
      {
        action: 'create',
        objectType: 'circuits.circuittermination',
        objectId: 1,
        objectRepr: 'CID-1: Termination A',
        postchange: {
          circuit: 1,
          term_side: 'A',
          site: 1,
          provider_network: null,
          port_speed: 10000,
          upstream_speed: null,
          xconnect_id: '',
          pp_info: '',
          description: '',
          mark_connected: false,
        },
      },
      { action: 'update', objectType: 'circuits.circuit', objectId: 1 },
    ]);
});

test('circuit termination: must attach to a site or a provider network', async (t) => {
  await deciderSpec(t)
    .given(circuit)
    .when(create('circuits.circuittermination', { circuit: 1, term_side: 'A' }))
    .thenThrows(ValidationError, {
      __all__: ['A circuit termination must attach to either a site or a provider network.'],
    });
});

test('circuit termination: cannot attach to both a site and a provider network', async (t) => {
  await deciderSpec(t)
    .given(circuit)
    .when(create('circuits.circuittermination', { circuit: 1, term_side: 'A', site: 1, provider_network: 1 }))
    .thenThrows(ValidationError, {
      __all__: ['A circuit termination cannot attach to both a site and a provider network.'],
    });
});

test('circuit termination: a patch that takes the site away without a provider network is refused', async (t) => {
  await deciderSpec(t)
    .given([...circuit, create('circuits.circuittermination', { circuit: 1, term_side: 'A', site: 1 })])
    .when(patch('circuits.circuittermination', 1, { site: null }))
    .thenThrows(ValidationError, {
      __all__: ['A circuit termination must attach to either a site or a provider network.'],
    });
});

test('circuit termination: a patch moving it from the site to a provider network is accepted', async (t) => {
  await deciderSpec(t)
    .given([...circuit, create('circuits.circuittermination', { circuit: 1, term_side: 'A', site: 1 })])
    .when(patch('circuits.circuittermination', 1, { site: null, provider_network: 1 }))
    .then([
      {
        action: 'update',
        objectType: 'circuits.circuittermination',
        objectId: 1,
        postchange: { site: null, provider_network: 1 },
      },
      { action: 'update', objectType: 'circuits.circuit', objectId: 1 },
    ]);
});

test('circuit termination: one termination per side of a circuit, with NetBox message', async (t) => {
  await deciderSpec(t)
    .given([...circuit, create('circuits.circuittermination', { circuit: 1, term_side: 'A', site: 1 })])
    .when(create('circuits.circuittermination', { circuit: 1, term_side: 'A', provider_network: 1 }))
    .thenThrows(ValidationError, {
      __all__: ['Circuit termination with this Circuit and Termination already exists.'],
    });
});

test('circuit termination: the other side of the same circuit is accepted', async (t) => {
  await deciderSpec(t)
    .given([...circuit, create('circuits.circuittermination', { circuit: 1, term_side: 'A', site: 1 })])
    .when(create('circuits.circuittermination', { circuit: 1, term_side: 'Z', provider_network: 1 }))
    .then([
      { action: 'create', objectType: 'circuits.circuittermination', objectId: 2, objectRepr: 'CID-1: Termination Z' },
      { action: 'update', objectType: 'circuits.circuit', objectId: 1 },
    ]);
});

test('circuit termination: the side is A or Z (a plain choice field: the value quoted)', async (t) => {
  await deciderSpec(t)
    .given(circuit)
    .when(create('circuits.circuittermination', { circuit: 1, term_side: 'B', site: 1 }))
    .thenThrows(ValidationError, { term_side: ['"B" is not a valid choice.'] });
});

test('circuit termination: the side may be neither blank nor null', async (t) => {
  await deciderSpec(t)
    .given(circuit)
    .when(create('circuits.circuittermination', { circuit: 1, term_side: '', site: 1 }))
    .thenThrows(ValidationError, { term_side: ['"" is not a valid choice.'] });
  await deciderSpec(t)
    .given(circuit)
    .when(create('circuits.circuittermination', { circuit: 1, term_side: null, site: 1 }))
    .thenThrows(ValidationError, { term_side: ['This field may not be null.'] });
});

test('circuit termination: speeds are positive integers', async (t) => {
  await deciderSpec(t)
    .given(circuit)
    .when(create('circuits.circuittermination', { circuit: 1, term_side: 'A', site: 1, upstream_speed: -1 }))
    .thenThrows(ValidationError, { upstream_speed: ['Ensure this value is greater than or equal to 0.'] });
});

test('circuit termination: saving one saves its circuit in the same request (last_updated moves), as NetBox does', async (t) => {
  await deciderSpec(t)
    .given([
      ...circuit,
      create('circuits.circuit', { cid: 'CID-2', provider: 1, type: 1 }),
      create('circuits.circuittermination', { circuit: 1, term_side: 'A', site: 1 }),
    ])
    .when(patch('circuits.circuittermination', 1, { circuit: 2 }))
    .then((events) => {
      t.deepEqual(
        events.map((e) => `${e.action} ${e.objectType} ${e.objectId}`),
        ['update circuits.circuittermination 1', 'update circuits.circuit 2'],
      );
      t.not(events[1]!.prechange!.last_updated, events[1]!.postchange!.last_updated);
      t.is(events[1]!.requestId, events[0]!.requestId);
    });
});

test('circuit termination: deleting one leaves its circuit unsaved', async (t) => {
  await deciderSpec(t)
    .given([...circuit, create('circuits.circuittermination', { circuit: 1, term_side: 'A', site: 1 })])
    .when(remove('circuits.circuittermination', 1))
    .then([{ action: 'delete', objectType: 'circuits.circuittermination', objectId: 1 }]);
});

test('circuit termination: deleting the circuit deletes its terminations first', async (t) => {
  await deciderSpec(t)
    .given([
      ...circuit,
      create('circuits.circuittermination', { circuit: 1, term_side: 'A', site: 1 }),
      create('circuits.circuittermination', { circuit: 1, term_side: 'Z', provider_network: 1 }),
    ])
    .when(remove('circuits.circuit', 1))
    .then((events) => {
      const deleted = events.map((e) => `${e.action} ${e.objectType} ${e.objectId}`);
      t.deepEqual(deleted.slice(0, 2).sort(), [
        'delete circuits.circuittermination 1',
        'delete circuits.circuittermination 2',
      ]);
      t.is(deleted[2], 'delete circuits.circuit 1');
      t.is(deleted.length, 3);
    });
});

test('circuit termination: a site where a circuit terminates cannot be deleted', async (t) => {
  await deciderSpec(t)
    .given([...circuit, create('circuits.circuittermination', { circuit: 1, term_side: 'A', site: 1 })])
    .when(remove('dcim.site', 1))
    .thenThrows(ConflictError, 'Unable to delete object. 1 dependent objects were found: CID-1: Termination A (1)');
});

test("a circuit's terminations on one side are found with one query for the whole page", async (t) => {
  const terminations: StoredObject[] = [
    { id: 11, circuit: 1, term_side: 'A' },
    { id: 12, circuit: 1, term_side: 'Z' },
    { id: 13, circuit: 3, term_side: 'A' },
  ];
  const queries: Array<Record<string, unknown>> = [];
  const view: LookupView = {
    get: async () => null,
    find: async (model, query) => {
      queries.push(query);
      const { circuit, term_side } = query as { circuit: { $in: number[] }; term_side: string };
      return model === 'circuits.circuittermination'
        ? terminations.filter((x) => circuit.$in.includes(x.circuit as number) && x.term_side === term_side)
        : [];
    },
  };
  const circuits: StoredObject[] = [{ id: 1 }, { id: 2 }, { id: 3 }];
  t.deepEqual(await terminationsOnSide('A', circuits, view), [
    { object_type: 'circuits.circuittermination', object_id: 11 },
    null,
    { object_type: 'circuits.circuittermination', object_id: 13 },
  ]);
  t.is(queries.length, 1, 'one query for three circuits');
  t.deepEqual(await terminationsOnSide('Z', [], view), [], 'an empty page asks nothing');
  t.is(queries.length, 1);
});
