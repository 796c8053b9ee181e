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
  return { io: { out: (s: string) => void out.push(s), err: (s: string) => void err.push(s) }, out, err, text: () => out.join('') + err.join('') };
}

function tempDir(t: { teardown(fn: () => void): void }): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'netledger-import-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

test('a netledger holding every model is imported into an empty one and verifies equal, ids and all', async (t) => {
  const source = await startService();
  t.teardown(() => source.close());
  await buildRichRegistry(source, 500);
  const dir = tempDir(t);
  const keys = path.join(dir, '..', `${path.basename(dir)}-keys.json`);
  writeFileSync(keys, JSON.stringify({ 1: ADMIN_TOKEN }));
  t.teardown(() => rmSync(keys, { force: true }));
  const env = { DATA_DIR: dir, SECRET_KEY: 'test-secret-key' };
  const imported = capture();
  const code = await main(['import-netbox', '--url', source.url, '--token', ADMIN_TOKEN, '--token-keys', keys, '--superusers', 'admin'], env, imported.io);
  t.is(code, 0, imported.text());
  t.regex(imported.out.join(''), /Imported \d+ objects/);
  t.log(imported.out.join(''));

  const target = await startService({}, dir);
  t.teardown(() => target.close());
  const verify = capture();
  const verified = await main(['import-netbox', '--url', source.url, '--token', ADMIN_TOKEN, '--verify', '--target-url', target.url, '--target-token', ADMIN_TOKEN], env, verify.io);
  t.is(verified, 0, verify.text());
  t.regex(verify.out.join(''), /Every object is equal/);
});
