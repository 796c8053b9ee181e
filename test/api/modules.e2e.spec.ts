import anyTest, { type TestFn } from 'ava';

import { changesOf, must, requestIdOf, unique } from '../support/auditRequests.js';
import { startService, type TestService } from '../support/startService.js';

const test = anyTest as TestFn<{ service: TestService }>;

test.before(async (t) => {
  t.context.service = await startService();
});
test.after.always(async (t) => {
  await t.context.service?.close();
});

/** A site, role, manufacturer and a device type with `interfaces` interface templates and one module bay template. */
async function catalog(service: TestService, interfaces: number) {
  const name = unique('mod');
  const post = async (path: string, body: unknown) => (await must(service.api('POST', path, body), 201)).body;
  const site = await post('/api/dcim/sites/', { name: `${name}-site`, slug: `${name}-site` });
  const role = await post('/api/dcim/device-roles/', { name: `${name}-role`, slug: `${name}-role`, color: 'ff0000' });
  const manufacturer = await post('/api/dcim/manufacturers/', { name: `${name}-mfr`, slug: `${name}-mfr` });
  const deviceType = await post('/api/dcim/device-types/', {
    manufacturer: manufacturer.id,
    model: `${name}-switch`,
    slug: `${name}-switch`,
  });
  const templates = Array.from({ length: interfaces }, (_, i) => ({
    device_type: deviceType.id,
    name: `ge-0/0/${i}`,
    type: '1000base-t',
  }));
  if (templates.length) await post('/api/dcim/interface-templates/', templates);
  await post('/api/dcim/module-bay-templates/', { device_type: deviceType.id, name: 'Slot 1', position: '1' });
  const device = (body: Record<string, unknown> = {}) =>
    service.api('POST', '/api/dcim/devices/', {
      name: unique('sw'),
      device_type: deviceType.id,
      device_role: role.id,
      site: site.id,
      ...body,
    });
  return { name, site, role, manufacturer, deviceType, device, post };
}

test('a device created over HTTP gets its 48 interfaces from templates; the request lists them all and its revert removes them', async (t) => {
  const { service } = t.context;
  const { device } = await catalog(service, 48);
  const created = await must(device(), 201);
  const requestId = requestIdOf(created);
  const listed = await must(service.api('GET', `/api/dcim/interfaces/?device_id=${created.body.id}&limit=100`), 200);
  t.is(listed.body.count, 48);
  t.deepEqual(
    listed.body.results.map((i: any) => i.name),
    Array.from({ length: 48 }, (_, i) => `ge-0/0/${i}`),
  );
  const bays = await must(service.api('GET', `/api/dcim/module-bays/?device_id=${created.body.id}`), 200);
  t.deepEqual(
    bays.body.results.map((b: any) => [b.name, b.position, b.installed_module]),
    [['Slot 1', '1', null]],
  );

  const changes = await changesOf(service, requestId);
  t.is(changes.length, 50, 'the device, its module bay and 48 interfaces');
  t.is(changes[0].changed_object_type, 'dcim.device');
  t.is(changes.filter((c) => c.changed_object_type === 'dcim.interface').length, 48);

  const reverted = await must(service.api('POST', `/api/extras/requests/${requestId}/revert/`), 200);
  t.is(reverted.body.count, 50);
  t.is((await service.api('GET', `/api/dcim/devices/${created.body.id}/`)).status, 404);
  t.is((await must(service.api('GET', `/api/dcim/interfaces/?device_id=${created.body.id}`), 200)).body.count, 0);
});

test('installing a module over HTTP instantiates its components with the bay position; the bay shows the module', async (t) => {
  const { service } = t.context;
  const { device, manufacturer, post, name } = await catalog(service, 2);
  const switchDevice = (await must(device(), 201)).body;
  const moduleType = await post('/api/dcim/module-types/', { manufacturer: manufacturer.id, model: `${name}-mic` });
  await post('/api/dcim/interface-templates/', [
    { module_type: moduleType.id, name: 'xe-{module}/0', label: 'Port {module}', type: '10gbase-x-sfpp' },
    { module_type: moduleType.id, name: 'xe-{module}/1', type: '10gbase-x-sfpp' },
  ]);
  const [bay] = (await must(service.api('GET', `/api/dcim/module-bays/?device_id=${switchDevice.id}`), 200)).body
    .results;
  const installed = await must(
    service.api('POST', '/api/dcim/modules/', {
      device: switchDevice.id,
      module_bay: bay.id,
      module_type: moduleType.id,
    }),
    201,
  );
  t.is(installed.body.display, `Slot 1: ${name}-mic (${installed.body.id})`);
  t.false('replicate_components' in installed.body);
  const own = await must(service.api('GET', `/api/dcim/interfaces/?device_id=${switchDevice.id}&limit=100`), 200);
  const fromModule = own.body.results.filter((i: any) => i.module?.id === installed.body.id);
  t.deepEqual(
    fromModule.map((i: any) => [i.name, i.label]),
    [
      ['xe-1/0', 'Port 1'],
      ['xe-1/1', ''],
    ],
  );
  const bayNow = await must(service.api('GET', `/api/dcim/module-bays/${bay.id}/`), 200);
  t.is(bayNow.body.installed_module?.id, installed.body.id);
  t.is((await changesOf(service, requestIdOf(installed))).length, 3);

  // Deleting the module deletes the components it owns.
  await must(service.api('DELETE', `/api/dcim/modules/${installed.body.id}/`), 204);
  t.is((await must(service.api('GET', `/api/dcim/interfaces/?device_id=${switchDevice.id}`), 200)).body.count, 2);
});

