import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import test from 'ava';

import { WebhookHops } from '../../src/auth/webhookHop.js';
import type { ChangeEvent } from '../../src/events/ChangeEvent.js';
import type { BatchHandler, ResumePoint } from '../../src/events/EventLog.js';
import { RetriesExhaustedError, retryTransient } from '../../src/projections/retryTransient.js';
import type { TransportResult } from '../../src/webhooks/sendRequest.js';
import type { WebhookRequest } from '../../src/webhooks/webhookRequest.js';
import { isStoreUnavailable, WebhookWorker, type WebhookWorkerOptions } from '../../src/webhooks/WebhookWorker.js';
import { MemoryEventLog } from '../support/MemoryEventLog.js';
import { templatePool } from '../support/templates.js';
import { until } from '../support/webhookReceiver.js';

const templates = templatePool();

function event(
  objectType: string,
  objectId: number,
  action: ChangeEvent['action'],
  postchange: Record<string, unknown> | null,
  at: number,
): ChangeEvent {
  return {
    v: 3,
    eventId: randomUUID(),
    position: at,
    requestId: randomUUID(),
    time: '2026-01-01T00:00:00.000000Z',
    user: null,
    action,
    objectType,
    objectId,
    objectRepr: String(postchange?.name ?? objectId),
    prechange: null,
    postchange,
  };
}

function hook(id: number, url: string, at: number): ChangeEvent {
  return event(
    'extras.webhook',
    id,
    'create',
    {
      name: `hook ${id}`,
      content_types: ['dcim.site'],
      type_create: true,
      type_update: false,
      type_delete: false,
      enabled: true,
      payload_url: url,
      http_method: 'POST',
      http_content_type: 'application/json',
      additional_headers: '',
      body_template: '{{ data.name }}',
      secret_sealed: null,
      conditions: null,
      ssl_verification: true,
      ca_file_path: null,
    },
    at,
  );
}

/** A worker over an in-memory log whose transport answers per URL as `answer` says. */
function workerFor(
  log: MemoryEventLog,
  stateFile: string,
  answer: (request: WebhookRequest) => TransportResult,
  sent: WebhookRequest[],
  onFailed?: (error: Error) => void,
  overrides: Partial<WebhookWorkerOptions> = {},
) {
  const options: WebhookWorkerOptions = {
    log,
    stateFile,
    renderer: {
      data: async (e) => ({ id: e.objectId, name: (e.postchange ?? e.prechange)?.name }),
      snapshots: () => ({ prechange: null, postchange: null }),
      secret: () => '',
    },
    templates,
    initial: async () => ({ position: 0, webhooks: [] }),
    retryBaseMs: 1,
    retryMaxMs: 2,
    maxAttempts: 0,
    timeoutMs: 1000,
    send: async (request) => {
      sent.push(request);
      return answer(request);
    },
    logger: () => {},
    onFailed,
    ...overrides,
  };
  return new WebhookWorker(options);
}

test('a webhook whose receiver is down holds up only its own queue; every queue keeps log order', async (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'webhook-worker-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const log = new MemoryEventLog();
  await log.open();
  let position = 0;
  await log.append([hook(1, 'http://up/', ++position), hook(2, 'http://down/', ++position)]);
  const sent: WebhookRequest[] = [];
  let downAnswers = true;
  const worker = workerFor(
    log,
    path.join(dir, 'state.json'),
    (r) => (r.url === 'http://down/' && downAnswers ? { status: 503, error: 'down' } : { status: 200, error: null }),
    sent,
  );
  await worker.start();
  t.teardown(() => worker.stop());
  for (const name of ['a', 'b', 'c']) await log.append([event('dcim.site', position, 'create', { name }, ++position)]);

  await until(
    worker,
    () =>
      worker.deliveries(1).every((d) => d.status === 'delivered') &&
      worker.deliveries(1).length === 3 &&
      (worker.deliveries(2).at(-1)?.attempts ?? 0) >= 3,
  );
  t.deepEqual(
    sent.filter((r) => r.url === 'http://up/').map((r) => r.body),
    ['a', 'b', 'c'],
  );
  t.deepEqual(
    worker.deliveries(2).map((d) => [d.status, d.attempts > 0]),
    [
      ['pending', false],
      ['pending', false],
      ['pending', true],
    ],
  );

  downAnswers = false;
  await until(worker, () => worker.deliveries(2).every((d) => d.status === 'delivered'));
  t.deepEqual(
    sent
      .filter((r) => r.url === 'http://down/' && r.body)
      .map((r) => r.body)
      .slice(-3),
    ['a', 'b', 'c'],
  );
});

