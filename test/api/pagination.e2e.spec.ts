import test from 'ava';

import { startService } from '../support/startService.js';

test('the list envelope carries count and full next/previous links', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  await service.api(
    'POST',
    '/api/extras/tags/',
    Array.from({ length: 7 }, (_, i) => ({ name: `t${i}`, slug: `t${i}` })),
  );
  const first = (await service.api('GET', '/api/extras/tags/?limit=3')).body;
  t.is(first.count, 7);
  t.is(first.results.length, 3);
  t.is(first.next, `${service.url}/api/extras/tags/?limit=3&offset=3`);
  t.is(first.previous, null);
  const second = (await service.api('GET', '/api/extras/tags/?limit=3&offset=3')).body;
  t.is(second.previous, `${service.url}/api/extras/tags/?limit=3&offset=0`);
  t.is(second.next, `${service.url}/api/extras/tags/?limit=3&offset=6`);
  const last = (await service.api('GET', '/api/extras/tags/?limit=3&offset=6')).body;
  t.is(last.next, null);
  t.is(last.previous, `${service.url}/api/extras/tags/?limit=3&offset=3`);
  t.is(last.results.length, 1);
  t.deepEqual(
    [...first.results, ...second.results, ...last.results].map((r: any) => r.name),
    ['t0', 't1', 't2', 't3', 't4', 't5', 't6'],
  );
});

test('the default page is 50 and limits above the maximum are capped', async (t) => {
  const service = await startService({ MAX_PAGE_SIZE: '60' });
  t.teardown(() => service.close());
  await service.api(
    'POST',
    '/api/extras/tags/',
    Array.from({ length: 70 }, (_, i) => ({ name: `t${String(i).padStart(2, '0')}`, slug: `t${i}` })),
  );
  t.is((await service.api('GET', '/api/extras/tags/')).body.results.length, 50);
  const capped = (await service.api('GET', '/api/extras/tags/?limit=5000')).body;
  t.is(capped.results.length, 60);
  t.regex(capped.next, /limit=60&offset=60/);
  const defaultSecond = (await service.api('GET', '/api/extras/tags/?offset=50')).body;
  t.is(
    defaultSecond.previous,
    `${service.url}/api/extras/tags/?limit=50&offset=0`,
    'the default page size is spelled out',
  );
});

test('limit=0 under a MAX_PAGE_SIZE pages by the maximum, its links carrying limit and offset', async (t) => {
  const service = await startService({ MAX_PAGE_SIZE: '4' });
  t.teardown(() => service.close());
  await service.api(
    'POST',
    '/api/extras/tags/',
    Array.from({ length: 10 }, (_, i) => ({ name: `t${i}`, slug: `t${i}` })),
  );
  const first = (await service.api('GET', '/api/extras/tags/?limit=0')).body;
  t.is(first.results.length, 4);
  t.is(first.next, `${service.url}/api/extras/tags/?limit=4&offset=4`);
  t.is(first.previous, null);
  const second = (await service.api('GET', '/api/extras/tags/?limit=0&offset=4')).body;
  t.is(second.previous, `${service.url}/api/extras/tags/?limit=4&offset=0`);
  t.is(second.next, `${service.url}/api/extras/tags/?limit=4&offset=8`);
});

test('MAX_PAGE_SIZE=0 lets limit=0 return everything', async (t) => {
  const service = await startService({ MAX_PAGE_SIZE: '0' });
  t.teardown(() => service.close());
  await service.api(
    'POST',
    '/api/extras/tags/',
    Array.from({ length: 55 }, (_, i) => ({ name: `t${i}`, slug: `t${i}` })),
  );
  const all = (await service.api('GET', '/api/extras/tags/?limit=0')).body;
  t.is(all.results.length, 55);
  t.is(all.next, null);
  t.is(all.previous, null);
  // everything from the offset on: no page before or after it
  const rest = (await service.api('GET', '/api/extras/tags/?limit=0&offset=50')).body;
  t.is(rest.results.length, 5);
  t.is(rest.previous, null);
  t.is(rest.next, null);
  // a limit still pages, with both parameters on its links
  const paged = (await service.api('GET', '/api/extras/tags/?limit=20&offset=20')).body;
  t.is(paged.previous, `${service.url}/api/extras/tags/?limit=20&offset=0`);
  t.is(paged.next, `${service.url}/api/extras/tags/?limit=20&offset=40`);
});

