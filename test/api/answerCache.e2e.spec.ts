import test, { type ExecutionContext } from 'ava';

import { as, grant, ok, userWithToken } from '../support/callers.js';
import { FakeClock } from '../support/fakeClock.js';
import { seededRandom } from '../support/seededRandom.js';
import { type ApiResponse, startService, type TestService } from '../support/startService.js';

type Caller = ReturnType<typeof as>;

/** A header the answer cache does not know: the request goes down the whole middleware chain. */
const THROUGH_THE_CHAIN = { 'X-Test-Through-The-Chain': '1' };

/** What a client sees of an answer, less what belongs to one response. */
function seen(response: ApiResponse) {
  const headers = Object.fromEntries(
    [...response.headers].filter(([name]) => !['x-request-id', 'date', 'keep-alive'].includes(name)),
  );
  return { status: response.status, headers, body: response.body };
}

async function registry(service: TestService) {
  const tenants: Array<{ id: number }> = await ok(
    service.api('POST', '/api/tenancy/tenants/', [
      { name: 'Red', slug: 'red' },
      { name: 'Blue', slug: 'blue' },
    ]),
  );
  await ok(
    service.api(
      'POST',
      '/api/dcim/sites/',
      Array.from({ length: 12 }, (_, i) => ({
        name: `site ${i}`,
        slug: `site-${i}`,
        status: i % 3 === 0 ? 'planned' : 'active',
        tenant: tenants[i % 2].id,
      })),
    ),
  );
  await ok(
    service.api(
      'POST',
      '/api/ipam/ip-addresses/',
      Array.from({ length: 20 }, (_, i) => ({ address: `10.0.0.${i + 1}/24`, tenant: tenants[i % 2].id })),
    ),
  );
  return tenants;
}

/**
 * Reads `path` until the answer cache answers it (the first read records the token's
 * last_used, a write; the second is kept), and checks that the last one came from it.
 */
async function readFromCache(t: ExecutionContext, service: TestService, call: Caller, path: string): Promise<void> {
  await call('GET', path);
  t.is((await call('GET', path)).status, 200);
  const hits = service.services.answers!.hits;
  t.is((await call('GET', path)).status, 200);
  t.is(service.services.answers!.hits, hits + 1, `${path} came from the cache`);
}

const PATHS = [
  '/api/dcim/sites/',
  '/api/dcim/sites/?brief=1',
  '/api/dcim/sites/?fields=id,name,status',
  '/api/dcim/sites/?status=active&ordering=-name',
  '/api/dcim/sites/?limit=3&offset=2',
  '/api/dcim/sites/?tenant=red',
  '/api/dcim/sites/1/',
  '/api/dcim/sites/4/',
  '/api/dcim/sites/4/?brief=true',
  '/api/dcim/sites/99/',
  '/api/ipam/ip-addresses/',
  '/api/ipam/ip-addresses/?tenant_id=1&limit=5',
  '/api/ipam/ip-addresses/3/',
  '/api/tenancy/tenants/',
  '/api/users/tokens/',
];

