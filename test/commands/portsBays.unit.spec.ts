import test from 'ava';

import { ValidationError } from '../../src/errors/requestErrors.js';
import { create, deciderSpec, patch, type WriteCommand } from '../support/deciderSpec.js';

/**
 * Site 1; manufacturer 1; device types 1 "Patch" and 2 "Other" (no subdevice role); role 1;
 * devices 1 "p1" and 2 "p2" of type 1.
 */
const patchPanels: WriteCommand[] = [
  create('dcim.site', { name: 'DC-1', slug: 'dc-1' }),
  create('dcim.manufacturer', { name: 'Acme', slug: 'acme' }),
  create('dcim.devicetype', { manufacturer: 1, model: 'Patch', slug: 'patch' }),
  create('dcim.devicetype', { manufacturer: 1, model: 'Other', slug: 'other' }),
  create('dcim.devicerole', { name: 'Patching', slug: 'patching' }),
  create('dcim.device', { name: 'p1', device_type: 1, device_role: 1, site: 1 }),
  create('dcim.device', { name: 'p2', device_type: 1, device_role: 1, site: 1 }),
];

/** patchPanels plus rear port 1 "R1" (4 positions) on p1 and rear port 2 "R2" (1 position) on p2. */
const rearPorts: WriteCommand[] = [
  ...patchPanels,
  create('dcim.rearport', { device: 1, name: 'R1', type: 'lc', positions: 4 }),
  create('dcim.rearport', { device: 2, name: 'R2', type: 'lc' }),
];

/** patchPanels plus rear port templates 1 "R1" (2 positions) on type 1 and 2 "R9" on type 2. */
const rearTemplates: WriteCommand[] = [
  ...patchPanels,
  create('dcim.rearporttemplate', { device_type: 1, name: 'R1', type: 'mpo', positions: 2 }),
  create('dcim.rearporttemplate', { device_type: 2, name: 'R9', type: 'mpo' }),
];

/* ------------------------------------------------------------ front and rear ports */

test('rear port: positions run from 1 to 1024', async (t) => {
  await deciderSpec(t)
    .given(patchPanels)
    .when(create('dcim.rearport', { device: 1, name: 'R1', type: 'lc', positions: 1025 }))
    .thenThrows(ValidationError, { positions: ['Ensure this value is less than or equal to 1024.'] });
  await deciderSpec(t)
    .given(patchPanels)
    .when(create('dcim.rearport', { device: 1, name: 'R1', type: 'lc', positions: 0 }))
    .thenThrows(ValidationError, { positions: ['Ensure this value is greater than or equal to 1.'] });
});

test('rear port: the type is one of the port types', async (t) => {
  await deciderSpec(t)
    .given(patchPanels)
    .when(create('dcim.rearport', { device: 1, name: 'R1', type: 'rj45' }))
    .thenThrows(ValidationError, { type: ['rj45 is not a valid choice.'] });
});

test('front port: its rear port must be on the same device', async (t) => {
  await deciderSpec(t)
    .given(rearPorts)
    .when(create('dcim.frontport', { device: 1, name: 'F1', type: 'lc', rear_port: 2 }))
    .thenThrows(ValidationError, { rear_port: ['Rear port (R2) must belong to the same device'] });
});

test('front port: the position must exist on the rear port', async (t) => {
  await deciderSpec(t)
    .given(rearPorts)
    .when(create('dcim.frontport', { device: 1, name: 'F5', type: 'lc', rear_port: 1, rear_port_position: 5 }))
    .thenThrows(ValidationError, {
      rear_port_position: ['Invalid rear port position (5): Rear port R1 has only 4 positions'],
    });
  await deciderSpec(t)
    .given(rearPorts)
    .when(create('dcim.frontport', { device: 1, name: 'F4', type: 'lc', rear_port: 1, rear_port_position: 4 }))
    .then([{ objectType: 'dcim.frontport', objectId: 1, postchange: { rear_port: 1, rear_port_position: 4 } }]);
});

test('front port: one front port per rear port position', async (t) => {
  await deciderSpec(t)
    .given([
      ...rearPorts,
      create('dcim.frontport', { device: 1, name: 'F1', type: 'lc', rear_port: 1, rear_port_position: 2 }),
    ])
    .when(create('dcim.frontport', { device: 1, name: 'F2', type: 'lc', rear_port: 1, rear_port_position: 2 }))
    .thenThrows(ValidationError, {
      __all__: ['Front port with this Rear port and Rear port position already exists.'],
    });
});

