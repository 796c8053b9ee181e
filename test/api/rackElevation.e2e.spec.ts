import test from 'ava';

import { as, grant, userWithToken } from '../support/callers.js';
import { startService, type TestService } from '../support/startService.js';
import { readXml } from '../support/wellFormedXml.js';

async function post(service: TestService, path: string, body: unknown): Promise<any> {
  const response = await service.api('POST', path, body);
  if (response.status !== 201) throw new Error(`${path}: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body;
}

/**
 * Rack R1 (42U) with: srv1, a full-depth 1U server at U1 front; sw1, a half-depth 2U
 * switch at U40 rear; pp1, a half-depth ½U panel at U20.5 front; loose1, in the rack
 * without a position. Rack R2 (4U, numbered from the top) with "<edge> & co" at U2 front.
 */
async function estate(service: TestService) {
  const site = await post(service, '/api/dcim/sites/', { name: 'DC-1', slug: 'dc-1' });
  const maker = await post(service, '/api/dcim/manufacturers/', { name: 'Acme', slug: 'acme' });
  const server = await post(service, '/api/dcim/device-types/', {
    manufacturer: maker.id,
    model: 'Server',
    slug: 'server',
    u_height: 1,
    is_full_depth: true,
  });
  const switchType = await post(service, '/api/dcim/device-types/', {
    manufacturer: maker.id,
    model: 'Switch',
    slug: 'switch',
    u_height: 2,
    is_full_depth: false,
  });
  const panel = await post(service, '/api/dcim/device-types/', {
    manufacturer: maker.id,
    model: 'Panel',
    slug: 'panel',
    u_height: 0.5,
    is_full_depth: false,
  });
  const role = await post(service, '/api/dcim/device-roles/', { name: 'Any', slug: 'any', color: '00ff00' });
  const r1 = await post(service, '/api/dcim/racks/', { site: site.id, name: 'R1' });
  const r2 = await post(service, '/api/dcim/racks/', { site: site.id, name: 'R2', u_height: 4, desc_units: true });
  const common = { device_role: role.id, site: site.id };
  const srv1 = await post(service, '/api/dcim/devices/', {
    ...common,
    name: 'srv1',
    device_type: server.id,
    rack: r1.id,
    position: 1,
    face: 'front',
  });
  const sw1 = await post(service, '/api/dcim/devices/', {
    ...common,
    name: 'sw1',
    device_type: switchType.id,
    rack: r1.id,
    position: 40,
    face: 'rear',
  });
  const pp1 = await post(service, '/api/dcim/devices/', {
    ...common,
    name: 'pp1',
    device_type: panel.id,
    rack: r1.id,
    position: 20.5,
    face: 'front',
  });
  await post(service, '/api/dcim/devices/', { ...common, name: 'loose1', device_type: server.id, rack: r1.id });
  const edge = await post(service, '/api/dcim/devices/', {
    ...common,
    name: '<edge> & co',
    device_type: switchType.id,
    rack: r2.id,
    position: 2,
    face: 'front',
  });
  return { r1, r2, srv1, sw1, pp1, edge };
}

async function allUnits(service: TestService, rack: number, query = ''): Promise<any[]> {
  const response = await service.api('GET', `/api/dcim/racks/${rack}/elevation/?limit=0${query}`);
  if (response.status !== 200) throw new Error(`${response.status} ${JSON.stringify(response.body)}`);
  return response.body.results;
}

const occupiedBy = (units: any[]) => units.filter((u) => u.occupied).map((u) => [u.name, u.device?.name ?? null]);

test('elevation JSON: two entries per U from the top, full-depth devices on both faces, half-depth on their own', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const e = await estate(service);

  const first = await service.api('GET', `/api/dcim/racks/${e.r1.id}/elevation/`);
  t.is(first.status, 200);
  t.is(first.body.count, 84);
  t.is(first.body.results.length, 50, 'paginated as lists are');
  t.is(first.body.next, `${service.url}/api/dcim/racks/${e.r1.id}/elevation/?limit=50&offset=50`);
  t.is(first.body.previous, null);
  t.deepEqual(first.body.results[0], {
    id: 42.5,
    name: 'U42.5',
    face: { value: 'front', label: 'Front' },
    device: null,
    occupied: false,
    display: 'U42.5',
  });
  t.deepEqual(
    first.body.results.slice(0, 4).map((u: any) => u.name),
    ['U42.5', 'U42', 'U41.5', 'U41'],
  );

  const last = await service.api('GET', `/api/dcim/racks/${e.r1.id}/elevation/?limit=2&offset=82`);
  t.deepEqual(
    last.body.results.map((u: any) => u.id),
    [1.5, 1],
  );
  t.deepEqual(last.body.results[1].device, {
    id: e.srv1.id,
    url: `${service.url}/api/dcim/devices/${e.srv1.id}/`,
    display: 'srv1',
    name: 'srv1',
  });
  t.is(last.body.next, null);

  t.deepEqual(
    occupiedBy(await allUnits(service, e.r1.id)),
    [
      ['U20.5', 'pp1'],
      ['U1.5', 'srv1'],
      ['U1', 'srv1'],
    ],
    'front',
  );
  const rear = await allUnits(service, e.r1.id, '&face=rear');
  t.true(rear.every((u) => u.face.value === 'rear' && u.face.label === 'Rear'));
  t.deepEqual(
    occupiedBy(rear),
    [
      ['U41.5', 'sw1'],
      ['U41', 'sw1'],
      ['U40.5', 'sw1'],
      ['U40', 'sw1'],
      ['U1.5', 'srv1'],
      ['U1', 'srv1'],
    ],
    'rear',
  );

  t.deepEqual(
    occupiedBy(await allUnits(service, e.r1.id, '&face=rear&expand_devices=false')),
    [
      ['U40', 'sw1'],
      ['U1', 'srv1'],
    ],
    'lowest units only',
  );
  t.deepEqual(occupiedBy(await allUnits(service, e.r1.id, `&exclude=${e.srv1.id}`)), [['U20.5', 'pp1']]);
  t.deepEqual(
    (await allUnits(service, e.r1.id, '&q=U4')).map((u) => u.name),
    ['U42.5', 'U42', 'U41.5', 'U41', 'U40.5', 'U40', 'U4.5', 'U4'],
    'q searches names',
  );
  t.is((await allUnits(service, e.r1.id, '&q=.0')).length, 42, 'and the numbers as NetBox writes them (42.0)');

  const descending = await allUnits(service, e.r2.id);
  t.deepEqual(
    descending.map((u) => u.name),
    ['U1', 'U1.5', 'U2', 'U2.5', 'U3', 'U3.5', 'U4', 'U4.5'],
    'numbered from the top',
  );
  t.deepEqual(occupiedBy(descending), [
    ['U2', '<edge> & co'],
    ['U2.5', '<edge> & co'],
    ['U3', '<edge> & co'],
    ['U3.5', '<edge> & co'],
  ]);
});

test('elevation: bad parameters answer 400 per parameter, as NetBox does', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const e = await estate(service);
  const bad = await service.api(
    'GET',
    `/api/dcim/racks/${e.r1.id}/elevation/?face=side&render=png&unit_width=wide&expand_devices=maybe`,
  );
  t.is(bad.status, 400);
  t.deepEqual(bad.body, {
    face: ['"side" is not a valid choice.'],
    render: ['"png" is not a valid choice.'],
    unit_width: ['A valid integer is required.'],
    expand_devices: ['Must be a valid boolean.'],
  });
  const face = await service.api('GET', `/api/dcim/racks/${e.r1.id}/elevation/?face=top`);
  t.is(face.status, 400);
  t.deepEqual(face.body, { face: ['"top" is not a valid choice.'] });
  t.is(
    (await service.api('GET', `/api/dcim/racks/${e.r1.id}/elevation/?face=&unit_height=22.0`)).status,
    200,
    'empty means the default',
  );
  t.is((await service.api('GET', '/api/dcim/racks/999/elevation/')).status, 404);
  t.is((await service.api('POST', `/api/dcim/racks/${e.r1.id}/elevation/`, {})).status, 405);
});

test('elevation SVG: a well-formed drawing of the face with its devices, named and linked', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const e = await estate(service);
  const response = await fetch(
    `${service.url}/api/dcim/racks/${e.r1.id}/elevation/?render=svg&face=rear&unit_height=20`,
    {
      headers: { Authorization: 'Token 0123456789abcdef0123456789abcdef01234567' },
    },
  );
  t.is(response.status, 200);
  t.is(response.headers.get('content-type'), 'image/svg+xml');
  t.is(response.headers.get('x-content-type-options'), 'nosniff');
  const policy = response.headers.get('content-security-policy') ?? '';
  t.regex(policy, /^sandbox; default-src 'none'/, 'opened on its own, it runs nothing');
  const elements = readXml(await response.text());
  t.is(elements[0].name, 'svg');
  t.is(elements[0].attributes.height, String(42 * 20 + 4));
  const labels = elements.filter((el) => el.attributes.class === 'label').map((el) => el.text);
  t.deepEqual(labels, ['srv1', 'sw1'], 'the rear face: the full-depth server and the rear switch');
  const links = elements.filter((el) => el.name === 'a').map((el) => el.attributes.href);
  t.deepEqual(links, [`${service.url}/api/dcim/devices/${e.srv1.id}/`, `${service.url}/api/dcim/devices/${e.sw1.id}/`]);
  t.is(elements.filter((el) => el.attributes.class === 'unit').length, 42, 'a legend entry per U');

  const escaped = await fetch(`${service.url}/api/dcim/racks/${e.r2.id}/elevation/?render=svg&highlight=name:nothing`, {
    headers: { Authorization: 'Token 0123456789abcdef0123456789abcdef01234567' },
  });
  const drawn = readXml(await escaped.text());
  t.deepEqual(
    drawn.filter((el) => el.attributes.class === 'label').map((el) => el.text),
    ['<edge> & co'],
    'names are escaped',
  );
  t.true(
    drawn.some((el) => el.attributes.class === 'dimmed'),
    'devices not highlighted are dimmed',
  );
});

test('elevation: devices the caller may not view occupy their units without being named; the endpoint is documented', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const e = await estate(service);
  const viewer = await userWithToken(service, 'viewer');
  await grant(service, { object_types: ['dcim.rack'], actions: ['view'], users: [viewer.user.id] });
  await grant(service, {
    object_types: ['dcim.device'],
    actions: ['view'],
    users: [viewer.user.id],
    constraints: { name: 'sw1' },
  });
  const rear = await as(service, viewer.key)('GET', `/api/dcim/racks/${e.r1.id}/elevation/?face=rear&limit=0`);
  t.is(rear.status, 200);
  t.deepEqual(occupiedBy(rear.body.results), [
    ['U41.5', 'sw1'],
    ['U41', 'sw1'],
    ['U40.5', 'sw1'],
    ['U40', 'sw1'],
    ['U1.5', null],
    ['U1', null],
  ]);
  const svg = await fetch(`${service.url}/api/dcim/racks/${e.r1.id}/elevation/?render=svg&face=rear`, {
    headers: { Authorization: `Token ${viewer.key}` },
  });
  const drawn = readXml(await svg.text());
  t.deepEqual(
    drawn.filter((el) => el.attributes.class === 'label').map((el) => el.text),
    ['sw1'],
  );
  t.is(drawn.filter((el) => el.attributes.class === 'device hidden').length, 1, 'srv1 drawn as a blank box');

  const schema = await service.api('GET', '/api/schema/?format=json');
  const path = schema.body.paths['/api/dcim/racks/{id}/elevation/'];
  t.truthy(path?.get);
  t.deepEqual(
    path.get.parameters.filter((p: any) => p.in === 'query').map((p: any) => p.name),
    [
      'q',
      'face',
      'render',
      'unit_width',
      'unit_height',
      'legend_width',
      'margin_width',
      'exclude',
      'expand_devices',
      'include_images',
      'highlight',
    ],
  );
  t.deepEqual(Object.keys(path.get.responses[200].content), ['application/json', 'image/svg+xml']);
});
