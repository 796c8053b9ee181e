import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import test from 'ava';

import { main } from '../../src/cli/manage.js';
import { isStoredFile } from '../../src/migration/importOrder.js';
import { registry } from '../../src/models/registry.js';
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
  // Every model the API serves holds objects in the source, and every one arrived equal.
  const rows = new Map(
    [...verify.out.join('').matchAll(/^(\S+) +(\d+) +(\d+) +(\d+) +(\d+)$/gm)].map((m) => [m[1], Number(m[2])]),
  );
  for (const model of registry.all().filter((m) => !isStoredFile(m) && m.key !== 'extras.jobresult'))
    t.true((rows.get(model.key) ?? 0) > 0, `${model.key}: no object compared equal`);
  t.true([...rows.values()].reduce((a, b) => a + b, 0) - sourceChanges > 1000, 'more than 1,000 objects');
  // The history holds creations, updates and deletions, of many models.
  const deleted = (await source.api('GET', '/api/extras/object-changes/?action=delete&limit=0')).body.results;
  const deletedModels = new Set(deleted.map((c: { changed_object_type: string }) => c.changed_object_type));
  t.true(deletedModels.size >= 7, `deletions of ${[...deletedModels].join(', ')}`);
  t.true((await source.api('GET', '/api/extras/object-changes/?action=update&limit=1')).body.count > 100);
  t.regex(
    verify.out.join(''),
    new RegExp(`extras\\.objectchange +${sourceChanges} +0 +0`),
    'every past change is in the history',
  );

  // The past answers the same on both sides: before the site's description change and before each deletion.
  const strip = (body: unknown, base: string) => JSON.parse(JSON.stringify(body).replaceAll(base, ''));
  const pastChanges = (await source.api('GET', '/api/extras/object-changes/?limit=0&ordering=time')).body.results;
  const described = pastChanges.find(
    (c: any) => c.changed_object_type === 'dcim.site' && c.postchange_data?.description === 'main data centre',
  );
  const deletions = pastChanges.filter((c: any) => c.action.value === 'delete');
  const cuts = [described, ...new Map(deletions.map((c: any) => [c.changed_object_type, c])).values()].map((c: any) =>
    new Date(Date.parse(c.time) - 1).toISOString(),
  );
  t.true(cuts.length >= 7);
  let pastDiffers = 0;
  for (const cut of cuts) {
    for (const route of ['dcim/sites/1/', 'tenancy/tenants/', 'extras/tags/', 'dcim/cables/', 'dcim/devices/']) {
      const asOf = `/api/${route}?as_of=${encodeURIComponent(cut)}&limit=0`;
      const [theirs, ours] = [await source.api('GET', asOf), await target.api('GET', asOf)];
      t.is(ours.status, 200, asOf);
      t.deepEqual(strip(ours.body, target.url), strip(theirs.body, source.url), asOf);
      const now = await target.api('GET', `/api/${route}?limit=0`);
      if (JSON.stringify(now.body) !== JSON.stringify(ours.body)) pastDiffers++;
    }
  }
  // Not a comparison of two present states: most of these past answers differ from today's.
  t.true(pastDiffers >= cuts.length, `${pastDiffers} past answers differ from the present`);
  const beforeDescribed = `/api/dcim/sites/1/?as_of=${encodeURIComponent(cuts[0])}`;
  t.not((await target.api('GET', beforeDescribed)).body.description, 'main data centre');
  t.is((await target.api('GET', '/api/dcim/sites/1/')).body.description, 'main data centre');

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
