import test from 'ava';

import { startService, type TestService } from '../support/startService.js';

async function post(service: TestService, path: string, body: unknown): Promise<any> {
  const response = await service.api('POST', path, body);
  if (response.status !== 201) throw new Error(`${path}: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body;
}

async function names(service: TestService, path: string): Promise<string[]> {
  const response = await service.api('GET', path);
  if (response.status !== 200) throw new Error(`${path}: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body.results.map((o: any) => o.name);
}

/** A PDU device type with templates, and two devices: pdu1 (a PDU) and srv1 (another type). */
async function powerEstate(service: TestService) {
  const site = await post(service, '/api/dcim/sites/', { name: 'DC-1', slug: 'dc-1' });
  const manufacturer = await post(service, '/api/dcim/manufacturers/', { name: 'APC', slug: 'apc' });
  const pduType = await post(service, '/api/dcim/device-types/', {
    manufacturer: manufacturer.id,
    model: 'AP8868',
    slug: 'ap8868',
  });
  const serverType = await post(service, '/api/dcim/device-types/', {
    manufacturer: manufacturer.id,
    model: 'R640',
    slug: 'r640',
  });
  const role = await post(service, '/api/dcim/device-roles/', { name: 'PDU', slug: 'pdu', color: 'ff0000' });
  const pdu = await post(service, '/api/dcim/devices/', {
    name: 'pdu1',
    device_type: pduType.id,
    device_role: role.id,
    site: site.id,
  });
  const server = await post(service, '/api/dcim/devices/', {
    name: 'srv1',
    device_type: serverType.id,
    device_role: role.id,
    site: site.id,
  });
  return { site, manufacturer, pduType, serverType, role, pdu, server };
}

test('templates on a device type: nested device type, choices, filters by device type, the power port rule', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const e = await powerEstate(service);
  const console = await post(service, '/api/dcim/console-port-templates/', {
    device_type: e.pduType.id,
    name: 'Console',
    type: 'rj-45',
  });
  t.like(console, {
    name: 'Console',
    display: 'Console',
    module_type: null,
    label: '',
    type: { value: 'rj-45', label: 'RJ-45' },
  });
  t.deepEqual(console.device_type, {
    id: e.pduType.id,
    url: `${service.url}/api/dcim/device-types/${e.pduType.id}/`,
    display: 'AP8868',
    manufacturer: e.pduType.manufacturer,
    model: 'AP8868',
    slug: 'ap8868',
  });
  const inlet = await post(service, '/api/dcim/power-port-templates/', {
    device_type: e.pduType.id,
    name: 'Inlet',
    label: 'C20',
    type: 'iec-60320-c20',
    maximum_draw: 3680,
    allocated_draw: 100,
  });
  t.is(inlet.display, 'Inlet (C20)');
  for (const name of ['Outlet 10', 'Outlet 9']) {
    await post(service, '/api/dcim/power-outlet-templates/', {
      device_type: e.pduType.id,
      name,
      power_port: inlet.id,
      feed_leg: 'A',
    });
  }
  const outlet = await service.api('GET', '/api/dcim/power-outlet-templates/?name=Outlet%209');
  t.deepEqual(outlet.body.results[0].power_port, {
    id: inlet.id,
    url: `${service.url}/api/dcim/power-port-templates/${inlet.id}/`,
    display: 'Inlet (C20)',
    name: 'Inlet',
  });
  t.deepEqual(outlet.body.results[0].feed_leg, { value: 'A', label: 'A' });
  t.deepEqual(
    await names(service, `/api/dcim/power-outlet-templates/?devicetype_id=${e.pduType.id}`),
    ['Outlet 9', 'Outlet 10'],
    'natural order',
  );
  t.deepEqual(await names(service, `/api/dcim/power-outlet-templates/?devicetype_id=${e.serverType.id}`), []);
  t.deepEqual(await names(service, '/api/dcim/console-port-templates/?type=rj-45'), ['Console']);
  t.deepEqual(await names(service, '/api/dcim/console-port-templates/?type=de-9'), []);

  const brief = await service.api('GET', `/api/dcim/power-port-templates/${inlet.id}/?brief=1`);
  t.deepEqual(brief.body, {
    id: inlet.id,
    url: `${service.url}/api/dcim/power-port-templates/${inlet.id}/`,
    display: 'Inlet (C20)',
    name: 'Inlet',
  });

  const orphan = await service.api('POST', '/api/dcim/console-server-port-templates/', { name: 'Port 1' });
  t.is(orphan.status, 400);
  t.deepEqual(orphan.body, {
    __all__: ['A component template must be associated with either a device type or a module type.'],
  });
  const duplicate = await service.api('POST', '/api/dcim/console-port-templates/', {
    device_type: e.pduType.id,
    name: 'Console',
  });
  t.deepEqual(duplicate.body, { __all__: ['Console port template with this Device type and Name already exists.'] });
  const foreign = await service.api('POST', '/api/dcim/power-outlet-templates/', {
    device_type: e.serverType.id,
    name: 'Outlet 1',
    power_port: inlet.id,
  });
  t.is(foreign.status, 400);
  t.deepEqual(foreign.body, { __all__: ['Parent power port (Inlet (C20)) must belong to the same device type'] });
  const overdrawn = await service.api('PATCH', `/api/dcim/power-port-templates/${inlet.id}/`, { allocated_draw: 4000 });
  t.deepEqual(overdrawn.body, { allocated_draw: ['Allocated draw cannot exceed the maximum draw (3680W).'] });

  t.deepEqual(
    (await service.api('GET', '/api/dcim/device-types/?power_outlets=true')).body.results.map((d: any) => d.model),
    ['AP8868'],
  );
  t.deepEqual(
    (await service.api('GET', '/api/dcim/device-types/?power_outlets=false')).body.results.map((d: any) => d.model),
    ['R640'],
  );
});

