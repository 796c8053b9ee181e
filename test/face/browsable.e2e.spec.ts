import test from 'ava';

import { raw } from '../support/rawRequests.js';
import { ADMIN_TOKEN, startService } from '../support/startService.js';

const BROWSER = {
  Accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
  Authorization: `Token ${ADMIN_TOKEN}`,
};
const XSS = `<script>alert("x")</script><img src=x onerror=alert(1)>"'&`;

test('a browser gets an HTML page: breadcrumbs, allowed methods, the JSON with links, a form, pagination, login link', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  for (const n of [1, 2, 3]) await service.api('POST', '/api/dcim/sites/', { name: `Site ${n}`, slug: `site-${n}` });
  const page = await raw(service, 'GET', '/api/dcim/sites/?limit=1&offset=1', BROWSER);
  t.is(page.status, 200);
  t.is(page.headers.get('content-type'), 'text/html; charset=utf-8');
  t.regex(page.headers.get('content-security-policy') ?? '', /script-src 'self'/);
  t.is(page.headers.get('x-frame-options'), 'SAMEORIGIN');
  const html = page.text;
  t.regex(
    html,
    /<ol class="breadcrumb"><li><a href="\/api\/">API Root<\/a><\/li><li><a href="\/api\/dcim\/">DCIM<\/a><\/li><li class="active" aria-current="page">Sites<\/li><\/ol>/,
  );
  t.regex(html, /<h1>Site List<\/h1>/);
  t.regex(html, /<b>Allow:<\/b> GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS/);
  t.regex(html, new RegExp(`<a class="str" href="${service.url}/api/dcim/sites/2/"`));
  t.regex(html, /<a rel="next" href="[^"]+offset=2[^"]*">Next »<\/a>/);
  t.regex(html, /<a rel="prev" href="[^"]+">« Previous<\/a>/);
  t.regex(html, /<span class="range">2–2 of 3<\/span>/);
  t.regex(html, /<form id="request-form" data-url="\/api\/dcim\/sites\/">/);
  t.regex(html, /<option selected>POST<\/option>/);
  t.regex(html, /<span class="user">admin<\/span> <a href="\/logout\/\?next=/);
  t.false(
    /<script>(?!<\/script>)/.test(html.replace(/<script src="\/static\/face\/browsable.js" defer><\/script>/, '')),
    'no inline script',
  );
  // the page's script and stylesheet are served
  t.is((await raw(service, 'GET', '/static/face/browsable.js')).status, 200);
  t.is((await raw(service, 'GET', '/static/face/browsable.css')).status, 200);
});

test('a detail page shows the object by its display name and offers its writable fields as the PATCH body', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const region = await service.api('POST', '/api/dcim/regions/', { name: 'Europe', slug: 'europe' });
  const site = await service.api('POST', '/api/dcim/sites/', {
    name: 'DC-1',
    slug: 'dc-1',
    region: region.body.id,
    status: 'planned',
  });
  const page = await raw(service, 'GET', `/api/dcim/sites/${site.body.id}/`, BROWSER);
  t.is(page.status, 200);
  t.regex(page.text, /<li class="active" aria-current="page">DC-1<\/li>/);
  t.regex(page.text, /<h1>Site: DC-1<\/h1>/);
  t.regex(page.text, /<option selected>PATCH<\/option>/);
  t.regex(page.text, /&quot;status&quot;: &quot;planned&quot;/);
  t.regex(page.text, new RegExp(`&quot;region&quot;: ${region.body.id}`));
  t.regex(page.text, /<b>Allow:<\/b> GET, PUT, PATCH, DELETE, HEAD, OPTIONS/);
});

test('everything on the page is escaped: an XSS payload in a site name stays text', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const site = await service.api('POST', '/api/dcim/sites/', {
    name: XSS.slice(0, 100),
    slug: 'xss',
    description: 'javascript:alert(1)',
    comments: 'http://evil.example/"><script>alert(2)</script>',
  });
  t.is(site.status, 201);
  for (const path of [
    '/api/dcim/sites/',
    `/api/dcim/sites/${site.body.id}/`,
    `/api/dcim/sites/?q=${encodeURIComponent(XSS)}`,
  ]) {
    const html = (await raw(service, 'GET', path, BROWSER)).text;
    t.false(html.includes('<script>alert'), path);
    t.false(html.includes('<img src=x'), path);
    t.false(html.includes('href="javascript:'), path);
    t.false(/href="[^"]*"><script>/.test(html), path);
  }
  const detail = (await raw(service, 'GET', `/api/dcim/sites/${site.body.id}/`, BROWSER)).text;
  t.true(detail.includes('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;'));
  // an XSS attempt in the URL itself
  const crafted = await raw(service, 'GET', `/api/dcim/sites/?name=%3Cscript%3Ealert(3)%3C/script%3E`, BROWSER);
  t.false(crafted.text.includes('<script>alert(3)'));
});

test('errors render as pages too; anonymous visitors get a login link; non-API paths stay JSON', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const { Authorization: _, ...anonymous } = BROWSER;
  const denied = await raw(service, 'GET', '/api/dcim/sites/', anonymous);
  t.is(denied.status, 403);
  t.regex(denied.text, /Authentication credentials were not provided\./);
  t.regex(denied.text, /<a href="\/login\/\?next=%2Fapi%2Fdcim%2Fsites%2F">Log in<\/a>/);
  const missing = await raw(service, 'GET', '/api/dcim/sites/999/', BROWSER);
  t.is(missing.status, 404);
  t.regex(missing.headers.get('content-type') ?? '', /^text\/html/);
  const root = await raw(service, 'GET', '/api/', BROWSER);
  t.regex(root.text, /<h1>API Root<\/h1>/);
  t.regex(root.text, /<a class="str" href="[^"]+\/api\/dcim\/"/);
  const health = await raw(service, 'GET', '/healthz/', BROWSER);
  t.is(health.headers.get('content-type'), 'application/json');
});
