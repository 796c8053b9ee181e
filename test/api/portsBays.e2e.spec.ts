import test from 'ava';

import { startService } from '../support/startService.js';

type Service = Awaited<ReturnType<typeof startService>>;

/** Site, manufacturer, role; device types "Patch" (no role), "Chassis" (parent) and "Blade" (child, 0U). */
async function seed(service: Service) {
  const post = async (path: string, body: Record<string, unknown>) => {
    const response = await service.api('POST', path, body);
    if (response.status !== 201) throw new Error(`${path}: ${response.status} ${JSON.stringify(response.body)}`);
    return response.body;
  };
  const site = await post('/api/dcim/sites/', { name: 'DC-1', slug: 'dc-1' });
  const manufacturer = await post('/api/dcim/manufacturers/', { name: 'Acme', slug: 'acme' });
  const role = await post('/api/dcim/device-roles/', { name: 'Patching', slug: 'patching' });
  const patchType = await post('/api/dcim/device-types/', {
    manufacturer: manufacturer.id,
    model: 'Patch',
    slug: 'patch',
  });
  const chassisType = await post('/api/dcim/device-types/', {
    manufacturer: manufacturer.id,
    model: 'Chassis',
    slug: 'chassis',
    subdevice_role: 'parent',
  });
  const bladeType = await post('/api/dcim/device-types/', {
    manufacturer: manufacturer.id,
    model: 'Blade',
    slug: 'blade',
    subdevice_role: 'child',
    u_height: 0,
  });
  const device = (name: string, type: { id: number }) =>
    post('/api/dcim/devices/', { name, device_type: type.id, device_role: role.id, site: site.id });
  return { post, site, manufacturer, patchType, chassisType, bladeType, device };
}

test("port templates and ports: nested forms, positions, NetBox's messages, pass-through filters", async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const { post, patchType, device } = await seed(service);
  const rearTemplate = await post('/api/dcim/rear-port-templates/', {
    device_type: patchType.id,
    name: 'R{module}',
    type: 'mpo',
    positions: 2,
  });
  t.is(rearTemplate.display, 'R{module}');
  t.is(rearTemplate.type.value, 'mpo');
  const frontTemplate = await post('/api/dcim/front-port-templates/', {
    device_type: patchType.id,
    name: 'F1',
    type: 'lc',
    rear_port: rearTemplate.id,
    rear_port_position: 2,
  });
  t.deepEqual(Object.keys(frontTemplate.rear_port).sort(), ['display', 'id', 'name', 'url']);
  const neither = await service.api('POST', '/api/dcim/rear-port-templates/', { name: 'R2', type: 'mpo' });
  t.deepEqual(neither.body, {
    __all__: ['A component template must be associated with either a device type or a module type.'],
  });

  const p1 = await device('p1', patchType);
  const rear = await post('/api/dcim/rear-ports/', {
    device: p1.id,
    name: 'R1',
    label: 'back',
    type: 'lc',
    positions: 4,
    color: 'aa0000',
  });
  t.is(rear.display, 'R1 (back)');
  t.deepEqual(rear.cable, null);
  t.deepEqual(rear.link_peers, []);
  t.false(rear._occupied);
  const tooFar = await service.api('POST', '/api/dcim/front-ports/', {
    device: p1.id,
    name: 'F5',
    type: 'lc',
    rear_port: rear.id,
    rear_port_position: 5,
  });
  t.is(tooFar.status, 400);
  t.deepEqual(tooFar.body, {
    rear_port_position: ['Invalid rear port position (5): Rear port R1 has only 4 positions'],
  });
  // p1 got F1 and R{module} from its type's templates, F1 mapped to the rear port made with it
  const made = (await service.api('GET', `/api/dcim/front-ports/?device_id=${p1.id}`)).body.results;
  t.deepEqual(
    made.map((p: any) => [p.name, p.rear_port.name, p.rear_port_position]),
    [['F1', 'R{module}', 2]],
  );
  const front = await post('/api/dcim/front-ports/', {
    device: p1.id,
    name: 'F2',
    type: 'lc',
    rear_port: rear.id,
    rear_port_position: 3,
  });
  t.is(front.rear_port.id, rear.id);
  t.is(front.rear_port.display, 'R1 (back)');
  t.is(front.device.id, p1.id);
  const shrink = await service.api('PATCH', `/api/dcim/rear-ports/${rear.id}/`, { positions: 2 });
  t.deepEqual(shrink.body, {
    positions: ['The number of positions cannot be less than the highest mapped position (3)'],
  });

  const withPorts = await service.api('GET', '/api/dcim/devices/?pass_through_ports=true');
  t.deepEqual(
    withPorts.body.results.map((d: { name: string }) => d.name),
    ['p1'],
  );
  const typesWithPorts = await service.api('GET', '/api/dcim/device-types/?pass_through_ports=true');
  t.deepEqual(
    typesWithPorts.body.results.map((d: { model: string }) => d.model),
    ['Patch'],
  );
  const brief = await service.api('GET', `/api/dcim/front-ports/?brief=1&device_id=${p1.id}`);
  t.deepEqual(Object.keys(brief.body.results[0]).sort(), [
    '_occupied',
    'cable',
    'device',
    'display',
    'id',
    'name',
    'url',
  ]);
});

