import test from 'ava';

import { ADMIN_TOKEN, startService, type TestService } from '../support/startService.js';

const NOT_UTF8 = { detail: 'Request body is not valid UTF-8.' };

/** Sends raw bytes (fetch would re-encode a string as UTF-8). */
async function send(
  service: TestService,
  method: string,
  path: string,
  bytes: Buffer,
  contentType = 'application/json',
) {
  const response = await fetch(service.url + path, {
    method,
    redirect: 'manual',
    headers: { Authorization: `Token ${ADMIN_TOKEN}`, 'Content-Type': contentType },
    body: new Uint8Array(bytes),
  });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // HTML or empty
  }
  return { status: response.status, body };
}

/** `{"name": "caf?", "slug": "cafe"}` with `?` a Latin-1 é (0xE9), not valid UTF-8. */
const latin1Body = Buffer.concat([
  Buffer.from('{"name": "caf'),
  Buffer.from([0xe9]),
  Buffer.from('", "slug": "cafe"}'),
]);

test('a JSON body with invalid UTF-8 is 400 {"detail"} and nothing is written (no U+FFFD stored)', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const head = service.services.log.head();
  const created = await send(service, 'POST', '/api/extras/tags/', latin1Body);
  t.is(created.status, 400, JSON.stringify(created.body));
  t.deepEqual(created.body, NOT_UTF8);
  // a truncated multi-byte sequence and an encoded surrogate (ED A0 80) are refused as well
  for (const bytes of [[0xe2, 0x82], [0xed, 0xa0, 0x80], [0xff]]) {
    const body = Buffer.concat([Buffer.from('{"name": "x'), Buffer.from(bytes), Buffer.from('", "slug": "x"}')]);
    t.deepEqual(
      (await send(service, 'POST', '/api/extras/tags/', body)).body,
      NOT_UTF8,
      Buffer.from(bytes).toString('hex'),
    );
  }
  t.is(service.services.log.head(), head, 'nothing written');
  t.deepEqual((await service.api('GET', '/api/extras/tags/')).body.results, []);
});

test('an update with invalid UTF-8 is 400 and leaves the object as it was', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const tag = (await service.api('POST', '/api/extras/tags/', { name: 'café', slug: 'cafe' })).body;
  const head = service.services.log.head();
  const patched = await send(
    service,
    'PATCH',
    `/api/extras/tags/${tag.id}/`,
    Buffer.concat([Buffer.from('{"description": "'), Buffer.from([0xc3]), Buffer.from('"}')]),
  );
  t.is(patched.status, 400);
  t.deepEqual(patched.body, NOT_UTF8);
  t.is(service.services.log.head(), head);
  t.is((await service.api('GET', `/api/extras/tags/${tag.id}/`)).body.description, '');
});

test('valid multi-byte UTF-8 is kept exactly', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const name = 'café ☃ 𝄞 日本';
  const created = await send(
    service,
    'POST',
    '/api/extras/tags/',
    Buffer.from(JSON.stringify({ name, slug: 'multi' }), 'utf8'),
  );
  t.is(created.status, 201);
  t.is((await service.api('GET', `/api/extras/tags/${(created.body as { id: number }).id}/`)).body.name, name);
});

test('a lone surrogate escape (\\ud800) cannot be stored either: 400', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const head = service.services.log.head();
  for (const text of [
    '{"name": "a\\ud800b", "slug": "s"}',
    '{"name": "a", "slug": "s", "custom_fields": {"\\udc00": 1}}',
  ]) {
    const response = await send(service, 'POST', '/api/extras/tags/', Buffer.from(text));
    t.is(response.status, 400, text);
    t.regex((response.body as { detail: string }).detail, /surrogate/, text);
  }
  t.is(service.services.log.head(), head);
});

test('the token provisioning body and the login form are decoded strictly too', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const head = service.services.log.head();
  const provision = await send(
    service,
    'POST',
    '/api/users/tokens/provision/',
    Buffer.concat([Buffer.from('{"username": "admin", "password": "admin-'), Buffer.from([0xe9]), Buffer.from('"}')]),
  );
  t.is(provision.status, 400);
  t.deepEqual(provision.body, NOT_UTF8);
  const login = await send(
    service,
    'POST',
    '/login/',
    Buffer.concat([Buffer.from('username=adm'), Buffer.from([0xe9]), Buffer.from('&password=x')]),
    'application/x-www-form-urlencoded',
  );
  t.is(login.status, 400);
  t.deepEqual(login.body, NOT_UTF8);
  // percent-encoded bytes that are not UTF-8 are refused the same way
  const encoded = await send(
    service,
    'POST',
    '/login/',
    Buffer.from('username=adm%E9&password=x'),
    'application/x-www-form-urlencoded',
  );
  t.is(encoded.status, 400);
  t.deepEqual(encoded.body, NOT_UTF8);
  t.is(service.services.log.head(), head);
});

test('a query string with percent-encoded bytes that are not UTF-8 is 400, not a silent U+FFFD', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  await service.api('POST', '/api/extras/tags/', { name: 'caf\uFFFD', slug: 'cafe' });
  for (const query of ['name=caf%E9', 'name=%FF', 'q=%E2%82', 'name=ok&slug=%ED%A0%80']) {
    const response = await service.api('GET', `/api/extras/tags/?${query}`);
    t.is(response.status, 400, query);
    t.deepEqual(response.body, { detail: 'Query string is not valid UTF-8.' }, query);
  }
  // well-formed percent-encoding, and a lone % that encodes nothing, are still fine
  t.is((await service.api('GET', '/api/extras/tags/?name=caf%C3%A9')).status, 200);
  t.is((await service.api('GET', '/api/extras/tags/?q=100%')).status, 200);
  t.is((await service.api('GET', '/api/extras/tags/?q=%zz')).status, 200);
});
