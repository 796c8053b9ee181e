/**
 * The allocation sub-resources (available-ips, available-prefixes, available-vlans):
 * NetBox 3.4's shapes, messages and permission checks, and allocation decided by the
 * single writer so concurrent requests never receive the same space.
 */
import test from 'ava';

import type { ChangeEvent } from '../../src/events/ChangeEvent.js';
import { as, grant, ok, userWithToken } from '../support/callers.js';
import { startService, type TestService } from '../support/startService.js';

async function eventsSince(service: TestService, position: number): Promise<ChangeEvent[]> {
  const events: ChangeEvent[] = [];
  for await (const batch of service.services.log.read(position + 1)) events.push(...batch);
  return events;
}

const availableIps = (id: number) => `/api/ipam/prefixes/${id}/available-ips/`;
const availablePrefixes = (id: number) => `/api/ipam/prefixes/${id}/available-prefixes/`;
const availableVlans = (id: number) => `/api/ipam/vlan-groups/${id}/available-vlans/`;

test('GET available-ips: a plain array of {family, address, vrf} with the prefix mask and VRF, lowest first, limited', async (t) => {
  const service = await startService({ PAGINATE_COUNT: '5', MAX_PAGE_SIZE: '8' });
  t.teardown(() => service.close());
  const vrf = await ok(service.api('POST', '/api/ipam/vrfs/', { name: 'Blue', rd: '65000:1' }));
  const prefix = await ok(service.api('POST', '/api/ipam/prefixes/', { prefix: '192.0.2.0/24', vrf: vrf.id }));
  await ok(
    service.api('POST', '/api/ipam/ip-addresses/', [
      { address: '192.0.2.1/32', vrf: vrf.id },
      { address: '192.0.2.3/24' },
    ]),
  );
  const listed = await service.api('GET', availableIps(prefix.id));
  t.is(listed.status, 200);
  t.is(listed.body.length, 5, 'PAGINATE_COUNT by default');
  t.deepEqual(listed.body[0], {
    family: 4,
    address: '192.0.2.2/24',
    vrf: {
      id: vrf.id,
      url: `${service.url}/api/ipam/vrfs/${vrf.id}/`,
      display: 'Blue (65000:1)',
      name: 'Blue',
      rd: '65000:1',
    },
  });
  t.deepEqual(
    listed.body.map((e: any) => e.address),
    ['192.0.2.2/24', '192.0.2.3/24', '192.0.2.4/24', '192.0.2.5/24', '192.0.2.6/24'],
    '192.0.2.3 is used in the global table only',
  );
  t.is((await service.api('GET', `${availableIps(prefix.id)}?limit=2`)).body.length, 2);
  t.is((await service.api('GET', `${availableIps(prefix.id)}?limit=0`)).body.length, 8, 'limit=0 is MAX_PAGE_SIZE');
  t.is((await service.api('GET', `${availableIps(prefix.id)}?limit=500`)).body.length, 8, 'capped by MAX_PAGE_SIZE');
  t.is((await service.api('GET', `${availableIps(prefix.id)}?limit=x`)).body.length, 5);
  t.is((await service.api('GET', availableIps(99999))).status, 404);
  t.is((await service.api('GET', '/api/ipam/prefixes/abc/available-ips/')).status, 404);
});

