import test from 'ava';

import { AuditIndex } from '../../src/audit/AuditIndex.js';
import { ALL_FIELDS, fieldBit } from '../../src/audit/fieldMarks.js';
import { decodeAuditState, encodeAuditState } from '../../src/audit/indexSnapshot.js';
import { objectsByLastUpdated } from '../../src/audit/lastUpdatedOrder.js';
import { formatMicros, writtenTimeMicros } from '../../src/audit/time.js';
import type { ChangeEvent } from '../../src/events/ChangeEvent.js';
import { registry } from '../../src/models/registry.js';
import { makeEvent } from '../support/makeEvent.js';

/** An update of site `id` at `position`, from `before` with `fields` changed, at `time`. */
function update(position: number, before: ChangeEvent, time: string, fields: Record<string, unknown>): ChangeEvent {
  return {
    ...makeEvent(position, { objectId: before.objectId }),
    time,
    action: 'update',
    prechange: before.postchange,
    postchange: { ...before.postchange, ...fields },
  };
}

test('a time written as events write it reads back to the same text; any other form is not known', (t) => {
  for (const text of ['2026-12-03T07:15:02.123456Z', '1999-01-01T00:00:00.000001Z', '2024-02-29T23:59:59.999999Z'])
    t.is(formatMicros(writtenTimeMicros(text)), text);
  for (const other of ['2026-12-03T07:15:02.123Z', '2026-12-03 07:15:02.123456Z', '2026-12-03T07:15:02.123456+00:00'])
    t.true(Number.isNaN(writtenTimeMicros(other)), other);
  t.true(Number.isNaN(writtenTimeMicros('2023-02-30T00:00:00.000000Z')), 'no such day');
  t.true(Number.isNaN(writtenTimeMicros(null)));
});

test('given events, the index keeps each version’s last_updated: its time, or the one it carries, or none', (t) => {
  const index = new AuditIndex(registry);
  const created = { ...makeEvent(1), time: '2026-12-01T10:00:00.000001Z' };
  created.postchange = { ...created.postchange, last_updated: created.time };
  const stamped = update(2, created, '2026-12-01T11:00:00.000002Z', { last_updated: '2026-12-01T11:00:00.000002Z' });
  // Imported history: NetBox stamps last_updated a little before the change's own time.
  const imported = update(3, stamped, '2026-12-01T12:00:00.500000Z', { last_updated: '2026-12-01T12:00:00.499000Z' });
  const odd = update(4, imported, '2026-12-01T13:00:00.000000Z', { last_updated: '2026-12-01 13:00' });
  const deleted = { ...makeEvent(5, { objectId: 1 }), action: 'delete' as const, prechange: odd.postchange };
  deleted.postchange = null;
  index.add([created, stamped, imported, odd, deleted]);
  const stamps = (i: AuditIndex) => [1, 2, 3, 4, 5].map((p) => i.stamps.text(p));
  const expected = [created.time, stamped.time, '2026-12-01T12:00:00.499000Z', undefined, undefined];
  t.deepEqual(stamps(index), expected);
  t.false(index.stamps.ordered, 'one not known: lists ordered by it are not read off positions');

  const image = index.capture();
  const again = new AuditIndex(registry);
  again.load(decodeAuditState(Buffer.concat([...encodeAuditState({ index: image, idempotency: [] })])).index);
  t.deepEqual(stamps(again), expected, 'a snapshot keeps them');

  delete image.columns.lastUpdated;
  const older = new AuditIndex(registry);
  older.load(decodeAuditState(Buffer.concat([...encodeAuditState({ index: image, idempotency: [] })]), 2).index);
  t.deepEqual(stamps(older), [undefined, undefined, undefined, undefined, undefined], 'format 2: none known');
});

