import test from 'ava';

import { startService } from '../support/startService.js';

type Service = Awaited<ReturnType<typeof startService>>;

/** A site with two racks; devices with interfaces, console and power ports, patch panels. */
async function seed(service: Service) {
  const post = async (path: string, body: unknown) => {
    const response = await service.api('POST', path, body);
    if (response.status !== 201) throw new Error(`${path}: ${response.status} ${JSON.stringify(response.body)}`);
    return response.body;
  };
  const site = await post('/api/dcim/sites/', { name: 'DC-1', slug: 'dc-1' });
  const rack1 = await post('/api/dcim/racks/', { name: 'R1', site: site.id });
  const rack2 = await post('/api/dcim/racks/', { name: 'R2', site: site.id });
  const manufacturer = await post('/api/dcim/manufacturers/', { name: 'Acme', slug: 'acme' });
  const role = await post('/api/dcim/device-roles/', { name: 'Switch', slug: 'switch' });
  const type = await post('/api/dcim/device-types/', { manufacturer: manufacturer.id, model: 'S', slug: 's' });
  const device = (name: string, rack: { id: number }) =>
    post('/api/dcim/devices/', { name, device_type: type.id, device_role: role.id, site: site.id, rack: rack.id });
  const iface = (dev: { id: number }, name: string, kind = '1000base-t') =>
    post('/api/dcim/interfaces/', { device: dev.id, name, type: kind });
  const ref = (object_type: string, obj: { id: number }) => ({ object_type, object_id: obj.id });
  return { post, site, rack1, rack2, device, iface, ref };
}

test('a cable between two interfaces: ends, peers, connected endpoints, terminations, filters; deleting it clears the ends', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const { post, rack1, rack2, device, iface, ref } = await seed(service);
  const sw1 = await device('sw1', rack1);
  const sw2 = await device('sw2', rack2);
  const a = await iface(sw1, 'eth0');
  const b = await iface(sw2, 'eth0');
  const cable = await post('/api/dcim/cables/', {
    a_terminations: [ref('dcim.interface', a)],
    b_terminations: [ref('dcim.interface', b)],
    label: 'c1',
    length: 3,
    length_unit: 'm',
  });
  t.is(cable.display, 'c1');
  t.is(cable.status.value, 'connected');
  t.is(cable.a_terminations[0].object.name, 'eth0');
  t.is(cable.a_terminations[0].object.device.name, 'sw1');

  const ifaceA = (await service.api('GET', `/api/dcim/interfaces/${a.id}/`)).body;
  t.is(ifaceA.cable.id, cable.id);
  t.is(ifaceA.cable_end, 'A');
  t.is(ifaceA.link_peers_type, 'dcim.interface');
  t.deepEqual(
    ifaceA.link_peers.map((p: any) => [p.id, p.device.name]),
    [[b.id, 'sw2']],
  );
  t.is(ifaceA.connected_endpoints_type, 'dcim.interface');
  t.deepEqual(
    ifaceA.connected_endpoints.map((p: any) => p.id),
    [b.id],
  );
  t.true(ifaceA.connected_endpoints_reachable);
  t.true(ifaceA._occupied);
  t.deepEqual(ifaceA.connection_status, { value: true, label: 'Connected' });

  const terminations = (await service.api('GET', `/api/dcim/cable-terminations/?cable=${cable.id}`)).body;
  t.deepEqual(
    terminations.results.map((x: any) => [x.cable_end, x.termination_type, x.termination_id, x.termination.name]),
    [
      ['A', 'dcim.interface', a.id, 'eth0'],
      ['B', 'dcim.interface', b.id, 'eth0'],
    ],
  );
  t.is(terminations.results[0].display, 'Cable c1 to eth0');
  t.is((await service.api('POST', '/api/dcim/cable-terminations/', {})).status, 405);

  const ids = async (path: string) => (await service.api('GET', path)).body.results.map((x: any) => x.id);
  t.deepEqual(await ids(`/api/dcim/cables/?device_id=${sw2.id}`), [cable.id]);
  t.deepEqual(await ids('/api/dcim/cables/?device=sw1'), [cable.id]);
  t.deepEqual(await ids(`/api/dcim/cables/?rack_id=${rack2.id}`), [cable.id]);
  t.deepEqual(await ids('/api/dcim/cables/?site=dc-1'), [cable.id]);
  t.deepEqual(await ids(`/api/dcim/cables/?termination_a_type=dcim.interface&termination_a_id=${a.id}`), [cable.id]);
  t.deepEqual(await ids(`/api/dcim/cables/?termination_a_id=${b.id}`), []);
  const spare = await iface(sw1, 'eth1');
  t.deepEqual(await ids(`/api/dcim/interfaces/?device_id=${sw1.id}&cabled=true`), [a.id]);
  t.deepEqual(await ids(`/api/dcim/interfaces/?device_id=${sw1.id}&cabled=false`), [spare.id]);
  t.deepEqual(await ids(`/api/dcim/interfaces/?device_id=${sw1.id}&connected=true`), [a.id]);
  t.deepEqual(await ids(`/api/dcim/interfaces/?device_id=${sw1.id}&occupied=false`), [spare.id]);
  t.deepEqual(await ids(`/api/dcim/interfaces/?device_id=${sw1.id}&cable_end=A`), [a.id]);

  const planned = await service.api('PATCH', `/api/dcim/cables/${cable.id}/`, { status: 'planned' });
  t.is(planned.status, 200);
  const inactive = (await service.api('GET', `/api/dcim/interfaces/${a.id}/`)).body;
  t.false(inactive.connected_endpoints_reachable);
  t.deepEqual(await ids(`/api/dcim/interfaces/?device_id=${sw1.id}&connected=false`), [a.id, spare.id]);

  const marked = await service.api('PATCH', `/api/dcim/interfaces/${a.id}/`, { mark_connected: true });
  t.deepEqual(marked.body, { mark_connected: ['Cannot mark as connected with a cable attached.'] });

  t.is((await service.api('DELETE', `/api/dcim/cables/${cable.id}/`)).status, 204);
  const cleared = (await service.api('GET', `/api/dcim/interfaces/${a.id}/`)).body;
  t.is(cleared.cable, null);
  t.is(cleared.cable_end, '');
  t.deepEqual(cleared.link_peers, []);
  t.is(cleared.connected_endpoints, null);
  t.is(cleared.connected_endpoints_reachable, null);
  t.is((await service.api('GET', '/api/dcim/cable-terminations/')).body.count, 0);
});

