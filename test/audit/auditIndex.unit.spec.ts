import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import test from 'ava';

import { AuditIndex } from '../../src/audit/AuditIndex.js';
import { AuditLog } from '../../src/audit/AuditLog.js';
import { compileChangeFilter, selectChanges, type UserLookup } from '../../src/audit/changeQuery.js';
import { formatMicros, parseTimeMicros } from '../../src/audit/time.js';
import type { ChangeEvent } from '../../src/events/ChangeEvent.js';
import { FileEventLog } from '../../src/events/file/FileEventLog.js';
import { ContentTypes } from '../../src/models/contentTypes.js';
import { registry } from '../../src/models/registry.js';
import { makeEvent } from '../support/makeEvent.js';

const T0 = Date.UTC(2024, 0, 1) * 1000;

/** Event at `position` touching site `objectId`, one second per position. */
function event(position: number, overrides: Partial<ChangeEvent> = {}): ChangeEvent {
  return makeEvent(position, {
    objectId: (position % 7) + 1,
    time: formatMicros(T0 + position * 1_000_000),
    ...overrides,
  });
}

const noUsers: UserLookup = {
  idsByUsername: async () => new Map(),
  existingIds: async () => new Set(),
};

test('request, object and time look-ups over indexed batches', (t) => {
  const index = new AuditIndex(registry);
  const requests: string[] = [];
  let position = 1;
  for (let r = 0; r < 50; r++) {
    const requestId = randomUUID();
    requests.push(requestId);
    const size = (r % 4) + 1;
    index.add(
      Array.from({ length: size }, () => event(position++, { requestId, action: r % 3 === 0 ? 'update' : 'create' })),
    );
  }
  t.is(index.head, position - 1);
  let expected = 1;
  requests.forEach((requestId, r) => {
    const size = (r % 4) + 1;
    t.deepEqual(
      index.requestPositions(requestId),
      Array.from({ length: size }, (_, i) => expected + i),
    );
    t.deepEqual(index.requestPositions(requestId.toUpperCase()), index.requestPositions(requestId), 'case-insensitive');
    expected += size;
  });
  t.deepEqual(index.requestPositions(randomUUID()), []);

  const site3 = [];
  for (let p = 1; p <= index.head; p++) if ((p % 7) + 1 === 3) site3.push(p);
  t.deepEqual(index.objectPositions('dcim.site', 3), site3);
  t.is(index.lastPositionOf('dcim.site', 3), site3[site3.length - 1]!);
  t.is(index.objectPositionAt('dcim.site', 3, site3[2]! + 1), site3[2]);
  t.deepEqual(index.objectPositions('dcim.rack', 3), []);

  t.is(index.positionAtTime(T0 + 10 * 1_000_000), 10);
  t.is(index.positionAtTime(T0 + 10 * 1_000_000 - 1), 9);
  t.is(index.positionAtTime(T0), 0);
  t.is(index.firstPositionFrom(T0 + 10 * 1_000_000), 10);
  t.is(index.firstPositionFrom(T0 + 10 * 1_000_000 + 1), 11);
  t.is(index.timeAt(5), T0 + 5_000_000);
  t.is(index.userNameAt(5), 'admin');
  t.is(index.reprAt(5), 'site-5');
});

test('re-delivered events are skipped, a gap is refused, a request may span batches', (t) => {
  const index = new AuditIndex(registry);
  const requestId = randomUUID();
  index.add([event(1, { requestId }), event(2, { requestId })]);
  index.add([event(2, { requestId }), event(3, { requestId })]); // 2 again: skipped
  t.is(index.head, 3);
  t.throws(() => index.add([event(5)]), { message: /expected position 4, got 5/ });
  t.is(index.head, 3);
  index.add([event(4, { requestId })]);
  t.deepEqual(index.requestPositions(requestId), [1, 2, 3, 4]);
});

