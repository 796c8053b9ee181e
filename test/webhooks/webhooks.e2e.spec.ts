import { createHmac } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import test from 'ava';

import { startService, type TestService } from '../support/startService.js';
import { Receiver, until } from '../support/webhookReceiver.js';

/** Retries a few milliseconds apart, so that a receiver that is down costs the test no time. */
const FAST_RETRIES = { WEBHOOK_RETRY_BASE: '0.005', WEBHOOK_RETRY_MAX: '0.02' };

async function createWebhook(service: TestService, body: Record<string, unknown>) {
  const response = await service.api('POST', '/api/extras/webhooks/', {
    content_types: ['dcim.site'],
    type_create: true,
    ...body,
  });
  if (response.status !== 201) throw new Error(`webhook not created: ${JSON.stringify(response.body)}`);
  return response.body as { id: number };
}

test('a webhook fires on create, update and delete with the payload, headers and signature NetBox sends', async (t) => {
  const receiver = await Receiver.start();
  const service = await startService(FAST_RETRIES);
  t.teardown(async () => {
    await service.close();
    await receiver.stop();
  });
  const hook = await createWebhook(service, {
    name: 'all site changes',
    type_update: true,
    type_delete: true,
    payload_url: `${receiver.url}/hooks/{{ model }}`,
    additional_headers: 'X-Event: {{ event }}\nX-Static: yes',
    http_content_type: 'application/json; charset=utf-8',
    secret: 'hook-secret',
  });
  t.is(
    (await service.api('GET', `/api/extras/webhooks/${hook.id}/`)).body.secret,
    'hook-secret',
    'readers of the webhook see its secret, as in NetBox',
  );

  const created = await service.api('POST', '/api/dcim/sites/', { name: 'DC-1', slug: 'dc-1' });
  const updated = await service.api('PATCH', `/api/dcim/sites/${created.body.id}/`, { description: 'edge' });
  const deleted = await service.api('DELETE', `/api/dcim/sites/${created.body.id}/`);
  const [c, u, d] = await receiver.receivedCount(3);

  t.is(c.method, 'POST');
  t.is(c.path, '/hooks/site');
  t.is(c.headers['content-type'], 'application/json; charset=utf-8');
  t.is(c.headers['x-event'], 'created');
  t.is(c.headers['x-static'], 'yes');
  t.is(c.headers['x-hook-signature'], createHmac('sha512', 'hook-secret').update(c.body).digest('hex'));
  t.deepEqual(Object.keys(c.json), ['event', 'timestamp', 'model', 'username', 'request_id', 'data', 'snapshots']);
  t.is(c.json.event, 'created');
  t.is(c.json.model, 'site');
  t.is(c.json.username, 'admin');
  t.is(c.json.request_id, created.headers.get('x-request-id'));
  t.regex(c.json.timestamp, /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(\.\d{6})?\+00:00$/);
  t.deepEqual(
    { ...c.json.data, last_updated: null, created: null },
    { ...created.body, last_updated: null, created: null },
    'data is the object in its API form',
  );
  t.is(c.json.snapshots.prechange, null);
  t.is(c.json.snapshots.postchange.name, 'DC-1');

  t.is(u.json.event, 'updated');
  t.is(u.headers['x-event'], 'updated');
  t.is(u.json.data.description, 'edge');
  t.is(u.json.snapshots.prechange.description, '');
  t.is(u.json.snapshots.postchange.description, 'edge');
  t.is(u.json.request_id, updated.headers.get('x-request-id'));

  t.is(d.json.event, 'deleted');
  t.is(d.json.data.name, 'DC-1', 'a deleted object is sent as it was');
  t.is(d.json.snapshots.postchange, null);
  t.is(d.json.request_id, deleted.headers.get('x-request-id'));

  const records = await service.api('GET', `/api/extras/webhooks/${hook.id}/deliveries/`);
  t.is(records.status, 200);
  t.is(records.body.count, 3);
  t.deepEqual(
    records.body.results.map((r: any) => [r.event, r.status, r.attempts, r.last_status_code, r.last_error]),
    [
      ['deleted', 'delivered', 1, 204, null],
      ['updated', 'delivered', 1, 204, null],
      ['created', 'delivered', 1, 204, null],
    ],
  );
});

