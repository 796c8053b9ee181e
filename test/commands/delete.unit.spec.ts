import test from 'ava';

import { ConflictError, NotFoundError, ValidationError } from '../../src/errors/requestErrors.js';
import { create, deciderSpec, GIVEN_TIME, patch, remove, removeMany, WHEN_TIME } from '../support/deciderSpec.js';

const acme = create('tenancy.tenant', { name: 'Acme', slug: 'acme' });

/** Site 1, device type 1, device role 1, device 1 "edge1" with interface 1 and address 1 (its primary IPv4). */
const deviceWithAddress = [
  create('dcim.site', { name: 'DC-1', slug: 'dc-1' }),
  create('dcim.manufacturer', { name: 'Juniper', slug: 'juniper' }),
  create('dcim.devicetype', { manufacturer: 1, model: 'MX204', slug: 'mx204' }),
  create('dcim.devicerole', { name: 'Router', slug: 'router', color: 'ff0000' }),
  create('dcim.device', { name: 'edge1', device_type: 1, device_role: 1, site: 1 }),
  create('dcim.interface', { device: 1, name: 'et-0/0/0', type: '1000base-t' }),
  create('ipam.ipaddress', { address: '192.0.2.1/24', assigned_object_type: 'dcim.interface', assigned_object_id: 1 }),
  patch('dcim.device', 1, { primary_ip4: 1 }),
];

test('delete: an object nothing points at is deleted with its last stored form', async (t) => {
  await deciderSpec(t)
    .given([acme])
    .when(remove('tenancy.tenant', 1))
    .then([
      {
        action: 'delete',
        objectType: 'tenancy.tenant',
        objectId: 1,
        objectRepr: 'Acme',
        prechange: { name: 'Acme', slug: 'acme' },
        postchange: null,
      },
    ]);
});

test('delete: PROTECT refuses with a conflict naming every dependant, and nothing is appended', async (t) => {
  await deciderSpec(t)
    .given([
      acme,
      create('dcim.site', { name: 'DC-1', slug: 'dc-1', tenant: 1 }),
      create('ipam.prefix', { prefix: '10.0.0.0/8', tenant: 1 }),
    ])
    .when(remove('tenancy.tenant', 1))
    .thenThrows(ConflictError, 'Unable to delete object. 2 dependent objects were found: DC-1 (1), 10.0.0.0/8 (1)');
});

test('delete: PROTECT anywhere in the cascade refuses the whole request', async (t) => {
  // The site's locations would cascade, but a rack still stands on the site.
  await deciderSpec(t)
    .given([
      create('dcim.site', { name: 'DC-1', slug: 'dc-1' }),
      create('dcim.location', { name: 'Hall A', slug: 'hall-a', site: 1 }),
      create('dcim.rack', { name: 'R1', site: 1 }),
    ])
    .when(remove('dcim.site', 1))
    .thenThrows(ConflictError, 'Unable to delete object. 1 dependent objects were found: R1 (1)');
});

test('delete: CASCADE deletes every dependant with an event of its own, dependants first', async (t) => {
  await deciderSpec(t)
    .given([
      create('dcim.site', { name: 'DC-1', slug: 'dc-1' }),
      create('dcim.location', { name: 'Hall A', slug: 'hall-a', site: 1 }),
      create('dcim.location', { name: 'Cage 1', slug: 'cage-1', site: 1, parent: 1 }),
    ])
    .when(remove('dcim.site', 1))
    .then([
      { action: 'delete', objectType: 'dcim.location', objectId: 2, objectRepr: 'Cage 1', postchange: null },
      { action: 'delete', objectType: 'dcim.location', objectId: 1, objectRepr: 'Hall A', postchange: null },
      { action: 'delete', objectType: 'dcim.site', objectId: 1, postchange: null },
    ]);
});