test('GET available-prefixes and available-vlans: plain arrays of {family, prefix, vrf} and {vid, group}', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const parent = await ok(service.api('POST', '/api/ipam/prefixes/', { prefix: '10.0.0.0/16', status: 'container' }));
  await ok(service.api('POST', '/api/ipam/prefixes/', [{ prefix: '10.0.0.0/18' }, { prefix: '10.0.128.0/24' }]));
  const prefixes = await service.api('GET', availablePrefixes(parent.id));
  t.deepEqual(prefixes.body, [
    { family: 4, prefix: '10.0.64.0/18', vrf: null },
    { family: 4, prefix: '10.0.129.0/24', vrf: null },
    { family: 4, prefix: '10.0.130.0/23', vrf: null },
    { family: 4, prefix: '10.0.132.0/22', vrf: null },
    { family: 4, prefix: '10.0.136.0/21', vrf: null },
    { family: 4, prefix: '10.0.144.0/20', vrf: null },
    { family: 4, prefix: '10.0.160.0/19', vrf: null },
    { family: 4, prefix: '10.0.192.0/18', vrf: null },
  ]);
  const group = await ok(
    service.api('POST', '/api/ipam/vlan-groups/', { name: 'Core', slug: 'core', min_vid: 100, max_vid: 199 }),
  );
  await ok(service.api('POST', '/api/ipam/vlans/', { name: 'first', vid: 100, group: group.id }));
  const vlans = await service.api('GET', `${availableVlans(group.id)}?limit=2`);
  const nestedGroup = {
    id: group.id,
    url: `${service.url}/api/ipam/vlan-groups/${group.id}/`,
    display: 'Core',
    name: 'Core',
    slug: 'core',
  };
  t.deepEqual(vlans.body, [
    { vid: 101, group: nestedGroup },
    { vid: 102, group: nestedGroup },
  ]);
});

test('POST available-ips: one object or a list, addresses in the prefix VRF; 409 with both numbers when short', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const vrf = await ok(service.api('POST', '/api/ipam/vrfs/', { name: 'Red' }));
  const prefix = await ok(service.api('POST', '/api/ipam/prefixes/', { prefix: '198.51.100.0/29', vrf: vrf.id }));
  const one = await service.api('POST', availableIps(prefix.id), {
    description: 'gateway',
    address: '8.8.8.8/32',
    vrf: null,
  });
  t.is(one.status, 201, JSON.stringify(one.body));
  t.is(one.body.address, '198.51.100.1/29');
  t.is(one.body.vrf.id, vrf.id);
  t.is(one.body.description, 'gateway');
  t.is(one.body.url, `${service.url}/api/ipam/ip-addresses/${one.body.id}/`);
  const empty = await service.api('POST', availableIps(prefix.id));
  t.is(empty.status, 201, 'no body asks for one address');
  t.is(empty.body.address, '198.51.100.2/29');
  const many = await service.api('POST', availableIps(prefix.id), [{ status: 'reserved' }, {}]);
  t.is(many.status, 201);
  t.deepEqual(
    many.body.map((ip: any) => [ip.address, ip.status.value]),
    [
      ['198.51.100.3/29', 'reserved'],
      ['198.51.100.4/29', 'active'],
    ],
  );
  const head = service.services.log.head();
  const short = await service.api('POST', availableIps(prefix.id), [{}, {}, {}]);
  t.is(short.status, 409);
  t.deepEqual(short.body, {
    detail: 'An insufficient number of IP addresses are available within 198.51.100.0/29 (3 requested, 2 available)',
  });
  const invalid = await service.api('POST', availableIps(prefix.id), [{}, { status: 'bogus' }]);
  t.is(invalid.status, 400);
  t.deepEqual(invalid.body, [{}, { status: ['bogus is not a valid choice.'] }]);
  const single = await service.api('POST', availableIps(prefix.id), { dns_name: 'not valid!' });
  t.deepEqual(single.body, {
    dns_name: ['Only alphanumeric characters, asterisks, hyphens, periods, and underscores are allowed in DNS names'],
  });
  t.is(service.services.log.head(), head, 'refusals write nothing');
  const utilized = await ok(
    service.api('POST', '/api/ipam/prefixes/', { prefix: '203.0.113.0/24', mark_utilized: true }),
  );
  t.deepEqual((await service.api('GET', availableIps(utilized.id))).body, []);
  t.is((await service.api('POST', availableIps(utilized.id), {})).status, 409);
});

