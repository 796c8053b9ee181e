import test from 'ava';
import { Overlay } from '../../src/commands/StagedView.js';
import { WriteTransaction } from '../../src/commands/WriteCoordinator.js';
import { registry } from '../../src/models/registry.js';
import { evolve } from '../../src/projections/evolve.js';
import { MemoryReadStore } from '../../src/projections/memory/MemoryReadStore.js';

const clock = { now: () => '2024-01-01T00:00:00.000000Z' };

test('write transaction: a recorded change is evolved once; the staged view, the response and the settling share that document', async (t) => {
  const tx = new WriteTransaction(registry, { requestId: 'r1', user: null }, 7, new Map(), new MemoryReadStore(), new Overlay(), clock);
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
