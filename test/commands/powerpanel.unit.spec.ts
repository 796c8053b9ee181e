import test from 'ava';

import { ConflictError, ValidationError } from '../../src/errors/requestErrors.js';
import { create, deciderSpec, patch, remove, type WriteCommand } from '../support/deciderSpec.js';

/** Sites 1 "DC-1" and 2 "DC-2"; location 1 "Hall A" at DC-1, location 2 "Hall B" at DC-2. */
const sites: WriteCommand[] = [
  create('dcim.site', { name: 'DC-1', slug: 'dc-1' }),
  create('dcim.site', { name: 'DC-2', slug: 'dc-2' }),
  create('dcim.location', { name: 'Hall A', slug: 'hall-a', site: 1 }),
  create('dcim.location', { name: 'Hall B', slug: 'hall-b', site: 2 }),
];

test('power panel: stored with its site, location and text fields', async (t) => {
  await deciderSpec(t)
    .given(sites)
    .when(
      create('dcim.powerpanel', { site: 1, location: 1, name: 'RPP-1', description: 'main', comments: 'north wall' }),
    )
    .then([
      {
        action: 'create',
        objectType: 'dcim.powerpanel',
        objectId: 1,
        objectRepr: 'RPP-1',
        postchange: { site: 1, location: 1, name: 'RPP-1', description: 'main', comments: 'north wall' },
      },
    ]);
});

test('power panel: its location must be at its site', async (t) => {
  await deciderSpec(t)
    .given(sites)
    .when(create('dcim.powerpanel', { site: 1, location: 2, name: 'RPP-1' }))
    .thenThrows(ValidationError, { __all__: ['Location Hall B (DC-2) is in a different site than DC-1'] });
});

test('power panel: moving it to another site leaves its location behind, refused', async (t) => {
  await deciderSpec(t)
    .given([...sites, create('dcim.powerpanel', { site: 1, location: 1, name: 'RPP-1' })])
    .when(patch('dcim.powerpanel', 1, { site: 2 }))
    .thenThrows(ValidationError, { __all__: ['Location Hall A (DC-1) is in a different site than DC-2'] });
});

test('power panel: a name is taken once per site', async (t) => {
  await deciderSpec(t)
    .given([...sites, create('dcim.powerpanel', { site: 1, name: 'RPP-1' })])
    .when(create('dcim.powerpanel', { site: 1, name: 'RPP-1' }))
    .thenThrows(ValidationError, { __all__: ['Power panel with this Site and Name already exists.'] });
});

test('power panel: the same name at another site is allowed', async (t) => {
  await deciderSpec(t)
    .given([...sites, create('dcim.powerpanel', { site: 1, name: 'RPP-1' })])
    .when(create('dcim.powerpanel', { site: 2, name: 'RPP-1' }))
    .then([
      {
        action: 'create',
        objectType: 'dcim.powerpanel',
        objectId: 2,
        postchange: { site: 2, name: 'RPP-1', location: null },
      },
    ]);
});

test('power panel: needs a site and a name', async (t) => {
  await deciderSpec(t)
    .given(sites)
    .when(create('dcim.powerpanel', {}))
    .thenThrows(ValidationError, { site: ['This field is required.'], name: ['This field is required.'] });
});

test('power panel: cannot be deleted while it feeds power (PROTECT)', async (t) => {
  await deciderSpec(t)
    .given([
      ...sites,
      create('dcim.powerpanel', { site: 1, name: 'RPP-1' }),
      create('dcim.powerfeed', { power_panel: 1, name: 'Feed A' }),
    ])
    .when(remove('dcim.powerpanel', 1))
    .thenThrows(ConflictError, 'Unable to delete object. 1 dependent objects were found: Feed A (1)');
});

test('power panel: its site and location cannot be deleted while it stands there (PROTECT)', async (t) => {
  await deciderSpec(t)
    .given([...sites, create('dcim.powerpanel', { site: 1, location: 1, name: 'RPP-1' })])
    .when(remove('dcim.location', 1))
    .thenThrows(ConflictError, 'Unable to delete object. 1 dependent objects were found: RPP-1 (1)');
});