test('a new worker on the saved state resends what was pending and dispatches from the saved position, not from the start', async (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'webhook-worker-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const log = new MemoryEventLog();
  await log.open();
  let position = 0;
  await log.append([hook(1, 'http://one/', ++position)]);
  await log.append([event('dcim.site', 1, 'create', { name: 'delivered before' }, ++position)]);
  const stateFile = path.join(dir, 'state.json');
  const firstSent: WebhookRequest[] = [];
  let fail = false;
  const first = workerFor(
    log,
    stateFile,
    () => (fail ? { status: null, error: 'ECONNREFUSED' } : { status: 200, error: null }),
    firstSent,
  );
  await first.start();
  await until(first, () => first.deliveries(1)[0]?.status === 'delivered');
  fail = true;
  await log.append([event('dcim.site', 2, 'create', { name: 'pending at stop' }, ++position)]);
  await until(
    first,
    () => (first.deliveries(1)[0]?.attempts ?? 0) >= 1 && first.deliveries(1)[0].position === position,
  );
  await first.stop();

  await log.append([event('dcim.site', 3, 'create', { name: 'made while stopped' }, ++position)]);
  const secondSent: WebhookRequest[] = [];
  const second = workerFor(log, stateFile, () => ({ status: 200, error: null }), secondSent);
  await second.start();
  t.teardown(() => second.stop());
  await until(
    second,
    () => second.deliveries(1).length === 3 && second.deliveries(1).every((d) => d.status === 'delivered'),
  );
  t.deepEqual(
    secondSent.map((r) => r.body),
    ['pending at stop', 'made while stopped'],
  );
  t.true(
    second.deliveries(1).find((d) => d.position === 3)!.attempts >= 2,
    'the failed attempts before the stop count',
  );
});

test('the worker keeps the cursor the log hands with each batch beside its position, and a new worker resumes the log with it', async (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'webhook-worker-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const memory = new MemoryEventLog();
  await memory.open();
  // A log that, like Kafka's, hands a cursor with every batch and takes one back.
  const resumes: Array<ResumePoint | null | undefined> = [];
  const log = Object.assign(Object.create(memory) as MemoryEventLog, {
    subscribe: (from: number, onBatch: BatchHandler, resume?: ResumePoint | null) => {
      resumes.push(resume);
      return memory.subscribe(from, (events) => onBatch(events, `test:${events.at(-1)!.position}`));
    },
  });
  let position = 0;
  await memory.append([hook(1, 'http://one/', ++position)]);
  await memory.append([event('dcim.site', 1, 'create', { name: 'a' }, ++position)]);
  const stateFile = path.join(dir, 'state.json');
  const first = workerFor(log, stateFile, () => ({ status: 200, error: null }), []);
  await first.start();
  await until(first, () => first.deliveries(1)[0]?.status === 'delivered');
  await first.stop();
  t.deepEqual(JSON.parse(readFileSync(stateFile, 'utf8')).resume, { position: 2, cursor: 'test:2' });

  const second = workerFor(log, stateFile, () => ({ status: 200, error: null }), []);
  await second.start();
  t.teardown(() => second.stop());
  t.deepEqual(resumes, [null, { position: 2, cursor: 'test:2' }]);
});