test('filters: device types and devices with module bays, module types by manufacturer name, modules by device name', async (t) => {
  const { service } = t.context;
  const { device, manufacturer, deviceType, post, name } = await catalog(service, 1);
  const withBay = (await must(device(), 201)).body;
  const moduleType = await post('/api/dcim/module-types/', { manufacturer: manufacturer.id, model: `${name}-psu` });
  const [bay] = (await must(service.api('GET', `/api/dcim/module-bays/?device_id=${withBay.id}`), 200)).body.results;
  const installed = (
    await must(
      service.api('POST', '/api/dcim/modules/', { device: withBay.id, module_bay: bay.id, module_type: moduleType.id }),
      201,
    )
  ).body;

  const types = await must(
    service.api('GET', `/api/dcim/device-types/?module_bays=true&interfaces=true&manufacturer_id=${manufacturer.id}`),
    200,
  );
  t.deepEqual(
    types.body.results.map((d: any) => d.id),
    [deviceType.id],
  );
  const devices = await must(
    service.api('GET', `/api/dcim/devices/?module_bays=true&device_type_id=${deviceType.id}`),
    200,
  );
  t.deepEqual(
    devices.body.results.map((d: any) => d.id),
    [withBay.id],
  );
  const moduleTypes = await must(
    service.api('GET', `/api/dcim/module-types/?q=${encodeURIComponent(`${name}-mfr`)}&interfaces=false`),
    200,
  );
  t.deepEqual(
    moduleTypes.body.results.map((m: any) => m.id),
    [moduleType.id],
  );
  const modules = await must(service.api('GET', `/api/dcim/modules/?q=${encodeURIComponent(withBay.name)}`), 200);
  t.deepEqual(
    modules.body.results.map((m: any) => m.id),
    [installed.id],
  );
});

test("console and power templates are instantiated too; an outlet's power port is the one created from its template", async (t) => {
  const { service } = t.context;
  const { deviceType, device, post } = await catalog(service, 0);
  await post('/api/dcim/console-port-templates/', { device_type: deviceType.id, name: 'con0', type: 'rj-45' });
  await post('/api/dcim/console-server-port-templates/', { device_type: deviceType.id, name: 'cs1' });
  const psu = await post('/api/dcim/power-port-templates/', {
    device_type: deviceType.id,
    name: 'PSU1',
    maximum_draw: 500,
  });
  await post('/api/dcim/power-outlet-templates/', {
    device_type: deviceType.id,
    name: 'out1',
    power_port: psu.id,
    feed_leg: 'A',
  });
  const created = (await must(device(), 201)).body;
  const names = async (path: string) =>
    (await must(service.api('GET', `${path}?device_id=${created.id}`), 200)).body.results;
  t.deepEqual(
    (await names('/api/dcim/console-ports/')).map((p: any) => [p.name, p.type?.value]),
    [['con0', 'rj-45']],
  );
  t.deepEqual(
    (await names('/api/dcim/console-server-ports/')).map((p: any) => p.name),
    ['cs1'],
  );
  const [port] = await names('/api/dcim/power-ports/');
  t.like(port, { name: 'PSU1', maximum_draw: 500 });
  const [outlet] = await names('/api/dcim/power-outlets/');
  t.like(outlet, { name: 'out1', feed_leg: { value: 'A', label: 'A' } });
  t.is(outlet.power_port.id, port.id, 'the outlet names the power port of the same device, not the template');
  const filtered = await must(service.api('GET', `/api/dcim/devices/?id=${created.id}&power_outlets=true`), 200);
  t.is(filtered.body.count, 1);
});
