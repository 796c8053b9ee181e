import test from 'ava';

import { raw } from '../support/rawRequests.js';
import { ADMIN_TOKEN, startService } from '../support/startService.js';

const auth = { Authorization: `Token ${ADMIN_TOKEN}` };

test('JSON is compact by default, pretty with Accept indent=N (clamped to 8), Content-Type without parameters', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  await service.api('POST', '/api/extras/tags/', { name: 'Core', slug: 'core' });
  const compact = await raw(service, 'GET', '/api/extras/tags/?brief=1', auth);
  t.is(compact.headers.get('content-type'), 'application/json');
  t.true(compact.text.startsWith('{"count":1,"next":null,"previous":null,"results":[{"id":'));
  const pretty = await raw(service, 'GET', '/api/extras/tags/?brief=1', {
    ...auth,
    Accept: 'application/json; indent=4',
  });
  t.is(pretty.headers.get('content-type'), 'application/json');
  t.true(pretty.text.startsWith('{\n    "count": 1,\n    "next": null,'));
  t.deepEqual(JSON.parse(pretty.text), JSON.parse(compact.text));
  const huge = await raw(service, 'GET', '/api/extras/tags/', { ...auth, Accept: 'application/json; indent=20' });
  t.true(huge.text.startsWith('{\n        "count"'));
  const zero = await raw(service, 'GET', '/api/extras/tags/', { ...auth, Accept: 'application/json; indent=0' });
  t.true(zero.text.startsWith('{"count":1'));
  // errors are formatted the same way
  const missing = await raw(service, 'GET', '/api/extras/tags/999/', { ...auth, Accept: 'application/json; indent=2' });
  t.is(missing.status, 404);
  t.is(missing.text, '{\n  "detail": "Not found."\n}');
});

test('?format=json forces JSON, ?format=api the browsable page; an unknown format is 404', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const browser = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
  const json = await raw(service, 'GET', '/api/dcim/sites/?format=json', { ...auth, Accept: browser });
  t.is(json.headers.get('content-type'), 'application/json');
  t.is(JSON.parse(json.text).count, 0);
  const html = await raw(service, 'GET', '/api/dcim/sites/?format=api', auth);
  t.is(html.headers.get('content-type'), 'text/html; charset=utf-8');
  const unknown = await raw(service, 'GET', '/api/dcim/sites/?format=xml', auth);
  t.is(unknown.status, 404);
  t.deepEqual(JSON.parse(unknown.text), { detail: 'Not found.' });
});

test('an Accept the API cannot satisfy is 406, a foreign API version too; pynetbox-style headers are fine', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const xml = await raw(service, 'GET', '/api/dcim/sites/', { ...auth, Accept: 'application/xml' });
  t.is(xml.status, 406);
  t.deepEqual(JSON.parse(xml.text), { detail: 'Could not satisfy the request Accept header.' });
  const version = await raw(service, 'GET', '/api/dcim/sites/', { ...auth, Accept: 'application/json; version=2.0' });
  t.is(version.status, 406);
  t.deepEqual(JSON.parse(version.text), { detail: 'Invalid version in "Accept" header.' });
  t.is(
    (await raw(service, 'GET', '/api/dcim/sites/', { ...auth, Accept: 'application/json; version=3.4' })).status,
    200,
  );
  t.is((await raw(service, 'GET', '/api/dcim/sites/', { ...auth, Accept: 'application/json;' })).status, 200);
  t.is((await raw(service, 'GET', '/api/dcim/sites/', { ...auth, Accept: '*/*' })).status, 200);
  // an EventSource always asks for text/event-stream: the view decides, no 406
  t.is((await raw(service, 'GET', '/api/dcim/sites/', { ...auth, Accept: 'text/event-stream' })).status, 200);
  // refused before the view runs: nothing is written
  const head = service.services.log.head();
  const response = await fetch(`${service.url}/api/extras/tags/`, {
    method: 'POST',
    headers: { ...auth, Accept: 'application/xml', 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: 'x', slug: 'x' }),
  });
  t.is(response.status, 406);
  t.is(service.services.log.head(), head);
});

test('line and paragraph separators are escaped in JSON; other non-ASCII text is raw UTF-8', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const created = await service.api('POST', '/api/extras/tags/', { name: 'Zürich\u2028x', slug: 'zurich' });
  t.is(created.status, 201);
  const response = await raw(service, 'GET', `/api/extras/tags/${created.body.id}/`, auth);
  t.true(response.text.includes('"Zürich\\u2028x"'));
  t.is(JSON.parse(response.text).name, 'Zürich\u2028x');
});

test('unrouted API paths are a JSON 404', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const response = await raw(service, 'GET', '/api/nothing/here/', auth);
  t.is(response.status, 404);
  t.deepEqual(JSON.parse(response.text), { detail: 'Not found.' });
});
