/**
 * import-netbox at volume, netledger → netledger (issue 31): a source registry holding an
 * object of every model and OBJECTS objects in all (test/support/richRegistry.ts: the
 * volume is interfaces and their addresses, made in bulk requests, so the change log holds
 * as many creations), imported into an empty data directory by `manage import-netbox` run
 * as the operator runs it, in its own process; then, with VERIFY=1, `--verify` against the
 * imported service.
 *
 *   node --import tsx bench/import.bench.ts      # OBJECTS=100000 VERIFY=0
 *
 * The source serves from this process (its in-memory read models, the file log): the
 * import reads it over HTTP as it would a NetBox, so both share the machine's cores.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';

import { buildRichRegistry } from '../test/support/richRegistry.js';
import { ADMIN_TOKEN, startService } from '../test/support/startService.js';
import { reportFigure } from './figures.js';

const OBJECTS = Number(process.env.OBJECTS ?? 100_000);
const VERIFY = process.env.VERIFY === '1';
const manage = path.join(process.cwd(), 'src', 'cli', 'manage.ts');
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');

/** `manage <args>` in its own process; its output, exit code and wall time. */
function runManage(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; out: string; seconds: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', manage, ...args], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code: code ?? 1, out, seconds: (performance.now() - started) / 1000 }));
  });
}

console.log(`import-netbox bench: OBJECTS=${OBJECTS}, VERIFY=${VERIFY ? 1 : 0}, load ${load()}`);
const source = await startService();
const buildStarted = performance.now();
// The rich registry holds about 108 objects besides the bulk; each bulk step adds an interface and an address.
await buildRichRegistry(source, Math.max(0, Math.round((OBJECTS - 108) / 2)));
const count = async (route: string) => (await source.api('GET', `${route}?limit=1`)).body.count as number;
const changes = await count('/api/extras/object-changes/');
console.log(
  `source built in ${((performance.now() - buildStarted) / 1000).toFixed(1)} s: ${changes} changes, load ${load()}`,
);

const dir = mkdtempSync(path.join(os.tmpdir(), 'netledger-import-bench-'));
// The secret key the service below starts with (startService's): sealed secrets (a wireless PSK) are sealed with it.
const env = { DATA_DIR: dir, SECRET_KEY: 'test-secret-key' };
try {
  const loadBefore = load();
  // The source's admin keeps its flag and token key, so the imported service answers --verify with the same token.
  const keys = path.join(dir, '..', `${path.basename(dir)}-keys.json`);
  writeFileSync(keys, JSON.stringify({ 1: ADMIN_TOKEN }));
  const imported = await runManage(
    ['import-netbox', '--url', source.url, '--token', ADMIN_TOKEN, '--superusers', 'admin', '--token-keys', keys],
    env,
  );
  rmSync(keys);
  const summary = /Imported (\d+) objects of (\d+) models and (\d+) past changes[^\n]*\n?[^\n]*/.exec(imported.out);
  if (imported.code !== 0 || !summary)
    throw new Error(`import failed (${imported.code}): ${imported.out.slice(-2000)}`);
  const objects = Number(summary[1]);
  console.log(summary[0]);
  console.log(
    `import-netbox: ${objects} objects, ${summary[3]} past changes, ${imported.seconds.toFixed(1)} s wall ` +
      `(process start included), ${Math.round(objects / imported.seconds)} objects/s; load before ${loadBefore}, after ${load()}`,
  );
  reportFigure({
    name: `import-netbox of ${objects.toLocaleString('en-US')} objects`,
    value: `${imported.seconds.toFixed(1)} s`,
  });
  if (VERIFY) {
    const target = await startService({}, dir);
    try {
      const verified = await runManage(
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
      );
      console.log(
        verified.out
          .split('\n')
          .filter((l) => !/^\S+\s+\d+\s+0\s+0\s+0$/.test(l))
          .join('\n'),
      );
      console.log(`--verify: exit ${verified.code} in ${verified.seconds.toFixed(1)} s, load ${load()}`);
      if (verified.code !== 0) process.exitCode = 1;
    } finally {
      await target.close();
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
  await source.close();
}
