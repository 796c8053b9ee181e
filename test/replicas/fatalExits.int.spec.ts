/**
 * The failures after which a process must restart are raised as one fatal signal (the
 * entry point exits non-zero on it, so a supervisor's restart works; the exit itself is
 * shown by the replica test whose log is cut under it).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import test from 'ava';

import { DataDirLock } from '../../src/events/DataDirLock.js';
import { FaultyFileSystem } from '../support/faultyFileSystem.js';
import { startService } from '../support/startService.js';

test('a writer stopped for good raises the fatal signal, with the reason', async (t) => {
  const disk = new FaultyFileSystem();
  const service = await startService({}, undefined, { start: { logFileSystem: disk } });
  t.teardown(() => service.close());
  disk.syncError = 'EBADF'; // not the storage being full: a bug, fail-stop
  t.is((await service.api('POST', '/api/extras/tags/', { name: 'a', slug: 'a' })).status, 503);
  const fatal = await service.fatal;
  t.regex(fatal.reason, /writer stopped for good/);
  t.regex(fatal.error.message, /EBADF/);
  disk.syncError = null;
});

test('the data directory lock tells when it is lost while held, never after it was released', async (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'netledger-lost-lock-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const lock = await DataDirLock.acquire(dir, 'test');
  const lost: Error[] = [];
  lock.onLost((error) => lost.push(error));
  (lock as unknown as { server: { close(): void } }).server.close(); // as if the socket went away
  await new Promise((resolve) => setImmediate(resolve));
  t.is(lost.length, 1);
  t.regex(lost[0]!.message, /closed while it was held/);

  const kept = await DataDirLock.acquire(dir, 'test');
  const quiet: Error[] = [];
  kept.onLost((error) => quiet.push(error));
  await kept.release();
  t.deepEqual(quiet, []);
});
