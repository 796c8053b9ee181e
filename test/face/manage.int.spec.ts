import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import test from 'ava';

import { main, USAGE } from '../../src/cli/manage.js';
import { startService } from '../support/startService.js';

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { out: (s: string) => void out.push(s), err: (s: string) => void err.push(s) }, out, err };
}

function tempDir(t: { teardown(fn: () => void): void }): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'netledger-manage-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

test('--help prints the usage; no command or an unknown one is exit code 2', async (t) => {
  const help = capture();
  t.is(await main(['--help'], {}, help.io), 0);
  t.is(help.out.join(''), USAGE);
  for (const command of ['createsuperuser', 'create-token', 'rebuild', 'export']) t.true(USAGE.includes(command));
  const sub = capture();
  t.is(await main(['createsuperuser', '--help'], {}, sub.io), 0);
  t.is(sub.out.join(''), USAGE);
  const none = capture();
  t.is(await main([], {}, none.io), 2);
  const unknown = capture();
  t.is(await main(['frobnicate'], {}, unknown.io), 2);
  t.regex(unknown.err.join(''), /Unknown command "frobnicate"/);
  const badOption = capture();
  t.is(await main(['createsuperuser', '--nope'], {}, badOption.io), 2);
  const missing = capture();
  t.is(await main(['createsuperuser', '--password', 'x'], {}, missing.io), 2);
  t.regex(missing.err.join(''), /--username is required/);
});

test('createsuperuser and create-token write through the event log; the service then accepts the tokens', async (t) => {
  const dir = tempDir(t);
  const env = { DATA_DIR: dir, SECRET_KEY: 'manage-secret', SUPERUSER_NAME: 'admin' };
  const created = capture();
  t.is(
    await main(
      ['createsuperuser', '--username', 'ops', '--email', 'ops@example.com', '--password', 'pw-123456', '--token'],
      env,
      created.io,
    ),
    0,
    created.err.join(''),
  );
  const key = /API token \(shown once\): ([0-9a-f]{40})/.exec(created.out.join(''))?.[1];
  t.truthy(key);
  const again = capture();
  t.is(await main(['createsuperuser', '--username', 'ops', '--password', 'x'], env, again.io), 1);
  t.regex(again.err.join(''), /That username is already taken/);

  const readOnly = capture();
  t.is(
    await main(['create-token', '--user', 'ops', '--read-only', '--description', 'ci'], env, readOnly.io),
    0,
    readOnly.err.join(''),
  );
  const readKey = readOnly.out.join('').trim();
  t.regex(readKey, /^[0-9a-f]{40}$/);
  const nobody = capture();
  t.is(await main(['create-token', '--user', 'nobody'], env, nobody.io), 1);

  const service = await startService({ SECRET_KEY: 'manage-secret' }, dir);
  t.teardown(() => service.close());
  const write = await service.api(
    'POST',
    '/api/extras/tags/',
    { name: 'cli', slug: 'cli' },
    { Authorization: `Token ${key}` },
  );
  t.is(write.status, 201, JSON.stringify(write.body));
  t.is((await service.api('GET', '/api/extras/tags/', undefined, { Authorization: `Token ${readKey}` })).status, 200);
  t.is(
    (await service.api('POST', '/api/extras/tags/', { name: 'no', slug: 'no' }, { Authorization: `Token ${readKey}` }))
      .status,
    403,
  );
  const users = await service.api('GET', '/api/users/users/?username=ops');
  t.is(users.body.results[0].email, 'ops@example.com');
});

test("export and rebuild run the event log's own commands with every argument passed through", async (t) => {
  const dir = tempDir(t);
  const env = { ...process.env, DATA_DIR: dir, SECRET_KEY: 'manage-secret' };
  t.is(await main(['createsuperuser', '--username', 'ops', '--password', 'pw-123456'], env, capture().io), 0);
  const all = capture();
  t.is(await main(['export', '--since', '1', '--format', 'jsonl'], env, all.io), 0, all.err.join(''));
  const records = all.out
    .join('')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
  t.true(records.length >= 2);
  t.is(records[0].changed_object_type, 'auth.user');
  t.false(all.out.join('').includes('pw-123456'));
  const rebuilt = capture();
  t.is(await main(['rebuild'], env, rebuilt.io), 0, rebuilt.err.join(''));
});

test('npm run manage -- --help works as a command', (t) => {
  const result = spawnSync('npm', ['run', '-s', 'manage', '--', '--help'], {
    encoding: 'utf8',
    cwd: path.resolve('.'),
  });
  t.is(result.status, 0, result.stderr);
  t.true(result.stdout.startsWith('Usage: npm run manage -- <command>'));
});
