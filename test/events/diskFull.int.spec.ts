/**
 * The file log on a full or failing disk, with the failures injected at its file-system
 * boundary: an append that fails with ENOSPC / EDQUOT / EIO suspends appends (nothing
 * in memory runs ahead of the file), recover() moves the failed append's bytes aside
 * and resumes once the storage takes writes again, without a restart. Other errors
 * stay fail-stop.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import test, { type ExecutionContext } from 'ava';

import { EventLogFailedError, EventLogUnavailableError, FileEventLog } from '../../src/events/file/FileEventLog.js';
import { readAll } from '../support/eventLog.contract.js';
import { FaultyFileSystem } from '../support/faultyFileSystem.js';
import { makeBatch } from '../support/makeEvent.js';

function tempDir(t: ExecutionContext): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nl-full-'));
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function openLog(
  t: ExecutionContext,
  dir: string,
  disk?: FaultyFileSystem,
  logged: Record<string, unknown>[] = [],
): Promise<FileEventLog> {
  const log = new FileEventLog({ dir, fs: disk, logger: (entry) => logged.push(entry) });
  await log.open();
  t.teardown(() => log.close());
  return log;
}

function sideFiles(dir: string): string[] {
  return fs.readdirSync(dir).filter((name) => name.startsWith('events.log.') && !name.endsWith('write-probe'));
}

test('ENOSPC part-way through a group write: appends are refused until recover() has kept the partial bytes aside', async (t) => {
  const dir = tempDir(t);
  const disk = new FaultyFileSystem();
  const logged: Record<string, unknown>[] = [];
  const log = await openLog(t, dir, disk, logged);
  const committed = [makeBatch(1, 2), makeBatch(3, 1)];
  for (const b of committed) await log.append(b);
  const size = fs.statSync(log.file).size;

  disk.free = 100; // the next write gets 100 bytes in, then the disk is full
  const first = log.append(makeBatch(4, 3));
  const second = log.append(makeBatch(7, 1)); // same group commit
  await t.throwsAsync(first, { instanceOf: EventLogUnavailableError, message: /ENOSPC/ });
  await t.throwsAsync(second, { instanceOf: EventLogUnavailableError });
  t.is(log.head(), 3);
  t.is(fs.statSync(log.file).size, size + 100, 'the partial write is in the file');
  t.truthy(log.unavailable());
  await t.throwsAsync(
    log.append(makeBatch(4, 1)),
    { instanceOf: EventLogUnavailableError },
    'refused while unavailable',
  );

  // Still full: recovery cannot keep the partial bytes aside, so it cuts nothing.
  await t.throwsAsync(log.recover(), { instanceOf: EventLogUnavailableError });
  t.is(fs.statSync(log.file).size, size + 100);
  t.deepEqual(sideFiles(dir), []);
  t.truthy(log.unavailable());

  disk.free = null; // space was freed
  await log.recover();
  t.is(log.unavailable(), null);
  t.is(fs.statSync(log.file).size, size, 'cut back to the committed frames');
  const [kept] = sideFiles(dir);
  t.regex(kept!, new RegExp(`^events\\.log\\.failed-append-\\d{8}T\\d{9}Z-at-${size}$`));
  t.is(fs.statSync(path.join(dir, kept!)).size, 100);
  t.like(logged.at(-1), { level: 'warn', offset: size, bytes: 100, position: 4 });

  // Positions continue from the last durable one: the failed batches were never in the log.
  await log.append(makeBatch(4, 2));
  t.is(log.head(), 5);
  await log.close();
  const again = await openLog(t, dir);
  t.is(again.head(), 5);
  t.deepEqual(
    (await readAll(again, 1)).flat().map((e) => e.position),
    [1, 2, 3, 4, 5],
  );
});

test('EIO from fdatasync: the written frame is not trusted; recover() keeps it aside and appending resumes', async (t) => {
  const dir = tempDir(t);
  const disk = new FaultyFileSystem();
  const log = await openLog(t, dir, disk);
  await log.append(makeBatch(1, 1));
  const size = fs.statSync(log.file).size;
  disk.syncError = 'EIO';
  await t.throwsAsync(log.append(makeBatch(2, 1)), { instanceOf: EventLogUnavailableError, message: /EIO/ });
  t.is(log.head(), 1);
  await t.throwsAsync(log.recover(), { instanceOf: EventLogUnavailableError }, 'the device still fails');
  disk.syncError = null;
  await log.recover();
  t.is(fs.statSync(log.file).size, size);
  t.is(sideFiles(dir).length, 1);
  await log.append(makeBatch(2, 1));
  t.is(log.head(), 2);
});

test('a log opened on a full disk is readable, refuses appends, and becomes writable once space is freed', async (t) => {
  const dir = tempDir(t);
  const first = await openLog(t, dir);
  await first.append(makeBatch(1, 3));
  await first.close();

  const disk = new FaultyFileSystem();
  disk.free = 0;
  const log = await openLog(t, dir, disk);
  t.is(log.head(), 3);
  t.deepEqual(
    (await readAll(log, 1)).flat().map((e) => e.position),
    [1, 2, 3],
  );
  t.regex(log.unavailable()?.message ?? '', /ENOSPC/, 'the start-up probe found the disk full');
  await t.throwsAsync(log.append(makeBatch(4, 1)), { instanceOf: EventLogUnavailableError });
  disk.free = null;
  await log.recover();
  await log.append(makeBatch(4, 1));
  t.is(log.head(), 4);
});

test('a torn tail found on a full disk is not cut (it cannot be kept aside) until recover()', async (t) => {
  const dir = tempDir(t);
  const first = await openLog(t, dir);
  await first.append(makeBatch(1, 1));
  await first.close();
  const file = path.join(dir, 'events.log');
  const size = fs.statSync(file).size;
  fs.appendFileSync(file, Buffer.from([200, 0, 0, 0, 1, 2, 3, 4, 5]));

  const disk = new FaultyFileSystem();
  disk.free = 0;
  const logged: Record<string, unknown>[] = [];
  const log = await openLog(t, dir, disk, logged);
  t.is(log.head(), 1);
  t.is(fs.statSync(file).size, size + 9, 'nothing cut without a copy');
  t.truthy(log.unavailable());
  disk.free = null;
  await log.recover();
  t.is(fs.statSync(file).size, size);
  t.deepEqual(
    sideFiles(dir).map((name) => name.split('-')[0]),
    ['events.log.torn'],
  );
  t.like(logged.at(-1), { offset: size, bytes: 9, position: 2 });
});

test("EDQUOT counts as a full disk; an error that is not the storage's (EBADF) stays fail-stop", async (t) => {
  const dir = tempDir(t);
  const log = await openLog(t, dir);
  const fh = (log as unknown as { fh: { datasync: () => Promise<void> } }).fh;
  const real = fh.datasync.bind(fh);
  fh.datasync = async () => {
    throw Object.assign(new Error('EDQUOT: disk quota exceeded'), { code: 'EDQUOT' });
  };
  await t.throwsAsync(log.append(makeBatch(1, 1)), { instanceOf: EventLogUnavailableError });
  fh.datasync = real;
  await log.recover();
  await log.append(makeBatch(1, 1));

  const other = await openLog(t, tempDir(t));
  const handle = (other as unknown as { fh: { datasync: () => Promise<void> } }).fh;
  handle.datasync = async () => {
    throw Object.assign(new Error('EBADF: bad file descriptor'), { code: 'EBADF' });
  };
  await t.throwsAsync(other.append(makeBatch(1, 1)), { instanceOf: EventLogFailedError });
  t.is(other.unavailable(), null);
  await t.throwsAsync(other.recover(), { instanceOf: EventLogFailedError });
  await t.throwsAsync(other.append(makeBatch(1, 1)), { instanceOf: EventLogFailedError });
});
