import http from 'node:http';
import type { AddressInfo } from 'node:net';

import test, { type ExecutionContext } from 'ava';

import { ADMIN_TOKEN, startService, type TestService } from '../support/startService.js';
import { until } from '../support/webhookReceiver.js';

const FAST_RETRIES = { WEBHOOK_RETRY_BASE: '0.005', WEBHOOK_RETRY_MAX: '0.02' };

/** A reverse proxy in front of the service (on another port): a webhook pointed at it reaches the service unrecognised. */
async function proxyTo(t: ExecutionContext, service: TestService): Promise<string> {
  const target = new URL(service.url);
  const server = http.createServer((req, res) => {
    const { host: _host, ...headers } = req.headers;
    const forwarded = http.request(
      { host: target.hostname, port: target.port, path: req.url, method: req.method, headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forwarded.on('error', () => res.writeHead(502).end());
    req.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => {
    server.closeAllConnections();
    server.close();
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/**
 * `count` webhooks whose receiver (through the proxy) creates one more tenant for each tenant
 * delivered; a client's tenant is created, and the test waits until every webhook has `records`
 * finished delivery records.
 */
async function echoChain(t: ExecutionContext, service: TestService, proxy: string, count: number, records: number) {
  const hooks: number[] = [];
  for (let n = 1; n <= count; n++) {
    const created = await service.api('POST', '/api/extras/webhooks/', {
      name: `tenant echo ${n}`,
      content_types: ['tenancy.tenant'],
      type_create: true,
      payload_url: `${proxy}/api/tenancy/tenants/?hook=${n}`,
      additional_headers: `Authorization: Token ${ADMIN_TOKEN}\nAccept: application/json`,
      body_template: `{"name": "h${n}-{{ data.name }}", "slug": "h${n}-{{ data.slug }}"}`,
    });
    t.is(created.status, 201, JSON.stringify(created.body));
    hooks.push((created.body as { id: number }).id);
  }
  t.is((await service.api('POST', '/api/tenancy/tenants/', { name: 't', slug: 't' })).status, 201);
  const settled = () =>
    hooks.every((id) => {
      const finished = service.webhooks.deliveries(id);
      return finished.length === records && finished.every((d) => d.status !== 'pending');
    });
  await until(service.webhooks, settled);
  return hooks;
}

async function tenantCount(service: TestService): Promise<number> {
  return ((await service.api('GET', '/api/tenancy/tenants/?limit=1')).body as { count: number }).count;
}

test('webhooks whose receiver writes to the service again stop after one hop: their deliveries are recorded as failed, not multiplied', async (t) => {
  t.timeout(30_000);
  const service = await startService({ ...FAST_RETRIES, WEBHOOK_MAX_DEPTH: '1' });
  t.teardown(() => service.close());
  const proxy = await proxyTo(t, service);
  // Each webhook delivers the client's tenant (its receiver makes one more), and records the
  // three tenants those deliveries made as failed: 4 tenants, not a growing number.
  const hooks = await echoChain(t, service, proxy, 3, 4);
  t.is(await tenantCount(service), 4);
  for (const id of hooks) {
    const records = service.webhooks.deliveries(id);
    t.deepEqual(records.map((d) => d.status).sort(), ['delivered', 'failed', 'failed', 'failed']);
    for (const failed of records.filter((d) => d.status === 'failed')) {
      t.is(failed.attempts, 0);
      t.regex(failed.last_error!, /^not sent: the change was requested by a webhook delivery \(depth 1\)/);
    }
  }
  // A client forging the header cannot keep its own changes from firing webhooks.
  const forged = await service.api(
    'POST',
    '/api/tenancy/tenants/',
    { name: 'f', slug: 'f' },
    { 'X-Netledger-Webhook-Hop': `5.${Date.now() + 60_000}.${'0'.repeat(64)}` },
  );
  t.is(forged.status, 201);
  await until(service.webhooks, () =>
    hooks.every((id) =>
      service.webhooks.deliveries(id).some((d) => d.object_id === forged.body.id && d.status === 'delivered'),
    ),
  );
});

test('with the default depth (2) echoing webhooks make a bounded number of changes: fan-out squared, then failed records', async (t) => {
  t.timeout(30_000);
  const service = await startService(FAST_RETRIES);
  t.teardown(() => service.close());
  const proxy = await proxyTo(t, service);
  // The client's tenant (depth 0) makes 2 (depth 1), which make 4 (depth 2), which fire nothing.
  const hooks = await echoChain(t, service, proxy, 2, 7);
  t.is(await tenantCount(service), 7);
  for (const id of hooks) {
    t.deepEqual(
      service.webhooks
        .deliveries(id)
        .map((d) => d.status)
        .sort(),
      [...Array(3).fill('delivered'), ...Array(4).fill('failed')],
    );
  }
});

test("a payload URL at the service's own address is refused when written, and when a template renders it, at delivery (failed at once)", async (t) => {
  t.timeout(20_000);
  const service = await startService(FAST_RETRIES);
  t.teardown(() => service.close());
  const port = new URL(service.url).port;
  const base = { content_types: ['tenancy.tenant'], type_create: true };
  for (const url of [
    `${service.url}/api/tenancy/tenants/`,
    `http://localhost:${port}/x`,
    `http://[::1]:${port}/`,
    `http://127.0.0.2:${port}/`,
  ]) {
    const refused = await service.api('POST', '/api/extras/webhooks/', { ...base, name: url, payload_url: url });
    t.is(refused.status, 400, url);
    t.deepEqual(Object.keys(refused.body), ['payload_url']);
    t.regex(refused.body.payload_url[0], /own address/);
  }
  t.is(
    (
      await service.api('POST', '/api/extras/webhooks/', {
        ...base,
        name: 'other port',
        payload_url: `http://127.0.0.1:${Number(port) === 9 ? 10 : 9}/`,
      })
    ).status,
    201,
  );

  const templated = await service.api('POST', '/api/extras/webhooks/', {
    ...base,
    name: 'templated',
    payload_url: `http://127.0.0.1:{{ "${port}" }}/api/tenancy/tenants/`,
  });
  t.is(templated.status, 201, 'a template is rendered only at delivery');
  await service.api('POST', '/api/tenancy/tenants/', { name: 'a', slug: 'a' });
  await service.api('POST', '/api/tenancy/tenants/', { name: 'b', slug: 'b' });
  const id = templated.body.id as number;
  await until(
    service.webhooks,
    () =>
      service.webhooks.deliveries(id).length === 2 &&
      service.webhooks.deliveries(id).every((d) => d.status === 'failed'),
  );
  for (const record of service.webhooks.deliveries(id)) {
    t.is(record.attempts, 1, 'not retried: it can never succeed');
    t.is(record.last_error, `payload URL refused: 127.0.0.1:${port} is this service's own address`);
  }
  t.is(await tenantCount(service), 2);
});
