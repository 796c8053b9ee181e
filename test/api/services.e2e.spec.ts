import test from 'ava';

import { ids, list, post } from '../support/expectResponses.js';
import { seedInfrastructure } from '../support/fixtures.js';
import { startService, type TestService } from '../support/startService.js';

/**
 * The seeded device edge1 (address 192.0.2.1/25 on et-0/0/0) and a VM vm1 with address
 * 198.51.100.5/24; services: web on edge1 (tcp 443, 80, 81, the address), dns on vm1
 * (udp 53), ssh on edge1 (tcp 22); a service template Web (tcp 80, 443).
 */
async function services(service: TestService) {
  const s = await seedInfrastructure(service);
  const clusterType = await post(service, '/api/virtualization/cluster-types/', { name: 'KVM', slug: 'kvm' });
  const cluster = await post(service, '/api/virtualization/clusters/', { name: 'c1', type: clusterType.id });
  const vm = await post(service, '/api/virtualization/virtual-machines/', { name: 'vm1', cluster: cluster.id });
  const vmIface = await post(service, '/api/virtualization/interfaces/', { virtual_machine: vm.id, name: 'eth0' });
  const vmAddress = await post(service, '/api/ipam/ip-addresses/', {
    address: '198.51.100.5/24',
    assigned_object_type: 'virtualization.vminterface',
    assigned_object_id: vmIface.id,
  });
  const path = '/api/ipam/services/';
  const web = await post(service, path, {
    device: s.device.id,
    name: 'web',
    protocol: 'tcp',
    ports: [443, 80, 81],
    ipaddresses: [s.address.id],
    description: 'front',
  });
  const dns = await post(service, path, { virtual_machine: vm.id, name: 'dns', protocol: 'udp', ports: [53] });
  const ssh = await post(service, path, { device: s.device.id, name: 'ssh', protocol: 'tcp', ports: [22] });
  const template = await post(service, '/api/ipam/service-templates/', {
    name: 'Web',
    protocol: 'tcp',
    ports: [443, 80],
  });
  return { ...s, vm, vmIface, vmAddress, web, dns, ssh, template };
}

test('a service reads as NetBox shows it: parent, ports, protocol, addresses, display', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const e = await services(service);
  t.deepEqual(Object.keys(e.web), [
    'id',
    'url',
    'display',
    'device',
    'virtual_machine',
    'name',
    'ports',
    'protocol',
    'ipaddresses',
    'description',
    'comments',
    'tags',
    'custom_fields',
    'created',
    'last_updated',
  ]);
  t.is(e.web.display, 'web (TCP/80-81, 443)');
  t.deepEqual(e.web.protocol, { value: 'tcp', label: 'TCP' });
  t.deepEqual(e.web.ports, [443, 80, 81], 'ports are kept as written');
  t.is(e.web.device.name, 'edge1');
  t.is(e.web.virtual_machine, null);
  t.like(e.web.ipaddresses[0], { id: e.address.id, address: '192.0.2.1/25', family: 4 });
  t.is(e.dns.virtual_machine.name, 'vm1');
  const brief = (await service.api('GET', `/api/ipam/services/${e.web.id}/?brief=1`)).body;
  t.deepEqual(brief, {
    id: e.web.id,
    url: `${service.url}/api/ipam/services/${e.web.id}/`,
    display: 'web (TCP/80-81, 443)',
    name: 'web',
    protocol: 'tcp',
    ports: [443, 80, 81],
  });
  t.is(e.template.display, 'Web (TCP/80, 443)');
  t.deepEqual(Object.keys(e.template), [
    'id',
    'url',
    'display',
    'name',
    'ports',
    'protocol',
    'description',
    'comments',
    'tags',
    'custom_fields',
    'created',
    'last_updated',
  ]);
  t.deepEqual((await service.api('GET', `/api/ipam/service-templates/${e.template.id}/?brief=1`)).body.protocol, 'tcp');
  // NetBox: protocol, then the port lists compared as arrays, then id
  t.deepEqual(ids(await list(service, '/api/ipam/services/')), [e.ssh.id, e.web.id, e.dns.id]);
});