/** A log whose subscriptions catch up like the memory log's, then end in failure when the test says (Kafka: the consumer gave up). */
async function logFailingAfterCatchUp() {
  const memory = new MemoryEventLog();
  await memory.open();
  const ending = { fail: (_error: Error) => {} };
  const log = Object.assign(Object.create(memory) as MemoryEventLog, {
    subscribe: (from: number, onBatch: BatchHandler) => {
      const subscription = memory.subscribe(from, onBatch);
      const done = new Promise<void>((_resolve, reject) => (ending.fail = reject));
      return { caughtUp: subscription.caughtUp, done, stop: () => subscription.stop() };
    },
  });
  return { log, ending };
}

test("the worker's subscription failing after the catch-up is reported once, as the projector's is (the service then restarts), not only logged", async (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'webhook-worker-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const { log, ending } = await logFailingAfterCatchUp();
  const failures: Error[] = [];
  let reported: () => void = () => {};
  const failed = new Promise<void>((resolve) => (reported = resolve));
  const worker = workerFor(
    log,
    path.join(dir, 'state.json'),
    () => ({ status: 200, error: null }),
    [],
    (error) => {
      failures.push(error);
      reported();
    },
  );
  await worker.start();
  t.teardown(() => worker.stop());
  t.is(worker.failed, null);
  ending.fail(new Error('TOPIC_AUTHORIZATION_FAILED'));
  await failed;
  t.deepEqual(
    failures.map((e) => e.message),
    ['TOPIC_AUTHORIZATION_FAILED'],
  );
  t.is(worker.failed?.message, 'TOPIC_AUTHORIZATION_FAILED');
});

test("the worker's subscription ending after stop() is not a failure", async (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'webhook-worker-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const { log, ending } = await logFailingAfterCatchUp();
  const failures: Error[] = [];
  const worker = workerFor(
    log,
    path.join(dir, 'state.json'),
    () => ({ status: 200, error: null }),
    [],
    (error) => failures.push(error),
  );
  await worker.start();
  await worker.stop();
  ending.fail(new Error('closed during delivery'));
  await new Promise((resolve) => setImmediate(resolve)); // the rejection's handlers have run
  t.deepEqual(failures, []);
  t.is(worker.failed, null);
});

/** A memory log whose subscriptions end in failure when the handler throws, as the file log's do (`done` rejects). */
async function logEndingOnHandlerFailure() {
  const memory = new MemoryEventLog();
  await memory.open();
  const log = Object.assign(Object.create(memory) as MemoryEventLog, {
    subscribe: (from: number, onBatch: BatchHandler) => {
      let end: (error: unknown) => void = () => {};
      const done = new Promise<void>((_resolve, reject) => (end = reject));
      const subscription = memory.subscribe(from, async (events) => {
        try {
          await onBatch(events);
        } catch (error) {
          end(error);
          throw error;
        }
      });
      return { caughtUp: subscription.caughtUp, done, stop: () => subscription.stop() };
    },
  });
  return { memory, log };
}

/** A renderer that throws `error` for the objects named in `failing`, and renders the rest. */
function rendererFailingFor(failing: Set<string>, error: () => Error): WebhookWorkerOptions['renderer'] {
  return {
    data: async (e) => {
      const name = String((e.postchange ?? e.prechange)?.name);
      if (failing.has(name)) throw error();
      return { id: e.objectId, name };
    },
    snapshots: () => ({ prechange: null, postchange: null }),
    secret: () => '',
  };
}

function conditionalHook(id: number, url: string, conditions: unknown, at: number): ChangeEvent {
  const created = hook(id, url, at);
  return { ...created, postchange: { ...created.postchange, conditions } };
}