test('components on a device: nested device, cable stubs, filters by device and type, the outlet rule', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const e = await powerEstate(service);
  const port = await post(service, '/api/dcim/console-ports/', {
    device: e.pdu.id,
    name: 'Console',
    type: 'rj-45',
    speed: 9600,
  });
  t.like(port, {
    display: 'Console',
    module: null,
    speed: { value: 9600, label: '9600 bps' },
    mark_connected: false,
    cable: null,
    cable_end: '',
    link_peers: [],
    link_peers_type: null,
    connected_endpoints: null,
    connected_endpoints_type: null,
    connected_endpoints_reachable: null,
    tags: [],
    custom_fields: {},
    _occupied: false,
  });
  t.deepEqual(port.device, {
    id: e.pdu.id,
    url: `${service.url}/api/dcim/devices/${e.pdu.id}/`,
    display: 'pdu1',
    name: 'pdu1',
    display_name: 'pdu1',
  });
  await post(service, '/api/dcim/console-server-ports/', {
    device: e.server.id,
    name: 'ttyS0',
    type: 'de-9',
    mark_connected: true,
  });
  const inlet = await post(service, '/api/dcim/power-ports/', { device: e.pdu.id, name: 'Inlet', maximum_draw: 3680 });
  const serverPsu = await post(service, '/api/dcim/power-ports/', {
    device: e.server.id,
    name: 'PSU1',
    type: 'iec-60320-c14',
  });
  const outlet = await post(service, '/api/dcim/power-outlets/', {
    device: e.pdu.id,
    name: 'Outlet 1',
    power_port: inlet.id,
    feed_leg: 'B',
  });
  t.deepEqual(outlet.power_port, {
    id: inlet.id,
    url: `${service.url}/api/dcim/power-ports/${inlet.id}/`,
    display: 'Inlet',
    device: port.device,
    name: 'Inlet',
    cable: null,
    _occupied: false,
  });
  t.deepEqual(outlet.feed_leg, { value: 'B', label: 'B' });

  t.deepEqual(await names(service, `/api/dcim/power-ports/?device_id=${e.server.id}`), ['PSU1']);
  t.deepEqual(await names(service, '/api/dcim/power-ports/?device=pdu1'), ['Inlet']);
  t.deepEqual(await names(service, '/api/dcim/power-ports/?type=iec-60320-c14'), ['PSU1']);
  t.deepEqual(await names(service, `/api/dcim/power-outlets/?site_id=${e.site.id}&feed_leg=B`), ['Outlet 1']);
  t.deepEqual(await names(service, '/api/dcim/console-server-ports/?occupied=true'), ['ttyS0']);
  t.deepEqual(await names(service, '/api/dcim/console-server-ports/?cabled=true'), []);
  t.deepEqual(await names(service, '/api/dcim/console-ports/?cable_end=A'), []);
  t.deepEqual(await names(service, '/api/dcim/console-ports/?cable_end__n=A'), ['Console']);
  const devices = (query: string) =>
    service.api('GET', `/api/dcim/devices/?${query}`).then((r) => r.body.results.map((d: any) => d.name));
  t.deepEqual(await devices('console_ports=true'), ['pdu1']);
  t.deepEqual(await devices('console_server_ports=true'), ['srv1']);
  t.deepEqual(await devices('power_outlets=false'), ['srv1']);

  const foreign = await service.api('POST', '/api/dcim/power-outlets/', {
    device: e.server.id,
    name: 'Outlet 1',
    power_port: inlet.id,
  });
  t.is(foreign.status, 400);
  t.deepEqual(foreign.body, { __all__: ['Parent power port (Inlet) must belong to the same device'] });
  const duplicate = await service.api('POST', '/api/dcim/power-ports/', { device: e.server.id, name: 'PSU1' });
  t.deepEqual(duplicate.body, { __all__: ['Power port with this Device and Name already exists.'] });
  const moved = await service.api('PATCH', `/api/dcim/power-ports/${serverPsu.id}/`, { device: e.pdu.id });
  t.deepEqual(moved.body, { device: ['Components cannot be moved to a different device.'] });
  const badSpeed = await service.api('POST', '/api/dcim/console-ports/', {
    device: e.pdu.id,
    name: 'Console 2',
    speed: 12345,
  });
  t.deepEqual(badSpeed.body, { speed: ['12345 is not a valid choice.'] });

  const removed = await service.api('DELETE', `/api/dcim/power-ports/${inlet.id}/`);
  t.is(removed.status, 204);
  const orphaned = await service.api('GET', `/api/dcim/power-outlets/${outlet.id}/`);
  t.is(orphaned.body.power_port, null, "deleting a power port clears its outlets' power_port");
});
