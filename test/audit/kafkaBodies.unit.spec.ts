import test from 'ava';

import { EventBodyCache } from '../../src/events/kafka/EventBodyCache.js';
import { PositionOffsets } from '../../src/events/kafka/PositionOffsets.js';
import { makeEvent } from '../support/makeEvent.js';

/** The broker-free parts of KafkaEventLog.readPositions (the rest runs in kafkaAudit.int.spec.ts with a broker). */

test('position → offset table: learned in any order; `last` is where every position before is known', (t) => {
  const table = new PositionOffsets();
  t.false(table.has(1));
  table.record(2, 5); // ahead of the known part (a subscription that seeked): kept, `last` waits for 1
  t.true(table.has(2));
  t.is(table.last, 0);
  table.record(4000, 8001);
  t.is(table.last, 0);
  table.record(0, 1);
  table.record(-3, 1);
  table.record(1.5, 1);
  t.false(table.has(0));
  for (let p = 1; p <= 5000; p++) table.record(p, p * 2 + 1); // commit markers take offsets too
  table.record(3, 999); // already known: unchanged
  t.is(table.last, 5000);
  t.is(table.get(1), 3);
  t.is(table.get(3), 7);
  t.is(table.get(5000), 10001);
  t.false(table.has(0));
  t.false(table.has(5001));
  t.throws(() => table.get(5001), { instanceOf: RangeError });
  t.true(table.byteLength >= 5001 * 8);
});

test('body cache: bounded by bytes, least recently used dropped first, every get a fresh copy', (t) => {
  const bodies = [1, 2, 3, 4].map((p) => Buffer.from(JSON.stringify(makeEvent(p))));
  const size = bodies[0]!.length;
  const cache = new EventBodyCache(size * 3 + 10);
  bodies.slice(0, 3).forEach((b, i) => cache.put(i + 1, b));
  t.is(cache.get(1)?.position, 1); // 1 is now the most recently used
  cache.put(4, bodies[3]!);
  t.is(cache.get(2), undefined, 'the least recently used went');
  t.deepEqual(
    [1, 3, 4].map((p) => cache.get(p)?.position),
    [1, 3, 4],
  );
  t.true(cache.byteLength <= size * 3 + 10);

  const copy = cache.get(3)!;
  copy.objectRepr = 'changed by a caller';
  t.is(cache.get(3)!.objectRepr, 'site-3');
  const shared = Buffer.from(bodies[0]!);
  cache.put(9, shared);
  shared.fill(0);
  t.is(cache.get(9)?.position, 1, 'the cache keeps its own bytes');
  const none = new EventBodyCache(0);
  none.put(1, bodies[0]!);
  t.is(none.get(1), undefined, 'a zero-byte cache keeps nothing');
});
