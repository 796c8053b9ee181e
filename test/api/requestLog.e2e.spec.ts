import test from 'ava';

import { type ApiResponse, startService } from '../support/startService.js';

test('each request log line carries the status the client received, write errors included', async (t) => {
  const lines: Array<Record<string, unknown>> = [];
  const service = await startService({}, undefined, { logger: (entry) => lines.push(entry) });
  t.teardown(() => service.close());
  const rir = (await service.api('POST', '/api/ipam/rirs/', { name: 'RIPE', slug: 'ripe' })).body;
  await service.api('POST', '/api/ipam/aggregates/', { prefix: '192.0.2.0/24', rir: rir.id });
  const tag = (await service.api('POST', '/api/extras/tags/', { name: 'a', slug: 'a' })).body;

  const calls: Array<[number, () => Promise<ApiResponse>]> = [
    [201, () => service.api('POST', '/api/extras/tags/', { name: 'b', slug: 'b' })],
    [400, () => service.api('POST', '/api/extras/tags/', { name: '' })], // validation error
    [400, () => service.api('POST', '/api/extras/tags/', '{"name": ')], // malformed JSON
    [404, () => service.api('PATCH', '/api/extras/tags/9999/', { name: 'x' })], // unknown object
    [405, () => service.api('POST', `/api/extras/tags/${tag.id}/`, { name: 'x' })],
    [409, () => service.api('DELETE', `/api/ipam/rirs/${rir.id}/`)], // protected by the aggregate
    [415, () => service.api('POST', '/api/extras/tags/', 'name=x', { 'Content-Type': 'text/plain' })],
    [
      403,
      () =>
        service.api(
          'POST',
          '/api/extras/tags/',
          { name: 'c', slug: 'c' },
          { Authorization: 'Token 0000000000000000000000000000000000000000' },
        ),
    ],
  ];
  for (const [expected, call] of calls) {
    const response = await call();
    t.is(response.status, expected, JSON.stringify(response.body));
    const requestId = response.headers.get('x-request-id');
    const logged = lines.filter((line) => line.requestId === requestId && line.level === 'info');
    t.is(logged.length, 1, `one log line for ${requestId}`);
    t.is(logged[0]?.status, expected, `logged status of the ${expected} answer`);
  }
});

test('the request log line and the metrics agree on a failed write', async (t) => {
  const lines: Array<Record<string, unknown>> = [];
  const service = await startService({}, undefined, { logger: (entry) => lines.push(entry) });
  t.teardown(() => service.close());
  const response = await service.api('PATCH', '/api/extras/tags/424242/', { name: 'x' });
  t.is(response.status, 404);
  const line = lines.find((entry) => entry.requestId === response.headers.get('x-request-id'));
  t.is(line?.status, 404);
  const invalid = await service.api('POST', '/api/extras/tags/', { name: '' });
  t.is(lines.find((entry) => entry.requestId === invalid.headers.get('x-request-id'))?.status, 400);
  const metrics = await fetch(`${service.url}/metrics`).then((r) => r.text());
  t.regex(metrics, /method="POST",route="[^"]*",status="400"/);
});
