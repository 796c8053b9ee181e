import test from 'ava';

import { startService, type TestService } from '../support/startService.js';

async function post(service: TestService, path: string, body: unknown): Promise<any> {
  const response = await service.api('POST', path, body);
  if (response.status !== 201) throw new Error(`${path}: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body;
}

async function list(service: TestService, path: string, key = 'name'): Promise<unknown[]> {
  const response = await service.api('GET', path);
  if (response.status !== 200) throw new Error(`${path}: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body.results.map((o: any) => o[key]);
}

test('provider networks: full and brief forms, filters, one name per provider', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const zayo = await post(service, '/api/circuits/providers/', { name: 'Zayo', slug: 'zayo' });
  const lumen = await post(service, '/api/circuits/providers/', { name: 'Lumen', slug: 'lumen' });
  const tag = await post(service, '/api/extras/tags/', { name: 'Core', slug: 'core' });
  const east = await post(service, '/api/circuits/provider-networks/', {
    provider: zayo.id,
    name: 'MPLS-East',
    service_id: 'SVC-100',
    comments: 'peering in Ashburn',
    tags: [tag.id],
  });
  await post(service, '/api/circuits/provider-networks/', {
    provider: zayo.id,
    name: 'MPLS-West',
    description: 'west coast',
  });
  await post(service, '/api/circuits/provider-networks/', { provider: lumen.id, name: 'MPLS-East' });

  const path = `/api/circuits/provider-networks/${east.id}/`;
  const url = `${service.url}${path}`;
  const detail = (await service.api('GET', path)).body;
  t.deepEqual(Object.keys(detail), [
    'id',
    'url',
    'display',
    'provider',
    'name',
    'service_id',
    'description',
    'comments',
    'tags',
    'custom_fields',
    'created',
    'last_updated',
  ]);
  t.like(detail, {
    url,
    display: 'MPLS-East',
    name: 'MPLS-East',
    service_id: 'SVC-100',
    description: '',
    comments: 'peering in Ashburn',
    custom_fields: {},
  });
  t.like(detail.provider, { id: zayo.id, display: 'Zayo', name: 'Zayo', slug: 'zayo' });
  t.deepEqual(
    detail.tags.map((x: any) => x.slug),
    ['core'],
  );
  t.deepEqual((await service.api('GET', `${path}?brief=1`)).body, {
    id: east.id,
    url,
    display: 'MPLS-East',
    name: 'MPLS-East',
  });

  const duplicate = await service.api('POST', '/api/circuits/provider-networks/', {
    provider: zayo.id,
    name: 'MPLS-East',
  });
  t.is(duplicate.status, 400);
  t.deepEqual(duplicate.body, { __all__: ['Provider network with this Provider and Name already exists.'] });

  const base = '/api/circuits/provider-networks/';
  t.deepEqual(await list(service, `${base}?provider_id=${zayo.id}`), ['MPLS-East', 'MPLS-West']);
  t.deepEqual(await list(service, `${base}?provider=lumen`), ['MPLS-East']);
  t.deepEqual(await list(service, `${base}?provider__n=lumen`), ['MPLS-East', 'MPLS-West']);
  t.deepEqual(await list(service, `${base}?service_id=SVC-100`), ['MPLS-East']);
  t.deepEqual(await list(service, `${base}?name__isw=mpls-w`), ['MPLS-West']);
  t.deepEqual(await list(service, `${base}?description__empty=false`), ['MPLS-West']);
  t.deepEqual(await list(service, `${base}?q=ashburn`), ['MPLS-East'], 'the search reads the comments');
  t.deepEqual(await list(service, `${base}?tag=core`), ['MPLS-East']);
  t.is(
    (await service.api('GET', `${base}?comments=x`)).body.count,
    3,
    'NetBox has no comments filter: the parameter is ignored',
  );
  const unknown = await service.api('GET', `${base}?provider=nope`);
  t.is(unknown.status, 400);
  t.deepEqual(unknown.body, { provider: ['Select a valid choice. nope is not one of the available choices.'] });
});

test('circuits by provider network: the circuits with a termination on it', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const provider = await post(service, '/api/circuits/providers/', { name: 'Zayo', slug: 'zayo' });
  const type = await post(service, '/api/circuits/circuit-types/', { name: 'Transit', slug: 'transit' });
  const site = await post(service, '/api/dcim/sites/', { name: 'DC-1', slug: 'dc-1' });
  const east = await post(service, '/api/circuits/provider-networks/', { provider: provider.id, name: 'East' });
  const west = await post(service, '/api/circuits/provider-networks/', { provider: provider.id, name: 'West' });
  const circuits: any[] = [];
  for (const cid of ['C-1', 'C-2', 'C-3', 'C-4'])
    circuits.push(await post(service, '/api/circuits/circuits/', { cid, provider: provider.id, type: type.id }));
  const terminate = (circuit: any, term_side: string, where: Record<string, number>) =>
    post(service, '/api/circuits/circuit-terminations/', { circuit: circuit.id, term_side, ...where });
  await terminate(circuits[0], 'A', { site: site.id });
  await terminate(circuits[0], 'Z', { provider_network: east.id });
  await terminate(circuits[1], 'Z', { provider_network: west.id });
  await terminate(circuits[2], 'A', { site: site.id });
  // C-4 has no termination

  const cids = (query: string) => list(service, `/api/circuits/circuits/?${query}`, 'cid');
  t.deepEqual(await cids(`provider_network_id=${east.id}`), ['C-1']);
  t.deepEqual(await cids(`provider_network_id=${east.id}&provider_network_id=${west.id}`), ['C-1', 'C-2']);
  t.deepEqual(await cids(`provider_network_id__n=${east.id}`), ['C-2', 'C-3', 'C-4']);
  t.deepEqual(
    await cids('provider_network_id=null'),
    ['C-1', 'C-3', 'C-4'],
    'an end at a site, or no termination at all',
  );
  t.deepEqual(await cids(`site_id=${site.id}`), ['C-1', 'C-3']);
  t.deepEqual(await cids('site=dc-1'), ['C-1', 'C-3']);
  const unknown = await service.api('GET', '/api/circuits/circuits/?provider_network_id=999');
  t.is(unknown.status, 400);
  t.deepEqual(unknown.body, {
    provider_network_id: ['Select a valid choice. 999 is not one of the available choices.'],
  });
  const malformed = await service.api('GET', '/api/circuits/circuits/?provider_network_id=east');
  t.deepEqual(malformed.body, { provider_network_id: ['“east” is not a valid value.'] });

  const protectedDelete = await service.api('DELETE', `/api/circuits/provider-networks/${east.id}/`);
  t.is(protectedDelete.status, 409);
});
