import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import test from 'ava';

import { main } from '../../src/cli/manage.js';
import { buildRichRegistry } from '../support/richRegistry.js';
import { ADMIN_TOKEN, startService } from '../support/startService.js';

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return {
    io: { out: (s: string) => void out.push(s), err: (s: string) => void err.push(s) },
    out,
    err,
    text: () => out.join('') + err.join(''),
  };
}

function tempDir(t: { teardown(fn: () => void): void }): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'netledger-import-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

test('a netledger holding every model is imported into an empty one and verifies equal, ids and all', async (t) => {
  const source = await startService();
  t.teardown(() => source.close());
  const built = await buildRichRegistry(source, 500);
  const dir = tempDir(t);
  const keys = path.join(dir, '..', `${path.basename(dir)}-keys.json`);
  writeFileSync(keys, JSON.stringify({ 1: ADMIN_TOKEN }));
  t.teardown(() => rmSync(keys, { force: true }));
  const env = { DATA_DIR: dir, SECRET_KEY: 'test-secret-key' };
  const imported = capture();
  const code = await main(
    ['import-netbox', '--url', source.url, '--token', ADMIN_TOKEN, '--token-keys', keys, '--superusers', 'admin'],
    env,
    imported.io,
  );
  t.is(code, 0, imported.text());
  t.regex(imported.out.join(''), /Imported \d+ objects/);
  t.log(imported.out.join(''));

  const target = await startService({}, dir);
  t.teardown(() => target.close());
  const verify = capture();
  const verified = await main(
    [
      'import-netbox',
      '--url',
      source.url,
      '--token',
      ADMIN_TOKEN,
      '--verify',
      '--target-url',
      target.url,
      '--target-token',
      ADMIN_TOKEN,
    ],
    env,
    verify.io,
  );
  t.is(verified, 0, verify.text());
  t.regex(verify.out.join(''), /Every object is equal/);
  const sourceChanges = (await source.api('GET', '/api/extras/object-changes/?limit=1')).body.count;
  t.true(sourceChanges > 1000);
  t.regex(
    verify.out.join(''),
    new RegExp(`extras\\.objectchange +${sourceChanges} +0 +0`),
    'every past change is in the history',
  );

  // The past answers the same on both sides: a site before its last update, a tenant deleted since.
  const strip = (body: unknown, base: string) => JSON.parse(JSON.stringify(body).replaceAll(base, ''));
  const siteChanges = (
    await source.api(
      'GET',
      '/api/extras/object-changes/?changed_object_type=dcim.site&changed_object_id=1&ordering=time',
    )
  ).body.results;
  t.true(siteChanges.length >= 3);
  const before = siteChanges.at(-1).time.replace(/\d{3}Z$/, '000Z');
  const cut = new Date(Date.parse(siteChanges.at(-1).time) - 1).toISOString();
  for (const route of [
    `/api/dcim/sites/1/?as_of=${encodeURIComponent(cut)}`,
    `/api/tenancy/tenants/?as_of=${encodeURIComponent(before)}`,
  ]) {
    const [theirs, ours] = [await source.api('GET', route), await target.api('GET', route)];
    t.is(ours.status, 200, route);
    t.deepEqual(strip(ours.body, target.url), strip(theirs.body, source.url), route);
  }
  t.not(
    (await target.api('GET', `/api/dcim/sites/1/?as_of=${encodeURIComponent(cut)}`)).body.description,
    'main data centre',
  );

  // Cable paths are derived again from the imported cables: every trace answers as the source's.
  const cabled = (await source.api('GET', '/api/dcim/interfaces/?cabled=true&limit=0')).body.results;
  t.true(cabled.length >= 3);
  for (const { id } of cabled) {
    const route = `/api/dcim/interfaces/${id}/trace/`;
    t.deepEqual(
      strip((await target.api('GET', route)).body, target.url),
      strip((await source.api('GET', route)).body, source.url),
      route,
    );
  }

  // Ids: the same objects under the same ids; new objects continue after the highest (deleted ones included).
  t.is((await target.api('GET', `/api/dcim/devices/${built.members[0].id}/`)).body.name, 'sw1');
  const fresh = { name: 'After', slug: 'after' };
  t.is(
    (await target.api('POST', '/api/tenancy/tenants/', fresh)).body.id,
    (await source.api('POST', '/api/tenancy/tenants/', fresh)).body.id,
  );
});