test('a webhook with conditions: a payload the store could not render is not taken for conditions not met, and the position stays before it', async (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'webhook-worker-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const { memory, log } = await logEndingOnHandlerFailure();
  let position = 0;
  await memory.append([conditionalHook(1, 'http://one/', { and: [{ attr: 'name', value: 'b' }] }, ++position)]);
  const logged: Array<Record<string, unknown>> = [];
  const failures: Error[] = [];
  let reported: () => void = () => {};
  const failed = new Promise<void>((resolve) => (reported = resolve));
  const storeDown = () => new RetriesExhaustedError(7, 60_000, new Error('connection refused'));
  const worker = workerFor(
    log,
    path.join(dir, 'state.json'),
    () => ({ status: 200, error: null }),
    [],
    (error) => {
      failures.push(error);
      reported();
    },
    { renderer: rendererFailingFor(new Set(['b']), storeDown), logger: (entry) => logged.push(entry) },
  );
  await worker.start();
  t.teardown(() => worker.stop());
  await memory.append([event('dcim.site', 1, 'create', { name: 'b' }, ++position)]);
  // Without the fix the change is passed over (position moves on, no failure reported).
  await Promise.race([failed, until(worker, () => worker.position >= position)]);
  t.is(failures.length, 1);
  t.true(failures[0] instanceof RetriesExhaustedError);
  t.is(worker.position, position - 1, 'the change is dispatched again after the restart');
  t.deepEqual(worker.deliveries(1), []);
  t.false(logged.some((entry) => String(entry.msg).includes('conditions not evaluated')));
});

test("a malformed condition is still the webhook's fault: warned about and skipped, other webhooks delivered", async (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'webhook-worker-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const { memory, log } = await logEndingOnHandlerFailure();
  let position = 0;
  await memory.append([
    conditionalHook(1, 'http://bad/', { xor: [] }, ++position),
    hook(2, 'http://good/', ++position),
  ]);
  const logged: Array<Record<string, unknown>> = [];
  const failures: Error[] = [];
  const sent: WebhookRequest[] = [];
  const worker = workerFor(
    log,
    path.join(dir, 'state.json'),
    () => ({ status: 200, error: null }),
    sent,
    (error) => failures.push(error),
    {
      logger: (entry) => logged.push(entry),
    },
  );
  await worker.start();
  t.teardown(() => worker.stop());
  await memory.append([event('dcim.site', 1, 'create', { name: 'a' }, ++position)]);
  await until(worker, () => worker.deliveries(2)[0]?.status === 'delivered');
  t.is(worker.position, position);
  t.deepEqual(worker.deliveries(1), []);
  t.deepEqual(
    sent.map((r) => r.url),
    ['http://good/'],
  );
  t.true(
    logged.some(
      (entry) => entry.level === 'warn' && String(entry.msg).startsWith('webhook 1: conditions not evaluated'),
    ),
  );
  t.deepEqual(failures, []);
});

test('a change whose payload fails to render for its own reason is recorded as a failed delivery and logged; later changes are delivered, nothing is fatal', async (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'webhook-worker-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const { memory, log } = await logEndingOnHandlerFailure();
  let position = 0;
  await memory.append([
    hook(1, 'http://one/', ++position),
    conditionalHook(2, 'http://two/', { and: [{ attr: 'name', value: 'never' }] }, ++position),
  ]);
  const logged: Array<Record<string, unknown>> = [];
  const failures: Error[] = [];
  let reported: () => void = () => {};
  const failed = new Promise<void>((resolve) => (reported = resolve));
  const sent: WebhookRequest[] = [];
  const worker = workerFor(
    log,
    path.join(dir, 'state.json'),
    () => ({ status: 200, error: null }),
    sent,
    (error) => {
      failures.push(error);
      reported();
    },
    {
      renderer: rendererFailingFor(
        new Set(['broken']),
        () => new TypeError("Cannot read properties of undefined (reading 'slug')"),
      ),
      logger: (entry) => logged.push(entry),
    },
  );
  await worker.start();
  t.teardown(() => worker.stop());
  const broken = ++position;
  await memory.append([event('dcim.site', 1, 'create', { name: 'broken' }, broken)]);
  await memory.append([event('dcim.site', 2, 'create', { name: 'after' }, ++position)]);
  // Without the fix the worker stops at the broken change (the service would restart into it again).
  await Promise.race([
    failed,
    until(worker, () => worker.deliveries(1).some((d) => d.position === position && d.status === 'delivered')),
  ]);
  t.deepEqual(failures, [], 'not fatal');
  t.is(worker.failed, null);
  t.is(worker.position, position);
  t.deepEqual(
    sent.map((r) => r.body),
    ['after'],
  );
  for (const id of [1, 2]) {
    t.like(
      worker.deliveries(id).find((d) => d.position === broken),
      {
        status: 'failed',
        attempts: 0,
        event: 'created',
        object_type: 'dcim.site',
        object_id: 1,
        last_error: "payload not rendered: Cannot read properties of undefined (reading 'slug')",
      },
      `webhook ${id}`,
    );
  }
  const errors = logged.filter((entry) => entry.level === 'error');
  t.deepEqual(
    errors.map((entry) => [entry.webhook, entry.position]),
    [
      [1, broken],
      [2, broken],
    ],
  );
  t.regex(
    String(errors[0]!.msg),
    /^webhook 1: change \d+ not delivered: its payload could not be rendered: Cannot read properties/,
  );
});

