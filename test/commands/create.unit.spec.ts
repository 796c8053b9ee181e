import test from 'ava';

import { ValidationError } from '../../src/errors/requestErrors.js';
import { create, deciderSpec, objectCreated, WHEN_TIME } from '../support/deciderSpec.js';

const dc1 = create('dcim.site', { name: 'DC-1', slug: 'dc-1' });

/** Site 1, device type 1 and device role 1: what a device needs. */
const deviceParts = [
  dc1,
  create('dcim.manufacturer', { name: 'Juniper', slug: 'juniper' }),
  create('dcim.devicetype', { manufacturer: 1, model: 'MX204', slug: 'mx204' }),
  create('dcim.devicerole', { name: 'Router', slug: 'router', color: 'ff0000' }),
];

test('create: the defaults of every omitted field are stored, with the decision time', async (t) => {
  await deciderSpec(t)
    .when(create('dcim.site', { name: 'DC-1', slug: 'dc-1' }))
    .then([
      {
        action: 'create',
        objectType: 'dcim.site',
        objectId: 1,
        objectRepr: 'DC-1',
        prechange: null,
        postchange: {
          name: 'DC-1',
          slug: 'dc-1',
          status: 'active',
          region: null,
          tenant: null,
          facility: '',
          time_zone: null,
          latitude: null,
          asns: [],
          tags: [],
          custom_fields: {},
          created: WHEN_TIME,
          last_updated: WHEN_TIME,
        },
        related: null,
      },
    ]);
});

test('create: the id is never in the stored form and continues after the highest id ever used', async (t) => {
  await deciderSpec(t)
    .given([objectCreated('dcim.site', 7, { name: 'Old', slug: 'old' })])
    .when(dc1)
    .then((events) => {
      t.is(events[0].objectId, 8);
      t.false('id' in events[0].postchange!);
    });
});

test('create: a required field missing is refused per field', async (t) => {
  await deciderSpec(t)
    .when(create('dcim.site', { name: 'DC-1' }))
    .thenThrows(ValidationError, { slug: ['This field is required.'] });
});

test('create: a slug already taken is refused', async (t) => {
  await deciderSpec(t)
    .given([dc1])
    .when(create('dcim.site', { name: 'DC-2', slug: 'dc-1' }))
    .thenThrows(ValidationError, { slug: ['site with this slug already exists.'] });
});

test('create: a name already taken is refused, and both duplicates are reported together', async (t) => {
  await deciderSpec(t)
    .given([dc1])
    .when(create('dcim.site', { name: 'DC-1', slug: 'dc-1' }))
    .thenThrows(ValidationError, {
      name: ['site with this name already exists.'],
      slug: ['site with this slug already exists.'],
    });
});

test('create: an unknown choice is refused with the value in the message', async (t) => {
  await deciderSpec(t)
    .when(create('dcim.site', { name: 'DC-1', slug: 'dc-1', status: 'bogus' }))
    .thenThrows(ValidationError, { status: ['bogus is not a valid choice.'] });
});

test('create: a valid choice is stored bare', async (t) => {
  await deciderSpec(t)
    .when(create('dcim.site', { name: 'DC-1', slug: 'dc-1', status: 'planned' }))
    .then([{ action: 'create', postchange: { status: 'planned' } }]);
});

test('create: a related object written by id is stored as its id', async (t) => {
  await deciderSpec(t)
    .given([create('tenancy.tenant', { name: 'Acme', slug: 'acme' })])
    .when(create('dcim.site', { name: 'DC-1', slug: 'dc-1', tenant: 1 }))
    .then([{ objectType: 'dcim.site', postchange: { tenant: 1 } }]);
});

test('create: a related object written as a set of attributes is resolved to its id', async (t) => {
  await deciderSpec(t)
    .given([
      create('tenancy.tenant', { name: 'Acme', slug: 'acme' }),
      create('tenancy.tenant', { name: 'Globex', slug: 'globex' }),
    ])
    .when(create('dcim.site', { name: 'DC-1', slug: 'dc-1', tenant: { slug: 'globex' } }))
    .then([{ objectType: 'dcim.site', postchange: { tenant: 2 } }]);
});

