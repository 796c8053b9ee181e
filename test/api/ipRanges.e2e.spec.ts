/**
 * IP ranges: NetBox 3.4's fields, rules and messages, its filters, and the range's
 * available-ips handed out by the single writer (never one address twice).
 */
import test from 'ava';

import { ok } from '../support/callers.js';
import { concurrentRequests } from '../support/concurrentRequests.js';
import { startService } from '../support/startService.js';

const RANGES = '/api/ipam/ip-ranges/';
const availableIps = (id: number) => `${RANGES}${id}/available-ips/`;

test('a range is created with its family, size and compact display; the brief form is NetBox’s', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const range = await ok(
    service.api('POST', RANGES, { start_address: '192.0.2.10/24', end_address: '192.0.2.20/24', status: 'reserved' }),
  );
  t.is(range.display, '192.0.2.10-20/24');
  t.deepEqual(range.family, { value: 4, label: 'IPv4' });
  t.is(range.size, 11);
  t.deepEqual(range.status, { value: 'reserved', label: 'Reserved' });
  t.false('children' in range, 'declared by the serializer, never rendered');
  t.deepEqual(Object.keys(range), [
    'id',
    'url',
    'display',
    'family',
    'start_address',
    'end_address',
    'size',
    'vrf',
    'tenant',
    'status',
    'role',
    'description',
    'comments',
    'tags',
    'custom_fields',
    'created',
    'last_updated',
  ]);
  const brief = await service.api('GET', `${RANGES}${range.id}/?brief=1`);
  t.deepEqual(brief.body, {
    id: range.id,
    url: range.url,
    display: '192.0.2.10-20/24',
    family: 4,
    start_address: '192.0.2.10/24',
    end_address: '192.0.2.20/24',
  });
  const v6 = await ok(
    service.api('POST', RANGES, { start_address: '2001:db8::10/64', end_address: '2001:db8::1f/64', size: 999 }),
  );
  t.is(v6.display, '2001:db8::10-1f/64');
  t.is(v6.size, 16, 'size is read-only and computed');
  // NetBox counts groups equal at the same position anywhere, not only leading ones
  const odd = await ok(service.api('POST', RANGES, { start_address: '10.1.5.1/8', end_address: '10.2.5.9/8' }));
  t.is(odd.display, '10.5.5.1-5.9/8');
  const patched = await ok(service.api('PATCH', `${RANGES}${range.id}/`, { end_address: '192.0.2.30/24' }), 200);
  t.is(patched.size, 21);
  t.is(patched.display, '192.0.2.10-30/24');
});

test('the ends must be of one family and mask, the end above the start, the size within 2^32 - 1', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const refuse = async (body: Record<string, unknown>, expected: Record<string, string[]>) => {
    const response = await service.api('POST', RANGES, body);
    t.is(response.status, 400, JSON.stringify(body));
    t.deepEqual(response.body, expected);
  };
  await refuse(
    { start_address: '192.0.2.1/24', end_address: '2001:db8::1/24' },
    { end_address: ['Ending address version (IPv6) does not match starting address (IPv4)'] },
  );
  await refuse(
    { start_address: '192.0.2.1/24', end_address: '192.0.2.9/25' },
    { end_address: ['Ending address mask (/25) does not match starting address mask (/24)'] },
  );
  await refuse(
    { start_address: '192.0.2.9/24', end_address: '192.0.2.1/24' },
    { end_address: ['Ending address must be lower than the starting address (192.0.2.9/24)'] },
  );
  await refuse(
    { start_address: '192.0.2.9/24', end_address: '192.0.2.9/24' },
    { end_address: ['Ending address must be lower than the starting address (192.0.2.9/24)'] },
  );
  await refuse(
    { start_address: 'nonsense', end_address: '192.0.2.9/24' },
    { start_address: ['Invalid IP address format: nonsense'] },
  );
  await refuse({ start_address: '192.0.2.1/24' }, { end_address: ['This field is required.'] });
  await refuse(
    { start_address: '2001:db8::/32', end_address: '2001:db8::1:0:0/32' },
    { __all__: ['Defined range exceeds maximum supported size (4294967295)'] },
  );
  const largest = await ok(
    service.api('POST', RANGES, { start_address: '2001:db8::/32', end_address: '2001:db8::ffff:fffe/32' }),
  );
  t.is(largest.size, 4294967295);
});