test('a payload not rendered because the read store stayed down past its retry budget still stops the worker before that change, and a restart delivers it', async (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'webhook-worker-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const { memory, log } = await logEndingOnHandlerFailure();
  let position = 0;
  await memory.append([hook(1, 'http://one/', ++position)]);
  const stateFile = path.join(dir, 'state.json');
  const failures: Error[] = [];
  let reported: () => void = () => {};
  const failed = new Promise<void>((resolve) => (reported = resolve));
  // As the store's retrying() ends it: transient failures that outlasted the budget (0 here: no wait).
  const storeDown = rendererFailingFor(new Set(), () => new Error('unused'));
  storeDown.data = (e) =>
    retryTransient(
      async () => {
        throw new Error(`connection refused reading the neighbours of ${e.objectId}`);
      },
      () => true,
      { firstDelayMs: 1, maxDelayMs: 1, budgetMs: 0 },
    );
  const logged: Array<Record<string, unknown>> = [];
  const first = workerFor(
    log,
    stateFile,
    () => ({ status: 200, error: null }),
    [],
    (error) => {
      failures.push(error);
      reported();
    },
    { renderer: storeDown, logger: (entry) => logged.push(entry) },
  );
  await first.start();
  await memory.append([event('dcim.site', 1, 'create', { name: 'a' }, ++position)]);
  await failed;
  t.is(failures.length, 1);
  t.true(failures[0] instanceof RetriesExhaustedError);
  t.is(first.position, position - 1);
  t.deepEqual(first.deliveries(1), [], 'nothing recorded: the change is dispatched again');
  t.false(logged.some((entry) => entry.level === 'error' && 'webhook' in entry));
  await first.stop();

  const sent: WebhookRequest[] = [];
  const second = workerFor(log, stateFile, () => ({ status: 200, error: null }), sent);
  await second.start();
  t.teardown(() => second.stop());
  await until(second, () => second.deliveries(1)[0]?.status === 'delivered');
  t.deepEqual(
    sent.map((r) => r.body),
    ['a'],
  );
});

test('a rendering failure the read store names its own (refused credentials: not transient, so not retried) counts as the store down, wherever it stands in the cause chain; a plain error does not', (t) => {
  class StoreOwn extends Error {}
  const own = (error: unknown) => error instanceof StoreOwn;
  t.true(isStoreUnavailable(new StoreOwn('Unauthorized'), own));
  t.true(isStoreUnavailable(new Error('rendering device 7', { cause: new StoreOwn('Unauthorized') }), own));
  t.false(isStoreUnavailable(new TypeError('serializer bug'), own));
  t.false(
    isStoreUnavailable(new StoreOwn('Unauthorized')),
    "without the store's judgement, only exhausted retries and unavailability count",
  );
  t.true(isStoreUnavailable(new RetriesExhaustedError(3, 1_000, new Error('connection refused'))));
});

