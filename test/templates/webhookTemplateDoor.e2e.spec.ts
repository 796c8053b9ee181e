import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import test from 'ava';

import { ok } from '../support/callers.js';
import { EXHAUSTION, injectionCorpus } from '../support/injectionCorpus.js';
import { startService, type TestService } from '../support/startService.js';
import { Receiver, until } from '../support/webhookReceiver.js';

/**
 * The webhook door: a webhook's body template, headers and URL are rendered by the delivery
 * worker on every matching change. Poisoned ones become failed deliveries (never a crash, a
 * crash loop or a held event loop); the others are delivered; a restart with the poisoned
 * webhooks in place comes up and serves.
 */
const ENV = {
  TEMPLATE_TIMEOUT: '1.5',
  TEMPLATE_MEMORY_MB: '64',
  TEMPLATE_WORKERS: '2',
  WEBHOOK_RETRY_BASE: '0.005',
  WEBHOOK_RETRY_MAX: '0.02',
};

function poisoned(receiverUrl: string, canary: string): Array<Record<string, unknown>> {
  const hooks: Array<Record<string, unknown>> = [];
  const corpus = Object.entries(injectionCorpus(canary));
  for (const [i, [label, code]] of corpus.entries()) {
    hooks.push({ name: `body ${label}`, payload_url: `${receiverUrl}/body/${i}`, body_template: code });
  }
  for (const [i, [label, code]] of corpus.slice(0, 6).entries()) {
    hooks.push({
      name: `headers ${label}`,
      payload_url: `${receiverUrl}/headers/${i}`,
      additional_headers: `X-Injected: ${code}`,
    });
    hooks.push({ name: `url ${label}`, payload_url: `${receiverUrl}/url/${i}/${code}` });
  }
  for (const [i, [label, code]] of Object.entries(EXHAUSTION).entries()) {
    hooks.push({ name: `exhaust ${label}`, payload_url: `${receiverUrl}/exhaust/${i}`, body_template: code });
  }
  return hooks;
}

async function createHooks(service: TestService, hooks: Array<Record<string, unknown>>): Promise<number[]> {
  const ids: number[] = [];
  for (const hook of hooks)
    ids.push(
      (
        await ok(
          service.api('POST', '/api/extras/webhooks/', { content_types: ['dcim.site'], type_create: true, ...hook }),
        )
      ).id,
    );
  return ids;
}

test('poisoned webhook templates are failed deliveries, reach nothing outside, and a restart with them in place serves', async (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'webhook-door-'));
  const dataDir = path.join(dir, 'data');
  const canary = path.join(dir, 'canary');
  const receiver = await Receiver.start();
  let service = await startService(ENV, dataDir);
  t.teardown(async () => {
    await service.close();
    await receiver.stop();
    rmSync(dir, { recursive: true, force: true });
  });
  const [healthy] = await createHooks(service, [
    { name: 'healthy', payload_url: `${receiver.url}/ok`, body_template: '{{ data.name }}' },
  ]);
  const bad = await createHooks(service, poisoned(receiver.url, canary));

  const settled = (worker: TestService['webhooks'], sites: number) => () =>
    worker.deliveries(healthy!).filter((d) => d.status === 'delivered').length === sites &&
    bad.every((id) => worker.deliveries(id).filter((d) => d.status !== 'pending').length === sites);

  await ok(service.api('POST', '/api/dcim/sites/', { name: 'DC-1', slug: 'dc-1' }));
  await until(service.webhooks, settled(service.webhooks, 1));
  for (const id of bad) {
    const [delivery] = service.webhooks.deliveries(id);
    if (delivery!.status === 'failed')
      t.regex(String(delivery!.last_error), /^request not rendered: (body_template|additional_headers|payload_url): /);
  }
  const failed = bad.filter((id) => service.webhooks.deliveries(id)[0]!.status === 'failed');
  t.log(`${failed.length} of ${bad.length} poisoned webhooks failed; the others rendered harmless text`);
  t.true(failed.length >= Object.keys(EXHAUSTION).length);
  t.deepEqual(
    receiver.received.filter((r) => r.path === '/ok').map((r) => r.body),
    ['DC-1'],
  );
  for (const request of receiver.received) t.notRegex(JSON.stringify(request), /ESCAPED|canary-value|\[native code\]/);
  t.false(existsSync(canary), 'the canary file is untouched');

  // The poisoned webhooks stay; the service starts again over them and goes on delivering.
  await service.close();
  service = await startService(ENV, dataDir);
  t.is((await service.api('GET', '/api/status/')).status, 200);
  await ok(service.api('POST', '/api/dcim/sites/', { name: 'DC-2', slug: 'dc-2' }));
  await until(service.webhooks, settled(service.webhooks, 2));
  t.deepEqual(
    receiver.received.filter((r) => r.path === '/ok').map((r) => r.body),
    ['DC-1', 'DC-2'],
  );
  t.false(existsSync(canary));
});

test('a body template that would abort V8 (range(1e9)|length) is one failed delivery, not a crash loop', async (t) => {
  const receiver = await Receiver.start();
  const service = await startService(ENV);
  t.teardown(async () => {
    await service.close();
    await receiver.stop();
  });
  const [hook] = await createHooks(service, [
    { name: 'huge', payload_url: `${receiver.url}/huge`, body_template: EXHAUSTION['range(1e9)'] },
  ]);
  await ok(service.api('POST', '/api/dcim/sites/', { name: 'DC-1', slug: 'dc-1' }));
  await until(service.webhooks, () => service.webhooks.deliveries(hook!)[0]?.status === 'failed');
  const [delivery] = service.webhooks.deliveries(hook!);
  t.is(delivery!.attempts, 1, 'a template that cannot render is not retried');
  t.regex(String(delivery!.last_error), /Range too big/);
  t.is((await fetch(`${service.url}/livez/`)).status, 200);
});
