import test from 'ava';

import { ids, list, post } from '../support/expectResponses.js';
import { startService, type TestService } from '../support/startService.js';

/**
 * RIRs RIPE and ARIN; ASNs 65000 (RIPE, "edge"), 4200000000 (RIPE, tenant Acme) and
 * 64512 (ARIN); site DC-1 lists 65000 and 4200000000, site DC-2 lists 65000; provider
 * Transit Co lists 64512.
 */
async function asns(service: TestService) {
  const tenant = await post(service, '/api/tenancy/tenants/', { name: 'Acme', slug: 'acme' });
  const ripe = await post(service, '/api/ipam/rirs/', { name: 'RIPE', slug: 'ripe' });
  const arin = await post(service, '/api/ipam/rirs/', { name: 'ARIN', slug: 'arin' });
  const a1 = await post(service, '/api/ipam/asns/', { asn: 65000, rir: ripe.id, description: 'edge' });
  const a2 = await post(service, '/api/ipam/asns/', { asn: 4200000000, rir: ripe.id, tenant: tenant.id });
  const a3 = await post(service, '/api/ipam/asns/', { asn: 64512, rir: arin.id });
  const dc1 = await post(service, '/api/dcim/sites/', { name: 'DC-1', slug: 'dc-1', asns: [a1.id, a2.id] });
  const dc2 = await post(service, '/api/dcim/sites/', { name: 'DC-2', slug: 'dc-2', asns: [a1.id] });
  const provider = await post(service, '/api/circuits/providers/', {
    name: 'Transit Co',
    slug: 'transit-co',
    asns: [a3.id],
  });
  return { tenant, ripe, arin, a1, a2, a3, dc1, dc2, provider };
}

test('an ASN reads as NetBox 3.4 shows it: the RIR as its id, asdot display, site and provider counts', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const e = await asns(service);
  t.is(e.a2.display, 'AS4200000000 (64086.59904)');
  t.is(e.a1.rir, e.ripe.id, 'the RIR is a bare id');
  const read = (await service.api('GET', `/api/ipam/asns/${e.a1.id}/`)).body;
  t.deepEqual(Object.keys(read), [
    'id',
    'url',
    'display',
    'asn',
    'rir',
    'tenant',
    'description',
    'comments',
    'tags',
    'custom_fields',
    'created',
    'last_updated',
    'site_count',
    'provider_count',
  ]);
  t.is(read.site_count, 2);
  t.is(read.provider_count, 0);
  t.false('site_count' in e.a1, 'counts are left out of the create response');
  t.is((await service.api('GET', `/api/ipam/asns/${e.a3.id}/`)).body.provider_count, 1);
  const brief = (await service.api('GET', `/api/ipam/asns/${e.a1.id}/?brief=1`)).body;
  t.deepEqual(brief, { id: e.a1.id, url: `${service.url}/api/ipam/asns/${e.a1.id}/`, display: 'AS65000', asn: 65000 });
  t.deepEqual(ids(await list(service, '/api/ipam/asns/')), [e.a3.id, e.a1.id, e.a2.id], 'ordered by number');
});

test('sites and providers list their ASNs nested; asn and asn_id filters find them', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const e = await asns(service);
  const site = (await service.api('GET', `/api/dcim/sites/${e.dc1.id}/`)).body;
  t.deepEqual(site.asns, [
    { id: e.a1.id, url: `${service.url}/api/ipam/asns/${e.a1.id}/`, display: 'AS65000', asn: 65000 },
    {
      id: e.a2.id,
      url: `${service.url}/api/ipam/asns/${e.a2.id}/`,
      display: 'AS4200000000 (64086.59904)',
      asn: 4200000000,
    },
  ]);
  t.deepEqual(ids(await list(service, `/api/dcim/sites/?asn_id=${e.a2.id}`)), [e.dc1.id]);
  t.deepEqual(ids(await list(service, '/api/dcim/sites/?asn=65000')), [e.dc1.id, e.dc2.id]);
  t.deepEqual(ids(await list(service, `/api/dcim/sites/?asn_id__n=${e.a2.id}`)), [e.dc2.id]);
  t.is((await service.api('GET', '/api/dcim/sites/?asn=65001')).status, 400, 'an unknown ASN is a bad value');
  t.deepEqual(ids(await list(service, `/api/circuits/providers/?asn_id=${e.a3.id}`)), [e.provider.id]);
  t.deepEqual(
    (await service.api('GET', `/api/circuits/providers/${e.provider.id}/`)).body.asns.map((a: any) => a.asn),
    [64512],
  );
  t.is((await service.api('POST', '/api/dcim/sites/', { name: 'DC-3', slug: 'dc-3', asns: [9999] })).status, 400);
});

test('ASNs filter by site, RIR, tenant, number and text', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const e = await asns(service);
  const path = '/api/ipam/asns/';
  t.deepEqual(ids(await list(service, `${path}?site_id=${e.dc2.id}`)), [e.a1.id]);
  t.deepEqual(ids(await list(service, `${path}?site=dc-1`)), [e.a1.id, e.a2.id]);
  t.deepEqual(ids(await list(service, `${path}?site__n=dc-1`)), [e.a3.id]);
  t.is((await service.api('GET', `${path}?site=nowhere`)).status, 400);
  t.deepEqual(ids(await list(service, `${path}?rir=arin`)), [e.a3.id]);
  t.deepEqual(ids(await list(service, `${path}?rir_id=${e.ripe.id}`)), [e.a1.id, e.a2.id]);
  t.deepEqual(ids(await list(service, `${path}?tenant=acme`)), [e.a2.id]);
  t.deepEqual(ids(await list(service, `${path}?asn__gte=65000`)), [e.a1.id, e.a2.id]);
  t.deepEqual(ids(await list(service, `${path}?q=EDG`)), [e.a1.id], 'q finds the description');
  t.deepEqual(ids(await list(service, `${path}?q=%2064512%20`)), [e.a3.id], 'and the number itself');
  t.deepEqual(ids(await list(service, `${path}?ordering=-asn`)), [e.a2.id, e.a1.id, e.a3.id]);
});

test('ASN rules: range, uniqueness, a RIR in use; deleting an ASN takes it off its sites', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const e = await asns(service);
  const path = '/api/ipam/asns/';
  t.deepEqual((await service.api('POST', path, { asn: 0, rir: e.ripe.id })).body, {
    asn: ['Ensure this value is greater than or equal to 1.'],
  });
  t.deepEqual((await service.api('POST', path, { asn: 4294967296, rir: e.ripe.id })).body, {
    asn: ['Ensure this value is less than or equal to 4294967295.'],
  });
  t.deepEqual((await service.api('POST', path, { asn: 65000, rir: e.ripe.id })).body, {
    asn: ['ASN with this ASN already exists.'],
  });
  t.is((await service.api('DELETE', `/api/ipam/rirs/${e.arin.id}/`)).status, 409, 'the RIR of an ASN is protected');
  t.is((await service.api('DELETE', `${path}${e.a1.id}/`)).status, 204);
  t.deepEqual(
    (await service.api('GET', `/api/dcim/sites/${e.dc1.id}/`)).body.asns.map((a: any) => a.id),
    [e.a2.id],
  );
  t.deepEqual((await service.api('GET', `/api/dcim/sites/${e.dc2.id}/`)).body.asns, []);
});