test('an import into a netledger that holds objects is refused and writes nothing', async (t) => {
  const source = await startService();
  t.teardown(() => source.close());
  const dir = tempDir(t);
  const target = await startService({}, dir);
  t.teardown(() => target.close());
  await target.api('POST', '/api/extras/tags/', { name: 'mine', slug: 'mine' });
  const before = (await target.api('GET', '/api/extras/object-changes/?limit=1')).body.count;
  const refused = capture();
  t.is(
    await main(
      ['import-netbox', '--url', source.url, '--token', ADMIN_TOKEN],
      { DATA_DIR: dir, SECRET_KEY: 'test-secret-key' },
      refused.io,
    ),
    1,
  );
  t.regex(refused.err.join(''), /not empty/);
  t.is((await target.api('GET', '/api/extras/object-changes/?limit=1')).body.count, before);
});

test('an import killed midway leaves the netledger empty, and running it again imports everything', async (t) => {
  const source = await startService();
  t.teardown(() => source.close());
  await buildRichRegistry(source, 250);
  const dir = tempDir(t);
  const env = { ...process.env, DATA_DIR: dir, SECRET_KEY: 'test-secret-key' };
  const manage = path.join(process.cwd(), 'src', 'cli', 'manage.ts');
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', manage, 'import-netbox', '--url', source.url, '--token', ADMIN_TOKEN],
    { env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let seen = '';
  const killed = await new Promise<boolean>((resolve) => {
    child.stderr.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      // Half the models written (in the single request being decided): kill it there.
      if (/^write dcim\.interface:/m.test(seen) && child.kill('SIGKILL')) resolve(true);
    });
    child.on('exit', () => resolve(false));
  });
  t.true(killed, `the import was killed midway (it printed: ${seen.slice(-500)})`);
  await new Promise((resolve) =>
    child.exitCode !== null || child.signalCode !== null ? resolve(null) : child.once('exit', resolve),
  );

  const scan = capture();
  t.is(await main(['verify-log'], env, scan.io), 0, scan.text());
  t.regex(scan.text(), /no damage; 0 events/, `nothing of the import is in the log: ${scan.text()}`);

  const again = capture();
  t.is(
    await main(['import-netbox', '--url', source.url, '--token', ADMIN_TOKEN, '--superusers', 'admin'], env, again.io),
    0,
    again.text(),
  );
  const target = await startService({}, dir);
  t.teardown(() => target.close());
  const verify = capture();
  // The admin token's key was not given this time: the token made at first start is an extra one, allowed.
  t.is(
    await main(
      [
        'import-netbox',
        '--url',
        source.url,
        '--token',
        ADMIN_TOKEN,
        '--verify',
        '--target-url',
        target.url,
        '--target-token',
        ADMIN_TOKEN,
      ],
      env,
      verify.io,
    ),
    0,
    verify.text(),
  );
  t.regex(verify.out.join(''), /^users\.token +1 +0 +0 +1$/m);
});

test('import-netbox needs --url and --token; --verify needs a token for the netledger', async (t) => {
  const none = capture();
  t.is(await main(['import-netbox', '--url', 'http://127.0.0.1:9'], {}, none.io), 2);
  t.regex(none.err.join(''), /--url and --token are required/);
  const verify = capture();
  t.is(await main(['import-netbox', '--url', 'http://127.0.0.1:9', '--token', 'x', '--verify'], {}, verify.io), 2);
  t.regex(verify.err.join(''), /--target-token/);
});
