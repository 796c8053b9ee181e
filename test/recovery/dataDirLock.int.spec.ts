/**
 * One process at a time writes a data directory: the service and the manage CLI's
 * writing commands hold an OS-level lock that dies with the process.
 */
import test, { type ExecutionContext } from 'ava';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
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
  return { io: { out: (s: string) => void out.push(s), err: (s: string) => void err.push(s) }, out: () => out.join(''), err: () => err.join('') };
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
  t.deepEqual((await second.api('GET', '/api/extras/tags/?ordering=id')).body.results.map((tag: any) => tag.name), ['first', 'still']);
});

test('the lock dies with its process: after kill -9 of the holder the directory is free at once', async (t) => {
  const dir = tempDir(t);
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/recovery/holdDataDirLock.ts', dir], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise<NodeJS.Signals | null>((resolve) => child.once('exit', (_code, signal) => resolve(signal)));
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
  await t.throwsAsync(DataDirLock.acquire(link, 'two'), { instanceOf: DataDirLockedError, message: /process \d+ \(one, since/ });
  const independent = await DataDirLock.acquire(other, 'three');
  await lock.release();
  await lock.release();
  const again = await DataDirLock.acquire(link, 'two');
  await again.release();
  await independent.release();
});

test('manage: writing commands refuse to run next to the service and say to stop it; verify-log still reads', async (t) => {
  const service = await startService({ SECRET_KEY: 'lock-secret' });
  t.teardown(() => service.close());
  const env = { DATA_DIR: service.dataDir, SECRET_KEY: 'lock-secret' };
  for (const argv of [['create-token', '--user', 'admin'], ['createsuperuser', '--username', 'ops', '--password', 'pw-123456'], ['repair-log', '--yes']]) {
    const cli = capture();
    t.is(await main(argv, env, cli.io), 1, argv[0]);
    t.regex(cli.err(), new RegExp(`in use by process ${process.pid} \\(service, since [^)]+\\).*Stop the service first`), argv[0]);
  }
  const verify = capture();
  t.is(await main(['verify-log'], env, verify.io), 0, verify.err());
  t.regex(verify.out(), /OK: no damage/);

  await service.stop();
  const token = capture();
  t.is(await main(['create-token', '--user', 'admin'], env, token.io), 0, token.err());
  t.regex(token.out(), /^[0-9a-f]{40}\n$/);
});
