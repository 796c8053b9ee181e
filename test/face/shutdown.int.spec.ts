import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import test from 'ava';

import { ADMIN_TOKEN, startService } from '../support/startService.js';

test('SIGTERM: requests in flight are answered and their writes are durable; the process exits 0', async (t) => {
  t.timeout(300_000); // a child process start (tsx compiling the service) can be slow on a loaded machine
  const dir = mkdtempSync(path.join(os.tmpdir(), 'netledger-shutdown-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const env = {
    ...process.env,
    DATA_DIR: dir,
    PORT: '0',
    HOST: '127.0.0.1',
    SECRET_KEY: 'k',
    SUPERUSER_API_TOKEN: ADMIN_TOKEN,
  };
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  // Whatever happens to the assertions, the child must not outlive the test (it would keep the worker alive).
  t.teardown(() => {
    if (child.exitCode === null && child.signalCode === null) {
      t.log(`child still running at the end; its output:\n${output}`);
      child.kill('SIGKILL');
    }
  });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk) => {
      output += chunk;
      const match = /"msg":"netledger listening on (http:\/\/[^"]+)"/.exec(output);
      if (match) resolve(match[1]);
    });
    child.on('exit', () => reject(new Error(`exited early: ${output}`)));
  });
  // A response that has not arrived when the process is gone was never acknowledged: once the
  // child has exited, whatever fetch still waits is aborted (seen under load: a request the
  // dying server accepted but never answered left its fetch pending forever).
  const unanswered = new AbortController();
  const headers = { Authorization: `Token ${ADMIN_TOKEN}`, 'Content-Type': 'application/json' };
  const writes = Array.from({ length: 20 }, (_, i) =>
    fetch(`${url}/api/extras/tags/`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ name: `t${i}`, slug: `t${i}` }),
      signal: unanswered.signal,
    }).then(
      (r) => r.status,
      () => 'refused',
    ),
  );
  await new Promise((resolve) => setTimeout(resolve, 5));
  child.kill('SIGTERM');
  t.log('SIGTERM sent');
  const code = await exited;
  unanswered.abort();
  const statuses = await Promise.all(writes);
  t.log(`writes settled: ${JSON.stringify(statuses)}`);
  t.is(code, 0, output);
  t.regex(output, /SIGTERM: finishing in-flight requests/);
  const created = statuses.filter((s) => s === 201).length;
  t.true(
    statuses.every((s) => s === 201 || s === 'refused'),
    JSON.stringify(statuses),
  );

  const service = await startService({ SECRET_KEY: 'k' }, dir);
  t.teardown(() => service.close());
  const tags = await service.api('GET', '/api/extras/tags/');
  // A write can become durable while its connection is torn down with the process:
  // then it exists without having been acknowledged. Acknowledged ones must all be there.
  t.true(tags.body.count >= created && tags.body.count <= 20, `${tags.body.count} tags, ${created} acknowledged`);
  t.log(`${created} of 20 writes acknowledged before the stop, the rest refused`);
});