test('POST available-prefixes: requested lengths served in order from the lowest block large enough; NetBox messages', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const parent = await ok(service.api('POST', '/api/ipam/prefixes/', { prefix: '10.20.0.0/24', status: 'container' }));
  await ok(service.api('POST', '/api/ipam/prefixes/', { prefix: '10.20.0.0/26' }));
  const one = await service.api('POST', availablePrefixes(parent.id), { prefix_length: 28, description: 'one' });
  t.is(one.status, 201, JSON.stringify(one.body));
  t.is(one.body.prefix, '10.20.0.64/28');
  t.is(one.body.description, 'one');
  t.is(one.body.vrf, null);
  const many = await service.api('POST', availablePrefixes(parent.id), [{ prefix_length: 25 }, { prefix_length: 28 }]);
  t.deepEqual(
    many.body.map((p: any) => p.prefix),
    ['10.20.0.128/25', '10.20.0.80/28'],
  );
  const head = service.services.log.head();
  const short = await service.api('POST', availablePrefixes(parent.id), [{ prefix_length: 27 }, { prefix_length: 27 }]);
  t.is(short.status, 409);
  t.deepEqual(short.body, { detail: 'Insufficient space is available to accommodate the requested prefix size(s)' });
  const invalid = await service.api('POST', availablePrefixes(parent.id), { prefix_length: 40 });
  t.is(invalid.status, 400);
  t.deepEqual(
    invalid.body,
    [{ prefix_length: 'Invalid prefix length (40) for IPv4' }],
    'a list even for one object, as NetBox',
  );
  const missing = await service.api('POST', availablePrefixes(parent.id), [
    { prefix_length: 30 },
    { status: 'active' },
  ]);
  t.deepEqual(missing.body, [{}, { prefix_length: 'this field can not be missing' }]);
  t.is(service.services.log.head(), head);
});

test('POST available-vlans: name required (a list of errors), VIDs lowest first, 409 when the group is full', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const group = await ok(
    service.api('POST', '/api/ipam/vlan-groups/', { name: 'Edge', slug: 'edge', min_vid: 10, max_vid: 12 }),
  );
  await ok(service.api('POST', '/api/ipam/vlans/', { name: 'taken', vid: 11, group: group.id }));
  const missing = await service.api('POST', availableVlans(group.id), {});
  t.is(missing.status, 400);
  t.deepEqual(missing.body, [{ name: ['This field is required.'] }]);
  const one = await service.api('POST', availableVlans(group.id), { name: 'users', vid: 4000, comments: 'ignored' });
  t.is(one.status, 201, JSON.stringify(one.body));
  t.deepEqual([one.body.vid, one.body.group.id, one.body.comments], [10, group.id, '']);
  const duplicateName = await service.api('POST', availableVlans(group.id), { name: 'users' });
  t.is(duplicateName.status, 400, 'the VLAN rules still apply to what is created');
  const full = await service.api('POST', availableVlans(group.id), [{ name: 'a' }, { name: 'b' }]);
  t.is(full.status, 409);
  t.deepEqual(full.body, { detail: 'The requested number of VLANs is not available' });
  const last = await service.api('POST', availableVlans(group.id), [{ name: 'a' }]);
  t.deepEqual(
    last.body.map((v: any) => v.vid),
    [12],
  );
});