test('reverts are indexed by the request they undo', (t) => {
  const index = new AuditIndex(registry);
  const original = randomUUID();
  const revert = randomUUID();
  index.add([event(1, { requestId: original })]);
  index.add([event(2, { requestId: revert, revertOf: original, action: 'delete' })]);
  t.deepEqual(index.revertsOf(original), [revert]);
  t.deepEqual(index.revertsOf(revert), []);
});

test('a clock that goes backwards keeps time filters exact', async (t) => {
  const index = new AuditIndex(registry);
  const times = [10, 20, 15, 30, 25, 40];
  times.forEach((s, i) => index.add([event(i + 1, { time: formatMicros(T0 + s * 1_000_000) })]));
  t.false(index.timesOrdered);
  const types = new ContentTypes(registry);
  const query = (q: string) => compileChangeFilter(index, new URLSearchParams(q), noUsers, types);
  const before = selectChanges(index, await query(`time_before=${formatMicros(T0 + 20 * 1_000_000)}`), [], 0, null);
  t.deepEqual(before.positions.sort(), [1, 2, 3]);
  const after = selectChanges(index, await query(`time_after=${formatMicros(T0 + 25 * 1_000_000)}`), [], 0, null);
  t.deepEqual(after.positions.sort(), [4, 5, 6]);
  // as_of semantics: the last position up to which every time is <= T.
  t.is(index.positionAtTime(T0 + 27 * 1_000_000), 3);
});

test('selection: newest first, counts, pagination, ordering by other columns', async (t) => {
  const index = new AuditIndex(registry);
  for (let p = 1; p <= 30; p++) index.add([event(p, { action: p % 2 ? 'create' : 'update', objectId: p })]);
  const types = new ContentTypes(registry);
  const all = selectChanges(index, await compileChangeFilter(index, new URLSearchParams(''), noUsers, types), [], 5, 3);
  t.deepEqual(all, { count: 30, positions: [25, 24, 23] });
  const updates = selectChanges(
    index,
    await compileChangeFilter(index, new URLSearchParams('action=update&id__lte=10'), noUsers, types),
    [],
    0,
    10,
  );
  t.deepEqual(updates, { count: 5, positions: [10, 8, 6, 4, 2] });
  const ordered = selectChanges(
    index,
    await compileChangeFilter(index, new URLSearchParams('id__gte=25'), noUsers, types),
    [
      { name: 'action', desc: false },
      { name: 'id', desc: true },
    ],
    0,
    null,
  );
  t.deepEqual(ordered.positions, [29, 27, 25, 30, 28, 26]);
});

test('time parsing accepts what Django accepts for datetime filters', (t) => {
  t.is(parseTimeMicros('2024-01-01'), T0);
  t.is(parseTimeMicros('2024-01-01T00:00:01Z'), T0 + 1_000_000);
  t.is(parseTimeMicros('2024-01-01 00:00:01.000002'), T0 + 1_000_002);
  t.is(parseTimeMicros('2024-01-01T01:00:00+01:00'), T0);
  t.is(parseTimeMicros('2024-02-30'), null);
  t.is(parseTimeMicros('yesterday'), null);
  t.is(formatMicros(T0 + 1_000_002), '2024-01-01T00:00:01.000002Z');
});

test('AuditLog over a FileEventLog: rebuilt on open, maintained on append, bodies by position', async (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'netledger-audit-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const requestA = randomUUID();
  let log = new FileEventLog({ dir });
  await log.open();
  await log.append([event(1, { requestId: requestA }), event(2, { requestId: requestA })]);
  await log.append([event(3)]);
  await log.close();

  log = new FileEventLog({ dir });
  await log.open();
  const audit = new AuditLog(log, registry);
  await audit.open();
  t.is(audit.head, 3);
  t.deepEqual(audit.index.requestPositions(requestA), [1, 2]);
  t.deepEqual(readdirSync(dir), ['events.log'], 'no copy of the log beside it');

  const requestB = randomUUID();
  await log.append([event(4, { requestId: requestB }), event(5, { requestId: requestB, objectRepr: 'x'.repeat(300) })]);
  await audit.sync();
  t.deepEqual(audit.index.requestPositions(requestB), [4, 5]);
  const [e5, e1, e4] = await audit.events([5, 1, 4]);
  t.is(e5!.position, 5);
  t.is(e1!.requestId, requestA);
  t.is(e4!.requestId, requestB);
  const chunks: ChangeEvent[][] = [];
  for await (const chunk of audit.range(2, 4)) chunks.push(chunk);
  t.deepEqual(
    chunks.flat().map((e) => e.position),
    [2, 3, 4],
  );
  await t.throwsAsync(() => audit.events([6]), { instanceOf: RangeError });

  let notified = 0;
  audit.onChange(() => notified++);
  await log.append([event(6)]);
  await audit.waitFor(6);
  t.is(notified, 1);
  await audit.close();
  await log.close();
});

