import test from 'ava';

import { ValidationError } from '../../src/errors/requestErrors.js';
import { modularTemplateParentProblem as templateParentProblem } from '../../src/models/dcim/componentParents.js';
import { create, deciderSpec, patch, remove, type WriteCommand } from '../support/deciderSpec.js';

/** Site 1; manufacturer 1; device types 1 "PDU" and 2 "Server"; role 1; devices 1 "pdu1" and 2 "srv1" (type 2). */
const devices: WriteCommand[] = [
  create('dcim.site', { name: 'DC-1', slug: 'dc-1' }),
  create('dcim.manufacturer', { name: 'APC', slug: 'apc' }),
  create('dcim.devicetype', { manufacturer: 1, model: 'PDU', slug: 'pdu' }),
  create('dcim.devicetype', { manufacturer: 1, model: 'Server', slug: 'server' }),
  create('dcim.devicerole', { name: 'Power', slug: 'power', color: 'ff0000' }),
  create('dcim.device', { name: 'pdu1', device_type: 1, device_role: 1, site: 1 }),
  create('dcim.device', { name: 'srv1', device_type: 2, device_role: 1, site: 1 }),
];

/* ------------------------------------------------------------ templates */

test('template: needs a device type or a module type', async (t) => {
  await deciderSpec(t)
    .given(devices)
    .when(create('dcim.consoleporttemplate', { name: 'Console' }))
    .thenThrows(ValidationError, {
      __all__: ['A component template must be associated with either a device type or a module type.'],
    });
});

test('template: a name is taken once per device type', async (t) => {
  await deciderSpec(t)
    .given([...devices, create('dcim.powerporttemplate', { device_type: 1, name: 'PSU1' })])
    .when(create('dcim.powerporttemplate', { device_type: 1, name: 'PSU1' }))
    .thenThrows(ValidationError, { __all__: ['Power port template with this Device type and Name already exists.'] });
});

test('template: the same name on another device type is allowed', async (t) => {
  await deciderSpec(t)
    .given([...devices, create('dcim.consoleserverporttemplate', { device_type: 1, name: 'Port 1' })])
    .when(create('dcim.consoleserverporttemplate', { device_type: 2, name: 'Port 1' }))
    .then([
      { objectType: 'dcim.consoleserverporttemplate', objectId: 2, postchange: { device_type: 2, name: 'Port 1' } },
    ]);
});

test('template: a {module} token in a name is kept as written', async (t) => {
  await deciderSpec(t)
    .given(devices)
    .when(create('dcim.consoleporttemplate', { device_type: 1, name: 'Console {module}', label: 'Slot {module}' }))
    .then([
      {
        objectType: 'dcim.consoleporttemplate',
        objectId: 1,
        postchange: { name: 'Console {module}', label: 'Slot {module}' },
      },
    ]);
});

test('template: cannot be moved to another device type', async (t) => {
  await deciderSpec(t)
    .given([...devices, create('dcim.consoleporttemplate', { device_type: 1, name: 'Console' })])
    .when(patch('dcim.consoleporttemplate', 1, { device_type: 2 }))
    .thenThrows(ValidationError, { device_type: ['Component templates cannot be moved to a different device type.'] });
});

test('power port template: allocated draw may not exceed the maximum draw', async (t) => {
  await deciderSpec(t)
    .given(devices)
    .when(create('dcim.powerporttemplate', { device_type: 1, name: 'PSU1', maximum_draw: 500, allocated_draw: 600 }))
    .thenThrows(ValidationError, { allocated_draw: ['Allocated draw cannot exceed the maximum draw (500W).'] });
});

test('power outlet template: its power port template must be on the same device type', async (t) => {
  await deciderSpec(t)
    .given([...devices, create('dcim.powerporttemplate', { device_type: 2, name: 'PSU1', label: 'Left' })])
    .when(create('dcim.poweroutlettemplate', { device_type: 1, name: 'Outlet 1', power_port: 1 }))
    .thenThrows(ValidationError, { __all__: ['Parent power port (PSU1 (Left)) must belong to the same device type'] });
});

test('power outlet template: a power port template of the same device type is accepted', async (t) => {
  await deciderSpec(t)
    .given([...devices, create('dcim.powerporttemplate', { device_type: 1, name: 'Inlet' })])
    .when(
      create('dcim.poweroutlettemplate', {
        device_type: 1,
        name: 'Outlet 1',
        power_port: 1,
        feed_leg: 'A',
        type: 'iec-60320-c13',
      }),
    )
    .then([
      {
        objectType: 'dcim.poweroutlettemplate',
        objectId: 1,
        postchange: { power_port: 1, feed_leg: 'A', type: 'iec-60320-c13' },
      },
    ]);
});

/* ------------------------------------------------------------ components */

