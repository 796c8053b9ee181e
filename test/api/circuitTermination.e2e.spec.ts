import test from 'ava';

import { startService, type TestService } from '../support/startService.js';

async function post(service: TestService, path: string, body: unknown): Promise<any> {
  const response = await service.api('POST', path, body);
  if (response.status !== 201) throw new Error(`${path}: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body;
}

async function get(service: TestService, path: string): Promise<any> {
  const response = await service.api('GET', path);
  if (response.status !== 200) throw new Error(`${path}: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body;
}

/** Region "East" > site DC-1; site DC-2; provider Zayo with network "MPLS"; circuit type Transit. */
async function estate(service: TestService) {
  const region = await post(service, '/api/dcim/regions/', { name: 'East', slug: 'east' });
  const dc1 = await post(service, '/api/dcim/sites/', { name: 'DC-1', slug: 'dc-1', region: region.id });
  const dc2 = await post(service, '/api/dcim/sites/', { name: 'DC-2', slug: 'dc-2' });
  const provider = await post(service, '/api/circuits/providers/', { name: 'Zayo', slug: 'zayo' });
  const network = await post(service, '/api/circuits/provider-networks/', { provider: provider.id, name: 'MPLS' });
  const type = await post(service, '/api/circuits/circuit-types/', { name: 'Transit', slug: 'transit' });
  const circuit = (cid: string) =>
    post(service, '/api/circuits/circuits/', { cid, provider: provider.id, type: type.id });
  return { region, dc1, dc2, provider, network, type, circuit };
}

const TERMINATIONS = '/api/circuits/circuit-terminations/';

test('circuit terminations: full and brief forms, the rules, filters', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const e = await estate(service);
  const c1 = await e.circuit('CID-100');
  const c2 = await e.circuit('CID-200');
  const a = await post(service, TERMINATIONS, {
    circuit: c1.id,
    term_side: 'A',
    site: e.dc1.id,
    port_speed: 10000,
    xconnect_id: 'XC-7',
    pp_info: 'PP1/3',
  });
  const z = await post(service, TERMINATIONS, {
    circuit: c1.id,
    term_side: 'Z',
    provider_network: e.network.id,
    upstream_speed: 500,
    mark_connected: true,
  });
  await post(service, TERMINATIONS, {
    circuit: c2.id,
    term_side: 'A',
    site: e.dc2.id,
    port_speed: 1000,
    description: 'backup',
  });

  const path = `${TERMINATIONS}${a.id}/`;
  const url = `${service.url}${path}`;
  const detail = await get(service, path);
  t.deepEqual(Object.keys(detail), [
    'id',
    'url',
    'display',
    'circuit',
    'term_side',
    'site',
    'provider_network',
    'port_speed',
    'upstream_speed',
    'xconnect_id',
    'pp_info',
    'description',
    'mark_connected',
    'cable',
    'cable_end',
    'link_peers',
    'link_peers_type',
    'tags',
    'custom_fields',
    'created',
    'last_updated',
    '_occupied',
  ]);
  t.like(detail, {
    url,
    display: 'CID-100: Termination A',
    term_side: 'A',
    provider_network: null,
    port_speed: 10000,
    upstream_speed: null,
    xconnect_id: 'XC-7',
    pp_info: 'PP1/3',
    mark_connected: false,
    cable: null,
    cable_end: '',
    link_peers: [],
    link_peers_type: null,
    _occupied: false,
  });
  t.deepEqual(detail.circuit, {
    id: c1.id,
    url: `${service.url}/api/circuits/circuits/${c1.id}/`,
    display: 'CID-100',
    cid: 'CID-100',
  });
  t.like(detail.site, { id: e.dc1.id, display: 'DC-1', name: 'DC-1', slug: 'dc-1' });
  t.deepEqual(await get(service, `${path}?brief=1`), {
    id: a.id,
    url,
    display: 'CID-100: Termination A',
    circuit: detail.circuit,
    term_side: 'A',
    cable: null,
    _occupied: false,
  });
  // _occupied (cable or mark) comes with the cable fields, shared by every cabled object
  t.like(z, { display: 'CID-100: Termination Z', site: null, mark_connected: true });
  t.like(z.provider_network, { id: e.network.id, display: 'MPLS', name: 'MPLS' });

  const neither = await service.api('POST', TERMINATIONS, { circuit: c2.id, term_side: 'Z' });
  t.is(neither.status, 400);
  t.deepEqual(neither.body, { __all__: ['A circuit termination must attach to either a site or a provider network.'] });
  const both = await service.api('POST', TERMINATIONS, {
    circuit: c2.id,
    term_side: 'Z',
    site: e.dc1.id,
    provider_network: e.network.id,
  });
  t.deepEqual(both.body, { __all__: ['A circuit termination cannot attach to both a site and a provider network.'] });
  const again = await service.api('POST', TERMINATIONS, { circuit: c1.id, term_side: 'A', site: e.dc2.id });
  t.deepEqual(again.body, { __all__: ['Circuit termination with this Circuit and Termination already exists.'] });
  const side = await service.api('POST', TERMINATIONS, { circuit: c2.id, term_side: 'B', site: e.dc1.id });
  t.deepEqual(side.body, { term_side: ['"B" is not a valid choice.'] });

  const displays = async (query: string) =>
    (await get(service, `${TERMINATIONS}?${query}`)).results.map((x: any) => x.display);
  t.deepEqual(await displays(`circuit_id=${c1.id}`), ['CID-100: Termination A', 'CID-100: Termination Z']);
  t.deepEqual(await displays(`site_id=${e.dc1.id}`), ['CID-100: Termination A']);
  t.deepEqual(await displays('site=dc-2'), ['CID-200: Termination A']);
  t.deepEqual(await displays(`provider_network_id=${e.network.id}`), ['CID-100: Termination Z']);
  t.deepEqual(await displays('term_side=Z'), ['CID-100: Termination Z']);
  t.deepEqual(await displays('term_side__n=Z'), ['CID-100: Termination A', 'CID-200: Termination A']);
  t.deepEqual(await displays('port_speed__gte=5000'), ['CID-100: Termination A']);
  t.deepEqual(await displays('upstream_speed=500'), ['CID-100: Termination Z']);
  t.deepEqual(await displays('xconnect_id__ic=xc'), ['CID-100: Termination A']);
  t.deepEqual(await displays('description=backup'), ['CID-200: Termination A']);
  t.deepEqual(await displays('q=cid-2'), ['CID-200: Termination A'], 'the search finds the circuit id');
  t.deepEqual(await displays('q=pp1'), ['CID-100: Termination A'], 'and the patch panel');
  t.deepEqual(await displays('occupied=true'), ['CID-100: Termination Z'], 'marked connected');
  t.deepEqual(await displays('occupied=false'), ['CID-100: Termination A', 'CID-200: Termination A']);
  t.is((await get(service, `${TERMINATIONS}?cabled=true`)).count, 0);
  t.is((await get(service, `${TERMINATIONS}?cabled=false`)).count, 3);
  t.is((await get(service, `${TERMINATIONS}?connected=true`)).count, 3, 'NetBox has no connected filter here: ignored');
  const badSite = await service.api('GET', `${TERMINATIONS}?site=nowhere`);
  t.deepEqual(badSite.body, { site: ['Select a valid choice. nowhere is not one of the available choices.'] });
});