test('front port: names are unique per device', async (t) => {
  await deciderSpec(t)
    .given([...rearPorts, create('dcim.frontport', { device: 1, name: 'F1', type: 'lc', rear_port: 1 })])
    .when(create('dcim.frontport', { device: 1, name: 'F1', type: 'lc', rear_port: 1, rear_port_position: 2 }))
    .thenThrows(ValidationError, { __all__: ['Front port with this Device and Name already exists.'] });
});

test('rear port: positions cannot drop below the front ports mapped to it', async (t) => {
  const mapped = [
    ...rearPorts,
    create('dcim.frontport', { device: 1, name: 'F1', type: 'lc', rear_port: 1, rear_port_position: 1 }),
    create('dcim.frontport', { device: 1, name: 'F2', type: 'lc', rear_port: 1, rear_port_position: 2 }),
  ];
  await deciderSpec(t)
    .given(mapped)
    .when(patch('dcim.rearport', 1, { positions: 1 }))
    .thenThrows(ValidationError, {
      positions: ['The number of positions cannot be less than the number of mapped front ports (2)'],
    });
  await deciderSpec(t)
    .given([
      ...rearPorts,
      create('dcim.frontport', { device: 1, name: 'F3', type: 'lc', rear_port: 1, rear_port_position: 3 }),
    ])
    .when(patch('dcim.rearport', 1, { positions: 2 }))
    .thenThrows(ValidationError, {
      positions: ['The number of positions cannot be less than the highest mapped position (3)'],
    });
  await deciderSpec(t)
    .given(mapped)
    .when(patch('dcim.rearport', 1, { positions: 2 }))
    .then([{ action: 'update', objectType: 'dcim.rearport', objectId: 1, postchange: { positions: 2 } }]);
});

test('port: components cannot be moved to a different device', async (t) => {
  await deciderSpec(t)
    .given(rearPorts)
    .when(patch('dcim.rearport', 1, { device: 2 }))
    .thenThrows(ValidationError, { device: ['Components cannot be moved to a different device.'] });
});

test('port template: on a device type or a module type, not neither', async (t) => {
  await deciderSpec(t)
    .given(patchPanels)
    .when(create('dcim.rearporttemplate', { name: 'R1', type: 'lc' }))
    .thenThrows(ValidationError, {
      __all__: ['A component template must be associated with either a device type or a module type.'],
    });
});

test('port template: names are unique per device type, {module} is a plain name there', async (t) => {
  await deciderSpec(t)
    .given(rearTemplates)
    .when(create('dcim.rearporttemplate', { device_type: 1, name: 'R1', type: 'lc' }))
    .thenThrows(ValidationError, { __all__: ['Rear port template with this Device type and Name already exists.'] });
  await deciderSpec(t)
    .given(rearTemplates)
    .when(create('dcim.rearporttemplate', { device_type: 1, name: 'R{module}', type: 'lc' }))
    .then([{ objectType: 'dcim.rearporttemplate', objectId: 3, postchange: { name: 'R{module}' } }]);
});

test('port template: cannot be moved to a different device type', async (t) => {
  await deciderSpec(t)
    .given(rearTemplates)
    .when(patch('dcim.rearporttemplate', 1, { device_type: 2 }))
    .thenThrows(ValidationError, { device_type: ['Component templates cannot be moved to a different device type.'] });
});

test('front port template: its rear port template is on the same device type, at a position it has', async (t) => {
  await deciderSpec(t)
    .given(rearTemplates)
    .when(create('dcim.frontporttemplate', { device_type: 1, name: 'F1', type: 'mpo', rear_port: 2 }))
    .thenThrows(ValidationError, { __all__: ['Rear port (R9) must belong to the same device type'] });
  await deciderSpec(t)
    .given(rearTemplates)
    .when(
      create('dcim.frontporttemplate', {
        device_type: 1,
        name: 'F3',
        type: 'mpo',
        rear_port: 1,
        rear_port_position: 3,
      }),
    )
    .thenThrows(ValidationError, { __all__: ['Invalid rear port position (3); rear port R1 has only 2 positions'] });
  await deciderSpec(t)
    .given([
      ...rearTemplates,
      create('dcim.frontporttemplate', { device_type: 1, name: 'F1', type: 'mpo', rear_port: 1 }),
    ])
    .when(patch('dcim.rearporttemplate', 1, { positions: 1 }))
    .then([{ action: 'update', objectType: 'dcim.rearporttemplate', objectId: 1, postchange: { positions: 1 } }]);
});

/* ------------------------------------------------------------ device bays */

