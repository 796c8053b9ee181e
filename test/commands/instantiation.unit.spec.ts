import test from 'ava';

import { ValidationError } from '../../src/errors/requestErrors.js';
import { instantiateTemplates, templatePairs } from '../../src/models/componentTemplates.js';
import type { FieldDefinition } from '../../src/models/fieldDefinition.js';
import type { ModelDefinition } from '../../src/models/modelDefinition.js';
import { ModelRegistry } from '../../src/models/registry.js';
import { create, deciderSpec, objectCreated, type WriteCommand } from '../support/deciderSpec.js';

/**
 * Site 1, role 1, manufacturer 1; device type 1 with interface templates 1 "ge-0/0/0"
 * (label "uplink", mgmt_only) and 2 "ge-0/0/1", and module bay template 1 "Slot 1"
 * (position "1"); module type 1 with interface templates 3 "xe-{module}/0" (label
 * "Port {module}") and 4 "xe-{module}/1".
 */
const catalog: WriteCommand[] = [
  create('dcim.site', { name: 'DC-1', slug: 'dc-1' }),
  create('dcim.devicerole', { name: 'Router', slug: 'router', color: 'ff0000' }),
  create('dcim.manufacturer', { name: 'Juniper', slug: 'juniper' }),
  create('dcim.devicetype', { manufacturer: 1, model: 'MX204', slug: 'mx204' }),
  create('dcim.interfacetemplate', {
    device_type: 1,
    name: 'ge-0/0/0',
    label: 'uplink',
    type: '1000base-t',
    mgmt_only: true,
  }),
  create('dcim.interfacetemplate', { device_type: 1, name: 'ge-0/0/1', type: '1000base-t' }),
  create('dcim.modulebaytemplate', { device_type: 1, name: 'Slot 1', label: 'left', position: '1' }),
  create('dcim.moduletype', { manufacturer: 1, model: 'MIC-10G' }),
  create('dcim.interfacetemplate', {
    module_type: 1,
    name: 'xe-{module}/0',
    label: 'Port {module}',
    type: '10gbase-x-sfpp',
  }),
  create('dcim.interfacetemplate', { module_type: 1, name: 'xe-{module}/1', type: '10gbase-x-sfpp' }),
];

const router = { name: 'r1', device_type: 1, device_role: 1, site: 1 };

test('creating a device instantiates every template of its type in the same request, names and labels copied', async (t) => {
  await deciderSpec(t)
    .given(catalog)
    .when(create('dcim.device', router))
    .then(async (events) => {
      t.deepEqual(
        events.map((e) => `${e.action} ${e.objectType} ${e.objectId}`),
        ['create dcim.device 1', 'create dcim.modulebay 1', 'create dcim.interface 1', 'create dcim.interface 2'],
      );
      t.is(new Set(events.map((e) => e.requestId)).size, 1, 'one request');
      t.like(events[1].postchange, { device: 1, name: 'Slot 1', label: 'left', position: '1' });
      t.like(events[2].postchange, {
        device: 1,
        module: null,
        name: 'ge-0/0/0',
        label: 'uplink',
        type: '1000base-t',
        mgmt_only: true,
      });
      t.like(events[3].postchange, { device: 1, name: 'ge-0/0/1', label: '', mgmt_only: false });
    });
});

test('updating a device instantiates nothing', async (t) => {
  await deciderSpec(t)
    .given([...catalog, create('dcim.device', router)])
    .when({
      kind: 'update',
      model: 'dcim.device',
      items: [{ id: 1, input: { description: 'edge' } }],
      mode: 'patch',
      bulk: false,
    })
    .then([{ action: 'update', objectType: 'dcim.device', objectId: 1 }]);
});

