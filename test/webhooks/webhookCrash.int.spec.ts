/**
 * kill -9 of the service while it delivers webhooks: after a restart on the same data
 * directory, every acknowledged change is delivered (some perhaps twice: at least once),
 * and the first delivery of each comes in log order.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import test, { type ExecutionContext } from 'ava';

import { eventLogEnv } from '../support/testEventLog.js';
import { Receiver } from '../support/webhookReceiver.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TOKEN = 'c0ffee00c0ffee00c0ffee00c0ffee00c0ffee01';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** The service in a child process on `dataDir`, once it answers; SIGKILLed in teardown if still running. */
async function launch(
  t: ExecutionContext,
  dataDir: string,
): Promise<{ proc: ChildProcess; url: string; exited: Promise<unknown> }> {
  const port = await freePort();
  const logFile = path.join(dataDir, '..', `service-${Date.now()}.log`);
  const out = openSync(logFile, 'a');
  const env = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    SUPERUSER_API_TOKEN: TOKEN,
    SECRET_KEY: 'webhook-crash-key',
    WEBHOOK_RETRY_BASE: '0.01',
    WEBHOOK_RETRY_MAX: '0.05',
    ...eventLogEnv(dataDir, { takeover: true }),
  };
  const proc = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: ROOT,
    env,
    stdio: ['ignore', out, out],
  });
  closeSync(out);
  const exited = new Promise((resolve) => proc.once('exit', resolve));
  t.teardown(async () => {
    if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL');
    await exited;
  });
  const url = `http://127.0.0.1:${port}`;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`service exited:\n${readFileSync(logFile, 'utf8')}`);
    try {
      const response = await fetch(`${url}/api/status/`, { headers: { Authorization: `Token ${TOKEN}` } });
      await response.arrayBuffer();
      if (response.status === 200) return { proc, url, exited };
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function post(url: string, route: string, body: unknown): Promise<number> {
  const response = await fetch(url + route, {
    method: 'POST',
    headers: { Authorization: `Token ${TOKEN}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  await response.arrayBuffer();
  return response.status;
}

test.serial(
  'kill -9 while delivering: after a restart every acknowledged change is delivered, first deliveries in log order',
  async (t) => {
    t.timeout(180_000);
    const work = mkdtempSync(path.join(os.tmpdir(), 'netledger-webhook-crash-'));
    t.teardown(() => rmSync(work, { recursive: true, force: true }));
    const dataDir = path.join(work, 'data');
    const receiver = await Receiver.start();
    t.teardown(() => receiver.stop());

    const first = await launch(t, dataDir);
    t.is(
      await post(first.url, '/api/extras/webhooks/', {
        name: 'crash',
        content_types: ['dcim.site'],
        type_create: true,
        payload_url: receiver.url,
      }),
      201,
    );
    const acknowledged: string[] = [];
    for (let i = 0; i < 20; i++) {
      if ((await post(first.url, '/api/dcim/sites/', { name: `s${i}`, slug: `s${i}` })) === 201)
        acknowledged.push(`s${i}`);
    }
    await receiver.receivedCount(5); // delivering when killed
    first.proc.kill('SIGKILL');
    await first.exited;

    const second = await launch(t, dataDir);
    t.is(await post(second.url, '/api/dcim/sites/', { name: 'after', slug: 'after' }), 201);
    acknowledged.push('after');
    // Waits for deliveries, not time: the last change is delivered after every earlier one.
    while (!receiver.received.some((r) => r.json?.data?.name === 'after'))
      await receiver.receivedCount(receiver.received.length + 1);
    second.proc.kill('SIGTERM');
    await second.exited;

    const names = receiver.received.map((r) => r.json.data.name as string);
    const firstDeliveries = names.filter((name, i) => names.indexOf(name) === i);
    t.deepEqual(firstDeliveries, acknowledged);
    t.log(
      `${names.length} deliveries for ${acknowledged.length} changes (${names.length - acknowledged.length} repeated after the kill)`,
    );
  },
);