test("a site's circuit_count counts the terminations there, as NetBox's API does; circuits and providers by where circuits end", async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const e = await estate(service);
  const both = await e.circuit('CID-1');
  const one = await e.circuit('CID-2');
  await post(service, TERMINATIONS, { circuit: both.id, term_side: 'A', site: e.dc1.id });
  await post(service, TERMINATIONS, { circuit: both.id, term_side: 'Z', site: e.dc1.id });
  await post(service, TERMINATIONS, { circuit: one.id, term_side: 'A', site: e.dc2.id });
  await post(service, TERMINATIONS, { circuit: one.id, term_side: 'Z', provider_network: e.network.id });

  const counts = async () =>
    Object.fromEntries((await get(service, '/api/dcim/sites/')).results.map((s: any) => [s.name, s.circuit_count]));
  t.deepEqual(await counts(), { 'DC-1': 2, 'DC-2': 1 }, 'a circuit with both ends at DC-1 counts twice there');
  t.is((await get(service, `/api/dcim/sites/${e.dc2.id}/`)).circuit_count, 1);

  const cids = async (query: string) =>
    (await get(service, `/api/circuits/circuits/?${query}`)).results.map((c: any) => c.cid);
  t.deepEqual(await cids(`region_id=${e.region.id}`), ['CID-1'], 'by the region of a termination site');
  t.deepEqual(await cids('region=east'), ['CID-1']);
  t.deepEqual(await cids(`site_id=${e.dc2.id}`), ['CID-2']);

  const other = await post(service, '/api/circuits/providers/', { name: 'Lumen', slug: 'lumen' });
  const providers = async (query: string) =>
    (await get(service, `/api/circuits/providers/?${query}`)).results.map((p: any) => p.name);
  t.deepEqual(await providers('site=dc-2'), ['Zayo'], 'a provider by the sites where its circuits end');
  t.deepEqual(await providers(`region_id=${e.region.id}`), ['Zayo']);
  t.deepEqual(await providers('site__n=dc-2'), [other.name]);
  t.deepEqual(
    await providers('site_id=null'),
    [other.name, 'Zayo'],
    'without circuits, or with an end elsewhere than a site',
  );

  const deleted = await service.api('DELETE', `/api/circuits/circuits/${both.id}/`);
  t.is(deleted.status, 204);
  t.deepEqual(await counts(), { 'DC-1': 0, 'DC-2': 1 }, 'the circuit took its terminations with it');
});