test('50 parallel allocations from one small prefix: distinct addresses, then clean 409s; the log holds exactly the answered ones', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const prefix = await ok(service.api('POST', '/api/ipam/prefixes/', { prefix: '192.0.2.0/28' }));
  const before = service.services.log.head();
  const answers = await Promise.all(
    Array.from({ length: 50 }, (_, i) => service.api('POST', availableIps(prefix.id), { description: `client ${i}` })),
  );
  const statuses = answers.map((a) => a.status);
  t.true(
    statuses.every((s) => s === 201 || s === 409),
    `statuses: ${[...new Set(statuses)].join(', ')}`,
  );
  const granted = answers.filter((a) => a.status === 201).map((a) => a.body.address as string);
  t.is(granted.length, 14, 'a /28 has 14 host addresses');
  t.is(new Set(granted).size, granted.length, 'no address handed out twice');
  for (const refused of answers.filter((a) => a.status === 409))
    t.regex(
      refused.body.detail,
      /^An insufficient number of IP addresses are available within 192\.0\.2\.0\/28 \(1 requested, 0 available\)$/,
    );
  const logged = (await eventsSince(service, before)).filter((e) => e.objectType === 'ipam.ipaddress');
  t.true(logged.every((e) => e.action === 'create'));
  t.deepEqual(logged.map((e) => e.postchange!.address).sort(), [...granted].sort());
  const requestIds = new Set(answers.filter((a) => a.status === 201).map((a) => a.headers.get('x-request-id')));
  t.deepEqual(
    new Set(logged.map((e) => e.requestId)),
    requestIds,
    'each address was logged by the request that received it',
  );
  t.deepEqual((await service.api('GET', availableIps(prefix.id))).body, []);
});

test('parallel prefix and VLAN allocations never share space either', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const parent = await ok(service.api('POST', '/api/ipam/prefixes/', { prefix: '10.9.0.0/26' }));
  const group = await ok(
    service.api('POST', '/api/ipam/vlan-groups/', { name: 'G', slug: 'g', min_vid: 1, max_vid: 6 }),
  );
  const [prefixAnswers, vlanAnswers] = await Promise.all([
    Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        service.api('POST', availablePrefixes(parent.id), { prefix_length: i % 2 ? 29 : 28 }),
      ),
    ),
    Promise.all(Array.from({ length: 10 }, (_, i) => service.api('POST', availableVlans(group.id), { name: `v${i}` }))),
  ]);
  t.true([...prefixAnswers, ...vlanAnswers].every((a) => a.status === 201 || a.status === 409));
  const networks = prefixAnswers.filter((a) => a.status === 201).map((a) => a.body.prefix as string);
  const free = await service.api('GET', availablePrefixes(parent.id));
  const size = (p: string) => 2 ** (32 - Number(p.split('/')[1]));
  t.is(
    [...networks, ...free.body.map((p: any) => p.prefix)].reduce((sum, p) => sum + size(p), 0),
    64,
    'allocated and free space tile the parent exactly',
  );
  t.is(new Set(networks).size, networks.length);
  const vids = vlanAnswers.filter((a) => a.status === 201).map((a) => a.body.vid as number);
  t.deepEqual(
    [...vids].sort((a, b) => a - b),
    [1, 2, 3, 4, 5, 6],
  );
});

test('Idempotency-Key on an allocation: the retry gets the same address and nothing more is written, also after a restart', async (t) => {
  const first = await startService();
  const prefix = await ok(first.api('POST', '/api/ipam/prefixes/', { prefix: '10.1.1.0/24' }));
  const key = { 'Idempotency-Key': 'allocate-1' };
  const allocated = await first.api('POST', availableIps(prefix.id), { description: 'web' }, key);
  t.is(allocated.status, 201);
  const head = first.services.log.head();
  const retry = await first.api('POST', availableIps(prefix.id), { description: 'web' }, key);
  t.is(retry.status, 201);
  t.is(retry.headers.get('idempotent-replayed'), 'true');
  t.is(retry.body.address, allocated.body.address);
  t.is(first.services.log.head(), head);
  const bulk = await first.api('POST', availableIps(prefix.id), [{}, {}], { 'Idempotency-Key': 'allocate-2' });
  await first.stop();
  const second = await startService({}, first.dataDir);
  t.teardown(() => second.close());
  const after = second.services.log.head();
  const again = await second.api('POST', availableIps(prefix.id), [{}, {}], { 'Idempotency-Key': 'allocate-2' });
  t.is(again.status, 201);
  t.is(again.headers.get('idempotent-replayed'), 'true');
  t.deepEqual(
    again.body.map((ip: any) => ip.address),
    bulk.body.map((ip: any) => ip.address),
  );
  t.is(second.services.log.head(), after, 'nothing written');
  const fresh = await second.api('POST', availableIps(prefix.id), {});
  t.is(fresh.body.address, '10.1.1.4/24');
});

