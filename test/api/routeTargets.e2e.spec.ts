import test from 'ava';

import { ids, list, post } from '../support/expectResponses.js';
import { startService, type TestService } from '../support/startService.js';

/**
 * Route targets 65000:1 (tenant Acme), 65000:2 and 65000:3; VRF blue (rd 65000:10)
 * imports 1 and exports 2; VRF red (rd 65000:20) imports 2 and exports 1 and 3; VRF
 * green (no rd) lists none. A prefix in each VRF.
 */
async function targets(service: TestService) {
  const tenant = await post(service, '/api/tenancy/tenants/', { name: 'Acme', slug: 'acme' });
  const rt1 = await post(service, '/api/ipam/route-targets/', {
    name: '65000:1',
    tenant: tenant.id,
    description: 'hub',
  });
  const rt2 = await post(service, '/api/ipam/route-targets/', { name: '65000:2' });
  const rt3 = await post(service, '/api/ipam/route-targets/', { name: '65000:3' });
  const blue = await post(service, '/api/ipam/vrfs/', {
    name: 'blue',
    rd: '65000:10',
    import_targets: [rt1.id],
    export_targets: [rt2.id],
  });
  const red = await post(service, '/api/ipam/vrfs/', {
    name: 'red',
    rd: '65000:20',
    import_targets: [rt2.id],
    export_targets: [rt1.id, rt3.id],
  });
  const green = await post(service, '/api/ipam/vrfs/', { name: 'green' });
  const pBlue = await post(service, '/api/ipam/prefixes/', { prefix: '10.1.0.0/16', vrf: blue.id });
  const pRed = await post(service, '/api/ipam/prefixes/', { prefix: '10.2.0.0/16', vrf: red.id });
  const pGreen = await post(service, '/api/ipam/prefixes/', { prefix: '10.3.0.0/16', vrf: green.id });
  return { tenant, rt1, rt2, rt3, blue, red, green, pBlue, pRed, pGreen };
}

test('a VRF shows its import and export targets nested; a route target reads as NetBox shows it', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const e = await targets(service);
  const nested = (rt: any) => ({
    id: rt.id,
    url: `${service.url}/api/ipam/route-targets/${rt.id}/`,
    display: rt.name,
    name: rt.name,
  });
  t.deepEqual(e.red.import_targets, [nested(e.rt2)]);
  t.deepEqual(e.red.export_targets, [nested(e.rt1), nested(e.rt3)]);
  t.deepEqual(Object.keys(e.rt1), [
    'id',
    'url',
    'display',
    'name',
    'tenant',
    'description',
    'comments',
    'tags',
    'custom_fields',
    'created',
    'last_updated',
  ]);
  t.is(e.rt1.tenant.slug, 'acme');
  t.deepEqual((await service.api('GET', `/api/ipam/route-targets/${e.rt2.id}/?brief=1`)).body, nested(e.rt2));
  t.deepEqual((await service.api('POST', '/api/ipam/route-targets/', { name: '65000:1' })).body, {
    name: ['route target with this name already exists.'],
  });
  t.deepEqual((await service.api('POST', '/api/ipam/route-targets/', { name: '4200000000:42000000000' })).body, {
    name: ['Ensure this field has no more than 21 characters.'],
  });
  t.is((await service.api('PATCH', `/api/ipam/vrfs/${e.green.id}/`, { import_targets: [9999] })).status, 400);
});

test('VRFs filter by the targets they import and export, by id and by name', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const e = await targets(service);
  const path = '/api/ipam/vrfs/';
  t.deepEqual(ids(await list(service, `${path}?import_target_id=${e.rt1.id}`)), [e.blue.id]);
  t.deepEqual(ids(await list(service, `${path}?import_target=65000:2`)), [e.red.id]);
  t.deepEqual(ids(await list(service, `${path}?export_target=65000:1&export_target=65000:2`)), [e.blue.id, e.red.id]);
  t.deepEqual(ids(await list(service, `${path}?export_target_id=${e.rt3.id}`)), [e.red.id]);
  t.deepEqual(ids(await list(service, `${path}?export_target_id__n=${e.rt3.id}`)), [e.blue.id, e.green.id]);
  t.is((await service.api('GET', `${path}?import_target=65000:99`)).status, 400);
});

test('route targets filter by the VRFs importing and exporting them, by id and by rd', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const e = await targets(service);
  const path = '/api/ipam/route-targets/';
  t.deepEqual(ids(await list(service, `${path}?importing_vrf_id=${e.blue.id}`)), [e.rt1.id]);
  t.deepEqual(ids(await list(service, `${path}?importing_vrf=65000:20`)), [e.rt2.id]);
  t.deepEqual(ids(await list(service, `${path}?exporting_vrf_id=${e.red.id}`)), [e.rt1.id, e.rt3.id]);
  t.deepEqual(ids(await list(service, `${path}?exporting_vrf=65000:10`)), [e.rt2.id]);
  t.deepEqual(ids(await list(service, `${path}?exporting_vrf__n=65000:20`)), [e.rt2.id]);
  t.deepEqual(ids(await list(service, `${path}?importing_vrf_id=${e.green.id}`)), []);
  t.is((await service.api('GET', `${path}?exporting_vrf=65000:99`)).status, 400, 'an unknown rd is a bad value');
  t.deepEqual(ids(await list(service, `${path}?tenant=acme`)), [e.rt1.id]);
  t.deepEqual(ids(await list(service, `${path}?q=HUB`)), [e.rt1.id]);
  t.deepEqual(ids(await list(service, `${path}?name__isw=65000:`)), [e.rt1.id, e.rt2.id, e.rt3.id]);
});

test('present_in_vrf also finds objects of the VRFs exporting a target the VRF imports', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const e = await targets(service);
  // blue imports 65000:1, which red exports; red imports 65000:2, which blue exports
  t.deepEqual(ids(await list(service, `/api/ipam/prefixes/?present_in_vrf_id=${e.blue.id}`)), [e.pBlue.id, e.pRed.id]);
  t.deepEqual(ids(await list(service, '/api/ipam/prefixes/?present_in_vrf=65000:20')), [e.pBlue.id, e.pRed.id]);
  t.deepEqual(ids(await list(service, `/api/ipam/prefixes/?present_in_vrf_id=${e.green.id}`)), [e.pGreen.id]);
  t.is((await service.api('DELETE', `/api/ipam/route-targets/${e.rt1.id}/`)).status, 204);
  t.deepEqual(
    ids(await list(service, `/api/ipam/prefixes/?present_in_vrf_id=${e.blue.id}`)),
    [e.pBlue.id],
    'once the target is gone, only its own',
  );
  t.deepEqual(
    (await service.api('GET', `/api/ipam/vrfs/${e.red.id}/`)).body.export_targets.map((rt: any) => rt.name),
    ['65000:3'],
  );
});