test('a change a webhook delivery requested (at WEBHOOK_MAX_DEPTH) is recorded as failed, never sent; each request carries its signed hop depth', async (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'webhook-worker-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const log = new MemoryEventLog();
  await log.open();
  let position = 0;
  await log.append([hook(1, 'http://one/', ++position)]);
  const sent: WebhookRequest[] = [];
  const hops = new WebhookHops('key');
  const worker = workerFor(log, path.join(dir, 'state.json'), () => ({ status: 200, error: null }), sent, undefined, {
    hopToken: (depth, deadline) => hops.token(depth, deadline),
  });
  await worker.start();
  t.teardown(() => worker.stop());
  const byClient = ++position;
  await log.append([event('dcim.site', 1, 'create', { name: 'by a client' }, byClient)]);
  const byHook = ++position;
  await log.append([{ ...event('dcim.site', 2, 'create', { name: 'by a webhook' }, byHook), webhookDepth: 1 }]);
  const after = ++position;
  await log.append([event('dcim.site', 3, 'create', { name: 'after' }, after)]);
  await until(
    worker,
    () => worker.deliveries(1).length === 3 && worker.deliveries(1).every((d) => d.status !== 'pending'),
  );

  t.deepEqual(
    sent.map((r) => r.body),
    ['by a client', 'after'],
    'delivery goes on after the refused change',
  );
  t.is(hops.depth(sent[0]!.headers['X-Netledger-Webhook-Hop']), 1, "a client's change is sent at depth 1");
  t.like(
    worker.deliveries(1).find((d) => d.position === byHook),
    {
      status: 'failed',
      attempts: 0,
      last_status_code: null,
      last_error:
        'not sent: the change was requested by a webhook delivery (depth 1); changes at depth 1 or deeper fire no webhook (WEBHOOK_MAX_DEPTH)',
    },
  );
});

test('with a higher WEBHOOK_MAX_DEPTH a delivery-requested change is sent one hop deeper', async (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'webhook-worker-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const log = new MemoryEventLog();
  await log.open();
  await log.append([hook(1, 'http://one/', 1)]);
  const sent: WebhookRequest[] = [];
  const hops = new WebhookHops('key');
  const worker = workerFor(log, path.join(dir, 'state.json'), () => ({ status: 200, error: null }), sent, undefined, {
    maxDepth: 2,
    hopToken: (depth, deadline) => hops.token(depth, deadline),
  });
  await worker.start();
  t.teardown(() => worker.stop());
  await log.append([{ ...event('dcim.site', 1, 'create', { name: 'x' }, 2), webhookDepth: 1 }]);
  await log.append([{ ...event('dcim.site', 2, 'create', { name: 'y' }, 3), webhookDepth: 2 }]);
  await until(
    worker,
    () => worker.deliveries(1).length === 2 && worker.deliveries(1).every((d) => d.status !== 'pending'),
  );
  t.deepEqual(
    sent.map((r) => r.body),
    ['x'],
  );
  t.is(hops.depth(sent[0]!.headers['X-Netledger-Webhook-Hop']), 2);
  t.deepEqual(
    worker.deliveries(1).map((d) => d.status),
    ['failed', 'delivered'],
  );
});

test('hop tokens: a forged, damaged, foreign or expired one counts as none', (t) => {
  const hops = new WebhookHops('key');
  const now = Date.now();
  const token = hops.token(3, now);
  t.is(hops.depth(token, now), 3);
  t.is(hops.depth(token, now + 59_000), 3, 'honoured a while after the deadline (a late write)');
  t.is(hops.depth(token, now + 61_000), 0, 'expired');
  t.is(hops.depth(new WebhookHops('other key').token(3, now), now), 0);
  t.is(hops.depth(token.replace(/^3\./, '9.'), now), 0, 'the depth cannot be changed');
  t.is(hops.depth('1', now), 0);
  t.is(hops.depth(undefined, now), 0);
});
