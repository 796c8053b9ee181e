/**
 * X-Netledger-Position on one process: every answer names the position its read models
 * had reached; a read naming a position waits for it, boundedly.
 */
import test from 'ava';

import { startService } from '../support/startService.js';

const POSITION = 'X-Netledger-Position';

test('writes and reads carry the position reached; a read naming a reached position is answered at once', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const first = await service.api('POST', '/api/extras/tags/', { name: 'a', slug: 'a' });
  const second = await service.api('POST', '/api/extras/tags/', [
    { name: 'b', slug: 'b' },
    { name: 'c', slug: 'c' },
  ]);
  const [p1, p2] = [Number(first.headers.get(POSITION)), Number(second.headers.get(POSITION))];
  t.true(p1 >= 1);
  t.is(p2, p1 + 2, 'a write names the position of its own last event');
  t.is(p2, service.services.log.head());
  const read = await service.api('GET', '/api/extras/tags/', undefined, { [POSITION]: String(p1) });
  t.is(read.status, 200);
  const byRequest = await service.api('GET', '/api/extras/tags/', undefined, {
    'X-Netledger-After-Request': second.headers.get('X-Request-ID')!,
  });
  t.is(byRequest.status, 200, 'a write named by its request id');
  t.is(Number(read.headers.get(POSITION)), p2);
  const refused = await service.api('POST', '/api/extras/tags/', { name: 'a', slug: 'a' });
  t.is(refused.status, 400);
  t.is(Number(refused.headers.get(POSITION)), p2, 'a refused write names the position it was decided at');
});

test('a read naming a position not reached in time is 503 with Retry-After and how far this process is; a malformed one is 400', async (t) => {
  const service = await startService({ POSITION_WAIT_TIMEOUT: '0.05' });
  t.teardown(() => service.close());
  const head = service.services.log.head();
  const ahead = await service.api('GET', '/api/extras/tags/', undefined, { [POSITION]: String(head + 1000) });
  t.is(ahead.status, 503);
  t.is(ahead.headers.get('Retry-After'), '1');
  t.is(
    ahead.body.detail,
    `This replica has applied the change log up to position ${head}; position ${head + 1000} has not reached it yet. Retry shortly.`,
  );
  const malformed = await service.api('GET', '/api/extras/tags/', undefined, { [POSITION]: 'latest' });
  t.is(malformed.status, 400);
  t.deepEqual(malformed.body, { [POSITION]: ['Enter a log position (a non-negative integer).'] });
  const unknown = await service.api('GET', '/api/extras/tags/', undefined, {
    'X-Netledger-After-Request': '7d3c2b8e-4f7e-4b7a-9d55-0c2f0a3f1b11',
  });
  t.is(unknown.status, 503);
  t.regex(unknown.body.detail, /; request 7d3c2b8e-4f7e-4b7a-9d55-0c2f0a3f1b11 has not reached it yet/);
  t.deepEqual(
    (await service.api('GET', '/api/extras/tags/', undefined, { 'X-Netledger-After-Request': 'nope' })).body,
    { 'X-Netledger-After-Request': ['Enter a valid UUID.'] },
  );
  // Only reads wait: a write naming a position is decided as usual.
  t.is(
    (await service.api('POST', '/api/extras/tags/', { name: 'w', slug: 'w' }, { [POSITION]: String(head + 1000) }))
      .status,
    201,
  );
});
