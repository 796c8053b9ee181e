import test from 'ava';

import { registry } from '../../src/models/registry.js';
import { MemoryReadStore } from '../../src/projections/memory/MemoryReadStore.js';
import { Projector } from '../../src/projections/Projector.js';
import type { DocumentChange } from '../../src/projections/ReadStore.js';
import { objectCreated } from '../support/deciderSpec.js';
import { MemoryEventLog } from '../support/MemoryEventLog.js';

/** A store that applies at once, so that any turn the event loop gets is the projector's. */
class ApplyingAtOnce extends MemoryReadStore {
  applied: DocumentChange[] = [];
  override async apply(changes: DocumentChange[], position: number): Promise<void> {
    this.applied.push(...changes);
    await super.apply([], position);
  }
}

test("a large batch's events are evolved a slice of the event loop at a time, and all applied", async (t) => {
  const log = new MemoryEventLog();
  await log.open();
  const store = new ApplyingAtOnce();
  const projector = new Projector(log, store, registry);
  await projector.start();
  // Enough events that evolving them outlasts one slice (SLICE_MS) by far: 5,000 took less than one once evolve got cheaper.
  const n = 20_000;
  const events = Array.from({ length: n }, (_, i) => ({
    ...objectCreated('dcim.site', i + 1, { name: `site ${i}`, slug: `site-${i}`, status: 'active' }),
    position: i + 1,
  }));
  let turns = 0;
  let counting = true;
  const tick = () => {
    if (!counting) return;
    turns++;
    setImmediate(tick);
  };
  await log.append(events);
  setImmediate(tick);
  await projector.waitFor(n);
  counting = false;
  t.true(turns >= 2, `the event loop had ${turns} turns while the batch was evolved`);
  t.is(store.applied.length, n);
  await projector.stop();
});