test('conditions, content types, action flags and the enabled switch decide which changes are delivered', async (t) => {
  const receiver = await Receiver.start();
  const service = await startService(FAST_RETRIES);
  t.teardown(async () => {
    await service.close();
    await receiver.stop();
  });
  await createWebhook(service, {
    name: 'active sites',
    payload_url: `${receiver.url}/active`,
    conditions: { and: [{ attr: 'status.value', value: 'active' }] },
  });
  const disabled = await createWebhook(service, { name: 'off', payload_url: `${receiver.url}/off`, enabled: false });
  await createWebhook(service, {
    name: 'tenants',
    content_types: ['tenancy.tenant'],
    payload_url: `${receiver.url}/tenants`,
  });
  t.is((await service.api('PATCH', `/api/extras/webhooks/${disabled.id}/`, { enabled: false })).status, 200);

  await service.api('POST', '/api/dcim/sites/', { name: 'planned', slug: 'planned', status: 'planned' });
  const active = await service.api('POST', '/api/dcim/sites/', { name: 'live', slug: 'live', status: 'active' });
  await service.api('PATCH', `/api/dcim/sites/${active.body.id}/`, { description: 'updates are not asked for' });
  await service.api('POST', '/api/tenancy/tenants/', { name: 'T1', slug: 't1' });
  const received = await receiver.receivedCount(2);
  // Changes are delivered in log order: anything the planned site or the update had triggered would have come first.
  t.deepEqual(
    received.map((r) => [r.path, r.json.data.name]),
    [
      ['/active', 'live'],
      ['/tenants', 'T1'],
    ],
  );
});

test('webhook rules: a type chosen, conditions well formed, a CA file only with SSL verification, the URL and types unique', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const base = { name: 'w', content_types: ['dcim.site'], payload_url: 'http://127.0.0.1:9/' };
  const none = await service.api('POST', '/api/extras/webhooks/', base);
  t.is(none.status, 400);
  t.deepEqual(none.body, { __all__: ['At least one type must be selected: create, update, and/or delete.'] });
  const conditions = await service.api('POST', '/api/extras/webhooks/', {
    ...base,
    type_create: true,
    conditions: { and: [{ attr: 'name', value: 'x', op: 'gt' }] },
  });
  t.deepEqual(conditions.body, { conditions: ["Invalid type for gt operation: <class 'str'>"] });
  const lookahead = await service.api('POST', '/api/extras/webhooks/', {
    ...base,
    type_create: true,
    conditions: { and: [{ attr: 'name', value: 'a(?=b)', op: 'regex' }] },
  });
  t.is(lookahead.status, 400);
  t.regex(lookahead.body.conditions?.[0] ?? '', /^a\(\?=b\) is not supported: .*lookarounds/);
  const ca = await service.api('POST', '/api/extras/webhooks/', {
    ...base,
    type_create: true,
    ssl_verification: false,
    ca_file_path: '/etc/ca.pem',
  });
  t.deepEqual(ca.body, { ca_file_path: ['Do not specify a CA certificate file if SSL verification is disabled.'] });
  const type = await service.api('POST', '/api/extras/webhooks/', {
    ...base,
    type_create: true,
    content_types: ['dcim.nothing'],
  });
  t.deepEqual(type.body, { content_types: ['Invalid content type: dcim.nothing'] });
  t.is((await service.api('POST', '/api/extras/webhooks/', { ...base, type_create: true })).status, 201);
  const twice = await service.api('POST', '/api/extras/webhooks/', { ...base, name: 'w2', type_create: true });
  t.deepEqual(twice.body, {
    __all__: ['Webhook with this URL, Type create, Type update and Type delete already exists.'],
  });
  const filtered = await service.api('GET', '/api/extras/webhooks/?content_types=dcim.site');
  t.is(filtered.body.count, 1);
  t.is((await service.api('GET', '/api/extras/webhooks/?content_types=dcim.device')).body.count, 0);
  t.is((await service.api('GET', '/api/extras/webhooks/?content_types__n=dcim.site')).body.count, 0);
});

