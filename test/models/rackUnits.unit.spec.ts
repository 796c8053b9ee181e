import test from 'ava';

import { parseElevationQuery } from '../../src/models/dcim/rackElevationQuery.js';
import { matchesUnit, type MountedDevice, rackUnits } from '../../src/models/dcim/rackUnits.js';

const rack = { u_height: 3, desc_units: false };
const server: MountedDevice = { id: 1, position: 1, face: 'front', height: 1, fullDepth: true };
const shelf: MountedDevice = { id: 2, position: 2.5, face: 'rear', height: 1.5, fullDepth: false };
const zeroU: MountedDevice = { id: 3, position: null, face: null, height: 0, fullDepth: true };
const options = { face: 'front' as const, exclude: null, expandDevices: true };

const filled = (units: ReturnType<typeof rackUnits>) => units.filter((u) => u.occupied).map((u) => [u.name, u.device]);

test('rack units: two per U from the top, each with its face', (t) => {
  const units = rackUnits(rack, [], options);
  t.deepEqual(
    units.map((u) => u.name),
    ['U3.5', 'U3', 'U2.5', 'U2', 'U1.5', 'U1'],
  );
  t.deepEqual(
    units.map((u) => u.id),
    [3.5, 3, 2.5, 2, 1.5, 1],
  );
  t.deepEqual(
    units.map((u) => u.idText),
    ['3.5', '3.0', '2.5', '2.0', '1.5', '1.0'],
  );
  t.true(units.every((u) => u.face === 'front' && u.device === null && !u.occupied));
});

test('rack units: numbered from the top down, U1 first (NetBox prints its number as "1")', (t) => {
  const units = rackUnits({ u_height: 2, desc_units: true }, [], options);
  t.deepEqual(
    units.map((u) => u.name),
    ['U1', 'U1.5', 'U2', 'U2.5'],
  );
  t.deepEqual(
    units.map((u) => u.idText),
    ['1', '1.5', '2.0', '2.5'],
  );
  t.true(matchesUnit(units[0], '1') && !matchesUnit(units[0], '1.0'));
});

test('rack units: a full-depth device fills both faces, a half-depth one its own face only', (t) => {
  const devices = [server, shelf, zeroU];
  t.deepEqual(filled(rackUnits(rack, devices, options)), [
    ['U1.5', 1],
    ['U1', 1],
  ]);
  t.deepEqual(filled(rackUnits(rack, devices, { ...options, face: 'rear' })), [
    ['U3.5', 2],
    ['U3', 2],
    ['U2.5', 2],
    ['U1.5', 1],
    ['U1', 1],
  ]);
});

test('rack units: without expansion a device sits on its lowest unit only; an excluded one nowhere', (t) => {
  t.deepEqual(filled(rackUnits(rack, [server, shelf], { ...options, face: 'rear', expandDevices: false })), [
    ['U2.5', 2],
    ['U1', 1],
  ]);
  t.deepEqual(filled(rackUnits(rack, [server, shelf], { ...options, face: 'rear', exclude: 2 })), [
    ['U1.5', 1],
    ['U1', 1],
  ]);
});

test('rack units: a device the caller may not see still occupies its units, unnamed', (t) => {
  t.deepEqual(filled(rackUnits(rack, [server, shelf], { ...options, face: 'rear', visible: new Set([2]) })), [
    ['U3.5', 2],
    ['U3', 2],
    ['U2.5', 2],
    ['U1.5', null],
    ['U1', null],
  ]);
});

test('elevation query: defaults, the last value of a repeated parameter, empty values as defaults', (t) => {
  const parsed = parseElevationQuery(
    new URLSearchParams(
      'face=front&face=rear&unit_width=&render=svg&expand_devices=False&highlight=id:4&highlight=bad',
    ),
  );
  t.deepEqual(parsed, {
    query: {
      q: null,
      face: 'rear',
      render: 'svg',
      unit_width: 220,
      unit_height: 22,
      legend_width: 30,
      margin_width: 15,
      exclude: null,
      expand_devices: false,
      include_images: true,
      highlight: [['id', '4']],
    },
  });
});

test('elevation query: every bad value is reported, in the parameters order', (t) => {
  t.deepEqual(parseElevationQuery(new URLSearchParams('include_images=2&exclude=x&q=%20&face=Front')), {
    errors: {
      q: ['This field may not be blank.'],
      face: ['"Front" is not a valid choice.'],
      exclude: ['A valid integer is required.'],
      include_images: ['Must be a valid boolean.'],
    },
  });
});
