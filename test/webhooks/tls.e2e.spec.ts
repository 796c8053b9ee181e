import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';

import test from 'ava';

import { selfSigned } from '../support/selfSigned.js';
import { startService } from '../support/startService.js';
import { until } from '../support/webhookReceiver.js';

test('SSL verification: a self-signed receiver is refused while verifying, reached with verification off or with its CA file', async (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'webhook-tls-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const files = selfSigned(dir);
  if (!files) {
    t.log('skipped: openssl is not available to make a certificate');
    t.pass();
    return;
  }
  const paths: string[] = [];
  const server = https.createServer({ key: readFileSync(files.key), cert: readFileSync(files.cert) }, (req, res) => {
    paths.push(req.url ?? '');
    req.resume();
    req.on('end', () => res.writeHead(200).end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const service = await startService({
    WEBHOOK_RETRY_BASE: '0.005',
    WEBHOOK_RETRY_MAX: '0.02',
    WEBHOOK_MAX_ATTEMPTS: '1',
  });
  t.teardown(async () => {
    await service.close();
    server.closeAllConnections();
    server.close();
  });
  const make = async (name: string, extra: Record<string, unknown>) =>
    (
      await service.api('POST', '/api/extras/webhooks/', {
        name,
        content_types: ['dcim.site'],
        type_create: true,
        payload_url: `${url}/${name}`,
        ...extra,
      })
    ).body.id as number;
  const verifying = await make('verifying', {});
  const unverified = await make('unverified', { ssl_verification: false });
  const withCa = await make('with-ca', { ca_file_path: files.cert });
  await service.api('POST', '/api/dcim/sites/', { name: 'S', slug: 's' });
  const settled = (id: number) => ['delivered', 'failed'].includes(service.webhooks.deliveries(id)[0]?.status ?? '');
  await until(service.webhooks, () => settled(verifying) && settled(unverified) && settled(withCa));

  t.like(service.webhooks.deliveries(verifying)[0], { status: 'failed', last_status_code: null });
  t.regex(service.webhooks.deliveries(verifying)[0].last_error ?? '', /self[- ]signed/i);
  t.like(service.webhooks.deliveries(unverified)[0], { status: 'delivered', last_status_code: 200 });
  t.like(service.webhooks.deliveries(withCa)[0], { status: 'delivered', last_status_code: 200 });
  t.deepEqual(paths.sort(), ['/unverified', '/with-ca']);
});