test('a circuit shows its terminations on sides A and Z; deleting one shows null', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const e = await estate(service);
  const circuit = await e.circuit('CID-1');
  const circuitPath = `/api/circuits/circuits/${circuit.id}/`;
  t.like(await get(service, circuitPath), { termination_a: null, termination_z: null });

  const a = await post(service, TERMINATIONS, {
    circuit: circuit.id,
    term_side: 'A',
    site: e.dc1.id,
    port_speed: 10000,
    upstream_speed: 2000,
    xconnect_id: 'XC-1',
    pp_info: 'hidden',
    description: 'east end',
  });
  const z = await post(service, TERMINATIONS, { circuit: circuit.id, term_side: 'Z', provider_network: e.network.id });
  const shown = await get(service, circuitPath);
  t.not(shown.last_updated, circuit.last_updated, 'saving a termination saves its circuit');
  const circuitChanges = await get(
    service,
    `/api/extras/object-changes/?changed_object_type=circuits.circuit&changed_object_id=${circuit.id}`,
  );
  t.deepEqual(circuitChanges.results.map((c: any) => c.action.value).sort(), ['create', 'update', 'update']);
  t.deepEqual(Object.keys(shown).slice(11, 15), ['description', 'termination_a', 'termination_z', 'comments']);
  t.deepEqual(shown.termination_a, {
    id: a.id,
    url: `${service.url}${TERMINATIONS}${a.id}/`,
    display: 'CID-1: Termination A',
    site: a.site,
    provider_network: null,
    port_speed: 10000,
    upstream_speed: 2000,
    xconnect_id: 'XC-1',
    description: 'east end',
  });
  t.deepEqual(shown.termination_z, {
    id: z.id,
    url: `${service.url}${TERMINATIONS}${z.id}/`,
    display: 'CID-1: Termination Z',
    site: null,
    provider_network: z.provider_network,
    port_speed: null,
    upstream_speed: null,
    xconnect_id: '',
    description: '',
  });
  t.deepEqual(
    Object.keys(shown.termination_a.site),
    ['id', 'url', 'display', 'name', 'slug'],
    'the site in its brief form',
  );

  const moved = await service.api('PATCH', `${TERMINATIONS}${a.id}/`, { port_speed: 40000 });
  t.is(moved.status, 200);
  t.is(
    (await get(service, circuitPath)).termination_a.port_speed,
    40000,
    'a change to the termination shows on the circuit',
  );

  t.is((await service.api('DELETE', `${TERMINATIONS}${z.id}/`)).status, 204);
  const after = await get(service, circuitPath);
  t.is(after.termination_z, null);
  t.is(after.termination_a.id, a.id);
  t.is((await get(service, `${circuitPath}?brief=1`)).termination_a, undefined, 'the brief form has no terminations');
});

test('a page of many circuits renders each its own terminations', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const e = await estate(service);
  const circuits = [];
  for (let i = 0; i < 30; i++)
    circuits.push({ cid: `CID-${String(i).padStart(2, '0')}`, provider: e.provider.id, type: e.type.id });
  const created = (await service.api('POST', '/api/circuits/circuits/', circuits)).body as any[];
  const terminations = created.flatMap((c, i) => [
    { circuit: c.id, term_side: 'A', site: i % 2 ? e.dc1.id : e.dc2.id, port_speed: i },
    ...(i % 3 === 0 ? [] : [{ circuit: c.id, term_side: 'Z', provider_network: e.network.id, port_speed: 1000 + i }]),
  ]);
  t.is((await service.api('POST', TERMINATIONS, terminations)).status, 201);

  const page = await get(service, '/api/circuits/circuits/?limit=25&offset=3');
  t.is(page.results.length, 25);
  for (const c of page.results) {
    const i = Number(c.cid.slice(4));
    t.is(c.termination_a.display, `${c.cid}: Termination A`);
    t.is(c.termination_a.port_speed, i);
    t.is(c.termination_a.site.name, i % 2 ? 'DC-1' : 'DC-2');
    if (i % 3 === 0) t.is(c.termination_z, null, c.cid);
    else t.like(c.termination_z, { display: `${c.cid}: Termination Z`, port_speed: 1000 + i, site: null }, c.cid);
  }
});