/**
 * patchPanels plus device types 3 "Chassis" (parent) and 4 "Blade" (child, 0U); devices
 * 3 "chassis" (type 3), 4 "blade1" and 5 "blade2" (type 4); bay 1 "Slot 1" on the chassis
 * holding blade1, bay 2 "Slot 2" empty.
 */
const chassis: WriteCommand[] = [
  ...patchPanels,
  create('dcim.devicetype', { manufacturer: 1, model: 'Chassis', slug: 'chassis', subdevice_role: 'parent' }),
  create('dcim.devicetype', { manufacturer: 1, model: 'Blade', slug: 'blade', subdevice_role: 'child', u_height: 0 }),
  create('dcim.device', { name: 'chassis', device_type: 3, device_role: 1, site: 1 }),
  create('dcim.device', { name: 'blade1', device_type: 4, device_role: 1, site: 1 }),
  create('dcim.device', { name: 'blade2', device_type: 4, device_role: 1, site: 1 }),
  create('dcim.devicebay', { device: 3, name: 'Slot 1', installed_device: 4 }),
  create('dcim.devicebay', { device: 3, name: 'Slot 2' }),
];

test('device bay template: only on a parent device type', async (t) => {
  await deciderSpec(t)
    .given(chassis)
    .when(create('dcim.devicebaytemplate', { device_type: 1, name: 'Slot 1' }))
    .thenThrows(ValidationError, {
      __all__: ['Subdevice role of device type (Patch) must be set to "parent" to allow device bays.'],
    });
  await deciderSpec(t)
    .given(chassis)
    .when(create('dcim.devicebaytemplate', { device_type: 3, name: 'Slot 1' }))
    .then([{ objectType: 'dcim.devicebaytemplate', objectId: 1, postchange: { device_type: 3, name: 'Slot 1' } }]);
});

test('device type: stays a parent while it has device bay templates', async (t) => {
  await deciderSpec(t)
    .given([...chassis, create('dcim.devicebaytemplate', { device_type: 3, name: 'Slot 1' })])
    .when(patch('dcim.devicetype', 3, { subdevice_role: '' }))
    .thenThrows(ValidationError, {
      subdevice_role: [
        'Must delete all device bay templates associated with this device before declassifying it as a parent device.',
      ],
    });
});

test('device bay: only on a device of a parent type', async (t) => {
  await deciderSpec(t)
    .given(chassis)
    .when(create('dcim.devicebay', { device: 1, name: 'Slot 1' }))
    .thenThrows(ValidationError, { __all__: ['This type of device (Patch) does not support device bays.'] });
});

test('device bay: a device cannot be installed into itself', async (t) => {
  await deciderSpec(t)
    .given(chassis)
    .when(patch('dcim.devicebay', 2, { installed_device: 3 }))
    .thenThrows(ValidationError, { __all__: ['Cannot install a device into itself.'] });
});

test('device bay: a device is installed in one bay at most', async (t) => {
  await deciderSpec(t)
    .given(chassis)
    .when(patch('dcim.devicebay', 2, { installed_device: 4 }))
    .thenThrows(ValidationError, {
      installed_device: ['Cannot install the specified device; device is already installed in Slot 1'],
    });
});

test("device bay: installs a second blade; NetBox's API does not require a child type", async (t) => {
  await deciderSpec(t)
    .given(chassis)
    .when(patch('dcim.devicebay', 2, { installed_device: 5 }))
    .then([{ action: 'update', objectType: 'dcim.devicebay', objectId: 2, postchange: { installed_device: 5 } }]);
  await deciderSpec(t)
    .given(chassis)
    .when(patch('dcim.devicebay', 2, { installed_device: 1 }))
    .then([{ action: 'update', objectType: 'dcim.devicebay', objectId: 2, postchange: { installed_device: 1 } }]);
});

/* ------------------------------------------------------------ inventory items */

/**
 * rearPorts plus role 1 "Optic"; items on p1: 1 "Chassis", 2 "Slot 1" under it, 3 "SFP" under
 * that (role 1, assigned to rear port 1); item 4 "Other" on p2.
 */
const inventory: WriteCommand[] = [
  ...rearPorts,
  create('dcim.inventoryitemrole', { name: 'Optic', slug: 'optic' }),
  create('dcim.inventoryitem', { device: 1, name: 'Chassis' }),
  create('dcim.inventoryitem', { device: 1, name: 'Slot 1', parent: 1 }),
  create('dcim.inventoryitem', {
    device: 1,
    name: 'SFP',
    parent: 2,
    role: 1,
    component_type: 'dcim.rearport',
    component_id: 1,
  }),
  create('dcim.inventoryitem', { device: 2, name: 'Other', serial: 'X1', asset_tag: 'A-1' }),
];