test("NetBox's cable rules, each refusing the whole request", async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const { post, rack1, device, iface, ref } = await seed(service);
  const sw = await device('sw', rack1);
  const [e0, e1, e2] = [await iface(sw, 'e0'), await iface(sw, 'e1'), await iface(sw, 'e2')];
  const lag = await iface(sw, 'lag0', 'lag');
  const console = await post('/api/dcim/console-ports/', { device: sw.id, name: 'con' });
  const cable = (body: unknown) => service.api('POST', '/api/dcim/cables/', body);
  const i = (x: { id: number }) => ref('dcim.interface', x);
  t.deepEqual((await cable({ a_terminations: [i(e0)], b_terminations: [] })).body, {
    __all__: ['Must define A and B terminations when creating a new cable.'],
  });
  t.deepEqual((await cable({ a_terminations: [i(e0)], b_terminations: [i(e1)], length: 2 })).body, {
    __all__: ['Must specify a unit when setting a cable length'],
  });
  t.deepEqual(
    (await cable({ a_terminations: [i(e0), ref('dcim.consoleport', console)], b_terminations: [i(e1)] })).body,
    {
      __all__: ['Cannot connect different termination types to same end of cable.'],
    },
  );
  t.deepEqual((await cable({ a_terminations: [i(e0)], b_terminations: [ref('dcim.consoleport', console)] })).body, {
    __all__: ['Incompatible termination types: interface and consoleport'],
  });
  t.deepEqual((await cable({ a_terminations: [i(e0)], b_terminations: [i(lag)] })).body, {
    __all__: ['Cables cannot be terminated to Link Aggregation Group (LAG) interfaces'],
  });
  const first = await cable({ a_terminations: [i(e0)], b_terminations: [i(e1)] });
  t.is(first.status, 201);
  t.deepEqual((await cable({ a_terminations: [i(e2)], b_terminations: [i(e1)] })).body, {
    __all__: [`Duplicate termination found for dcim.interface ${e1.id}: cable ${first.body.id}`],
  });
  const missing = await cable({
    a_terminations: [i(e2)],
    b_terminations: [{ object_type: 'dcim.interface', object_id: 99999 }],
  });
  t.is(missing.status, 400);
  t.is((await service.api('GET', '/api/dcim/cables/')).body.count, 1);
  t.is((await service.api('GET', `/api/dcim/interfaces/${e2.id}/`)).body.cable, null);
  const toVirtual = await service.api('PATCH', `/api/dcim/interfaces/${e0.id}/`, { type: 'virtual' });
  t.deepEqual(toVirtual.body, { type: ['Virtual interfaces cannot have a cable attached.'] });
  // length without a unit is refused; a unit without a length is dropped
  const unitOnly = await service.api('PATCH', `/api/dcim/cables/${first.body.id}/`, { length_unit: 'm' });
  t.is(unitOnly.body.length_unit, null);
});