test('permissions: view on the created model and the parent to list; add on the created model to allocate, within its constraints', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const prefix = await ok(service.api('POST', '/api/ipam/prefixes/', { prefix: '10.2.0.0/29', description: 'shared' }));
  const hidden = await ok(service.api('POST', '/api/ipam/prefixes/', { prefix: '10.3.0.0/29', description: 'hidden' }));
  const viewer = await userWithToken(service, 'viewer');
  const allocator = await userWithToken(service, 'allocator');
  const readOnly = await userWithToken(service, 'readonly', { token: { write_enabled: false } });
  await grant(service, {
    object_types: ['ipam.prefix'],
    actions: ['view'],
    users: [viewer.user.id, allocator.user.id, readOnly.user.id],
    constraints: { description: 'shared' },
  });
  await grant(service, {
    object_types: ['ipam.ipaddress'],
    actions: ['view'],
    users: [allocator.user.id, readOnly.user.id],
  });
  await grant(service, {
    object_types: ['ipam.ipaddress'],
    actions: ['add'],
    users: [allocator.user.id, readOnly.user.id],
    constraints: { status: 'reserved' },
  });

  t.is(
    (await as(service, viewer.key)('GET', availableIps(prefix.id))).status,
    403,
    'no view permission on IP addresses',
  );
  t.is((await as(service, null)('GET', availableIps(prefix.id))).status, 403);
  t.is((await as(service, allocator.key)('GET', availableIps(prefix.id))).status, 200);
  t.is(
    (await as(service, allocator.key)('GET', availableIps(hidden.id))).status,
    404,
    'the parent outside the view constraints',
  );
  t.is(
    (await as(service, viewer.key)('POST', availableIps(prefix.id), { status: 'reserved' })).status,
    403,
    'no add permission',
  );
  t.is(
    (await as(service, readOnly.key)('POST', availableIps(prefix.id), { status: 'reserved' })).status,
    403,
    'read-only token',
  );
  t.is((await as(service, allocator.key)('POST', availableIps(hidden.id), { status: 'reserved' })).status, 404);
  const head = service.services.log.head();
  const outside = await as(service, allocator.key)('POST', availableIps(prefix.id), [
    { status: 'reserved' },
    { status: 'active' },
  ]);
  t.is(outside.status, 403, 'a created address outside the add constraints');
  t.is(service.services.log.head(), head, 'and nothing is written');
  const inside = await as(service, allocator.key)('POST', availableIps(prefix.id), { status: 'reserved' });
  t.is(inside.status, 201);
  t.is(inside.body.address, '10.2.0.1/29');
});

test('the sub-resources answer other methods with 405, describe themselves on OPTIONS, and vanish with their parent', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const prefix = await ok(service.api('POST', '/api/ipam/prefixes/', { prefix: '10.4.0.0/30' }));
  const put = await service.api('PUT', availableIps(prefix.id), {});
  t.is(put.status, 405);
  t.is(put.headers.get('allow'), 'GET, POST, HEAD, OPTIONS');
  t.deepEqual(put.body, { detail: 'Method "PUT" not allowed.' });
  const options = await service.api('OPTIONS', availablePrefixes(prefix.id));
  t.is(options.status, 200);
  t.deepEqual(options.body, {
    name: 'Prefix',
    description: '',
    renders: ['application/json', 'text/html'],
    parses: ['application/json'],
  });
  t.is((await service.api('DELETE', `/api/ipam/prefixes/${prefix.id}/`)).status, 204);
  t.is((await service.api('GET', availableIps(prefix.id))).status, 404);
  t.is((await service.api('POST', availableIps(prefix.id), {})).status, 404);
});
