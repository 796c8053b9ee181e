import test from 'ava';

import { ids, list, post } from '../support/expectResponses.js';
import { startService, type TestService } from '../support/startService.js';

/** Devices n7k-1 and n7k-2 with two interfaces each; VDCs admin (1) and prod (2) on n7k-1 for Acme, admin (1) on n7k-2. */
async function contexts(service: TestService) {
  const tenant = await post(service, '/api/tenancy/tenants/', { name: 'Acme', slug: 'acme' });
  const site = await post(service, '/api/dcim/sites/', { name: 'DC-1', slug: 'dc-1' });
  const manufacturer = await post(service, '/api/dcim/manufacturers/', { name: 'Cisco', slug: 'cisco' });
  const type = await post(service, '/api/dcim/device-types/', {
    manufacturer: manufacturer.id,
    model: 'N7K',
    slug: 'n7k',
  });
  const role = await post(service, '/api/dcim/device-roles/', { name: 'Core', slug: 'core', color: 'ff0000' });
  const device = (name: string) =>
    post(service, '/api/dcim/devices/', { name, device_type: type.id, device_role: role.id, site: site.id });
  const n1 = await device('n7k-1');
  const n2 = await device('n7k-2');
  const iface = (d: any, name: string) =>
    post(service, '/api/dcim/interfaces/', { device: d.id, name, type: '10gbase-x-sfpp' });
  const [e11, e12, e21] = [await iface(n1, 'Eth1/1'), await iface(n1, 'Eth1/2'), await iface(n2, 'Eth1/1')];
  const vdcs = '/api/dcim/virtual-device-contexts/';
  const admin = await post(service, vdcs, {
    device: n1.id,
    name: 'admin',
    identifier: 1,
    status: 'active',
    tenant: tenant.id,
  });
  const prod = await post(service, vdcs, { device: n1.id, name: 'prod', identifier: 2, status: 'planned' });
  const admin2 = await post(service, vdcs, { device: n2.id, name: 'admin', identifier: 1, status: 'offline' });
  return { tenant, n1, n2, e11, e12, e21, admin, prod, admin2 };
}

test('a VDC reads as NetBox shows it: plain status, interface count, brief form', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const e = await contexts(service);
  t.is(e.admin.status, 'active', 'status is the bare value');
  t.false('interface_count' in e.admin);
  t.is(e.admin.url, `${service.url}/api/dcim/virtual-device-contexts/${e.admin.id}/`);
  t.is(e.admin.display, 'admin');
  t.is(e.admin.primary_ip, null);
  for (const iface of [e.e11, e.e12])
    t.is(
      (await service.api('PATCH', `/api/dcim/interfaces/${iface.id}/`, { vdcs: [e.admin.id, e.prod.id] })).status,
      200,
    );
  const read = (await service.api('GET', `/api/dcim/virtual-device-contexts/${e.admin.id}/`)).body;
  t.deepEqual(Object.keys(read), [
    'id',
    'url',
    'display',
    'name',
    'device',
    'identifier',
    'tenant',
    'primary_ip',
    'primary_ip4',
    'primary_ip6',
    'status',
    'description',
    'comments',
    'tags',
    'custom_fields',
    'created',
    'last_updated',
    'interface_count',
  ]);
  t.is(read.interface_count, 2);
  t.deepEqual(
    (await list(service, '/api/dcim/virtual-device-contexts/')).map((v) => [v.id, v.interface_count]),
    [
      [e.admin.id, 2],
      [e.admin2.id, 0],
      [e.prod.id, 2],
    ],
  );
  const brief = (await service.api('GET', `/api/dcim/virtual-device-contexts/${e.admin.id}/?brief=1`)).body;
  t.deepEqual(Object.keys(brief), ['id', 'url', 'display', 'name', 'identifier', 'device']);
  const iface = (await service.api('GET', `/api/dcim/interfaces/${e.e11.id}/`)).body;
  t.deepEqual(
    iface.vdcs.map((v: any) => Object.keys(v)),
    [Object.keys(brief), Object.keys(brief)],
  );
});