test('ranges of one VRF may not overlap: starting inside, ending inside or enclosing another is refused', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const vrf = await ok(service.api('POST', '/api/ipam/vrfs/', { name: 'Blue', rd: '65000:1' }));
  const first = await ok(service.api('POST', RANGES, { start_address: '10.0.0.10/24', end_address: '10.0.0.20/24' }));
  const overlap = (start: string, end: string, vrfId: number | null = null) =>
    service.api('POST', RANGES, { start_address: start, end_address: end, vrf: vrfId });
  for (const [start, end] of [
    ['10.0.0.15/24', '10.0.0.30/24'],
    ['10.0.0.1/24', '10.0.0.10/24'],
    ['10.0.0.1/24', '10.0.0.99/24'],
    ['10.0.0.12/24', '10.0.0.13/24'],
  ]) {
    const refused = await overlap(start, end);
    t.is(refused.status, 400, `${start}-${end}`);
    t.deepEqual(refused.body, { __all__: ['Defined addresses overlap with range 10.0.0.10-20/24 in VRF None'] });
  }
  await ok(overlap('10.0.0.21/24', '10.0.0.30/24'));
  await ok(overlap('10.0.0.1/24', '10.0.0.9/24'));
  await ok(overlap('10.0.0.10/24', '10.0.0.20/24', vrf.id), 201);
  const inVrf = await overlap('10.0.0.5/24', '10.0.0.11/24', vrf.id);
  t.deepEqual(inVrf.body, { __all__: ['Defined addresses overlap with range 10.0.0.10-20/24 in VRF Blue (65000:1)'] });
  // a range does not overlap itself when it changes
  await ok(service.api('PATCH', `${RANGES}${first.id}/`, { end_address: '10.0.0.19/24' }), 200);
  const grown = await service.api('PATCH', `${RANGES}${first.id}/`, { end_address: '10.0.0.25/24' });
  t.deepEqual(grown.body, { __all__: ['Defined addresses overlap with range 10.0.0.21-30/24 in VRF None'] });
});

test('filters: family, start and end address with or without mask, contains, q, vrf; numeric ordering', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const vrf = await ok(service.api('POST', '/api/ipam/vrfs/', { name: 'Blue', rd: '65000:1' }));
  const a = await ok(
    service.api('POST', RANGES, {
      start_address: '10.0.0.100/24',
      end_address: '10.0.0.200/24',
      description: 'pool A',
    }),
  );
  const b = await ok(
    service.api('POST', RANGES, { start_address: '10.0.0.9/24', end_address: '10.0.0.20/24', vrf: vrf.id }),
  );
  const c = await ok(
    service.api('POST', RANGES, {
      start_address: '2001:db8::1/64',
      end_address: '2001:db8::ff/64',
      status: 'deprecated',
    }),
  );
  const ids = async (query: string) =>
    (await service.api('GET', `${RANGES}?${query}`)).body.results.map((r: any) => r.id);
  t.deepEqual(await ids(''), [a.id, c.id, b.id], 'VRF first (nulls first), then the start address numerically');
  t.deepEqual(await ids('ordering=start_address'), [b.id, a.id, c.id], '10.0.0.9 before 10.0.0.100');
  t.deepEqual(await ids('ordering=-size'), [c.id, a.id, b.id]);
  t.deepEqual(await ids('family=6'), [c.id]);
  t.deepEqual(await ids('start_address=10.0.0.9'), [b.id], 'without mask: the host address');
  t.deepEqual(await ids('start_address=10.0.0.9/24&start_address=2001:db8::1/64'), [c.id, b.id]);
  t.deepEqual(await ids('start_address=10.0.0.9/25'), [], 'with mask: both must match');
  t.deepEqual(await ids('end_address=10.0.0.200'), [a.id]);
  t.deepEqual(await ids('start_address=bogus'), []);
  t.deepEqual(await ids('contains=10.0.0.150/24'), [a.id]);
  t.deepEqual(await ids('contains=10.0.0.150'), [], 'a bare address is a /32: after every /24 address in inet order');
  t.deepEqual(await ids('contains=2001:db8::80/64'), [c.id]);
  t.deepEqual(await ids('contains=nonsense'), []);
  t.deepEqual(await ids('q=pool'), [a.id]);
  t.deepEqual(await ids('q=0.0.9'), [b.id], 'host part contains the text');
  t.deepEqual(await ids('q=2001:DB8'), [], 'host text is matched case-sensitively');
  t.deepEqual(await ids('q=10.0.0.200/24'), [a.id]);
  t.deepEqual(await ids('vrf_id=null'), [a.id, c.id]);
  t.deepEqual(await ids('vrf=65000:1'), [b.id]);
  t.deepEqual(await ids('status=deprecated'), [c.id]);
});