test('delete: the cascade follows generic relations (a device takes its interfaces and their addresses)', async (t) => {
  await deciderSpec(t)
    .given(deviceWithAddress)
    .when(remove('dcim.device', 1))
    .then([
      { action: 'delete', objectType: 'ipam.ipaddress', objectId: 1, objectRepr: '192.0.2.1/24' },
      { action: 'delete', objectType: 'dcim.interface', objectId: 1, related: { type: 'dcim.device', id: 1 } },
      { action: 'delete', objectType: 'dcim.device', objectId: 1, prechange: { primary_ip4: 1 } },
    ]);
});

test('delete: SET_NULL clears the reference with an update event before the delete', async (t) => {
  await deciderSpec(t)
    .given([
      create('dcim.region', { name: 'Europe', slug: 'europe' }),
      create('dcim.site', { name: 'DC-1', slug: 'dc-1', region: 1 }),
    ])
    .when(remove('dcim.region', 1))
    .then([
      {
        action: 'update',
        objectType: 'dcim.site',
        objectId: 1,
        prechange: { region: 1 },
        postchange: { region: null, last_updated: WHEN_TIME },
      },
      { action: 'delete', objectType: 'dcim.region', objectId: 1 },
    ]);
});

test('delete: SET_NULL on a primary IP: deleting the address clears it on the device', async (t) => {
  await deciderSpec(t)
    .given(deviceWithAddress)
    .when(remove('ipam.ipaddress', 1))
    .then([
      {
        action: 'update',
        objectType: 'dcim.device',
        objectId: 1,
        prechange: { primary_ip4: 1 },
        postchange: { primary_ip4: null },
      },
      { action: 'delete', objectType: 'ipam.ipaddress', objectId: 1 },
    ]);
});

test('delete: a deleted tag is taken off every object that carries it, one update each', async (t) => {
  await deciderSpec(t)
    .given([
      create('extras.tag', { name: 'Core', slug: 'core' }),
      create('extras.tag', { name: 'Edge', slug: 'edge' }),
      create('dcim.site', { name: 'DC-1', slug: 'dc-1', tags: [1, 2] }),
      create('dcim.site', { name: 'DC-2', slug: 'dc-2', tags: [1] }),
      create('dcim.site', { name: 'DC-3', slug: 'dc-3', tags: [2] }),
    ])
    .when(remove('extras.tag', 1))
    .then([
      {
        action: 'update',
        objectType: 'dcim.site',
        objectId: 1,
        prechange: { tags: [1, 2], last_updated: GIVEN_TIME },
        postchange: { tags: [2] },
      },
      { action: 'update', objectType: 'dcim.site', objectId: 2, postchange: { tags: [] } },
      { action: 'delete', objectType: 'extras.tag', objectId: 1 },
    ]);
});

test('delete: an unknown id is not found', async (t) => {
  await deciderSpec(t).given([acme]).when(remove('tenancy.tenant', 2)).thenThrows(NotFoundError);
});

test('delete (bulk): one unknown id refuses the whole request, reported per item', async (t) => {
  await deciderSpec(t)
    .given([acme, create('tenancy.tenant', { name: 'Globex', slug: 'globex' })])
    .when(removeMany('tenancy.tenant', [1, 7, 2]))
    .thenThrows(ValidationError, [{}, { id: ['Object with id 7 does not exist.'] }, {}]);
});

test('delete (bulk): each object gets its delete event; a dependant named twice is deleted once', async (t) => {
  await deciderSpec(t)
    .given([
      create('dcim.site', { name: 'DC-1', slug: 'dc-1' }),
      create('dcim.location', { name: 'Hall A', slug: 'hall-a', site: 1 }),
      create('dcim.location', { name: 'Cage 1', slug: 'cage-1', site: 1, parent: 1 }),
    ])
    .when(removeMany('dcim.location', [1, 2]))
    .then([
      { action: 'delete', objectType: 'dcim.location', objectId: 2 },
      { action: 'delete', objectType: 'dcim.location', objectId: 1 },
    ]);
});