test('create: nested attribute sets follow foreign keys (a rack named within its site)', async (t) => {
  await deciderSpec(t)
    .given([
      ...deviceParts,
      create('dcim.site', { name: 'DC-2', slug: 'dc-2' }),
      create('dcim.rack', { name: 'R1', site: 1 }),
      create('dcim.rack', { name: 'R1', site: 2 }),
    ])
    .when(
      create('dcim.device', { device_type: 1, device_role: 1, site: 2, rack: { name: 'R1', site: { slug: 'dc-2' } } }),
    )
    .then([{ objectType: 'dcim.device', postchange: { site: 2, rack: 2 } }]);
});

test('create: an unknown id for a related object is refused', async (t) => {
  await deciderSpec(t)
    .when(create('dcim.site', { name: 'DC-1', slug: 'dc-1', tenant: 42 }))
    .thenThrows(ValidationError, { tenant: ['Related object not found using the provided numeric ID: 42'] });
});

test('create: attributes that match no object are refused, quoted as Python would', async (t) => {
  await deciderSpec(t)
    .given([create('tenancy.tenant', { name: 'Acme', slug: 'acme' })])
    .when(create('dcim.site', { name: 'DC-1', slug: 'dc-1', tenant: { slug: 'nobody' } }))
    .thenThrows(ValidationError, {
      tenant: ["Related object not found using the provided attributes: {'slug': 'nobody'}"],
    });
});

test('create: attributes that match several objects are refused', async (t) => {
  await deciderSpec(t)
    .given([
      create('tenancy.tenant', { name: 'Acme', slug: 'acme' }),
      create('tenancy.tenant', { name: 'Acme 2', slug: 'acme-2' }),
    ])
    .when(create('dcim.site', { name: 'DC-1', slug: 'dc-1', tenant: { description: '' } }))
    .thenThrows(ValidationError, { tenant: ["Multiple objects match the provided attributes: {'description': ''}"] });
});

test('create: tags written by id or by attributes are stored as sorted ids', async (t) => {
  await deciderSpec(t)
    .given([create('extras.tag', { name: 'Core', slug: 'core' }), create('extras.tag', { name: 'Edge', slug: 'edge' })])
    .when(create('dcim.site', { name: 'DC-1', slug: 'dc-1', tags: [{ slug: 'edge' }, 1] }))
    .then([{ objectType: 'dcim.site', postchange: { tags: [1, 2] } }]);
});

test('create: custom fields of the model get their defaults when none are sent', async (t) => {
  const events = await deciderSpec(t)
    .given([
      create('extras.customfield', { content_types: ['dcim.site'], type: 'text', name: 'owner', default: 'ops' }),
      create('extras.customfield', { content_types: ['dcim.site'], type: 'integer', name: 'floor' }),
      create('extras.customfield', { content_types: ['dcim.rack'], type: 'text', name: 'rack_only', default: 'x' }),
    ])
    .when(dc1)
    .then([{ objectType: 'dcim.site', postchange: { custom_fields: { owner: 'ops', floor: null } } }]);
  t.deepEqual(
    Object.keys(events[0].postchange!.custom_fields as object).sort(),
    ['floor', 'owner'],
    'only the fields of this model',
  );
});

test('create: a custom field value is checked against its definition', async (t) => {
  await deciderSpec(t)
    .given([create('extras.customfield', { content_types: ['dcim.site'], type: 'integer', name: 'floor' })])
    .when(create('dcim.site', { name: 'DC-1', slug: 'dc-1', custom_fields: { floor: 'third' } }))
    .thenThrows(ValidationError, { __all__: ["Invalid value for custom field 'floor': Value must be an integer."] });
});

test('create: custom field data sent is stored as sent: the fields left out get no default', async (t) => {
  const [event] = await deciderSpec(t)
    .given([
      create('extras.customfield', { content_types: ['dcim.site'], type: 'integer', name: 'floor' }),
      create('extras.customfield', { content_types: ['dcim.site'], type: 'text', name: 'owner', default: 'ops' }),
    ])
    .when(create('dcim.site', { name: 'DC-1', slug: 'dc-1', custom_fields: { floor: 3 } }))
    .then([{ action: 'create' }]);
  t.deepEqual(event.postchange!.custom_fields, { floor: 3 });
});

