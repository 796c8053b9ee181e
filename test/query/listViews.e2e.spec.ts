import test from 'ava';

import { seedInfrastructure } from '../support/fixtures.js';
import { startService, type TestService } from '../support/startService.js';

/** The query language through HTTP: filters, errors, page links, brief/fields/exclude, cursor paging. */

let service: TestService;
let seed: Awaited<ReturnType<typeof seedInfrastructure>>;

test.before(async () => {
  service = await startService();
  seed = await seedInfrastructure(service);
  await service.api('POST', '/api/dcim/sites/', [
    { name: 'DC-2', slug: 'dc-2', status: 'planned' },
    { name: 'DC-10', slug: 'dc-10', status: 'active' },
  ]);
});

test.after.always(async () => {
  await service?.close();
});

const get = (path: string) => service.api('GET', path);

test('filters by slug and id, combined, in natural name order', async (t) => {
  const bySlug = await get('/api/dcim/devices/?site=dc-1&status=active&name__ic=EDGE');
  t.is(bySlug.status, 200);
  t.deepEqual(
    bySlug.body.results.map((d: any) => d.name),
    ['edge1'],
  );
  const sites = await get('/api/dcim/sites/?ordering=name');
  t.deepEqual(
    sites.body.results.map((s: any) => s.name),
    ['DC-1', 'DC-2', 'DC-10'],
  );
  const byRegion = await get(`/api/dcim/sites/?region_id=${seed.region.id}`);
  t.deepEqual(
    byRegion.body.results.map((s: any) => s.slug),
    ['dc-1'],
  );
  const ips = await get(`/api/ipam/ip-addresses/?parent=192.0.2.0/24&device_id=${seed.device.id}`);
  t.deepEqual(
    ips.body.results.map((a: any) => a.address),
    ['192.0.2.1/25'],
  );
});

test('invalid values are 400 {param: [message]} in NetBox words; unknown parameters are ignored', async (t) => {
  const bad = await get('/api/dcim/sites/?id=abc&status=urgent&region=nowhere');
  t.is(bad.status, 400);
  t.deepEqual(bad.body, {
    id: ['Enter a whole number.'],
    status: ['Select a valid choice. urgent is not one of the available choices.'],
    region: ['Select a valid choice. nowhere is not one of the available choices.'],
  });
  const unknownId = await get('/api/dcim/devices/?site_id=999999');
  t.deepEqual(unknownId.body, { site_id: ['Select a valid choice. 999999 is not one of the available choices.'] });
  const operators = await get('/api/dcim/sites/?name[$ne]=x&name%5B%24regex%5D=.*&%24where=1');
  t.is(operators.status, 200);
  t.is(operators.body.count, 3);
  const literal = await get('/api/dcim/sites/?name__ic=.*');
  t.is(literal.body.count, 0);
  const huge = await get(`/api/dcim/sites/?name__ic=${'x'.repeat(5000)}`);
  t.is(huge.status, 400);
  t.deepEqual(huge.body, { name__ic: ['Ensure this value has at most 1000 characters (it has 5000).'] });
});

test('next/previous are full links keeping every other parameter, keys sorted', async (t) => {
  const first = await get('/api/dcim/sites/?status=active&status=planned&limit=1&ordering=-name');
  t.is(first.body.count, 3);
  t.is(first.body.next, `${service.url}/api/dcim/sites/?limit=1&offset=1&ordering=-name&status=active&status=planned`);
  t.is(first.body.previous, null);
  const second = await get('/api/dcim/sites/?status=active&status=planned&limit=1&ordering=-name&offset=1');
  t.is(
    second.body.previous,
    `${service.url}/api/dcim/sites/?limit=1&offset=0&ordering=-name&status=active&status=planned`,
  );
  t.deepEqual([first.body.results[0].name, second.body.results[0].name], ['DC-10', 'DC-2']);
});

test('brief, fields and exclude=config_context shape the results', async (t) => {
  const brief = await get('/api/ipam/prefixes/?brief=1');
  t.deepEqual(Object.keys(brief.body.results[0]).sort(), ['_depth', 'display', 'family', 'id', 'prefix', 'url']);
  t.is(brief.body.results[0].family, 4);
  const detailBrief = await get(`/api/ipam/prefixes/${seed.prefix.id}/?brief=true`);
  t.is(detailBrief.body.family, 4);
  const fields = await get('/api/dcim/sites/?fields=name,slug&limit=1');
  t.deepEqual(Object.keys(fields.body.results[0]).sort(), ['id', 'name', 'slug']);
  const full = await get('/api/dcim/devices/');
  t.true('config_context' in full.body.results[0]);
  const excluded = await get('/api/dcim/devices/?exclude=config_context');
  t.false('config_context' in excluded.body.results[0]);
  t.true('name' in excluded.body.results[0]);
});

test('count stays exact with filters; limit=0 is capped by MAX_PAGE_SIZE', async (t) => {
  const all = await get('/api/dcim/sites/?limit=0');
  t.is(all.body.count, 3);
  t.is(all.body.results.length, 3);
  const filtered = await get('/api/dcim/sites/?status=active');
  t.is(filtered.body.count, 2);
});

test('cursor paging (?start=) never skips nor repeats an object while others write', async (t) => {
  const own = await startService();
  t.teardown(() => own.close());
  const created = await own.api(
    'POST',
    '/api/extras/tags/',
    Array.from({ length: 30 }, (_, i) => ({ name: `t${i}`, slug: `t${i}` })),
  );
  t.is(created.status, 201);
  const initial: number[] = created.body.map((tag: any) => tag.id);
  const deleted = new Set<number>();
  const seen: number[] = [];
  let next: string | null = `${own.url}/api/extras/tags/?start=0&limit=7`;
  let pages = 0;
  while (next) {
    const response = await fetch(next, {
      headers: { Authorization: 'Token 0123456789abcdef0123456789abcdef01234567' },
    });
    const page: any = await response.json();
    t.is(page.count, null);
    t.is(page.previous, null);
    seen.push(...page.results.map((r: any) => r.id));
    next = page.next;
    pages++;
    // others write between pages: delete one seen and one unseen object, create two
    const unseen = initial.filter((id) => !seen.includes(id) && !deleted.has(id));
    for (const id of [seen[0]!, unseen[unseen.length - 1]].filter(
      (x): x is number => x !== undefined && !deleted.has(x),
    )) {
      await own.api('DELETE', `/api/extras/tags/${id}/`);
      deleted.add(id);
    }
    await own.api('POST', '/api/extras/tags/', [
      { name: `n${pages}a`, slug: `n${pages}a` },
      { name: `n${pages}b`, slug: `n${pages}b` },
    ]);
    if (pages > 50) break;
  }
  t.is(new Set(seen).size, seen.length, 'no object repeated');
  t.deepEqual(
    seen,
    [...seen].sort((a, b) => a - b),
    'id order',
  );
  const survivors = initial.filter((id) => !deleted.has(id));
  for (const id of survivors) t.true(seen.includes(id), `tag ${id} existed throughout and was seen`);
  const offsetAndStart = await own.api('GET', '/api/extras/tags/?start=1&offset=5');
  t.is(offsetAndStart.status, 400);
  const badStart = await own.api('GET', '/api/extras/tags/?start=abc');
  t.deepEqual(badStart.body, { start: ['Enter a whole number.'] });
});