test("installing a module instantiates its type's templates on the device, owned by the module, {module} replaced by the bay position", async (t) => {
  await deciderSpec(t)
    .given([...catalog, create('dcim.device', router)])
    .when(create('dcim.module', { device: 1, module_bay: 1, module_type: 1 }))
    .then([
      { action: 'create', objectType: 'dcim.module', objectId: 1 },
      {
        action: 'create',
        objectType: 'dcim.interface',
        objectId: 3,
        postchange: { device: 1, module: 1, name: 'xe-1/0', label: 'Port 1' },
      },
      {
        action: 'create',
        objectType: 'dcim.interface',
        objectId: 4,
        postchange: { device: 1, module: 1, name: 'xe-1/1', label: '' },
      },
    ]);
});

test('a module installed with replicate_components false instantiates nothing', async (t) => {
  await deciderSpec(t)
    .given([...catalog, create('dcim.device', router)])
    .when(create('dcim.module', { device: 1, module_bay: 1, module_type: 1, replicate_components: false }))
    .then([{ action: 'create', objectType: 'dcim.module', objectId: 1 }]);
});

test('adopt_components: a same-named component of the device without a module is given to the module instead of created', async (t) => {
  await deciderSpec(t)
    .given([
      ...catalog,
      create('dcim.device', router),
      create('dcim.interface', { device: 1, name: 'xe-1/0', type: '10gbase-x-sfpp' }),
    ])
    .when(create('dcim.module', { device: 1, module_bay: 1, module_type: 1, adopt_components: true }))
    .then([
      { action: 'create', objectType: 'dcim.module', objectId: 1 },
      {
        action: 'update',
        objectType: 'dcim.interface',
        objectId: 3,
        prechange: { module: null },
        postchange: { name: 'xe-1/0', module: 1 },
      },
      { action: 'create', objectType: 'dcim.interface', objectId: 4, postchange: { name: 'xe-1/1', module: 1 } },
    ]);
});

test('without adopt_components, an existing same-named component refuses the install', async (t) => {
  await deciderSpec(t)
    .given([
      ...catalog,
      create('dcim.device', router),
      create('dcim.interface', { device: 1, name: 'xe-1/0', type: '10gbase-x-sfpp' }),
    ])
    .when(create('dcim.module', { device: 1, module_bay: 1, module_type: 1 }))
    .thenThrows(ValidationError, { __all__: ['interface - xe-1/0 already exists'] });
});

test('a {module} template cannot be installed in a bay without a position', async (t) => {
  await deciderSpec(t)
    .given([...catalog, create('dcim.device', router), create('dcim.modulebay', { device: 1, name: 'Slot 2' })])
    .when(create('dcim.module', { device: 1, module_bay: 2, module_type: 1 }))
    .thenThrows(ValidationError, {
      __all__: ['Cannot install module with placeholder values in a module bay with no position defined'],
    });
});

test("the module bay must belong to the module's device", async (t) => {
  await deciderSpec(t)
    .given([...catalog, create('dcim.device', router), create('dcim.device', { ...router, name: 'r2' })])
    .when(create('dcim.module', { device: 2, module_bay: 1, module_type: 1 }))
    .thenThrows(ValidationError, {
      __all__: ['Module must be installed within a module bay belonging to the assigned device (r2).'],
    });
});

test('a component that fails validation fails the device create, and nothing is written', async (t) => {
  // A template stored under older rules: its name is longer than an interface's may be.
  const tooLong = objectCreated('dcim.interfacetemplate', 3, {
    device_type: 1,
    module_type: null,
    name: 'x'.repeat(65),
    label: '',
    type: '1000base-t',
    mgmt_only: false,
    description: '',
  });
  await deciderSpec(t)
    .given([...catalog.slice(0, 8), tooLong])
    .when(create('dcim.device', router))
    .thenThrows(ValidationError, {
      non_field_errors: ['interface: name: Ensure this field has no more than 64 characters.'],
    });
});

/* ------------------------------------------ the mechanism, on models of a test registry */

function model(name: string, fields: FieldDefinition[], extra: Partial<ModelDefinition> = {}): ModelDefinition {
  return {
    key: `test.${name}`,
    app: 'test',
    model: name,
    path: `${name}s`,
    verboseName: name,
    verboseNamePlural: `${name}s`,
    fields: [
      { name: 'id', type: 'id', readOnly: true },
      { name: 'url', type: 'url', readOnly: true },
      { name: 'display', type: 'display', readOnly: true },
      { name: 'name', type: 'string', required: true, maxLength: 20 },
      ...fields,
    ],
    brief: ['id', 'url', 'display', 'name'],
    ordering: ['id'],
    ...extra,
  };
}