test('a receiver that is down for a while gets every delivery once it is back, in log order; writes never wait for it', async (t) => {
  const receiver = await Receiver.start();
  receiver.failWith = 503;
  const service = await startService(FAST_RETRIES);
  t.teardown(async () => {
    await service.close();
    await receiver.stop();
  });
  const hook = await createWebhook(service, { name: 'flaky', payload_url: `${receiver.url}/` });
  for (let i = 1; i <= 5; i++)
    t.is((await service.api('POST', '/api/dcim/sites/', { name: `S${i}`, slug: `s${i}` })).status, 201);
  // Down: the first change is retried, and the later ones wait behind it.
  const head = service.services.log.head();
  await until(
    service.webhooks,
    () =>
      service.webhooks.position >= head &&
      (service.webhooks.deliveries(hook.id).find((d) => d.status === 'pending' && d.attempts >= 3) ?? null) !== null,
  );
  const waiting = await service.api('GET', `/api/extras/webhooks/${hook.id}/deliveries/?status=pending`);
  t.is(waiting.body.count, 5);
  const first = waiting.body.results.at(-1);
  t.true(first.attempts >= 3);
  t.is(first.last_status_code, 503);
  t.regex(first.last_error, /Status 503 returned with content 'receiver down'/);
  t.truthy(first.last_attempt);
  t.truthy(first.next_attempt);
  t.true(
    waiting.body.results.slice(0, 4).every((d: any) => d.attempts === 0),
    'later changes wait behind the first',
  );

  receiver.failWith = null;
  const received = await receiver.receivedCount(5);
  t.deepEqual(
    received.map((r) => r.json.data.name),
    ['S1', 'S2', 'S3', 'S4', 'S5'],
  );
  await until(service.webhooks, () => service.webhooks.deliveries(hook.id).every((d) => d.status === 'delivered'));
  const done = await service.api('GET', `/api/extras/webhooks/${hook.id}/deliveries/?status=delivered&limit=1`);
  t.is(done.body.count, 5);
  t.is(done.body.results.length, 1);
  t.truthy(done.body.next);
});

test('a delivery is given up after the last attempt, recorded as failed with its last error', async (t) => {
  const receiver = await Receiver.start();
  receiver.failWith = 500;
  const service = await startService({ ...FAST_RETRIES, WEBHOOK_MAX_ATTEMPTS: '2' });
  t.teardown(async () => {
    await service.close();
    await receiver.stop();
  });
  const hook = await createWebhook(service, { name: 'broken', payload_url: `${receiver.url}/` });
  await service.api('POST', '/api/dcim/sites/', { name: 'S1', slug: 's1' });
  await until(service.webhooks, () => service.webhooks.deliveries(hook.id)[0]?.status === 'failed');
  const [record] = (await service.api('GET', `/api/extras/webhooks/${hook.id}/deliveries/?status=failed`)).body.results;
  t.like(record, {
    status: 'failed',
    attempts: 2,
    last_status_code: 500,
    event: 'created',
    object_type: 'dcim.site',
    next_attempt: null,
  });
  t.regex(record.last_error, /Status 500/);
  t.is(receiver.refused.length, 2);
  const bad = await service.api('GET', `/api/extras/webhooks/${hook.id}/deliveries/?status=bogus`);
  t.is(bad.status, 400);
});