test('inventory item: not its own parent nor under its descendants', async (t) => {
  await deciderSpec(t)
    .given(inventory)
    .when(patch('dcim.inventoryitem', 1, { parent: 1 }))
    .thenThrows(ValidationError, { parent: ['Cannot assign self as parent.'] });
  await deciderSpec(t)
    .given(inventory)
    .when(patch('dcim.inventoryitem', 1, { parent: 3 }))
    .thenThrows(ValidationError, { parent: ['Cannot assign self or child inventory item as parent.'] });
});

test('inventory item: the parent is on the same device', async (t) => {
  await deciderSpec(t)
    .given(inventory)
    .when(patch('dcim.inventoryitem', 4, { parent: 1 }))
    .thenThrows(ValidationError, { parent: ['Parent inventory item does not belong to the same device.'] });
});

test('inventory item: one with children does not move to another device', async (t) => {
  await deciderSpec(t)
    .given(inventory)
    .when(patch('dcim.inventoryitem', 1, { device: 2 }))
    .thenThrows(ValidationError, { __all__: ['Cannot move an inventory item with dependent children'] });
});

test("inventory item: a new item's component is on its device; a moved item lets go of it", async (t) => {
  await deciderSpec(t)
    .given(inventory)
    .when(create('dcim.inventoryitem', { device: 2, name: 'SFP2', component_type: 'dcim.rearport', component_id: 1 }))
    .thenThrows(ValidationError, { device: ['Cannot assign inventory item to component on another device'] });
  await deciderSpec(t)
    .given([
      ...inventory,
      create('dcim.inventoryitem', { device: 1, name: 'Loose', component_type: 'dcim.rearport', component_id: 1 }),
    ])
    .when(patch('dcim.inventoryitem', 5, { device: 2 }))
    .then([
      {
        action: 'update',
        objectType: 'dcim.inventoryitem',
        objectId: 5,
        postchange: { device: 2, component_type: null, component_id: null },
      },
    ]);
});

test('inventory item: the component must exist and be of a component type', async (t) => {
  await deciderSpec(t)
    .given(inventory)
    .when(create('dcim.inventoryitem', { device: 1, name: 'SFP2', component_type: 'dcim.rearport', component_id: 99 }))
    .thenThrows(ValidationError, { component_id: ['Related object not found using the provided value: 99.'] });
  const refused = await deciderSpec(t)
    .given(inventory)
    .when(create('dcim.inventoryitem', { device: 1, name: 'SFP2', component_type: 'dcim.site', component_id: 1 }))
    .thenThrows(ValidationError);
  t.truthy(refused);
});

test('inventory item: asset tags are unique', async (t) => {
  await deciderSpec(t)
    .given(inventory)
    .when(create('dcim.inventoryitem', { device: 1, name: 'PSU', asset_tag: 'A-1' }))
    .thenThrows(ValidationError, { asset_tag: ['inventory item with this Asset tag already exists.'] });
});

test('inventory item: names are unique among siblings', async (t) => {
  await deciderSpec(t)
    .given(inventory)
    .when(create('dcim.inventoryitem', { device: 1, name: 'Slot 1', parent: 1 }))
    .thenThrows(ValidationError, { __all__: ['Inventory item with this Device, Parent and Name already exists.'] });
});

test('inventory item template: the parent is on the same device type', async (t) => {
  await deciderSpec(t)
    .given([
      ...rearTemplates,
      create('dcim.inventoryitemtemplate', { device_type: 1, name: 'Chassis' }),
      create('dcim.inventoryitemtemplate', { device_type: 2, name: 'Other' }),
    ])
    .when(create('dcim.inventoryitemtemplate', { device_type: 2, name: 'Slot', parent: 1 }))
    .thenThrows(ValidationError, {
      parent: ['Parent inventory item template does not belong to the same device type.'],
    });
});

test('device bay: moving the parent device moves the devices installed in its bays', async (t) => {
  await deciderSpec(t)
    .given([...chassis, create('dcim.site', { name: 'DC-2', slug: 'dc-2' })])
    .when(patch('dcim.device', 3, { site: 2 }))
    .then([
      { action: 'update', objectType: 'dcim.device', objectId: 3, postchange: { site: 2 } },
      { action: 'update', objectType: 'dcim.device', objectId: 4, postchange: { site: 2, location: null, rack: null } },
    ]);
});