test('component: a name is taken once per device', async (t) => {
  await deciderSpec(t)
    .given([...devices, create('dcim.consoleport', { device: 1, name: 'Console' })])
    .when(create('dcim.consoleport', { device: 1, name: 'Console' }))
    .thenThrows(ValidationError, { __all__: ['Console port with this Device and Name already exists.'] });
});

test('component: needs a device', async (t) => {
  await deciderSpec(t)
    .given(devices)
    .when(create('dcim.powerport', { name: 'PSU1' }))
    .thenThrows(ValidationError, { device: ['This field is required.'] });
});

test('component: cannot be moved to another device', async (t) => {
  await deciderSpec(t)
    .given([...devices, create('dcim.consoleserverport', { device: 1, name: 'Port 1' })])
    .when(patch('dcim.consoleserverport', 1, { device: 2 }))
    .thenThrows(ValidationError, { device: ['Components cannot be moved to a different device.'] });
});

test('console port: the speed is one of the console speeds', async (t) => {
  await deciderSpec(t)
    .given(devices)
    .when(create('dcim.consoleport', { device: 1, name: 'Console', speed: 9601 }))
    .thenThrows(ValidationError, { speed: ['9601 is not a valid choice.'] });
});

test('power port: allocated draw may not exceed the maximum draw', async (t) => {
  await deciderSpec(t)
    .given([...devices, create('dcim.powerport', { device: 2, name: 'PSU1', maximum_draw: 500 })])
    .when(patch('dcim.powerport', 1, { allocated_draw: 501 }))
    .thenThrows(ValidationError, { allocated_draw: ['Allocated draw cannot exceed the maximum draw (500W).'] });
});

test('power outlet: its power port must be on the same device', async (t) => {
  await deciderSpec(t)
    .given([...devices, create('dcim.powerport', { device: 2, name: 'PSU1' })])
    .when(create('dcim.poweroutlet', { device: 1, name: 'Outlet 1', power_port: 1 }))
    .thenThrows(ValidationError, { __all__: ['Parent power port (PSU1) must belong to the same device'] });
});

test('power outlet: a power port of the same device, a feed leg', async (t) => {
  await deciderSpec(t)
    .given([...devices, create('dcim.powerport', { device: 1, name: 'Inlet' })])
    .when(create('dcim.poweroutlet', { device: 1, name: 'Outlet 1', power_port: 1, feed_leg: 'B' }))
    .then([{ objectType: 'dcim.poweroutlet', objectId: 1, postchange: { device: 1, power_port: 1, feed_leg: 'B' } }]);
});

test('power outlet: the feed leg is A, B or C', async (t) => {
  await deciderSpec(t)
    .given(devices)
    .when(create('dcim.poweroutlet', { device: 1, name: 'Outlet 1', feed_leg: 'D' }))
    .thenThrows(ValidationError, { feed_leg: ['D is not a valid choice.'] });
});

// Module types are registered by another part of the model; the rule itself is checked here.
test('template: not on both a device type and a module type', (t) => {
  t.deepEqual(templateParentProblem({ id: 1, device_type: 1, module_type: 1, name: 'Console' }, null), {
    __all__: ['A component template cannot be associated with both a device type and a module type.'],
  });
  t.is(templateParentProblem({ id: 1, device_type: null, module_type: 1, name: 'Console {module}' }, null), undefined);
});

/* ------------------------------------------------------------ change records */

test('change records name the device type of a template and the device of a component', async (t) => {
  await deciderSpec(t)
    .given(devices)
    .when(create('dcim.powerporttemplate', { device_type: 2, name: 'PSU1' }))
    .then([{ objectType: 'dcim.powerporttemplate', objectId: 1, related: { type: 'dcim.devicetype', id: 2 } }]);
  await deciderSpec(t)
    .given(devices)
    .when(create('dcim.consoleport', { device: 2, name: 'Console' }))
    .then([{ objectType: 'dcim.consoleport', objectId: 1, related: { type: 'dcim.device', id: 2 } }]);
});

test('deleting a device deletes its console and power components, one delete record each', async (t) => {
  await deciderSpec(t)
    .given([
      ...devices,
      create('dcim.consoleport', { device: 1, name: 'Console' }),
      create('dcim.powerport', { device: 1, name: 'Inlet' }),
      create('dcim.poweroutlet', { device: 1, name: 'Outlet 1', power_port: 1 }),
    ])
    .when(remove('dcim.device', 1))
    .then((events) => {
      t.deepEqual(
        events.map((e) => `${e.action} ${e.objectType} ${e.objectId}`),
        ['delete dcim.poweroutlet 1', 'delete dcim.powerport 1', 'delete dcim.consoleport 1', 'delete dcim.device 1'],
      );
    });
});