test('create: a required custom field left out of the data sent is refused as missing', async (t) => {
  await deciderSpec(t)
    .given([
      create('extras.customfield', { content_types: ['dcim.site'], type: 'integer', name: 'floor' }),
      create('extras.customfield', {
        content_types: ['dcim.site'],
        type: 'text',
        name: 'owner',
        required: true,
        default: 'ops',
      }),
    ])
    .when(create('dcim.site', { name: 'DC-1', slug: 'dc-1', custom_fields: { floor: 3 } }))
    .thenThrows(ValidationError, { __all__: ["Missing required custom field 'owner'."] });
});

test('create: an unknown custom field is refused', async (t) => {
  await deciderSpec(t)
    .when(create('dcim.site', { name: 'DC-1', slug: 'dc-1', custom_fields: { nope: 1 } }))
    .thenThrows(ValidationError, { __all__: ["Unknown field name 'nope' in custom field data."] });
});

test('create: a required custom field without a value is refused', async (t) => {
  await deciderSpec(t)
    .given([
      create('extras.customfield', { content_types: ['dcim.site'], type: 'text', name: 'owner', required: true }),
    ])
    .when(dc1)
    .thenThrows(ValidationError, {
      __all__: ["Invalid value for custom field 'owner': Required field cannot be empty."],
    });
});

test('create: unknown input keys are ignored and read-only fields cannot be written', async (t) => {
  await deciderSpec(t)
    .when(
      create('dcim.site', {
        name: 'DC-1',
        slug: 'dc-1',
        id: 99,
        created: '2000-01-01',
        display: 'x',
        no_such_field: 1,
      }),
    )
    .then((events) => {
      t.is(events[0].objectId, 1);
      t.is(events[0].postchange!.created, WHEN_TIME);
      t.false('no_such_field' in events[0].postchange!);
      t.false('display' in events[0].postchange!);
    });
});

test('create: a body that is not an object is refused', async (t) => {
  await deciderSpec(t)
    .when(create('dcim.site', 'DC-1'))
    .thenThrows(ValidationError, { non_field_errors: ['Invalid data. Expected a dictionary, but got str.'] });
});

test('create: a child object names its parent as related (an interface its device)', async (t) => {
  await deciderSpec(t)
    .given(deviceParts.concat(create('dcim.device', { name: 'edge1', device_type: 1, device_role: 1, site: 1 })))
    .when(create('dcim.interface', { device: 1, name: 'eth0', type: '1000base-t' }))
    .then([{ objectType: 'dcim.interface', objectRepr: 'eth0', related: { type: 'dcim.device', id: 1 } }]);
});

// An object custom field whose value names no object is a field error of custom_fields,
// raised with the other field checks, before the model's validation (__all__).
test('create: an object custom field naming no object is refused under custom_fields', async (t) => {
  await deciderSpec(t)
    .given([
      create('extras.customfield', {
        content_types: ['dcim.site'],
        type: 'object',
        object_type: 'tenancy.tenant',
        name: 'owner',
      }),
    ])
    .when(create('dcim.site', { name: 'DC-1', slug: 'dc-1', custom_fields: { owner: 5 } }))
    .thenThrows(ValidationError, { custom_fields: ['Unknown related object(s): 5'] });
});

test('create: a multi-object custom field naming a missing object is refused as NetBox prints the list, before model-level custom field errors', async (t) => {
  await deciderSpec(t)
    .given([
      dc1,
      create('extras.customfield', {
        content_types: ['dcim.site'],
        type: 'multiobject',
        object_type: 'dcim.site',
        name: 'peers',
      }),
    ])
    .when(create('dcim.site', { name: 'DC-2', slug: 'dc-2', custom_fields: { peers: [1, 99], colour: 'red' } }))
    .thenThrows(ValidationError, { custom_fields: ['Unknown related object(s): [1, 99]'] });
});