test('re-terminating a cable moves its ends; deleting an interface takes it off the cable', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const { rack1, device, iface, ref } = await seed(service);
  const sw = await device('sw', rack1);
  const [e0, e1, e2] = [await iface(sw, 'e0'), await iface(sw, 'e1'), await iface(sw, 'e2')];
  const i = (x: { id: number }) => ref('dcim.interface', x);
  const cable = (await service.api('POST', '/api/dcim/cables/', { a_terminations: [i(e0)], b_terminations: [i(e1)] }))
    .body;
  const moved = await service.api('PATCH', `/api/dcim/cables/${cable.id}/`, { b_terminations: [i(e2)] });
  t.is(moved.status, 200);
  const get = async (x: { id: number }) => (await service.api('GET', `/api/dcim/interfaces/${x.id}/`)).body;
  t.is((await get(e1)).cable, null);
  t.is((await get(e2)).cable.id, cable.id);
  t.is((await get(e2)).cable_end, 'B');
  t.is((await service.api('GET', `/api/dcim/cable-terminations/?cable=${cable.id}`)).body.count, 2);
  t.is((await service.api('DELETE', `/api/dcim/interfaces/${e2.id}/`)).status, 204);
  const left = (await service.api('GET', `/api/dcim/cables/${cable.id}/`)).body;
  t.deepEqual(left.b_terminations, []);
  t.deepEqual((await get(e0)).link_peers, []);
  t.is((await service.api('GET', `/api/dcim/cable-terminations/?cable=${cable.id}`)).body.count, 1);
  // every write of the cable's request is one request in the history
  const changes = (
    await service.api('GET', `/api/extras/object-changes/?changed_object_type=dcim.cable&changed_object_id=${cable.id}`)
  ).body;
  t.true(changes.count >= 2);
});

