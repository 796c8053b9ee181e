import test from 'ava';
import { startService } from '../support/startService.js';

test('the list envelope carries count and full next/previous links', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  await service.api('POST', '/api/extras/tags/', Array.from({ length: 7 }, (_, i) => ({ name: `t${i}`, slug: `t${i}` })));
  const first = (await service.api('GET', '/api/extras/tags/?limit=3')).body;
  t.is(first.count, 7);
  t.is(first.results.length, 3);
  t.is(first.next, `${service.url}/api/extras/tags/?limit=3&offset=3`);
  t.is(first.previous, null);
  const second = (await service.api('GET', '/api/extras/tags/?limit=3&offset=3')).body;
  t.is(second.previous, `${service.url}/api/extras/tags/?limit=3`);
  t.is(second.next, `${service.url}/api/extras/tags/?limit=3&offset=6`);
  const last = (await service.api('GET', '/api/extras/tags/?limit=3&offset=6')).body;
  t.is(last.next, null);
  t.is(last.results.length, 1);
  t.deepEqual(
    [...first.results, ...second.results, ...last.results].map((r: any) => r.name),
    ['t0', 't1', 't2', 't3', 't4', 't5', 't6'],
  );
});

test('the default page is 50 and limits above the maximum are capped', async (t) => {
  const service = await startService({ MAX_PAGE_SIZE: '60' });
  t.teardown(() => service.close());
  await service.api('POST', '/api/extras/tags/', Array.from({ length: 70 }, (_, i) => ({ name: `t${String(i).padStart(2, '0')}`, slug: `t${i}` })));
  t.is((await service.api('GET', '/api/extras/tags/')).body.results.length, 50);
  const capped = (await service.api('GET', '/api/extras/tags/?limit=5000')).body;
  t.is(capped.results.length, 60);
  t.regex(capped.next, /limit=60&offset=60/);
});

test('MAX_PAGE_SIZE=0 lets limit=0 return everything', async (t) => {
  const service = await startService({ MAX_PAGE_SIZE: '0' });
  t.teardown(() => service.close());
  await service.api('POST', '/api/extras/tags/', Array.from({ length: 55 }, (_, i) => ({ name: `t${i}`, slug: `t${i}` })));
  const all = (await service.api('GET', '/api/extras/tags/?limit=0')).body;
  t.is(all.results.length, 55);
  t.is(all.next, null);
});

test('links keep other query parameters', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  await service.api('POST', '/api/extras/tags/', Array.from({ length: 4 }, (_, i) => ({ name: `t${i}`, slug: `t${i}`, color: 'ff0000' })));
  const page = (await service.api('GET', '/api/extras/tags/?color=ff0000&limit=2')).body;
  t.is(page.count, 4);
  t.is(page.next, `${service.url}/api/extras/tags/?color=ff0000&limit=2&offset=2`);
});