test('given an object’s changes, the index tells the fields main moved in a range; a create or delete all', (t) => {
  const index = new AuditIndex(registry);
  const created = makeEvent(1);
  const described = update(2, created, created.time, { description: 'new' });
  const renamed = update(3, described, created.time, { name: 'zulu' });
  index.add([created, described, renamed]);
  index.add([{ ...update(4, renamed, created.time, { description: 'branch' }), branch: 'b1' } as ChangeEvent]);
  t.is(index.marksOnMain('dcim.site', 1, 0, 3), ALL_FIELDS);
  t.is(index.marksOnMain('dcim.site', 1, 1, 2), fieldBit('description'));
  t.truthy(index.marksOnMain('dcim.site', 1, 1, 3) & fieldBit('name'));
  t.is(index.marksOnMain('dcim.site', 1, 3, 4), 0, 'a change inside a branch is none of main’s');
  t.is(index.marksOnMain('dcim.site', 2, 0, 4), 0, 'never changed');
});

test('given changes, objects come in the order of their last_updated at a position, each once, deleted ones not, late ones in their place', (t) => {
  const index = new AuditIndex(registry);
  const at = (n: number) => `2026-12-01T10:00:00.00000${n}Z`;
  const made = (position: number, id: number): ChangeEvent => {
    const event = makeEvent(position, { objectId: id, time: at(position) });
    return { ...event, postchange: { ...event.postchange, id, last_updated: at(position) } };
  };
  const one = made(1, 1);
  const two = made(2, 2);
  const three = made(3, 3);
  index.add([one, two, three]);
  index.add([update(4, one, at(4), { last_updated: at(4) })]);
  index.add([{ ...makeEvent(5, { objectId: 2 }), action: 'delete', prechange: two.postchange, postchange: null }]);
  index.add([{ ...update(6, three, at(6), { last_updated: at(6) }), branch: 'b1' } as ChangeEvent]);
  const ids = (position: number, direction: 1 | -1) =>
    [...objectsByLastUpdated(index, 'dcim.site', position, direction)].map((o) => o.id);
  t.true(index.stamps.ordered);
  t.deepEqual(ids(3, -1), [3, 2, 1]);
  t.deepEqual(ids(3, 1), [1, 2, 3]);
  t.deepEqual(ids(4, -1), [1, 3, 2], 'site 1 changed last');
  t.deepEqual(ids(4, 1), [2, 3, 1]);
  t.deepEqual(ids(6, -1), [1, 3], 'site 2 deleted; a change inside a branch is none of main’s');
  t.deepEqual(ids(6, 1), [3, 1]);
  t.deepEqual(
    [...objectsByLastUpdated(index, 'dcim.site', 4, -1)].map((o) => o.stamp),
    [4, 3, 2].map((n) => writtenTimeMicros(at(n))),
  );
  t.deepEqual([...objectsByLastUpdated(index, 'dcim.rack', 6, 1)], [], 'no racks');

  const image = index.capture();
  const again = new AuditIndex(registry);
  again.load(decodeAuditState(Buffer.concat([...encodeAuditState({ index: image, idempotency: [] })])).index);
  t.true(again.stamps.ordered, 'a snapshot keeps the order known');
  // Below earlier ones (a branch's create merged later keeps its time in the branch): listed apart as late.
  again.add([update(7, one, at(7), { last_updated: at(1) })]);
  const merged = made(8, 9);
  again.add([{ ...merged, postchange: { ...merged.postchange, last_updated: at(2) } }]);
  t.true(again.stamps.ordered);
  t.deepEqual([...again.stamps.late], [7, 8]);
  const byStamp = (i: AuditIndex, position: number, direction: 1 | -1) =>
    [...objectsByLastUpdated(i, 'dcim.site', position, direction)].map((o) => o.id);
  t.deepEqual(byStamp(again, 8, -1), [3, 9, 1]);
  t.deepEqual(byStamp(again, 8, 1), [1, 9, 3]);
  t.deepEqual(byStamp(again, 7, -1), [3, 1], 'the late ones after the position are not there yet');
  const reloaded = new AuditIndex(registry);
  reloaded.load(
    decodeAuditState(Buffer.concat([...encodeAuditState({ index: again.capture(), idempotency: [] })])).index,
  );
  t.deepEqual(byStamp(reloaded, 8, -1), [3, 9, 1], 'a snapshot keeps the late ones');
  delete image.columns.lastUpdated;
  const older = new AuditIndex(registry);
  older.load(decodeAuditState(Buffer.concat([...encodeAuditState({ index: image, idempotency: [] })]), 2).index);
  t.false(older.stamps.ordered, 'format 2: not known');
});
