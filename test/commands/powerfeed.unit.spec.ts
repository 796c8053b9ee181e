import test from 'ava';

import { ConflictError, ValidationError } from '../../src/errors/requestErrors.js';
import { availablePower } from '../../src/models/dcim/powerFeedRules.js';
import { create, deciderSpec, patch, remove, type WriteCommand } from '../support/deciderSpec.js';

/** Sites 1 "DC-1" and 2 "DC-2"; panel 1 "RPP-1" at DC-1; racks 1 "R1" at DC-1 and 2 "R2" (facility F-2) at DC-2. */
const panelAndRacks: WriteCommand[] = [
  create('dcim.site', { name: 'DC-1', slug: 'dc-1' }),
  create('dcim.site', { name: 'DC-2', slug: 'dc-2' }),
  create('dcim.powerpanel', { site: 1, name: 'RPP-1' }),
  create('dcim.rack', { site: 1, name: 'R1' }),
  create('dcim.rack', { site: 2, name: 'R2', facility_id: 'F-2' }),
];

const feed = (input: Record<string, unknown>) => create('dcim.powerfeed', { power_panel: 1, name: 'Feed A', ...input });

test('power feed: NetBox defaults, and the power they make available (120 V × 15 A × 80 %)', async (t) => {
  await deciderSpec(t)
    .given(panelAndRacks)
    .when(feed({}))
    .then([
      {
        action: 'create',
        objectType: 'dcim.powerfeed',
        objectId: 1,
        objectRepr: 'Feed A',
        postchange: {
          power_panel: 1,
          rack: null,
          status: 'active',
          type: 'primary',
          supply: 'ac',
          phase: 'single-phase',
          voltage: 120,
          amperage: 15,
          max_utilization: 80,
          mark_connected: false,
          available_power: 1440,
        },
      },
    ]);
});

test('power feed: three phases deliver √3 (1.732) times as much', async (t) => {
  await deciderSpec(t)
    .given(panelAndRacks)
    .when(feed({ phase: 'three-phase', voltage: 208, amperage: 30 }))
    .then([{ objectType: 'dcim.powerfeed', objectId: 1, postchange: { available_power: 8646 } }]);
});

test('power feed: available power is recomputed when the phase, amperage or utilisation change', async (t) => {
  await deciderSpec(t)
    .given([...panelAndRacks, feed({})])
    .when(patch('dcim.powerfeed', 1, { phase: 'three-phase', amperage: 20, max_utilization: 100 }))
    .then([{ action: 'update', objectType: 'dcim.powerfeed', objectId: 1, postchange: { available_power: 4157 } }]);
});

test('power feed: a DC feed may have a negative voltage; its power counts the magnitude', async (t) => {
  await deciderSpec(t)
    .given(panelAndRacks)
    .when(feed({ supply: 'dc', voltage: -48, amperage: 100 }))
    .then([{ objectType: 'dcim.powerfeed', objectId: 1, postchange: { voltage: -48, available_power: 3840 } }]);
});

test('power feed: available power rounds as Python does, halves to even', (t) => {
  t.is(availablePower({ voltage: 1, amperage: 1, max_utilization: 50, phase: 'single-phase' }), 0);
  t.is(availablePower({ voltage: 3, amperage: 1, max_utilization: 50, phase: 'single-phase' }), 2);
  t.is(availablePower({ voltage: 5, amperage: 1, max_utilization: 50, phase: 'single-phase' }), 2);
  t.is(availablePower({ voltage: 230, amperage: 32, max_utilization: 80, phase: 'three-phase' }), 10198);
});

test('power feed: an AC voltage may not be negative', async (t) => {
  await deciderSpec(t)
    .given(panelAndRacks)
    .when(feed({ voltage: -120 }))
    .thenThrows(ValidationError, { voltage: ['Voltage cannot be negative for AC supply'] });
});

test('power feed: switching a negative DC feed to AC is refused', async (t) => {
  await deciderSpec(t)
    .given([...panelAndRacks, feed({ supply: 'dc', voltage: -48 })])
    .when(patch('dcim.powerfeed', 1, { supply: 'ac' }))
    .thenThrows(ValidationError, { voltage: ['Voltage cannot be negative for AC supply'] });
});

test('power feed: a voltage of 0 is refused', async (t) => {
  await deciderSpec(t)
    .given(panelAndRacks)
    .when(feed({ supply: 'dc', voltage: 0 }))
    .thenThrows(ValidationError, { voltage: ['This value may not be [0].'] });
});

test('power feed: amperage and utilisation bounds', async (t) => {
  await deciderSpec(t)
    .given(panelAndRacks)
    .when(feed({ amperage: 0, max_utilization: 101 }))
    .thenThrows(ValidationError, {
      amperage: ['Ensure this value is greater than or equal to 1.'],
      max_utilization: ['Ensure this value is less than or equal to 100.'],
    });
});

test('power feed: its rack must be at its panel site', async (t) => {
  await deciderSpec(t)
    .given(panelAndRacks)
    .when(feed({ rack: 2 }))
    .thenThrows(ValidationError, {
      __all__: ['Rack R2 (F-2) (DC-2) and power panel RPP-1 (DC-1) are in different sites'],
    });
});

test('power feed: the rack check comes before the AC voltage check, as in NetBox', async (t) => {
  await deciderSpec(t)
    .given(panelAndRacks)
    .when(feed({ rack: 2, voltage: -230 }))
    .thenThrows(ValidationError, {
      __all__: ['Rack R2 (F-2) (DC-2) and power panel RPP-1 (DC-1) are in different sites'],
    });
});

test('power feed: a rack at the panel site is accepted', async (t) => {
  await deciderSpec(t)
    .given(panelAndRacks)
    .when(feed({ rack: 1, status: 'planned', type: 'redundant' }))
    .then([
      { objectType: 'dcim.powerfeed', objectId: 1, postchange: { rack: 1, status: 'planned', type: 'redundant' } },
    ]);
});

test('power feed: unknown choices are refused', async (t) => {
  await deciderSpec(t)
    .given(panelAndRacks)
    .when(feed({ supply: 'ac/dc', phase: 'two-phase' }))
    .thenThrows(ValidationError, {
      supply: ['ac/dc is not a valid choice.'],
      phase: ['two-phase is not a valid choice.'],
    });
});

test('power feed: a name is taken once per panel', async (t) => {
  await deciderSpec(t)
    .given([...panelAndRacks, feed({})])
    .when(feed({}))
    .thenThrows(ValidationError, { __all__: ['Power feed with this Power panel and Name already exists.'] });
});

test('power feed: the same name on another panel is allowed', async (t) => {
  await deciderSpec(t)
    .given([...panelAndRacks, feed({}), create('dcim.powerpanel', { site: 1, name: 'RPP-2' })])
    .when(create('dcim.powerfeed', { power_panel: 2, name: 'Feed A' }))
    .then([{ objectType: 'dcim.powerfeed', objectId: 2, postchange: { power_panel: 2, name: 'Feed A' } }]);
});

test('power feed: its rack cannot be deleted while it feeds it (PROTECT)', async (t) => {
  await deciderSpec(t)
    .given([...panelAndRacks, feed({ rack: 1 })])
    .when(remove('dcim.rack', 1))
    .thenThrows(ConflictError, 'Unable to delete object. 1 dependent objects were found: Feed A (1)');
});
