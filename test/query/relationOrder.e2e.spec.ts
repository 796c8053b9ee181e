import test from 'ava';

import { startService, type TestService } from '../support/startService.js';

/** `?ordering=<relation>` through the list view: the related objects' order, paged, counted. */

let service: TestService;

test.before(async () => {
  service = await startService();
  const tenants = await service.api('POST', '/api/tenancy/tenants/', [
    { name: 'Zeta', slug: 'zeta' },
    { name: 'Alpha', slug: 'alpha' },
  ]);
  if (tenants.status !== 201) throw new Error(JSON.stringify(tenants.body));
  const [zeta, alpha] = tenants.body;
  const sites = await service.api('POST', '/api/dcim/sites/', [
    { name: 'S1', slug: 's1', tenant: zeta.id },
    { name: 'S2', slug: 's2' },
    { name: 'S3', slug: 's3', tenant: alpha.id },
    { name: 'S4', slug: 's4', tenant: zeta.id },
  ]);
  if (sites.status !== 201) throw new Error(JSON.stringify(sites.body));
});

test.after.always(async () => {
  await service?.close();
});

test('sites ordered by tenant: by the tenant name, no tenant last; descending no tenant first; pages and count', async (t) => {
  const names = async (query: string) => {
    const r = await service.api('GET', `/api/dcim/sites/?${query}`);
    return { count: r.body.count, names: r.body.results.map((s: any) => s.name) };
  };
  t.deepEqual(await names('ordering=tenant'), { count: 4, names: ['S3', 'S1', 'S4', 'S2'] });
  t.deepEqual(await names('ordering=-tenant'), { count: 4, names: ['S2', 'S1', 'S4', 'S3'] }); // ties: the default order
  t.deepEqual(await names('ordering=tenant&limit=2&offset=1'), { count: 4, names: ['S1', 'S4'] });
  t.deepEqual(await names('ordering=tenant&tenant=zeta'), { count: 2, names: ['S1', 'S4'] });
  // renaming a tenant reorders at once (nothing is stored per site)
  const alpha = await service.api('GET', '/api/tenancy/tenants/?slug=alpha');
  await service.api('PATCH', `/api/tenancy/tenants/${alpha.body.results[0].id}/`, { name: 'Omega' });
  t.deepEqual((await names('ordering=tenant')).names, ['S3', 'S1', 'S4', 'S2']);
  await service.api('PATCH', `/api/tenancy/tenants/${alpha.body.results[0].id}/`, { name: 'Zz' });
  t.deepEqual((await names('ordering=tenant')).names, ['S1', 'S4', 'S3', 'S2']);
});
