import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import test from 'ava';

import { ADMIN_TOKEN, startService } from '../support/startService.js';

/**
 * `kill <pid of npm start>` (what a supervisor or `docker stop` sends to `npm start`) stops
 * the server: npm passes SIGTERM to its script's process only, and `sh -c 'tsx ...'` died
 * of it without passing it on, leaving the server running and holding the data directory's
 * lock. The script now execs node, so the signal reaches the server's own handler.
 */
test('SIGTERM to `npm start` stops the server cleanly and releases the data directory', async (t) => {
  t.timeout(300_000); // a child process start (tsx compiling the service) can be slow on a loaded machine
  const dir = mkdtempSync(path.join(os.tmpdir(), 'netledger-npm-start-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dir,
    PORT: '0',
    HOST: '127.0.0.1',
    SECRET_KEY: 'k',
    SUPERUSER_API_TOKEN: ADMIN_TOKEN,
  };
  for (const name of Object.keys(env)) if (/^(KAFKA_|MONGODB_)/.test(name)) delete env[name];
  // A process group of its own: whatever npm leaves behind is killed with it at the end.
  const npm = spawn('npm', ['start', '--silent'], { env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  t.teardown(() => {
    try {
      process.kill(-npm.pid!, 'SIGKILL');
    } catch {
      // the group is gone: nothing was left behind
    }
  });
  const exited = new Promise<number | null>((resolve) => npm.on('exit', (code) => resolve(code)));
  let output = '';
  npm.stderr.on('data', (chunk) => (output += chunk));
  const url = await new Promise<string>((resolve, reject) => {
    npm.stdout.on('data', (chunk) => {
      output += chunk;
      const match = /"msg":"netledger listening on (http:\/\/[^"]+)"/.exec(output);
      if (match) resolve(match[1]!);
    });
    npm.on('exit', () => reject(new Error(`exited early: ${output}`)));
  });

  process.kill(npm.pid!, 'SIGTERM');
  t.is(await exited, 0, output);
  t.regex(output, /SIGTERM: finishing in-flight requests/);
  await t.throwsAsync(fetch(`${url}/api/`), undefined, 'nothing answers on its port any more');
  // The lock is free: another service opens the same data directory.
  const service = await startService({ SECRET_KEY: 'k' }, dir);
  t.teardown(() => service.close());
  t.is((await service.api('GET', '/api/')).status, 200);
});
