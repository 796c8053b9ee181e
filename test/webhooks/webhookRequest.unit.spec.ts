import { createHmac } from 'node:crypto';

import test from 'ava';

import type { ChangeEvent } from '../../src/events/ChangeEvent.js';
import { pythonTimestamp, webhookContext } from '../../src/webhooks/payload.js';
import { exhausted, retryDelay } from '../../src/webhooks/retrySchedule.js';
import {
  hookSignature,
  parseHeaders,
  pythonJson,
  type WebhookDefinition,
  webhookRequest,
} from '../../src/webhooks/webhookRequest.js';
import { renderWith, templatePool } from '../support/templates.js';

const pool = templatePool();
const renderTemplate = (code: string, context: Record<string, unknown>) => renderWith(pool, code, context);

const event: ChangeEvent = {
  v: 3,
  eventId: '2f6c7a52-5d1c-4d38-9a50-0d4b1c0e8f01',
  position: 42,
  requestId: 'fdbca812-3142-4783-b364-2e2bd5c16c6a',
  time: '2021-03-09T17:55:33.968016Z',
  user: { id: 1, username: 'jstretch' },
  action: 'create',
  objectType: 'dcim.site',
  objectId: 7,
  objectRepr: 'Site 1',
  prechange: null,
  postchange: { name: 'Site 1', slug: 'site-1' },
};
const data = { id: 7, name: 'Site 1', slug: 'site-1', status: { value: 'active', label: 'Active' } };
const context = webhookContext(event, data, { prechange: null, postchange: { name: 'Site 1', slug: 'site-1' } });

const webhook: WebhookDefinition = {
  payload_url: 'http://127.0.0.1:1/hook',
  http_method: 'POST',
  http_content_type: 'application/json',
  additional_headers: '',
  body_template: '',
  secret: '',
};

test("the context has NetBox's keys: event in the past tense, Python's timestamp, the bare model name, username, request id", (t) => {
  t.deepEqual(Object.keys(context), ['event', 'timestamp', 'model', 'username', 'request_id', 'data', 'snapshots']);
  t.is(context.event, 'created');
  t.is(context.timestamp, '2021-03-09 17:55:33.968016+00:00');
  t.is(context.model, 'site');
  t.is(context.username, 'jstretch');
  t.is(context.request_id, event.requestId);
  t.is(pythonTimestamp('2021-03-09T17:55:33Z'), '2021-03-09 17:55:33+00:00', 'whole seconds print without a fraction');
  t.is(webhookContext({ ...event, action: 'delete' }, data, context.snapshots).event, 'deleted');
});

test('without a body template the body is the context as json.dumps prints it; no secret, no signature', async (t) => {
  const request = await webhookRequest(webhook, context, pool);
  t.is(request.body.slice(0, 60), '{"event": "created", "timestamp": "2021-03-09 17:55:33.96801');
  t.deepEqual(JSON.parse(request.body), JSON.parse(JSON.stringify(context)));
  t.deepEqual(request.headers, { 'Content-Type': 'application/json' });
  t.is(pythonJson({ a: 'é', b: [1, true, null] }), '{"a": "\\u00e9", "b": [1, true, null]}');
});

test('X-Hook-Signature is the HMAC-SHA512 of the exact body bytes with the secret, in hex', async (t) => {
  const request = await webhookRequest({ ...webhook, secret: 's3cret' }, context, pool);
  t.is(
    request.headers['X-Hook-Signature'],
    createHmac('sha512', 's3cret').update(Buffer.from(request.body, 'utf8')).digest('hex'),
  );
  t.is(hookSignature('abc', 'key').length, 128);
});

test("NetBox's documented templates render the same: body, headers with variables, payload URL", async (t) => {
  const slack = await webhookRequest(
    {
      ...webhook,
      payload_url: 'http://127.0.0.1:1/{{ model }}/{{ data.id }}',
      additional_headers: 'X-Model: {{ model }}\n\nAuthorization: Bearer abc: def',
      body_template:
        '{"text": "{{ event|upper }}: {{ model }} {{ data[\'name\'] }} by {{ username }}", "status": "{{ data.status.value }}"}',
    },
    context,
    pool,
  );
  t.is(slack.url, 'http://127.0.0.1:1/site/7');
  t.is(slack.body, '{"text": "CREATED: site Site 1 by jstretch", "status": "active"}');
  t.deepEqual(slack.headers, {
    'Content-Type': 'application/json',
    'X-Model': 'site',
    Authorization: 'Bearer abc: def',
  });
  t.is(
    await renderTemplate('{% for k, v in data.items() %}{{ k }}={{ v }};{% endfor %}', { data: { a: 1, b: 'x' } }),
    'a=1;b=x;',
  );
  t.is(await renderTemplate('{{ data | tojson }}', { data: { a: [1, '<b>'] } }), '{"a":[1,"<b>"]}');
  t.is(
    await renderTemplate(
      '{% if snapshots.prechange is none %}new{% endif %} {% if data.tenant %}t{% else %}no tenant{% endif %}',
      { snapshots: { prechange: null }, data: {} },
    ),
    'new no tenant',
  );
  t.throws(() => parseHeaders('no colon here'), { message: /no colon/ });
});

test('retries wait twice as long each time, never longer than the cap; a delivery is given up after the last attempt', (t) => {
  t.deepEqual(
    [1, 2, 3, 4, 5, 6, 7, 8].map((n) => retryDelay(n, 1000, 30_000)),
    [1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000],
  );
  t.is(retryDelay(200, 1000, 300_000), 300_000, 'no overflow after many attempts');
  t.false(exhausted(19, 20));
  t.true(exhausted(20, 20));
  t.false(exhausted(1000, 0), '0: retried for ever');
});

test('templates reach no constructor or prototype, so they cannot run code in the service', async (t) => {
  const context = { data: { name: 'x' } };
  for (const code of [
    '{{ range.constructor("return typeof process")() }}',
    '{{ data.constructor.constructor("return 1")() }}',
    '{{ cycler.constructor("return 1")() }}',
    '{{ constructor.constructor("return 1")() }}',
  ]) {
    await t.throwsAsync(renderTemplate(code, context), undefined, code);
  }
  t.is(await renderTemplate('[{{ data["__proto__"] }}][{{ data.prototype }}][{{ __proto__ }}]', context), '[][][]');
  t.is(
    await renderTemplate('{{ data.name }} {{ data.items() | length }}', context),
    'x 1',
    'ordinary lookups still work',
  );
});