test('a restart resumes delivery where it stopped: changes made while the receiver was off are all delivered, in order', async (t) => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'netledger-webhooks-'));
  const receiver = await Receiver.start();
  const port = receiver.port;
  await receiver.stop(); // nothing listens: connections are refused
  let service = await startService(FAST_RETRIES, dataDir);
  t.teardown(async () => {
    await service.close();
    await receiver.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });
  const hook = await createWebhook(service, {
    name: 'resumes',
    type_update: true,
    payload_url: `http://127.0.0.1:${port}/`,
  });
  const site = await service.api('POST', '/api/dcim/sites/', { name: 'A', slug: 'a' });
  await service.api('PATCH', `/api/dcim/sites/${site.body.id}/`, { name: 'B' });
  await service.api('POST', '/api/dcim/sites/', { name: 'C', slug: 'c' });
  const head = service.services.log.head();
  await until(
    service.webhooks,
    () => service.webhooks.position >= head && (service.webhooks.deliveries(hook.id)[2]?.attempts ?? 0) >= 1,
  );
  t.is(service.webhooks.deliveries(hook.id)[2].last_status_code, null);
  t.regex(service.webhooks.deliveries(hook.id)[2].last_error ?? '', /ECONNREFUSED/);
  await service.close();

  await receiver.start(); // the same port again
  service = await startService(FAST_RETRIES, dataDir);
  await service.api('POST', '/api/dcim/sites/', { name: 'D', slug: 'd' });
  const received = await receiver.receivedCount(4);
  t.deepEqual(
    received.map((r) => [r.json.event, r.json.data.name]),
    [
      ['created', 'A'],
      ['updated', 'B'],
      ['created', 'C'],
      ['created', 'D'],
    ],
  );
  await until(service.webhooks, () => service.webhooks.deliveries(hook.id).every((d) => d.status === 'delivered'));
  t.is(service.webhooks.deliveries(hook.id).length, 4);
  t.true(
    service.webhooks.deliveries(hook.id)[3].attempts >= 2,
    'the first change was tried before the restart and after it',
  );
});

test('the secret is never in clear in the event log, object changes, the delivery state or log lines', async (t) => {
  const receiver = await Receiver.start();
  const lines: string[] = [];
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'netledger-webhooks-'));
  const service = await startService(FAST_RETRIES, dataDir, { logger: (entry) => lines.push(JSON.stringify(entry)) });
  t.teardown(async () => {
    await service.close();
    await receiver.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });
  const secret = 'Never-In-Clear-7f3a';
  const hook = await createWebhook(service, { name: 'signed', payload_url: `${receiver.url}/`, secret });
  await service.api('PATCH', `/api/extras/webhooks/${hook.id}/`, { secret: `${secret}-2` });
  await service.api('POST', '/api/dcim/sites/', { name: 'S', slug: 's' });
  const [delivery] = await receiver.receivedCount(1);
  t.is(
    delivery.headers['x-hook-signature'],
    createHmac('sha512', `${secret}-2`).update(delivery.body).digest('hex'),
    'signed with the secret as changed',
  );
  await until(service.webhooks, () => service.webhooks.deliveries(hook.id)[0]?.status === 'delivered');

  // Through the log's port: the file log's events.log, or the Kafka topic's messages.
  const logged: string[] = [];
  for await (const batch of service.services.log.read(1)) logged.push(JSON.stringify(batch));
  t.true(logged.length > 0);
  t.false(logged.some((batch) => batch.includes(secret)));
  t.false(readFileSync(path.join(dataDir, 'webhooks', 'deliveries.json'), 'utf8').includes(secret));
  const changes = await service.api('GET', '/api/extras/object-changes/?changed_object_type=extras.webhook');
  t.is(changes.body.count, 2);
  t.false(JSON.stringify(changes.body).includes(secret));
  t.false('secret' in changes.body.results[0].postchange_data);
  t.false(lines.some((line) => line.includes(secret)));
  const cleared = await service.api('PATCH', `/api/extras/webhooks/${hook.id}/`, { secret: '' });
  t.is(cleared.body.secret, '');
});

test('the deliveries view is documented in OpenAPI', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const document = await service.api('GET', '/api/schema/?format=json');
  const operation = document.body.paths['/api/extras/webhooks/{id}/deliveries/']?.get;
  t.truthy(operation);
  t.deepEqual(
    operation.parameters.map((p: any) => p.name),
    ['status', 'limit', 'offset'],
  );
});