test('a path through two patch panels: connected endpoints across them, /trace/ segments, /paths/ on the ports', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const { post, rack1, device, iface, ref } = await seed(service);
  const [sw1, sw2, p1, p2] = [
    await device('sw1', rack1),
    await device('sw2', rack1),
    await device('p1', rack1),
    await device('p2', rack1),
  ];
  const a = await iface(sw1, 'eth0');
  const b = await iface(sw2, 'eth0');
  const rear1 = await post('/api/dcim/rear-ports/', { device: p1.id, name: 'R', type: 'lc', positions: 4 });
  const rear2 = await post('/api/dcim/rear-ports/', { device: p2.id, name: 'R', type: 'lc', positions: 4 });
  const front1 = await post('/api/dcim/front-ports/', {
    device: p1.id,
    name: 'F3',
    type: 'lc',
    rear_port: rear1.id,
    rear_port_position: 3,
  });
  const front2 = await post('/api/dcim/front-ports/', {
    device: p2.id,
    name: 'F3',
    type: 'lc',
    rear_port: rear2.id,
    rear_port_position: 3,
  });
  const cable = async (x: object, y: object, extra = {}) =>
    post('/api/dcim/cables/', { a_terminations: [x], b_terminations: [y], ...extra });
  const c1 = await cable(ref('dcim.interface', a), ref('dcim.frontport', front1), { label: 'c1', color: 'aa1409' });
  const trunk = await cable(ref('dcim.rearport', rear1), ref('dcim.rearport', rear2));

  // half-built: the path stops at the far panel's front port
  const half = (await service.api('GET', `/api/dcim/interfaces/${a.id}/`)).body;
  t.is(half.connected_endpoints, null);
  t.false(half.connected_endpoints_reachable);
  const halfTrace = (await service.api('GET', `/api/dcim/interfaces/${a.id}/trace/`)).body;
  t.deepEqual(
    halfTrace.map((s: any[]) => [
      s[0].map((x: any) => x.display),
      Array.isArray(s[1]) ? s[1] : s[1].id,
      s[2].map((x: any) => x.display),
    ]),
    [
      [['eth0'], c1.id, ['F3']],
      [['R'], trunk.id, ['R']],
      [['F3'], [], []],
    ],
  );

  const c3 = await cable(ref('dcim.frontport', front2), ref('dcim.interface', b));
  const whole = (await service.api('GET', `/api/dcim/interfaces/${a.id}/`)).body;
  t.deepEqual(
    whole.connected_endpoints.map((x: any) => x.id),
    [b.id],
  );
  t.true(whole.connected_endpoints_reachable);
  t.deepEqual(
    whole.link_peers.map((x: any) => x.id),
    [front1.id],
  );
  t.is(whole.link_peers_type, 'dcim.frontport');
  const back = (await service.api('GET', `/api/dcim/interfaces/${b.id}/`)).body;
  t.deepEqual(
    back.connected_endpoints.map((x: any) => x.id),
    [a.id],
  );

  const trace = (await service.api('GET', `/api/dcim/interfaces/${a.id}/trace/`)).body;
  t.is(trace.length, 3);
  t.true(trace[0][1].url.endsWith(`/api/dcim/cables/${c1.id}/`));
  t.deepEqual(
    { ...trace[0][1], url: undefined },
    {
      id: c1.id,
      url: undefined,
      type: '',
      status: 'connected',
      label: 'c1',
      color: 'aa1409',
      length: null,
      length_unit: '',
      description: '',
    },
  );
  t.deepEqual(
    trace[2][2].map((x: any) => [x.id, x.device.name]),
    [[b.id, 'sw2']],
  );
  t.deepEqual(
    (await service.api('GET', `/api/dcim/interfaces/${b.id}/trace/`)).body.map((s: any[]) => s[1].id),
    [c3.id, trunk.id, c1.id],
  );

  const paths = (await service.api('GET', `/api/dcim/rear-ports/${rear1.id}/paths/`)).body;
  t.is(paths.length, 2);
  for (const path of paths) {
    t.true(path.is_complete);
    t.true(path.is_active);
    t.false(path.is_split);
    t.is(path.path.length, 9);
  }
  t.deepEqual((await service.api('GET', `/api/dcim/front-ports/${front2.id}/paths/`)).body.length, 2);
  t.deepEqual((await service.api('GET', `/api/dcim/interfaces/${sw1.id + 1000}/trace/`)).status, 404);
  t.deepEqual((await service.api('POST', `/api/dcim/interfaces/${a.id}/trace/`, {})).status, 405);
  const spare = await iface(sw1, 'eth9');
  t.deepEqual((await service.api('GET', `/api/dcim/interfaces/${spare.id}/trace/`)).body, []);
});

test('connected-device: the device at the far end of a peer interface, through patch panels', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const { post, rack1, device, iface, ref } = await seed(service);
  const [leaf, spine, panel] = [
    await device('leaf', rack1),
    await device('spine', rack1),
    await device('panel', rack1),
  ];
  const up = await iface(leaf, 'uplink');
  const down = await iface(spine, 'swp1');
  const rear = await post('/api/dcim/rear-ports/', { device: panel.id, name: 'R', type: 'lc' });
  const front = await post('/api/dcim/front-ports/', { device: panel.id, name: 'F', type: 'lc', rear_port: rear.id });
  await post('/api/dcim/cables/', {
    a_terminations: [ref('dcim.interface', up)],
    b_terminations: [ref('dcim.frontport', front)],
  });
  const ask = (query: string) => service.api('GET', `/api/dcim/connected-device/${query}`);
  t.deepEqual((await ask('?peer_device=leaf')).body, {
    detail: 'Request must include "peer_device" and "peer_interface" filters.',
  });
  t.is((await ask('?peer_device=leaf&peer_interface=uplink')).status, 404);
  await post('/api/dcim/cables/', {
    a_terminations: [ref('dcim.rearport', rear)],
    b_terminations: [ref('dcim.interface', down)],
  });
  const found = await ask('?peer_device=leaf&peer_interface=uplink');
  t.is(found.status, 200);
  t.is(found.body.name, 'spine');
  t.is(found.body.device_role.slug, 'switch');
  t.is((await ask('?peer_device=spine&peer_interface=swp1')).body.name, 'leaf');
  t.is((await ask('?peer_device=nope&peer_interface=swp1')).status, 404);
  t.truthy((await service.api('GET', '/api/dcim/')).body['connected-device']);
});

