/**
 * One process at a time writes a data directory: the service and the manage CLI's
 * writing commands hold an OS-level lock that dies with the process.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import test, { type ExecutionContext } from 'ava';

import { main } from '../../src/cli/manage.js';
import { DataDirLock, DataDirLockedError } from '../../src/events/DataDirLock.js';
import { startService } from '../support/startService.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

function tempDir(t: ExecutionContext): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'netledger-lock-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return {
    io: { out: (s: string) => void out.push(s), err: (s: string) => void err.push(s) },
    out: () => out.join(''),
    err: () => err.join(''),
  };
}

test('a second service on the same data directory refuses to start and names the holder; the first keeps writing', async (t) => {
  const first = await startService();
  t.teardown(() => first.close());
  const before = await first.api('POST', '/api/extras/tags/', { name: 'first', slug: 'first' });
  t.is(before.status, 201);

  const err = await t.throwsAsync(startService({}, first.dataDir), { instanceOf: DataDirLockedError });
  t.regex(err!.message, new RegExp(`in use by process ${process.pid} \\(service, since `));
  t.regex(err!.message, new RegExp(first.dataDir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));

  const after = await first.api('POST', '/api/extras/tags/', { name: 'still', slug: 'still' });
  t.is(after.status, 201);
  t.is(after.body.id, before.body.id + 1);

  // stop() gives the lock up: a restart on the same directory works and sees every write.
  await first.stop();
  const second = await startService({}, first.dataDir);
  t.teardown(() => second.close());
  t.deepEqual(
    (await second.api('GET', '/api/extras/tags/?ordering=id')).body.results.map((tag: any) => tag.name),
    ['first', 'still'],
  );
});

test('the lock dies with its process: after kill -9 of the holder the directory is free at once', async (t) => {
  const dir = tempDir(t);
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/support/holdDataDirLock.ts', dir], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<NodeJS.Signals | null>((resolve) =>
    child.once('exit', (_code, signal) => resolve(signal)),
  );
  t.teardown(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  const holder = await new Promise<{ pid: number }>((resolve, reject) => {
    let text = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
      if (text.includes('\n')) resolve(JSON.parse(text));
    });
    child.once('exit', () => reject(new Error(`holder exited early: ${text}`)));
  });
  t.is(holder.pid, child.pid!);

  const err = await t.throwsAsync(DataDirLock.acquire(dir, 'test'), { instanceOf: DataDirLockedError });
  t.like(err!.holder, { pid: child.pid, role: 'test holder' });
  t.like(await DataDirLock.holder(dir), { pid: child.pid });

  child.kill('SIGKILL');
  t.is(await exited, 'SIGKILL');
  t.is(await DataDirLock.holder(dir), null);
  const lock = await DataDirLock.acquire(dir, 'test');
  await lock.release();
});

test('the same directory by another path is the same lock; other directories are independent; release is idempotent', async (t) => {
  const dir = tempDir(t);
  const other = tempDir(t);
  const link = path.join(tempDir(t), 'link');
  symlinkSync(dir, link);
  const lock = await DataDirLock.acquire(dir, 'one');
  await t.throwsAsync(DataDirLock.acquire(link, 'two'), {
    instanceOf: DataDirLockedError,
    message: /process \d+ \(one, since/,
  });
  const independent = await DataDirLock.acquire(other, 'three');
  await lock.release();
  await lock.release();
  const again = await DataDirLock.acquire(link, 'two');
  await again.release();
  await independent.release();
});

test('manage: next to the service, createsuperuser and create-token are run by the service itself; repair-log refuses; verify-log reads', async (t) => {
  const logged: Array<Record<string, unknown>> = [];
  const service = await startService({ SECRET_KEY: 'lock-secret' }, undefined, {
    logger: (entry) => void logged.push(entry),
  });
  t.teardown(() => service.close());
  const env = { DATA_DIR: service.dataDir, SECRET_KEY: 'lock-secret' };

  const token = capture();
  t.is(await main(['create-token', '--user', 'admin', '--description', 'from manage'], env, token.io), 0, token.err());
  const key = token.out().trim();
  t.regex(key, /^[0-9a-f]{40}$/);
  const me = await fetch(`${service.url}/api/users/config/`, { headers: { Authorization: `Token ${key}` } });
  t.is(me.status, 200, 'the live service knows the token at once');

  const superuser = capture();
  t.is(
    await main(['createsuperuser', '--username', 'ops', '--password', 'pw-123456', '--token', ''], env, superuser.io),
    0,
    superuser.err(),
  );
  t.regex(superuser.out(), /^Superuser "ops" created \(id \d+\)\.\nAPI token \(shown once\): [0-9a-f]{40}\n$/);
  const users = await service.api('GET', '/api/users/users/?username=ops');
  t.is(users.body.results[0]?.is_staff, true);

  const taken = capture();
  t.is(await main(['createsuperuser', '--username', 'ops', '--password', 'pw-123456'], env, taken.io), 1);
  t.is(taken.err(), 'Error: That username is already taken.\n');
  const nobody = capture();
  t.is(await main(['create-token', '--user', 'nobody'], env, nobody.io), 1);
  t.is(nobody.err(), 'Error: no user named "nobody".\n');

  const text = JSON.stringify(logged);
  t.false(text.includes('pw-123456'), 'no password in a log line');
  t.false(text.includes(key), 'no token key in a log line');
  t.true(logged.some((entry) => entry.msg === 'admin command from manage' && entry.command === 'create-token'));

  const repair = capture();
  t.is(await main(['repair-log', '--yes'], env, repair.io), 1);
  t.regex(
    repair.err(),
    new RegExp(`in use by process ${process.pid} \\(service, since [^)]+\\).*Stop the service first`),
  );
  const verify = capture();
  t.is(await main(['verify-log'], env, verify.io), 0, verify.err());
  t.regex(verify.out(), /OK: no damage/);

  await service.stop();
  const offline = capture();
  t.is(await main(['create-token', '--user', 'admin'], env, offline.io), 0, offline.err());
  t.regex(offline.out(), /^[0-9a-f]{40}\n$/);
});
