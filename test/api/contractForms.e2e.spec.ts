import test from 'ava';

import { seedInfrastructure } from '../support/fixtures.js';
import { startService, type TestService } from '../support/startService.js';

/**
 * The representations the contract names beyond NetBox 3.4: `display_name` on VLANs and
 * devices (the object's label, as `display`), and the nested interface's `cable` and
 * `connection_status` (null without a cable path; the cable as its id, as NetBox nests it).
 */
let shared: Promise<{ service: TestService; seed: Awaited<ReturnType<typeof seedInfrastructure>> }> | null = null;
function fixture() {
  shared ??= (async () => {
    const service = await startService();
    return { service, seed: await seedInfrastructure(service) };
  })();
  return shared;
}

test.after.always(async () => {
  if (shared) await (await shared).service.close();
});

test('a VLAN shows display_name, its label, in the complete, brief and nested forms', async (t) => {
  const { service, seed } = await fixture();
  const vlan = (await service.api('GET', `/api/ipam/vlans/${seed.vlan.id}/`)).body;
  t.is(vlan.display_name, 'servers (100)');
  t.is(vlan.display_name, vlan.display);
  const brief = (await service.api('GET', `/api/ipam/vlans/${seed.vlan.id}/?brief=1`)).body;
  t.deepEqual(Object.keys(brief), ['id', 'url', 'display', 'display_name', 'vid', 'name']);
  t.is(brief.display_name, 'servers (100)');
  const listed = (await service.api('GET', '/api/ipam/vlans/?brief=1')).body.results[0];
  t.is(listed.display_name, 'servers (100)');
  const prefix = (await service.api('GET', `/api/ipam/prefixes/${seed.prefix.id}/`)).body;
  t.deepEqual(prefix.vlan, {
    id: seed.vlan.id,
    url: `${service.url}/api/ipam/vlans/${seed.vlan.id}/`,
    display: 'servers (100)',
    display_name: 'servers (100)',
    vid: 100,
    name: 'servers',
  });
});

test('a nested device holds id, url, display, display_name and name', async (t) => {
  const { service, seed } = await fixture();
  const iface = (await service.api('GET', `/api/dcim/interfaces/${seed.iface.id}/`)).body;
  t.deepEqual(iface.device, {
    id: seed.device.id,
    url: `${service.url}/api/dcim/devices/${seed.device.id}/`,
    display: 'edge1',
    display_name: 'edge1',
    name: 'edge1',
  });
  const device = (await service.api('GET', `/api/dcim/devices/${seed.device.id}/`)).body;
  t.is(device.display_name, 'edge1');
});

test('display_name follows the label when the object is renamed', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const seed = await seedInfrastructure(service);
  const renamed = await service.api('PATCH', `/api/ipam/vlans/${seed.vlan.id}/`, { name: 'storage', vid: 101 });
  t.is(renamed.status, 200);
  t.is(renamed.body.display_name, 'storage (101)');
  const unnamed = await service.api('PATCH', `/api/dcim/devices/${seed.device.id}/`, { name: null });
  t.is(unnamed.status, 200);
  t.is(unnamed.body.display_name, unnamed.body.display);
  t.is(unnamed.body.display_name, `Juniper MX204 (${seed.device.id})`);
});

test("a nested interface holds device, name, cable and connection_status (an IP address's assigned_object)", async (t) => {
  const { service, seed } = await fixture();
  const address = (await service.api('GET', `/api/ipam/ip-addresses/${seed.address.id}/`)).body;
  t.deepEqual(Object.keys(address.assigned_object), [
    'id',
    'url',
    'display',
    'device',
    'name',
    'cable',
    'connection_status',
    '_occupied',
  ]);
  t.is(address.assigned_object.cable, null);
  t.is(address.assigned_object.connection_status, null);
  t.deepEqual(Object.keys(address.assigned_object.device), ['id', 'url', 'display', 'display_name', 'name']);
  const brief = (await service.api('GET', `/api/dcim/interfaces/${seed.iface.id}/?brief=1`)).body;
  t.is(brief.connection_status, null);
  const complete = (await service.api('GET', `/api/dcim/interfaces/${seed.iface.id}/`)).body;
  t.is(complete.connection_status, null);
});

test('OPTIONS lists display_name and connection_status as read-only', async (t) => {
  const { service, seed } = await fixture();
  const vlan = (await service.api('OPTIONS', '/api/ipam/vlans/')).body;
  t.like(vlan.actions.POST.display_name, { type: 'field', read_only: true, required: false, label: 'Display name' });
  const device = (await service.api('OPTIONS', `/api/dcim/devices/${seed.device.id}/`)).body;
  t.like(device.actions.PUT.display_name, { read_only: true });
  const iface = (await service.api('OPTIONS', '/api/dcim/interfaces/')).body;
  t.like(iface.actions.POST.connection_status, { read_only: true, required: false });
});

test('display_name and connection_status cannot be written', async (t) => {
  const { service, seed } = await fixture();
  const vlan = await service.api('PATCH', `/api/ipam/vlans/${seed.vlan.id}/`, { display_name: 'other' });
  t.is(vlan.status, 200);
  t.is(vlan.body.display_name, vlan.body.display);
  t.not(vlan.body.display_name, 'other');
  const iface = await service.api('PATCH', `/api/dcim/interfaces/${seed.iface.id}/`, { connection_status: true });
  t.is(iface.status, 200);
  t.is(iface.body.connection_status, null);
});