test('answers from the answer cache equal the middleware chain’s, for every caller, through writes and permission changes', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const tenants = await registry(service);
  // Alice sees active sites and Red's addresses; Bob sees nothing; the admin everything; and anonymous.
  const alice = await userWithToken(service, 'alice');
  const permission = await grant(service, {
    object_types: ['dcim.site'],
    actions: ['view'],
    constraints: { status: 'active' },
    users: [alice.user.id],
  });
  await grant(service, {
    object_types: ['ipam.ipaddress'],
    actions: ['view'],
    constraints: { tenant__slug: 'red' },
    users: [alice.user.id],
  });
  const bob = await userWithToken(service, 'bob');
  const callers = [service.api, as(service, alice.key), as(service, bob.key), as(service, null)];
  const random = seededRandom(34);
  const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)];
  const hits = () => service.services.answers!.hits;

  const before = hits();
  let compared = 0;
  for (let round = 0; round < 6; round++) {
    for (let i = 0; i < 40; i++) {
      const call = pick(callers);
      const path = pick(PATHS);
      // Twice: the second is the cache's to answer if the first was kept.
      const first = await call('GET', path);
      const second = await call('GET', path);
      const chain = await call('GET', path, undefined, THROUGH_THE_CHAIN);
      t.deepEqual(seen(second), seen(chain), `${path} (round ${round})`);
      t.deepEqual(seen(first), seen(chain), `${path} (round ${round})`);
      compared++;
    }
    // A change between rounds: a site's status, Alice's constraint, an address's tenant.
    const site = 1 + Math.floor(random() * 12);
    await ok(service.api('PATCH', `/api/dcim/sites/${site}/`, { status: pick(['active', 'planned', 'retired']) }), 200);
    await ok(
      service.api('PATCH', `/api/users/permissions/${permission.id}/`, {
        constraints: { status: pick(['active', 'planned']) },
      }),
      200,
    );
    await ok(
      service.api('PATCH', `/api/ipam/ip-addresses/${1 + Math.floor(random() * 20)}/`, { tenant: pick(tenants).id }),
      200,
    );
  }
  t.true(hits() - before > compared / 4, `the cache answered ${hits() - before} of ${compared * 2} cacheable reads`);
});

test('a revoked token is refused at once, though its answers were kept', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  await registry(service);
  const alice = await userWithToken(service, 'alice');
  await grant(service, { object_types: ['dcim.site'], actions: ['view'], users: [alice.user.id] });
  const call = as(service, alice.key);
  await readFromCache(t, service, call, '/api/dcim/sites/');

  await ok(service.api('DELETE', `/api/users/tokens/${alice.token.id}/`), 204);
  const refused = await call('GET', '/api/dcim/sites/');
  t.is(refused.status, 403);
  t.deepEqual(refused.body, { detail: 'Invalid token' });
});

test('an expired token is refused at once, with no write in between to move the read models', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const clock = new FakeClock();
  service.services.auth.clock = clock;
  await registry(service);
  const expires = new Date(clock.ms + 10 * 60_000).toISOString();
  const alice = await userWithToken(service, 'alice', { token: { expires } });
  await grant(service, { object_types: ['dcim.site'], actions: ['view'], users: [alice.user.id] });
  const call = as(service, alice.key);
  await readFromCache(t, service, call, '/api/dcim/sites/');

  const head = service.services.log.head();
  clock.advance(10 * 60_000);
  const refused = await call('GET', '/api/dcim/sites/');
  t.is(refused.status, 403);
  t.deepEqual(refused.body, { detail: 'Token expired' });
  t.true(service.services.log.head() > head, 'the refused use was recorded (last_used), as NetBox does');
});

test('a permission taken away takes effect at the next read', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  await registry(service);
  const alice = await userWithToken(service, 'alice');
  const permission = await grant(service, { object_types: ['dcim.site'], actions: ['view'], users: [alice.user.id] });
  const call = as(service, alice.key);
  await readFromCache(t, service, call, '/api/dcim/sites/4/');
  await ok(service.api('DELETE', `/api/users/permissions/${permission.id}/`), 204);
  t.is((await call('GET', '/api/dcim/sites/4/')).status, 403);
  t.is((await call('GET', '/api/dcim/sites/')).status, 403);
});

test('reads the cache must not answer go down the chain: past states, exports, cookies, conditionals', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  await registry(service);
  const position = service.services.log.head();
  await ok(service.api('PATCH', '/api/dcim/sites/1/', { description: 'changed' }), 200);
  for (const [path, headers] of [
    [`/api/dcim/sites/1/?as_of=${position}`, {}],
    ['/api/dcim/sites/1/', { 'If-None-Match': '"x"' }],
    ['/api/dcim/sites/?created_by_request=00000000-0000-4000-8000-000000000000', {}],
  ] as const) {
    await service.api('GET', path, undefined, headers);
    const hits = service.services.answers!.hits;
    const again = await service.api('GET', path, undefined, headers);
    t.is(service.services.answers!.hits, hits, path);
    t.not(again.status, 500);
  }
  const past = await service.api('GET', `/api/dcim/sites/1/?as_of=${position}`);
  t.is(past.body.description, '');
});