test('device bays: a blade installed in a chassis shows its parent_device', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const { post, patchType, chassisType, bladeType, device } = await seed(service);
  const refused = await service.api('POST', '/api/dcim/device-bay-templates/', {
    device_type: patchType.id,
    name: 'Slot 1',
  });
  t.deepEqual(refused.body, {
    __all__: ['Subdevice role of device type (Patch) must be set to "parent" to allow device bays.'],
  });
  await post('/api/dcim/device-bay-templates/', { device_type: chassisType.id, name: 'Slot 1' });
  const chassis = await device('chassis', chassisType);
  const blade = await device('blade1', bladeType);
  t.is(blade.parent_device, null);
  // the chassis got its bay from the template when it was created
  const [made] = (await service.api('GET', `/api/dcim/device-bays/?device_id=${chassis.id}`)).body.results;
  t.is(made.name, 'Slot 1');
  const bay = (await service.api('PATCH', `/api/dcim/device-bays/${made.id}/`, { installed_device: blade.id })).body;
  t.is(bay.installed_device.id, blade.id);
  const read = await service.api('GET', `/api/dcim/devices/${blade.id}/`);
  t.is(read.body.parent_device.id, chassis.id);
  t.is(read.body.parent_device.name, 'chassis');
  t.is(read.body.parent_device.device_bay.id, bay.id);
  t.is(read.body.parent_device.device_bay.name, 'Slot 1');
  t.is(read.body.parent_device.device_bay.device.id, chassis.id);
  const children = await service.api('GET', `/api/dcim/devices/?parent_device_id=${chassis.id}`);
  t.deepEqual(
    children.body.results.map((d: { name: string }) => d.name),
    ['blade1'],
  );
  // NetBox's model choice filter: 'null' is "in no bay", __n excludes, an unknown device is refused
  const names = async (query: string) =>
    (await service.api('GET', `/api/dcim/devices/?${query}`)).body.results.map((d: { name: string }) => d.name);
  t.deepEqual(await names('parent_device_id=null'), ['chassis']);
  t.deepEqual(await names(`parent_device_id__n=${chassis.id}`), ['chassis']);
  t.deepEqual(await names(`parent_device_id=null&parent_device_id=${chassis.id}`), ['blade1', 'chassis']);
  t.is((await service.api('GET', '/api/dcim/devices/?parent_device_id=99999')).status, 400);
  const withBays = await service.api('GET', '/api/dcim/devices/?device_bays=true');
  t.deepEqual(
    withBays.body.results.map((d: { name: string }) => d.name),
    ['chassis'],
  );
  const again = await service.api('POST', '/api/dcim/device-bays/', {
    device: chassis.id,
    name: 'Slot 2',
    installed_device: blade.id,
  });
  t.deepEqual(again.body, {
    installed_device: ['Cannot install the specified device; device is already installed in Slot 1'],
  });
  const itself = await service.api('PATCH', `/api/dcim/device-bays/${bay.id}/`, { installed_device: chassis.id });
  t.deepEqual(itself.body, { __all__: ['Cannot install a device into itself.'] });
  const declassify = await service.api('PATCH', `/api/dcim/device-types/${chassisType.id}/`, { subdevice_role: '' });
  t.is(declassify.status, 400);
  t.is((await service.api('DELETE', `/api/dcim/devices/${blade.id}/`)).status, 204);
  const emptied = await service.api('GET', `/api/dcim/device-bays/${bay.id}/`);
  t.is(emptied.body.installed_device, null);
});