test('a circuit in the middle: interface to circuit A side, Z side to the far interface; /paths/ on a termination; a power feed traced to its port', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const { post, site, rack1, device, iface, ref } = await seed(service);
  const [ce1, ce2] = [await device('ce1', rack1), await device('ce2', rack1)];
  const [a, b] = [await iface(ce1, 'wan'), await iface(ce2, 'wan')];
  const provider = await post('/api/circuits/providers/', { name: 'Carrier', slug: 'carrier' });
  const kind = await post('/api/circuits/circuit-types/', { name: 'Transit', slug: 'transit' });
  const circuit = await post('/api/circuits/circuits/', { cid: 'CID-1', provider: provider.id, type: kind.id });
  const termA = await post('/api/circuits/circuit-terminations/', {
    circuit: circuit.id,
    term_side: 'A',
    site: site.id,
  });
  const termZ = await post('/api/circuits/circuit-terminations/', {
    circuit: circuit.id,
    term_side: 'Z',
    site: site.id,
  });
  await post('/api/dcim/cables/', {
    a_terminations: [ref('dcim.interface', a)],
    b_terminations: [ref('circuits.circuittermination', termA)],
  });
  const halfway = (await service.api('GET', `/api/dcim/interfaces/${a.id}/trace/`)).body;
  t.deepEqual(
    halfway.at(-1)[2].map((x: any) => x.slug),
    ['dc-1'],
    'an uncabled Z side ends the trace at its site',
  );
  t.deepEqual(halfway.at(-1)[1], []);
  await post('/api/dcim/cables/', {
    a_terminations: [ref('circuits.circuittermination', termZ)],
    b_terminations: [ref('dcim.interface', b)],
  });
  const through = (await service.api('GET', `/api/dcim/interfaces/${a.id}/`)).body;
  t.deepEqual(
    through.connected_endpoints.map((x: any) => x.id),
    [b.id],
  );
  t.true(through.connected_endpoints_reachable);
  const termination = (await service.api('GET', `/api/circuits/circuit-terminations/${termA.id}/`)).body;
  t.true(termination._occupied);
  t.is(termination.link_peers[0].id, a.id);
  const paths = (await service.api('GET', `/api/circuits/circuit-terminations/${termZ.id}/paths/`)).body;
  t.is(paths.length, 2);
  t.true(paths.every((p: any) => p.is_complete && p.path.length === 6));

  const panel = await post('/api/dcim/power-panels/', { site: site.id, name: 'PP1' });
  const feed = await post('/api/dcim/power-feeds/', { power_panel: panel.id, name: 'F1', rack: rack1.id });
  const psu = await post('/api/dcim/power-ports/', { device: ce1.id, name: 'PSU1' });
  await post('/api/dcim/cables/', {
    a_terminations: [ref('dcim.powerfeed', feed)],
    b_terminations: [ref('dcim.powerport', psu)],
  });
  const fed = (await service.api('GET', `/api/dcim/power-feeds/${feed.id}/`)).body;
  t.deepEqual(
    fed.connected_endpoints.map((x: any) => x.name),
    ['PSU1'],
  );
  t.deepEqual((await service.api('GET', `/api/dcim/power-feeds/${feed.id}/trace/`)).body.length, 1);
  t.deepEqual(
    (await service.api('GET', `/api/dcim/cables/?rack_id=${rack1.id}&termination_a_type=dcim.powerfeed`)).body.count,
    1,
  );
});

test('nested and brief forms give the cable as its id; the complete form nests it', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const { post, rack1, device, iface, ref } = await seed(service);
  const sw = await device('sw', rack1);
  const [a, b] = [await iface(sw, 'e0'), await iface(sw, 'e1')];
  const cable = await post('/api/dcim/cables/', {
    a_terminations: [ref('dcim.interface', a)],
    b_terminations: [ref('dcim.interface', b)],
    label: 'x',
  });
  const full = (await service.api('GET', `/api/dcim/interfaces/${a.id}/`)).body;
  t.deepEqual(Object.keys(full.cable).sort(), ['display', 'id', 'label', 'url']);
  t.is(full.link_peers[0].cable, cable.id);
  t.deepEqual(Object.keys(full.link_peers[0]), [
    'id',
    'url',
    'display',
    'device',
    'name',
    'cable',
    'connection_status',
    '_occupied',
  ]);
  const brief = (await service.api('GET', `/api/dcim/interfaces/${a.id}/?brief=1`)).body;
  t.is(brief.cable, cable.id);
  t.deepEqual(brief.connection_status, { value: true, label: 'Connected' });
  t.true(brief._occupied);
});
