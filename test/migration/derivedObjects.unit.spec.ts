import test from 'ava';

import { derivedObjectsOf } from '../../src/migration/derivedObjects.js';

// Cable 2 was deleted in the source: cable 3's terminations are 3 and 4, not 1 and 2.
const terminations = [
  {
    id: 3,
    cable: 3,
    cable_end: 'A',
    termination_type: 'dcim.interface',
    termination_id: 10,
    created: '2023-01-01T10:00:00Z',
    last_updated: '2023-01-02T10:00:00Z',
  },
  {
    id: 4,
    cable: 3,
    cable_end: 'B',
    termination_type: 'dcim.interface',
    termination_id: 11,
    created: '2023-01-01T10:00:00Z',
    last_updated: null,
  },
];
const derived = derivedObjectsOf(new Map([['dcim.cabletermination', terminations]]));

test("a derived object is the source's one whose fields are what the follow-up writes: its id and times", (t) => {
  t.deepEqual(
    derived.find('dcim.cabletermination', {
      termination_id: 11,
      cable: 3,
      termination_type: 'dcim.interface',
      cable_end: 'B',
    }),
    { id: 4, created: '2023-01-01T10:00:00Z', lastUpdated: null },
  );
});

test('nested references and choices in the source are matched by their id and value', (t) => {
  const nested = derivedObjectsOf(
    new Map([
      [
        'dcim.cabletermination',
        [{ ...terminations[0], cable: { id: 3, url: 'x' }, cable_end: { value: 'A', label: 'A' } }],
      ],
    ]),
  );
  t.is(
    nested.find('dcim.cabletermination', {
      cable: 3,
      cable_end: 'A',
      termination_type: 'dcim.interface',
      termination_id: 10,
    })?.id,
    3,
  );
});

test('nothing is found where the source has no such object, or does not serve the model', (t) => {
  t.is(
    derived.find('dcim.cabletermination', {
      cable: 3,
      cable_end: 'A',
      termination_type: 'dcim.interface',
      termination_id: 11,
    }),
    undefined,
  );
  t.is(derived.find('extras.jobresult', { name: 'x' }), undefined);
});
