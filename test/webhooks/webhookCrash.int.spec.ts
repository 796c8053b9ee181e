/**
 * kill -9 of the service while it delivers webhooks: after a restart on the same data
 * directory, every acknowledged change is delivered (some perhaps twice: at least once),
 * and the first delivery of each comes in log order.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import test, { type ExecutionContext } from 'ava';

import { type ServiceProcess, startProcess } from '../support/serviceProcess.js';
import { eventLogEnv } from '../support/testEventLog.js';
import { Receiver } from '../support/webhookReceiver.js';

/**
 * The service in a child process on `dataDir`, once it listens (on a port it picks itself: one
 * probed free beforehand can be taken by another test's connection before the child binds it);
 * SIGKILLed in teardown if still running.
 */
async function launch(t: ExecutionContext, dataDir: string): Promise<ServiceProcess> {
  const service = startProcess({
    DATA_DIR: dataDir,
    WEBHOOK_RETRY_BASE: '0.01',
    WEBHOOK_RETRY_MAX: '0.05',
    ...eventLogEnv(dataDir, { takeover: true }),
  });
  t.teardown(async () => {
    const started = await service.catch(() => null); // one that exited before listening is gone
    if (started?.child.exitCode === null && started.child.signalCode === null) started.child.kill('SIGKILL');
    await started?.exited;
  });
  return service;
}

async function post(service: ServiceProcess, route: string, body: unknown): Promise<number> {
  return (await service.api('POST', route, body)).status;
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
      await post(first, '/api/extras/webhooks/', {
        name: 'crash',
        content_types: ['dcim.site'],
        type_create: true,
        payload_url: receiver.url,
      }),
      201,
    );
    const acknowledged: string[] = [];
    for (let i = 0; i < 20; i++) {
      if ((await post(first, '/api/dcim/sites/', { name: `s${i}`, slug: `s${i}` })) === 201) acknowledged.push(`s${i}`);
    }
    await receiver.receivedCount(5); // delivering when killed
    first.child.kill('SIGKILL');
    await first.exited;

    const second = await launch(t, dataDir);
    t.is(await post(second, '/api/dcim/sites/', { name: 'after', slug: 'after' }), 201);
    acknowledged.push('after');
    // Waits for deliveries, not time: the last change is delivered after every earlier one.
    while (!receiver.received.some((r) => r.json?.data?.name === 'after'))
      await receiver.receivedCount(receiver.received.length + 1);
    second.child.kill('SIGTERM');
    await second.exited;

    const names = receiver.received.map((r) => r.json.data.name as string);
    const firstDeliveries = names.filter((name, i) => names.indexOf(name) === i);
    t.deepEqual(firstDeliveries, acknowledged);
    t.log(
      `${names.length} deliveries for ${acknowledged.length} changes (${names.length - acknowledged.length} repeated after the kill)`,
    );
  },
);
