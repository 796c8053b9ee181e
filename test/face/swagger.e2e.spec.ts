import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

import test from 'ava';

import { raw } from '../support/rawRequests.js';
import { startService } from '../support/startService.js';

const require = createRequire(import.meta.url);
const swaggerDir = path.dirname(require.resolve('swagger-ui-dist/package.json'));

test('Swagger UI is served at /api/schema/swagger-ui/ from local files only, without a token', async (t) => {
  const service = await startService({ LOGIN_REQUIRED: 'true' });
  t.teardown(() => service.close());
  const page = await raw(service, 'GET', '/api/schema/swagger-ui/');
  t.is(page.status, 200);
  t.is(page.headers.get('content-type'), 'text/html; charset=utf-8');
  t.regex(page.headers.get('content-security-policy') ?? '', /script-src 'self'/);
  t.regex(page.text, /data-schema-url="\/api\/schema\/\?format=json"/);
  const assets = [...page.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
  t.true(assets.length >= 4);
  for (const asset of assets) t.true(asset.startsWith('/static/'), `not local: ${asset}`);
  t.false(/https?:\/\//.test(page.text), 'no absolute (CDN) URLs in the page');
  for (const asset of assets) {
    const response = await raw(service, 'GET', asset);
    t.is(response.status, 200, asset);
    if (asset.endsWith('.js')) t.regex(response.headers.get('content-type') ?? '', /^text\/javascript/, asset);
    if (asset.endsWith('.css')) t.regex(response.headers.get('content-type') ?? '', /^text\/css/, asset);
    t.truthy(response.headers.get('etag'), asset);
    t.regex(response.headers.get('cache-control') ?? '', /max-age=/, asset);
  }
  const bundle = await raw(service, 'GET', '/static/swagger-ui/swagger-ui-bundle.js');
  t.is(bundle.text, readFileSync(path.join(swaggerDir, 'swagger-ui-bundle.js'), 'utf8'));
  const again = await raw(service, 'GET', '/static/swagger-ui/swagger-ui.css', {
    'If-None-Match': bundle.headers.get('etag') ?? '',
  });
  t.is(again.status, 200);
  const cached = await fetch(`${service.url}/static/swagger-ui/swagger-ui-bundle.js`, {
    headers: { 'If-None-Match': bundle.headers.get('etag')! },
  });
  t.is(cached.status, 304);
  // the schema itself is public as well
  t.is((await raw(service, 'GET', '/api/schema/?format=json')).status, 200);
  // NetBox 3.4's address of the same page
  const docs = await raw(service, 'GET', '/api/docs/');
  t.is(docs.status, 200);
  t.regex(docs.text, /swagger-ui-bundle\.js/);
});

test('only listed static files are served: no path traversal, no other package files', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  for (const path of [
    '/static/swagger-ui/package.json',
    '/static/swagger-ui/..%2F..%2Fpackage.json',
    '/static/face/..%2Fbrowsable.ts',
    '/static/../package.json',
    '/static/nothing/x.js',
    '/static/face/constructor',
    '/static/__proto__/x',
  ]) {
    const response = await raw(service, 'GET', path);
    t.is(response.status, 404, path);
  }
});
