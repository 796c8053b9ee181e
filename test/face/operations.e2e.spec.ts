import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import test from 'ava';

import { loadConfig } from '../../src/config.js';
import { start } from '../../src/main.js';
import { raw } from '../support/rawRequests.js';
import { ADMIN_TOKEN, startService } from '../support/startService.js';

test('one structured log line per request, with request id, user, status and duration, and never a token', async (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'netledger-log-'));
  const lines: string[] = [];
  const running = await start(
    loadConfig({
      DATA_DIR: dir,
      PORT: '0',
      HOST: '127.0.0.1',
      SUPERUSER_API_TOKEN: ADMIN_TOKEN,
      SECRET_KEY: 'k',
      SUPERUSER_PASSWORD: 'pw',
    }),
    (entry) => lines.push(JSON.stringify(entry)),
  );
  t.teardown(async () => {
    await running.stop();
    rmSync(dir, { recursive: true, force: true });
  });
  const auth = { Authorization: `Token ${ADMIN_TOKEN}`, 'Content-Type': 'application/json' };
  const created = await fetch(`${running.url}/api/users/tokens/`, {
    method: 'POST',
    headers: auth,
    body: JSON.stringify({ user: 1 }),
  });
  const newKey = ((await created.json()) as { key: string }).key;
  t.regex(newKey, /^[0-9a-f]{40}$/);
  await fetch(`${running.url}/api/dcim/sites/?limit=1`, { headers: { Authorization: `Token ${newKey}` } });
  await fetch(`${running.url}/api/dcim/sites/`, {
    headers: { Authorization: 'Token 1111111111111111111111111111111111111111' },
  });
  await fetch(`${running.url}/api/dcim/sites/`, {
    headers: { Authorization: `Token ${newKey}`, Accept: 'application/xml' },
  });
  await fetch(`${running.url}/api/users/tokens/provision/`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: 'pw' }),
  });
  const requests = lines.map((l) => JSON.parse(l)).filter((e) => e.method);
  t.true(requests.length >= 4);
  for (const entry of requests) {
    t.regex(entry.requestId, /^[0-9a-f-]{36}$/);
    t.true(Number.isInteger(entry.status));
    t.is(typeof entry.ms, 'number');
    t.true('user' in entry);
  }
  t.true(requests.some((e) => e.user === 'admin' && e.path === '/api/dcim/sites/'));
  t.true(
    requests.some((e) => e.status === 406),
    'refused requests are logged too',
  );
  const all = lines.join('\n');
  for (const secret of [ADMIN_TOKEN, newKey, '1111111111111111111111111111111111111111'])
    t.false(all.includes(secret), 'a token leaked into the log');
  t.false(/"password"|Authorization/i.test(all));
});

test('/metrics speaks the Prometheus text format: requests by route and status, latency histogram, projector and log gauges', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  await service.api('POST', '/api/extras/tags/', { name: 'a', slug: 'a' });
  await service.api('GET', '/api/dcim/sites/');
  await service.api('GET', '/api/dcim/sites/42/');
  await service.api('GET', '/api/dcim/sites/43/');
  const response = await raw(service, 'GET', '/metrics');
  t.is(response.status, 200);
  t.is(response.headers.get('content-type'), 'text/plain; version=0.0.4; charset=utf-8');
  const text = response.text;
  t.regex(text, /^# HELP netledger_http_requests_total /m);
  t.regex(text, /^# TYPE netledger_http_requests_total counter$/m);
  t.regex(text, /^netledger_http_requests_total\{method="GET",route="\/api\/dcim\/sites\/:id\/",status="404"\} 2$/m);
  t.regex(text, /^netledger_http_requests_total\{method="POST",route="\/api\/extras\/tags\/",status="201"\} 1$/m);
  t.regex(text, /^# TYPE netledger_http_request_duration_seconds histogram$/m);
  t.regex(
    text,
    /^netledger_http_request_duration_seconds_bucket\{method="GET",route="\/api\/dcim\/sites\/",le="\+Inf"\} 1$/m,
  );
  t.regex(text, /^netledger_http_request_duration_seconds_count\{method="GET",route="\/api\/dcim\/sites\/"\} 1$/m);
  t.regex(text, new RegExp(`^netledger_event_log_head ${service.services.log.head()}$`, 'm'));
  t.regex(text, /^netledger_projector_lag_events 0$/m);
  t.regex(text, /^netledger_event_log_size_bytes [1-9]\d*$/m);
  t.regex(text, /^netledger_writer_up 1$/m);
  // every sample line is `name{labels} value`
  for (const line of text.split('\n').filter((l) => l && !l.startsWith('#'))) {
    t.regex(line, /^[a-zA-Z_:][a-zA-Z0-9_:]*(\{[^}]*\})? -?[0-9.e+-]+$/, line);
  }
  // ids never become labels
  t.false(text.includes('/api/dcim/sites/42/'));
});

test('health: /healthz/ is 200 while the projector has caught up and 503 once the writer has stopped; /livez/ always 200', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const ok = await raw(service, 'GET', '/healthz/');
  t.is(ok.status, 200);
  t.like(JSON.parse(ok.text), { status: 'ok', projector: { lag: 0 }, writer: 'up' });
  t.is((await raw(service, 'GET', '/healthz')).status, 200);
  // An append failure that is not the storage's (a bug): the writer stops for good.
  service.services.log.append = () => Promise.reject(new Error('EBADF: simulated'));
  const refused = await service.api('POST', '/api/extras/tags/', { name: 'x', slug: 'x' });
  t.is(refused.status, 503);
  t.truthy(refused.headers.get('retry-after'));
  const failing = await raw(service, 'GET', '/healthz/');
  t.is(failing.status, 503);
  t.like(JSON.parse(failing.text), {
    status: 'unavailable',
    writer: 'stopped',
    writer_detail: { reason: 'EBADF: simulated' },
  });
  t.is((await raw(service, 'GET', '/livez/')).status, 200);
  t.regex((await raw(service, 'GET', '/metrics')).text, /^netledger_writer_up 0$/m);
});

test('health reports lag while the projector is behind the log', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const projector = service.services.projector as unknown as { applied: number };
  const real = projector.applied;
  projector.applied = real - 1; // as if the last batch were still being applied
  const behind = await raw(service, 'GET', '/healthz/');
  projector.applied = real;
  t.is(behind.status, 503);
  t.like(JSON.parse(behind.text), { projector: { lag: 1 } });
  t.is((await raw(service, 'GET', '/healthz/')).status, 200);
});