test('available-ips GET: every address from start to end but those used in the range VRF, with the range mask', async (t) => {
  const service = await startService({ PAGINATE_COUNT: '4' });
  t.teardown(() => service.close());
  const vrf = await ok(service.api('POST', '/api/ipam/vrfs/', { name: 'Blue', rd: '65000:1' }));
  const range = await ok(
    service.api('POST', RANGES, { start_address: '192.0.2.0/24', end_address: '192.0.2.5/24', vrf: vrf.id }),
  );
  await ok(
    service.api('POST', '/api/ipam/ip-addresses/', [
      { address: '192.0.2.1/24', vrf: vrf.id },
      { address: '192.0.2.2/32', vrf: vrf.id },
      { address: '192.0.2.3/24' },
    ]),
  );
  const listed = await service.api('GET', `${availableIps(range.id)}?limit=10`);
  t.is(listed.status, 200);
  const nestedVrf = {
    id: vrf.id,
    url: `${service.url}/api/ipam/vrfs/${vrf.id}/`,
    display: 'Blue (65000:1)',
    name: 'Blue',
    rd: '65000:1',
  };
  t.deepEqual(
    listed.body[0],
    { family: 4, address: '192.0.2.0/24', vrf: nestedVrf },
    'no network address held back in a range',
  );
  t.deepEqual(
    listed.body.map((e: any) => e.address),
    ['192.0.2.0/24', '192.0.2.3/24', '192.0.2.4/24', '192.0.2.5/24'],
    'a used address counts whatever its mask; one of another VRF does not',
  );
  t.is((await service.api('GET', `${availableIps(range.id)}?limit=2`)).body.length, 2);
  t.is((await service.api('GET', availableIps(99999))).status, 404);
  // the prefix around it keeps the range's addresses back
  const prefix = await ok(service.api('POST', '/api/ipam/prefixes/', { prefix: '192.0.2.0/29', vrf: vrf.id }));
  t.deepEqual(
    (await service.api('GET', `/api/ipam/prefixes/${prefix.id}/available-ips/`)).body.map((e: any) => e.address),
    ['192.0.2.6/29'],
  );
});

test('available-ips POST: one object or a list, lowest first in the range VRF; 409 naming the range when short', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const vrf = await ok(service.api('POST', '/api/ipam/vrfs/', { name: 'Red' }));
  const range = await ok(
    service.api('POST', RANGES, { start_address: '198.51.100.10/24', end_address: '198.51.100.13/24', vrf: vrf.id }),
  );
  const one = await ok(
    service.api('POST', availableIps(range.id), { description: 'gateway', address: '8.8.8.8/32', vrf: null }),
  );
  t.is(one.address, '198.51.100.10/24', 'the allocator sets address and VRF whatever the request says');
  t.is(one.vrf.id, vrf.id);
  t.is(one.description, 'gateway');
  const two = await ok(service.api('POST', availableIps(range.id), [{ description: 'a' }, { description: 'b' }]));
  t.deepEqual(
    two.map((ip: any) => ip.address),
    ['198.51.100.11/24', '198.51.100.12/24'],
  );
  const short = await service.api('POST', availableIps(range.id), [{}, {}]);
  t.is(short.status, 409);
  t.deepEqual(short.body, {
    detail:
      'An insufficient number of IP addresses are available within 198.51.100.10-13/24 (2 requested, 1 available)',
  });
  t.is(
    (await service.api('GET', '/api/ipam/ip-addresses/?vrf_id=' + vrf.id)).body.count,
    3,
    'nothing written by the refused request',
  );
});

test('30 concurrent allocations from a range of 8: eight distinct addresses, then clean 409s', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const range = await ok(
    service.api('POST', RANGES, { start_address: '203.0.113.1/24', end_address: '203.0.113.8/24' }),
  );
  const answers = await concurrentRequests(
    service.url,
    Array.from({ length: 30 }, (_, i) => ({
      method: 'POST',
      path: availableIps(range.id),
      body: { description: `client ${i}` },
    })),
  );
  const statuses = answers.map((a) => a.status);
  t.true(
    statuses.every((s) => s === 201 || s === 409),
    `statuses: ${[...new Set(statuses)].join(', ')}`,
  );
  const granted = answers.filter((a) => a.status === 201).map((a) => a.body.address as string);
  t.is(granted.length, 8);
  t.is(new Set(granted).size, 8, 'no address handed out twice');
  t.deepEqual((await service.api('GET', availableIps(range.id))).body, []);
  t.is((await service.api('GET', '/api/ipam/ip-addresses/?parent=203.0.113.0/24')).body.count, 8);
});