test('VDCs and interfaces filter by VDC, device, status and primary IP', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const e = await contexts(service);
  await service.api('PATCH', `/api/dcim/interfaces/${e.e12.id}/`, { vdcs: [e.prod.id] });
  const address = await post(service, '/api/ipam/ip-addresses/', {
    address: '192.0.2.1/24',
    assigned_object_type: 'dcim.interface',
    assigned_object_id: e.e11.id,
  });
  t.is(
    (await service.api('PATCH', `/api/dcim/virtual-device-contexts/${e.prod.id}/`, { primary_ip4: address.id })).status,
    200,
  );

  const vdcs = '/api/dcim/virtual-device-contexts/';
  t.deepEqual(ids(await list(service, `${vdcs}?device_id=${e.n1.id}`)), [e.admin.id, e.prod.id]);
  t.deepEqual(ids(await list(service, `${vdcs}?device=${e.n2.id}`)), [e.admin2.id], 'device takes ids');
  t.is((await service.api('GET', `${vdcs}?device=n7k-2`)).status, 400);
  t.deepEqual(ids(await list(service, `${vdcs}?status=planned&status=offline`)), [e.admin2.id, e.prod.id]);
  t.deepEqual(ids(await list(service, `${vdcs}?status__n=active`)), [e.admin2.id, e.prod.id]);
  t.deepEqual(ids(await list(service, `${vdcs}?has_primary_ip=true`)), [e.prod.id]);
  t.deepEqual(ids(await list(service, `${vdcs}?has_primary_ip=false`)), [e.admin.id, e.admin2.id]);
  t.deepEqual(ids(await list(service, `${vdcs}?tenant=acme`)), [e.admin.id]);
  t.deepEqual(ids(await list(service, `${vdcs}?q=PRO`)), [e.prod.id]);
  t.deepEqual(ids(await list(service, `${vdcs}?q=2`)), [e.prod.id], 'q matches the identifier');
  t.deepEqual(ids(await list(service, `${vdcs}?name__ic=adm`)), [e.admin.id, e.admin2.id]);
  t.deepEqual(
    ids(await list(service, `${vdcs}?identifier=2`)),
    [e.admin.id, e.admin2.id, e.prod.id],
    'no identifier filter: ignored',
  );

  const interfaces = '/api/dcim/interfaces/';
  t.deepEqual(ids(await list(service, `${interfaces}?vdc_id=${e.prod.id}`)), [e.e12.id]);
  t.deepEqual(ids(await list(service, `${interfaces}?vdc=prod`)), [e.e12.id]);
  t.deepEqual(ids(await list(service, `${interfaces}?vdc_identifier=2`)), [e.e12.id]);
});

test("the VDC rules answer with NetBox's messages", async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const e = await contexts(service);
  const vdcs = '/api/dcim/virtual-device-contexts/';
  const refused = async (method: string, path: string, body: unknown) => {
    const response = await service.api(method, path, body);
    t.is(response.status, 400, `${method} ${path} ${JSON.stringify(body)}`);
    return response.body;
  };
  t.deepEqual(await refused('POST', vdcs, { device: e.n1.id, name: 'x' }), { status: ['This field is required.'] });
  t.deepEqual(await refused('POST', vdcs, { device: e.n1.id, name: 'x', status: 'failed' }), {
    status: ['"failed" is not a valid choice.'],
  });
  t.deepEqual(await refused('POST', vdcs, { device: e.n1.id, name: 'ADMIN2', identifier: 2, status: 'active' }), {
    __all__: ['Virtual device context with this Device and Identifier already exists.'],
  });
  const elsewhere = await post(service, '/api/ipam/ip-addresses/', {
    address: '192.0.2.2/24',
    assigned_object_type: 'dcim.interface',
    assigned_object_id: e.e21.id,
  });
  t.deepEqual(await refused('PATCH', `${vdcs}${e.admin.id}/`, { primary_ip4: elsewhere.id }), {
    primary_ip4: ['Primary IP address must belong to an interface on the assigned device.'],
  });
  t.deepEqual(await refused('PATCH', `${vdcs}${e.admin.id}/`, { primary_ip6: elsewhere.id }), {
    primary_ip6: ['192.0.2.2/24 is not an IPv6 address.'],
  });
  t.is((await service.api('PATCH', `${vdcs}${e.admin2.id}/`, { primary_ip4: elsewhere.id })).status, 200);
  const gone = await service.api('DELETE', `/api/dcim/devices/${e.n2.id}/`);
  t.is(gone.status, 409);
  t.deepEqual(gone.body, { detail: `Unable to delete object. 1 dependent objects were found: admin (${e.admin2.id})` });
});
