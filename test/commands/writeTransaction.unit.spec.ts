import test from 'ava';

import { Overlay } from '../../src/commands/StagedView.js';
import { WriteTransaction } from '../../src/commands/WriteCoordinator.js';
import { registry } from '../../src/models/registry.js';
import { evolve } from '../../src/projections/evolve.js';
import { MemoryReadStore } from '../../src/projections/memory/MemoryReadStore.js';

const clock = { now: () => '2024-01-01T00:00:00.000000Z' };

test('write transaction: a recorded change is evolved once; the staged view, the response and the settling share that document', async (t) => {
  const tx = new WriteTransaction(
    registry,
    { requestId: 'r1', user: null },
    7,
    new Map(),
    new MemoryReadStore(),
    new Overlay(),
    clock,
  );
  const event = tx.record({
    action: 'create',
    objectType: 'ipam.ipaddress',
    objectId: 1,
    objectRepr: '10.0.0.1/24',
    prechange: null,
    postchange: { id: 1, address: '10.0.0.1/24', vrf: null, status: 'active' },
  });
  const staged: unknown = await tx.view.get('ipam.ipaddress', 1);
  t.is<unknown, unknown>(tx.documentOf(event), staged);
  t.is<unknown, unknown>(tx.changeOf(event).doc, staged);
  // ... and it is what the projector will make of the event.
  t.deepEqual(tx.changeOf(event), evolve(registry, event));
  t.is(tx.changeOf(event).position, 7);
});

test('write transaction: a claimed id moves later allocations past it, a lower one leaves them be; no id below 1', (t) => {
  const tx = new WriteTransaction(
    registry,
    { requestId: 'r1', user: null },
    1,
    new Map([['dcim.site', 5]]),
    new MemoryReadStore(),
    new Overlay(),
    clock,
  );
  t.is(tx.claimId('dcim.site', 3), 3);
  t.is(tx.allocateId('dcim.site'), 5);
  t.is(tx.claimId('dcim.site', 40), 40);
  t.is(tx.allocateId('dcim.site'), 41);
  t.is(tx.claimId('dcim.region', 2), 2);
  t.deepEqual(Object.fromEntries(tx.allocations), { 'dcim.site': 42, 'dcim.region': 3 });
  t.throws(() => tx.claimId('dcim.site', 0), { instanceOf: RangeError });
});

test("write transaction: a past change keeps its own time, request and user; the others take the request's", (t) => {
  const user = { id: 1, username: 'admin' };
  const tx = new WriteTransaction(
    registry,
    { requestId: 'r1', user },
    1,
    new Map(),
    new MemoryReadStore(),
    new Overlay(),
    clock,
  );
  const change = {
    action: 'create' as const,
    objectType: 'dcim.region',
    objectId: 1,
    objectRepr: 'EU',
    prechange: null,
    postchange: { id: 1, name: 'EU', slug: 'eu' },
  };
  const past = tx.record({ ...change, past: { time: '2020-01-01T00:00:00.000000Z', requestId: 'old', user: null } });
  const now = tx.record({ ...change, objectId: 2 });
  t.like(past, { time: '2020-01-01T00:00:00.000000Z', requestId: 'old', user: null });
  t.like(now, { time: '2024-01-01T00:00:00.000000Z', requestId: 'r1', user });
});
