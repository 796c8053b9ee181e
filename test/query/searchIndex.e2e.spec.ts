import test from 'ava';

import { startService, type TestService } from '../support/startService.js';

/**
 * `?q=` through HTTP on the embedded store, where trigram indexes narrow the documents a
 * search tests: answers follow creates, renames and deletes, folded case included.
 */

let service: TestService;

test.before(async () => {
  service = await startService();
  const sites = Array.from({ length: 30 }, (_, i) => ({
    name: `Site ${i}`,
    slug: `site-${i}`,
    facility: i === 7 ? 'Straße-Kühlhaus' : `Hall ${i}`,
  }));
  const created = await service.api('POST', '/api/dcim/sites/', sites);
  if (created.status !== 201) throw new Error(JSON.stringify(created.body));
  const addresses = Array.from({ length: 40 }, (_, i) => ({
    address: `10.20.${i}.1/24`,
    dns_name: i % 4 === 0 ? `core-${i}.example.net` : `host-${i}.example.net`,
  }));
  const ips = await service.api('POST', '/api/ipam/ip-addresses/', addresses);
  if (ips.status !== 201) throw new Error(JSON.stringify(ips.body));
});

test.after.always(async () => {
  await service?.close();
});

const names = async (path: string, key: string) => {
  const r = await service.api('GET', path);
  if (r.status !== 200) throw new Error(JSON.stringify(r.body));
  return { count: r.body.count as number, values: r.body.results.map((o: any) => o[key]) as string[] };
};

test('?q= on IP addresses: the address starting with the text or a DNS name containing it, then a rename and a delete', async (t) => {
  t.deepEqual(await names('/api/ipam/ip-addresses/?q=10.20.3.', 'address'), { count: 1, values: ['10.20.3.1/24'] });
  t.deepEqual(await names('/api/ipam/ip-addresses/?q=CORE-1', 'dns_name'), {
    count: 2,
    values: ['core-12.example.net', 'core-16.example.net'],
  });
  const ip = await service.api('GET', '/api/ipam/ip-addresses/?address=10.20.5.1/24');
  const id = ip.body.results[0].id;
  t.is(
    (await service.api('PATCH', `/api/ipam/ip-addresses/${id}/`, { dns_name: 'Core-Renamed.example.net' })).status,
    200,
  );
  t.deepEqual(await names('/api/ipam/ip-addresses/?q=core-ren', 'address'), { count: 1, values: ['10.20.5.1/24'] });
  t.deepEqual(await names('/api/ipam/ip-addresses/?q=host-5.', 'address'), { count: 0, values: [] });
  t.is((await service.api('DELETE', `/api/ipam/ip-addresses/${id}/`)).status, 204);
  t.deepEqual(await names('/api/ipam/ip-addresses/?q=core-ren', 'address'), { count: 0, values: [] });
});

test('?q= on sites: any searched field, Unicode case folding as the regex scan does it', async (t) => {
  t.deepEqual(await names('/api/dcim/sites/?q=STRASSE', 'name'), { count: 0, values: [] });
  t.deepEqual(await names('/api/dcim/sites/?q=STRAẞE', 'name'), { count: 1, values: ['Site 7'] });
  t.deepEqual(await names('/api/dcim/sites/?q=kühl', 'name'), { count: 1, values: ['Site 7'] });
  t.deepEqual(await names('/api/dcim/sites/?q=hall%2017', 'name'), { count: 1, values: ['Site 17'] });
  const created = await service.api('POST', '/api/dcim/sites/', { name: 'Hall 17 annex', slug: 'hall-17-annex' });
  t.is(created.status, 201);
  t.deepEqual((await names('/api/dcim/sites/?q=hall%2017&ordering=name', 'name')).values, ['Hall 17 annex', 'Site 17']);
});