test('a previous link never goes below offset 0, also from an offset that is not a multiple of the limit', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  await service.api(
    'POST',
    '/api/extras/tags/',
    Array.from({ length: 6 }, (_, i) => ({ name: `t${i}`, slug: `t${i}` })),
  );
  const page = (await service.api('GET', '/api/extras/tags/?limit=3&offset=2')).body;
  t.deepEqual(
    page.results.map((r: any) => r.name),
    ['t2', 't3', 't4'],
  );
  t.is(page.previous, `${service.url}/api/extras/tags/?limit=3&offset=0`);
  t.is(page.next, `${service.url}/api/extras/tags/?limit=3&offset=5`);
  const beyond = (await service.api('GET', '/api/extras/tags/?limit=3&offset=9')).body;
  t.deepEqual(beyond.results, []);
  t.is(beyond.previous, `${service.url}/api/extras/tags/?limit=3&offset=6`);
});

test('walking next then previous visits every page, each link with limit and offset', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  await service.api(
    'POST',
    '/api/extras/tags/',
    Array.from({ length: 8 }, (_, i) => ({ name: `t${i}`, slug: `t${i}` })),
  );
  const offsets = (link: string) => {
    const params = new URL(link).searchParams;
    t.is(params.get('limit'), '3', link);
    t.regex(params.get('offset') ?? '', /^\d+$/, link);
    return Number(params.get('offset'));
  };
  const forward: number[] = [];
  let link: string | null = `${service.url}/api/extras/tags/?limit=3`;
  let last: any = null;
  while (link) {
    last = (await service.api('GET', link.slice(service.url.length))).body;
    if (last.next) forward.push(offsets(last.next));
    link = last.next;
  }
  t.deepEqual(forward, [3, 6]);
  const backward: number[] = [];
  link = last.previous;
  while (link) {
    backward.push(offsets(link));
    link = (await service.api('GET', link.slice(service.url.length))).body.previous;
  }
  t.deepEqual(backward, [3, 0]);
});

test('the change log and object histories link previous pages with offset=0 too', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const site = (await service.api('POST', '/api/dcim/sites/', { name: 'DC-1', slug: 'dc-1' })).body;
  for (const description of ['a', 'b', 'c']) await service.api('PATCH', `/api/dcim/sites/${site.id}/`, { description });
  const changes = (await service.api('GET', '/api/extras/object-changes/?limit=2&offset=2')).body;
  t.is(changes.count, 4);
  t.is(changes.previous, `${service.url}/api/extras/object-changes/?limit=2&offset=0`);
  t.is(changes.next, null);
  const history = (await service.api('GET', `/api/dcim/sites/${site.id}/history/?limit=1&offset=1`)).body;
  t.is(history.previous, `${service.url}/api/dcim/sites/${site.id}/history/?limit=1&offset=0`);
  t.is(history.next, `${service.url}/api/dcim/sites/${site.id}/history/?limit=1&offset=2`);
});

test('cursor paging links carry start and limit (offset excludes start)', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const tags = (
    await service.api(
      'POST',
      '/api/extras/tags/',
      Array.from({ length: 5 }, (_, i) => ({ name: `t${i}`, slug: `t${i}` })),
    )
  ).body;
  const page = (await service.api('GET', '/api/extras/tags/?start=0&limit=2')).body;
  t.is(page.next, `${service.url}/api/extras/tags/?limit=2&start=${tags[2].id}`);
  t.is(page.previous, null);
  const byDefault = (await service.api('GET', '/api/extras/tags/?start=0')).body;
  t.is(byDefault.next, null);
});

test('links keep other query parameters', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  await service.api(
    'POST',
    '/api/extras/tags/',
    Array.from({ length: 4 }, (_, i) => ({ name: `t${i}`, slug: `t${i}`, color: 'ff0000' })),
  );
  const page = (await service.api('GET', '/api/extras/tags/?color=ff0000&limit=2')).body;
  t.is(page.count, 4);
  t.is(page.next, `${service.url}/api/extras/tags/?color=ff0000&limit=2&offset=2`);
});

