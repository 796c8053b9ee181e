import { randomUUID } from 'node:crypto';

import test from 'ava';

import type { ChangeEvent } from '../../src/events/ChangeEvent.js';
import { assertValidEvents } from '../../src/events/validateEvents.js';
import { makeEvent } from '../support/makeEvent.js';

/** A request's batch as the writer builds it: every event shares the request's id, time and user (the same object). */
function batch(size: number): ChangeEvent[] {
  const first = makeEvent(1);
  return Array.from({ length: size }, (_, i) =>
    i === 0 ? first : makeEvent(i + 1, { requestId: first.requestId, time: first.time, user: first.user }),
  );
}

test("a request's batch validates; each event's own fields are still checked after the first", (t) => {
  t.notThrows(() => assertValidEvents(batch(3)));
  const events = batch(3);
  events[2] = { ...events[2]!, objectType: 'Not A Type' };
  t.throws(() => assertValidEvents(events), { message: /objectType/ });
  const unsafe = batch(2);
  unsafe[1] = { ...unsafe[1]!, related: { type: 'dcim.device' } as never };
  t.throws(() => assertValidEvents(unsafe), { message: /related/ });
});

test("request fields that are not the earlier event's very values are validated whole", (t) => {
  const other = batch(2);
  other[1] = { ...other[1]!, requestId: 'not-a-uuid' };
  t.throws(() => assertValidEvents(other), { message: /requestId/ });
  const late = batch(2);
  late[1] = { ...late[1]!, time: 'yesterday' };
  t.throws(() => assertValidEvents(late), { message: /time/ });
  // An equal-looking but distinct user object (a batch parsed from the log) is checked too.
  const parsed = batch(2);
  parsed[1] = { ...parsed[1]!, user: { id: 'one', username: 'admin' } as never };
  t.throws(() => assertValidEvents(parsed), { message: /user/ });
  const keyed = batch(2);
  keyed[1] = { ...keyed[1]!, idempotency: { key: 'k'.repeat(256), fingerprint: '0'.repeat(64) } };
  t.throws(() => assertValidEvents(keyed), { message: /idempotency/ });
  t.notThrows(() => assertValidEvents([makeEvent(1), makeEvent(2, { requestId: randomUUID() })]));
});