test('inventory items: a tree on one device, a component, a role', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const { post, patchType, manufacturer, device } = await seed(service);
  const p1 = await device('p1', patchType);
  const p2 = await device('p2', patchType);
  const rear = await post('/api/dcim/rear-ports/', { device: p1.id, name: 'R1', type: 'lc' });
  const role = await post('/api/dcim/inventory-item-roles/', { name: 'Optic', slug: 'optic', color: '00ff00' });
  const root = await post('/api/dcim/inventory-items/', {
    device: p1.id,
    name: 'Chassis',
    manufacturer: manufacturer.id,
  });
  const slot = await post('/api/dcim/inventory-items/', { device: p1.id, name: 'Slot 1', parent: root.id });
  const sfp = await post('/api/dcim/inventory-items/', {
    device: p1.id,
    name: 'SFP',
    parent: slot.id,
    role: role.id,
    serial: 'SN-42',
    component_type: 'dcim.rearport',
    component_id: rear.id,
  });
  t.is(root._depth, 0);
  t.is(sfp._depth, 2);
  t.is(sfp.parent, slot.id);
  t.is(sfp.role.id, role.id);
  t.is(sfp.component_type, 'dcim.rearport');
  t.is(sfp.component.id, rear.id);
  t.is(sfp.component.name, 'R1');
  const roleRead = await service.api('GET', `/api/dcim/inventory-item-roles/${role.id}/`);
  t.is(roleRead.body.inventoryitem_count, 1);
  const bySerial = await service.api('GET', '/api/dcim/devices/?q=sn-42');
  t.deepEqual(
    bySerial.body.results.map((d: { name: string }) => d.name),
    ['p1'],
  );
  const foreignParent = await service.api('POST', '/api/dcim/inventory-items/', {
    device: p2.id,
    name: 'X',
    parent: root.id,
  });
  t.deepEqual(foreignParent.body, { parent: ['Parent inventory item does not belong to the same device.'] });
  const foreignComponent = await service.api('POST', '/api/dcim/inventory-items/', {
    device: p2.id,
    name: 'X',
    component_type: 'dcim.rearport',
    component_id: rear.id,
  });
  t.deepEqual(foreignComponent.body, { device: ['Cannot assign inventory item to component on another device'] });
  const cycle = await service.api('PATCH', `/api/dcim/inventory-items/${root.id}/`, { parent: sfp.id });
  t.deepEqual(cycle.body, { parent: ['Cannot assign self or child inventory item as parent.'] });
  const moveTree = await service.api('PATCH', `/api/dcim/inventory-items/${root.id}/`, { device: p2.id });
  t.deepEqual(moveTree.body, { __all__: ['Cannot move an inventory item with dependent children'] });
  const brief = await service.api('GET', `/api/dcim/inventory-items/?brief=1&device_id=${p1.id}`);
  t.deepEqual(
    brief.body.results.map((i: { name: string; _depth: number }) => [i.name, i._depth]),
    [
      ['Chassis', 0],
      ['Slot 1', 1],
      ['SFP', 2],
    ],
  );
  t.is((await service.api('DELETE', `/api/dcim/inventory-items/${root.id}/`)).status, 204);
  const left = await service.api('GET', `/api/dcim/inventory-items/?device_id=${p1.id}`);
  t.is(left.body.count, 0, 'deleting an item deletes its subtree');
});