test('behind a TLS-terminating proxy in TRUSTED_PROXIES that sets X-Forwarded-Host (USE_X_FORWARDED_HOST), links name the origin the client addressed, as NetBox builds them; a forwarded host that is no host name is ignored', async (t) => {
  const service = await startService({ TRUSTED_PROXIES: '127.0.0.1/32', USE_X_FORWARDED_HOST: '1' }); // the test client is the proxy
  t.teardown(() => service.close());
  await service.api(
    'POST',
    '/api/extras/tags/',
    Array.from({ length: 3 }, (_, i) => ({ name: `t${i}`, slug: `t${i}` })),
  );
  // A proxy that appends puts its own value last, after whatever the client sent.
  const proxied = { 'X-Forwarded-Proto': 'http, https', 'X-Forwarded-Host': 'evil.example, netbox.example.com:8443' };
  const page = (await service.api('GET', '/api/extras/tags/?limit=1', undefined, proxied)).body;
  t.is(page.next, 'https://netbox.example.com:8443/api/extras/tags/?limit=1&offset=1');
  t.is(page.results[0].url, `https://netbox.example.com:8443/api/extras/tags/${page.results[0].id}/`);
  const created = await service.api('POST', '/api/extras/tags/', { name: 'new', slug: 'new' }, proxied);
  t.is(created.body.url, `https://netbox.example.com:8443/api/extras/tags/${created.body.id}/`);
  // The render cache keeps one rendering per origin: a direct client still gets its own links.
  t.is(
    (await service.api('GET', `/api/extras/tags/${created.body.id}/`)).body.url,
    `${service.url}/api/extras/tags/${created.body.id}/`,
  );
  for (const host of ['evil.example/path', 'a b', '']) {
    const direct = (await service.api('GET', '/api/extras/tags/?limit=1', undefined, { 'X-Forwarded-Host': host }))
      .body;
    t.is(direct.next, `${service.url}/api/extras/tags/?limit=1&offset=1`, host);
  }
  // X-Forwarded-Proto alone switches the scheme only for 'https', as Django's SECURE_PROXY_SSL_HEADER does.
  const plain = (await service.api('GET', '/api/extras/tags/?limit=1', undefined, { 'X-Forwarded-Proto': 'ftp' })).body;
  t.is(plain.next, `${service.url}/api/extras/tags/?limit=1&offset=1`);
});

test('from a peer that is not a trusted proxy, X-Forwarded-Host and X-Forwarded-Proto are ignored: a client cannot put its own host into the links', async (t) => {
  const service = await startService({ USE_X_FORWARDED_HOST: '1' });
  t.teardown(() => service.close());
  await service.api(
    'POST',
    '/api/extras/tags/',
    Array.from({ length: 2 }, (_, i) => ({ name: `t${i}`, slug: `t${i}` })),
  );
  const spoofed = { 'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': 'attacker.example' };
  const page = (await service.api('GET', '/api/extras/tags/?limit=1', undefined, spoofed)).body;
  t.is(page.next, `${service.url}/api/extras/tags/?limit=1&offset=1`);
  t.is(page.results[0].url, `${service.url}/api/extras/tags/${page.results[0].id}/`);
});

test("a trusted proxy that passes the client's X-Forwarded-Host on (USE_X_FORWARDED_HOST off, the default) gives https links on the Host, never the forwarded host", async (t) => {
  const service = await startService({ TRUSTED_PROXIES: '127.0.0.1/32' });
  t.teardown(() => service.close());
  await service.api(
    'POST',
    '/api/extras/tags/',
    Array.from({ length: 2 }, (_, i) => ({ name: `t${i}`, slug: `t${i}` })),
  );
  const page = (
    await service.api('GET', '/api/extras/tags/?limit=1', undefined, {
      'X-Forwarded-Proto': 'https',
      'X-Forwarded-Host': 'attacker.example',
    })
  ).body;
  t.is(page.next, `${service.url.replace(/^http:/, 'https:')}/api/extras/tags/?limit=1&offset=1`);
});