test("the service rules answer with NetBox's messages", async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const e = await services(service);
  const path = '/api/ipam/services/';
  const refused = async (method: string, url: string, body: unknown) => {
    const response = await service.api(method, url, body);
    t.is(response.status, 400, `${method} ${url} ${JSON.stringify(body)}`);
    return response.body;
  };
  const base = { name: 'x', protocol: 'tcp', ports: [8080] };
  t.deepEqual(await refused('POST', path, { ...base, device: e.device.id, virtual_machine: e.vm.id }), {
    __all__: ['A service cannot be associated with both a device and a virtual machine.'],
  });
  t.deepEqual(await refused('POST', path, base), {
    __all__: ['A service must be associated with either a device or a virtual machine.'],
  });
  t.deepEqual(await refused('PATCH', `${path}${e.web.id}/`, { device: null }), {
    __all__: ['A service must be associated with either a device or a virtual machine.'],
  });
  t.deepEqual(await refused('POST', path, { device: e.device.id, name: 'x', ports: [1] }), {
    protocol: ['This field cannot be blank.'],
  });
  t.deepEqual(await refused('POST', path, { ...base, device: e.device.id, ports: [] }), {
    ports: ['This field cannot be blank.'],
  });
  t.deepEqual(await refused('POST', path, { ...base, device: e.device.id, ports: [0] }), {
    ports: ['Ensure this value is greater than or equal to 1.'],
  });
  t.deepEqual(await refused('POST', path, { ...base, device: e.device.id, ports: [65536] }), {
    ports: ['Ensure this value is less than or equal to 65535.'],
  });
  t.deepEqual(await refused('POST', path, { device: e.device.id, protocol: 'tcp', ports: [1] }), {
    name: ['This field is required.'],
  });
  t.deepEqual(await refused('POST', '/api/ipam/service-templates/', { name: 'Web', protocol: 'tcp', ports: [80] }), {
    name: ['service template with this name already exists.'],
  });
  // NetBox 3.4 does not hold a service's addresses to its parent
  const other = await service.api('PATCH', `${path}${e.web.id}/`, { ipaddresses: [e.address.id, e.vmAddress.id] });
  t.is(other.status, 200);
  t.deepEqual(
    other.body.ipaddresses.map((a: any) => a.id),
    [e.address.id, e.vmAddress.id],
  );
  t.is(
    (await service.api('POST', path, { ...base, device: e.device.id, name: 'web' })).status,
    201,
    'names are not unique',
  );
});

test('services filter by parent, address, port, protocol and text', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const e = await services(service);
  const path = '/api/ipam/services/';
  t.deepEqual(ids(await list(service, `${path}?device_id=${e.device.id}`)), [e.ssh.id, e.web.id]);
  t.deepEqual(ids(await list(service, `${path}?device=edge1`)), [e.ssh.id, e.web.id]);
  t.deepEqual(ids(await list(service, `${path}?virtual_machine=vm1`)), [e.dns.id]);
  t.deepEqual(ids(await list(service, `${path}?virtual_machine_id=${e.vm.id}`)), [e.dns.id]);
  t.deepEqual(ids(await list(service, `${path}?ipaddress_id=${e.address.id}`)), [e.web.id]);
  t.deepEqual(ids(await list(service, `${path}?ipaddress=192.0.2.1/25`)), [e.web.id]);
  t.deepEqual(ids(await list(service, `${path}?port=81`)), [e.web.id]);
  t.deepEqual(ids(await list(service, `${path}?port=82`)), []);
  t.deepEqual(ids(await list(service, `${path}?protocol=udp`)), [e.dns.id]);
  t.deepEqual(ids(await list(service, `${path}?protocol__n=udp`)), [e.ssh.id, e.web.id]);
  t.deepEqual(ids(await list(service, `${path}?q=FRO`)), [e.web.id]);
  t.deepEqual(ids(await list(service, `${path}?name__ic=s`)), [e.ssh.id, e.dns.id]);
  t.deepEqual(ids(await list(service, '/api/ipam/service-templates/?port=443')), [e.template.id]);
  t.deepEqual(ids(await list(service, '/api/ipam/service-templates/?port=22')), []);
  t.is((await service.api('GET', `${path}?port=abc`)).status, 400);
});

test('a service goes with its device; a deleted address leaves its services', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const e = await services(service);
  t.is((await service.api('DELETE', `/api/ipam/ip-addresses/${e.address.id}/`)).status, 204);
  t.deepEqual((await service.api('GET', `/api/ipam/services/${e.web.id}/`)).body.ipaddresses, []);
  t.is((await service.api('DELETE', `/api/dcim/devices/${e.device.id}/`)).status, 204);
  t.deepEqual(ids(await list(service, '/api/ipam/services/')), [e.dns.id]);
  t.is((await service.api('DELETE', `/api/virtualization/virtual-machines/${e.vm.id}/`)).status, 204);
  t.deepEqual(ids(await list(service, '/api/ipam/services/')), []);
});