/**
 * Port pairs that front/rear ports of NetBox follow: a front port template names a rear
 * port template; the front templates' model is registered first, and a "slot" template
 * names its component model explicitly rather than by the naming convention.
 */
function portRegistry(): ModelRegistry {
  const owner: FieldDefinition = {
    name: 'device_type',
    type: 'fk',
    target: 'test.devicetype',
    required: true,
    onDelete: 'CASCADE',
  };
  const device: FieldDefinition = {
    name: 'device',
    type: 'fk',
    target: 'test.device',
    required: true,
    onDelete: 'CASCADE',
  };
  const registry = new ModelRegistry([
    model('devicetype', []),
    model(
      'device',
      [{ name: 'device_type', type: 'fk', target: 'test.devicetype', required: true, onDelete: 'PROTECT' }],
      {
        hooks: {
          followUps: ({ action, obj }, view, models) =>
            action === 'create'
              ? instantiateTemplates(
                  'test.devicetype',
                  'device_type',
                  Number(obj.device_type),
                  { device: obj.id },
                  view,
                  models,
                )
              : [],
        },
      },
    ),
    model('frontporttemplate', [
      owner,
      { name: 'rear_port', type: 'fk', target: 'test.rearporttemplate', required: true, onDelete: 'CASCADE' },
    ]),
    model('rearporttemplate', [owner, { name: 'positions', type: 'integer', default: 1 }]),
    model('frontport', [
      device,
      { name: 'rear_port', type: 'fk', target: 'test.rearport', required: true, onDelete: 'CASCADE' },
    ]),
    model('rearport', [device, { name: 'positions', type: 'integer', default: 1 }]),
    model('slotdefinition', [owner], { instantiates: 'test.slot' }),
    model('slot', [device]),
  ]);
  registry.validate();
  return registry;
}

test('the template models of an owner come from the registry, referenced templates first', (t) => {
  const registry = portRegistry();
  t.deepEqual(
    templatePairs('test.devicetype', 'device_type', registry).map((p) => `${p.template.model}>${p.component.model}`),
    ['rearporttemplate>rearport', 'frontporttemplate>frontport', 'slotdefinition>slot'],
  );
});

test("a template's reference to another template becomes a reference to the component made from it in the same request", async (t) => {
  await deciderSpec(t, { registry: portRegistry() })
    .given([
      create('test.devicetype', { name: 'panel' }),
      create('test.rearporttemplate', { device_type: 1, name: 'R1', positions: 2 }),
      create('test.frontporttemplate', { device_type: 1, name: 'F1', rear_port: 1 }),
      create('test.slotdefinition', { device_type: 1, name: 'S1' }),
    ])
    .when(create('test.device', { name: 'p1', device_type: 1 }))
    .then([
      { action: 'create', objectType: 'test.device', objectId: 1 },
      {
        action: 'create',
        objectType: 'test.rearport',
        objectId: 1,
        postchange: { device: 1, name: 'R1', positions: 2 },
      },
      {
        action: 'create',
        objectType: 'test.frontport',
        objectId: 1,
        postchange: { device: 1, name: 'F1', rear_port: 1 },
      },
      { action: 'create', objectType: 'test.slot', objectId: 1, postchange: { device: 1, name: 'S1' } },
    ]);
});

test('a module bay cannot move to another device', async (t) => {
  await deciderSpec(t)
    .given([...catalog, create('dcim.device', router), create('dcim.device', { ...router, name: 'r2' })])
    .when({
      kind: 'update',
      model: 'dcim.modulebay',
      items: [{ id: 1, input: { device: 2 } }],
      mode: 'patch',
      bulk: false,
    })
    .thenThrows(ValidationError, { device: ['Components cannot be moved to a different device.'] });
});
