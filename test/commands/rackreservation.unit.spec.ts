import test from 'ava';

import { ConflictError, ValidationError } from '../../src/errors/requestErrors.js';
import { create, deciderSpec, patch, remove, type WriteCommand } from '../support/deciderSpec.js';

/** Site 1, rack 1 "R1" (10U), user 1 "alice"; reservation 1 of units 1-2 of R1. */
const reserved: WriteCommand[] = [
  create('dcim.site', { name: 'DC-1', slug: 'dc-1' }),
  create('dcim.rack', { name: 'R1', site: 1, u_height: 10 }),
  create('auth.user', { username: 'alice', password: 'a long passphrase' }),
  create('dcim.rackreservation', { rack: 1, units: [1, 2], user: 1, description: 'cage' }),
];

test('rack reservation: units must exist in the rack', async (t) => {
  await deciderSpec(t)
    .given(reserved)
    .when(create('dcim.rackreservation', { rack: 1, units: [10, 11, 0], user: 1, description: 'too high' }))
    .thenThrows(ValidationError, { units: ['Invalid unit(s) for 10U rack: 11, 0'] });
});

test('rack reservation: a unit is reserved once per rack', async (t) => {
  await deciderSpec(t)
    .given(reserved)
    .when(create('dcim.rackreservation', { rack: 1, units: [3, 2, 1], user: 1, description: 'overlap' }))
    .thenThrows(ValidationError, { units: ['The following units have already been reserved: 2, 1'] });
});

test('rack reservation: a reservation may keep its own units', async (t) => {
  await deciderSpec(t)
    .given(reserved)
    .when(patch('dcim.rackreservation', 1, { units: [1, 2, 3] }))
    .then([{ action: 'update', objectType: 'dcim.rackreservation', objectId: 1, postchange: { units: [1, 2, 3] } }]);
});

test('rack reservation: units of another rack do not collide', async (t) => {
  await deciderSpec(t)
    .given([...reserved, create('dcim.rack', { name: 'R2', site: 1, u_height: 10 })])
    .when(create('dcim.rackreservation', { rack: 2, units: [1, 2], user: 1, description: 'next door' }))
    .then([
      {
        action: 'create',
        objectType: 'dcim.rackreservation',
        objectId: 2,
        objectRepr: 'Reservation for rack R2',
        postchange: { rack: 2, units: [1, 2] },
      },
    ]);
});

test('rack reservation: units and description may not be empty', async (t) => {
  await deciderSpec(t)
    .given(reserved)
    .when(create('dcim.rackreservation', { rack: 1, units: [], user: 1, description: 'none' }))
    .thenThrows(ValidationError, { units: ['This field cannot be blank.'] });
  await deciderSpec(t)
    .given(reserved)
    .when(create('dcim.rackreservation', { rack: 1, units: [5], user: 1, description: '' }))
    .thenThrows(ValidationError, { description: ['This field may not be blank.'] });
  await deciderSpec(t)
    .given(reserved)
    .when(create('dcim.rackreservation', { rack: 1, units: [5], description: 'who?' }))
    .thenThrows(ValidationError, { user: ['This field is required.'] });
});

test('rack reservation: deleted with its rack; its user cannot be deleted', async (t) => {
  await deciderSpec(t)
    .given(reserved)
    .when(remove('dcim.rack', 1))
    .then([
      { action: 'delete', objectType: 'dcim.rackreservation', objectId: 1 },
      { action: 'delete', objectType: 'dcim.rack', objectId: 1 },
    ]);
  await deciderSpec(t)
    .given(reserved)
    .when(remove('auth.user', 1))
    .thenThrows(ConflictError, 'Unable to delete object. 1 dependent objects were found: Reservation for rack R1 (1)');
});