test('object changes leave out models NetBox does not change-log, on every path', async (t) => {
  const index = new AuditIndex(registry);
  for (let p = 1; p <= 20; p++) index.add([event(p, p % 4 === 0 ? { objectType: 'users.token', objectId: p } : {})]);
  const types = new ContentTypes(registry);
  const compile = (q: string, loggedOnly = true) =>
    compileChangeFilter(index, new URLSearchParams(q), noUsers, types, { loggedOnly });
  const all = selectChanges(index, await compile(''), [], 0, 4);
  t.deepEqual(all, { count: 15, positions: [19, 18, 17, 15] });
  const bounded = selectChanges(index, await compile('id__gte=4&id__lte=12'), [], 1, 2);
  t.deepEqual(bounded, { count: 6, positions: [10, 9] });
  const oldest = selectChanges(index, await compile('id__gt=3'), [{ name: 'id', desc: false }], 0, 3);
  t.deepEqual(oldest.positions, [5, 6, 7]);
  const filtered = selectChanges(index, await compile('action=create'), [], 0, null);
  t.is(filtered.count, 15);
  const everything = selectChanges(index, await compile('', false), [], 0, 1);
  t.deepEqual(everything, { count: 20, positions: [20] });
  t.is(index.loggedCount, 15);
});

test('event bodies by position from the file log itself: across frames, big frames, after reopen, beside appends', async (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'netledger-bodies-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  let log = new FileEventLog({ dir });
  await log.open();
  const events: ChangeEvent[] = [];
  for (let p = 1; p <= 3000; p++) {
    const big = p === 1500 ? 'é'.repeat(3_000_000) : p % 100 === 0 ? 'x'.repeat(20_000) : '';
    events.push(event(p, { objectRepr: `site-${p}${big}` }));
  }
  const appends: Promise<void>[] = [];
  for (let i = 0; i < events.length; i += 7) appends.push(log.append(events.slice(i, i + 7)));
  await Promise.all(appends);
  const wanted = [1, 3000, 1500, 1499, 1501, 42, 42, 2000, 7, 8];
  const expected = wanted.map((p) => events[p - 1]!.objectRepr);
  t.deepEqual(
    (await log.readPositions(wanted)).map((e) => e.objectRepr),
    expected,
  );
  await t.throwsAsync(() => log.readPositions([3001]), { instanceOf: RangeError });
  await t.throwsAsync(() => log.readPositions([0]), { instanceOf: RangeError });

  // Reads while appends are in flight see only durable frames; each new frame is readable once durable.
  const more = log.append([event(3001)]);
  const reading = log.readPositions([2999, 3000]);
  await more;
  t.deepEqual(
    (await reading).map((e) => e.position),
    [2999, 3000],
  );
  t.is((await log.readPositions([3001]))[0]!.position, 3001);
  const copy = (await log.readPositions([5]))[0]!;
  copy.objectRepr = 'changed by a caller';
  t.is((await log.readPositions([5]))[0]!.objectRepr, events[4]!.objectRepr, 'every read is a fresh copy');
  await log.close();
  await t.throwsAsync(() => log.readPositions([1]));

  log = new FileEventLog({ dir });
  await log.open();
  t.teardown(() => log.close());
  t.deepEqual(
    (await log.readPositions(wanted)).map((e) => e.objectRepr),
    expected,
    'the table is rebuilt by open()',
  );
});
