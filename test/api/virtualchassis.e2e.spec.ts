import test from 'ava';

import { ids, list, post } from '../support/expectResponses.js';
import { startService, type TestService } from '../support/startService.js';

/** Two sites; a stack of sw1 (master) and sw2 at DC-1 for tenant Acme; sw3 alone at DC-2, each with an interface. */
async function stackEstate(service: TestService) {
  const region = await post(service, '/api/dcim/regions/', { name: 'Europe', slug: 'europe' });
  const tenant = await post(service, '/api/tenancy/tenants/', { name: 'Acme', slug: 'acme' });
  const site = await post(service, '/api/dcim/sites/', { name: 'DC-1', slug: 'dc-1', region: region.id });
  const otherSite = await post(service, '/api/dcim/sites/', { name: 'DC-2', slug: 'dc-2' });
  const manufacturer = await post(service, '/api/dcim/manufacturers/', { name: 'Juniper', slug: 'juniper' });
  const type = await post(service, '/api/dcim/device-types/', {
    manufacturer: manufacturer.id,
    model: 'EX4300',
    slug: 'ex4300',
  });
  const role = await post(service, '/api/dcim/device-roles/', { name: 'Switch', slug: 'switch', color: '00ff00' });
  const device = (name: string, siteId: number) =>
    post(service, '/api/dcim/devices/', {
      name,
      device_type: type.id,
      device_role: role.id,
      site: siteId,
      tenant: tenant.id,
    });
  const sw1 = await device('sw1', site.id);
  const sw2 = await device('sw2', site.id);
  const sw3 = await device('sw3', otherSite.id);
  const stack = await post(service, '/api/dcim/virtual-chassis/', {
    name: 'stack',
    domain: 'stack.example',
    master: sw1.id,
  });
  const joined = await service.api('PATCH', `/api/dcim/devices/${sw2.id}/`, {
    virtual_chassis: stack.id,
    vc_position: 2,
    vc_priority: 10,
  });
  if (joined.status !== 200) throw new Error(JSON.stringify(joined.body));
  const lonely = await post(service, '/api/dcim/virtual-chassis/', { name: 'lonely' });
  const eth = await Promise.all(
    [sw1, sw2, sw3].map((d) =>
      post(service, '/api/dcim/interfaces/', { device: d.id, name: 'ge-0/0/0', type: '1000base-t' }),
    ),
  );
  return { region, tenant, site, otherSite, sw1, sw2, sw3, stack, lonely, eth };
}

test('a chassis created with a master shows it, counts its members and is shown on them', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const e = await stackEstate(service);
  t.false('member_count' in e.stack, 'no count in the create response');
  t.deepEqual(e.stack.master, {
    id: e.sw1.id,
    url: `${service.url}/api/dcim/devices/${e.sw1.id}/`,
    display: 'sw1',
    display_name: 'sw1',
    name: 'sw1',
  });
  const read = (await service.api('GET', `/api/dcim/virtual-chassis/${e.stack.id}/`)).body;
  t.like(read, {
    name: 'stack',
    display: 'stack',
    domain: 'stack.example',
    member_count: 2,
    description: '',
    comments: '',
  });
  t.deepEqual(Object.keys(read), [
    'id',
    'url',
    'display',
    'name',
    'domain',
    'master',
    'description',
    'comments',
    'tags',
    'custom_fields',
    'member_count',
    'created',
    'last_updated',
  ]);
  const brief = (await service.api('GET', `/api/dcim/virtual-chassis/${e.stack.id}/?brief=1`)).body;
  t.deepEqual(Object.keys(brief), ['id', 'url', 'display', 'name', 'master', 'member_count']);
  const sw1 = (await service.api('GET', `/api/dcim/devices/${e.sw1.id}/`)).body;
  t.like(sw1, { vc_position: 1, vc_priority: null });
  t.deepEqual(sw1.virtual_chassis, {
    id: e.stack.id,
    url: `${service.url}/api/dcim/virtual-chassis/${e.stack.id}/`,
    display: 'stack',
    name: 'stack',
    master: e.stack.master,
  });
  t.deepEqual(
    (await list(service, '/api/dcim/virtual-chassis/')).map((c) => [c.name, c.member_count]),
    [
      ['lonely', 0],
      ['stack', 2],
    ],
  );
});

test('chassis, devices and interfaces filter by chassis', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const e = await stackEstate(service);
  const chassis = '/api/dcim/virtual-chassis/';
  t.deepEqual(ids(await list(service, `${chassis}?master_id=${e.sw1.id}`)), [e.stack.id]);
  t.deepEqual(ids(await list(service, `${chassis}?master=sw1`)), [e.stack.id]);
  t.deepEqual(ids(await list(service, `${chassis}?site=dc-1`)), [e.stack.id]);
  t.deepEqual(ids(await list(service, `${chassis}?site_id=${e.otherSite.id}`)), []);
  t.deepEqual(ids(await list(service, `${chassis}?region=europe`)), [e.stack.id]);
  t.deepEqual(ids(await list(service, `${chassis}?tenant=acme`)), [e.stack.id]);
  t.deepEqual(ids(await list(service, `${chassis}?q=SW2`)), [e.stack.id], "q finds a chassis by a member's name");
  t.deepEqual(ids(await list(service, `${chassis}?q=example`)), [e.stack.id], 'and by its domain');
  t.deepEqual(ids(await list(service, `${chassis}?domain__ic=STACK`)), [e.stack.id]);
  t.deepEqual(ids(await list(service, `${chassis}?master_id=null`)), [e.lonely.id]);

  const devices = '/api/dcim/devices/';
  t.deepEqual(ids(await list(service, `${devices}?virtual_chassis_id=${e.stack.id}`)), [e.sw1.id, e.sw2.id]);
  t.deepEqual(ids(await list(service, `${devices}?virtual_chassis_id=null`)), [e.sw3.id]);
  t.deepEqual(ids(await list(service, `${devices}?virtual_chassis_member=true`)), [e.sw1.id, e.sw2.id]);
  t.deepEqual(ids(await list(service, `${devices}?virtual_chassis_member=false`)), [e.sw3.id]);
  t.deepEqual(ids(await list(service, `${devices}?vc_position__gte=2`)), [e.sw2.id]);
  t.is((await service.api('GET', `${devices}?virtual_chassis_id=999`)).status, 400);
  t.deepEqual(
    ids(await list(service, `${devices}?virtual_chassis=stack`)),
    [e.sw1.id, e.sw2.id, e.sw3.id],
    'devices have no virtual_chassis filter: ignored',
  );

  const interfaces = '/api/dcim/interfaces/';
  t.deepEqual(ids(await list(service, `${interfaces}?virtual_chassis_id=${e.stack.id}`)), [e.eth[0].id, e.eth[1].id]);
  t.deepEqual(ids(await list(service, `${interfaces}?virtual_chassis=stack`)), [e.eth[0].id, e.eth[1].id]);
  t.deepEqual(ids(await list(service, `${interfaces}?virtual_chassis_id__n=${e.stack.id}`)), [e.eth[2].id]);
});

test("the chassis rules answer with NetBox's messages; deleting it frees its members", async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const e = await stackEstate(service);
  const detail = `/api/dcim/virtual-chassis/${e.stack.id}/`;
  const notMember = await service.api('PATCH', detail, { master: e.sw3.id });
  t.is(notMember.status, 400);
  t.deepEqual(notMember.body, { master: ['The selected master (sw3) is not assigned to this virtual chassis.'] });
  t.is((await service.api('PATCH', detail, { master: e.sw2.id })).status, 200);

  const masterDelete = await service.api('DELETE', `/api/dcim/devices/${e.sw2.id}/`);
  t.is(masterDelete.status, 409);
  t.deepEqual(masterDelete.body, {
    detail: `Unable to delete object. 1 dependent objects were found: stack (${e.stack.id})`,
  });

  const unplaced = await service.api('PATCH', `/api/dcim/devices/${e.sw3.id}/`, { virtual_chassis: e.stack.id });
  t.deepEqual(unplaced.body, {
    vc_position: ['A device assigned to a virtual chassis must have its position defined.'],
  });

  const lag = await post(service, '/api/dcim/interfaces/', { device: e.sw1.id, name: 'ae0', type: 'lag' });
  const crossLag = await service.api('PATCH', `/api/dcim/interfaces/${e.eth[1].id}/`, { lag: lag.id });
  t.is(crossLag.status, 200, 'a LAG may span the chassis');
  const outside = await service.api('PATCH', `/api/dcim/interfaces/${e.eth[2].id}/`, { lag: lag.id });
  t.deepEqual(outside.body, { lag: ['The selected LAG interface (ae0) belongs to a different device (sw1).'] });
  const held = await service.api('DELETE', detail);
  t.is(held.status, 409);
  t.deepEqual(held.body, {
    detail: `Unable to delete object. 1 dependent objects were found: ge-0/0/0 (${e.eth[1].id})`,
  });

  t.is((await service.api('PATCH', `/api/dcim/interfaces/${e.eth[1].id}/`, { lag: null })).status, 200);
  t.is((await service.api('DELETE', detail)).status, 204);
  for (const member of [e.sw1, e.sw2]) {
    t.like((await service.api('GET', `/api/dcim/devices/${member.id}/`)).body, {
      virtual_chassis: null,
      vc_position: null,
      vc_priority: null,
    });
  }
  t.deepEqual(ids(await list(service, '/api/dcim/devices/?virtual_chassis_member=true')), []);
});

test("interfaces by device: a member's id brings the chassis' non-management interfaces, the master's name too, another member's name only its own", async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const site = await post(service, '/api/dcim/sites/', { name: 'DC-9', slug: 'dc-9' });
  const maker = await post(service, '/api/dcim/manufacturers/', { name: 'Stackers', slug: 'stackers' });
  const type = await post(service, '/api/dcim/device-types/', {
    manufacturer: maker.id,
    model: 'Stack',
    slug: 'stack',
  });
  const role = await post(service, '/api/dcim/device-roles/', { name: 'Access', slug: 'access' });
  const device = (name: string) =>
    post(service, '/api/dcim/devices/', { name, device_type: type.id, device_role: role.id, site: site.id });
  const [m1, m2] = [await device('m1'), await device('m2')];
  const chassis = await post(service, '/api/dcim/virtual-chassis/', { name: 'stack', master: m1.id });
  t.is(
    (await service.api('PATCH', `/api/dcim/devices/${m2.id}/`, { virtual_chassis: chassis.id, vc_position: 2 })).status,
    200,
  );
  const iface = (dev: { id: number }, name: string, mgmt = false) =>
    post(service, '/api/dcim/interfaces/', { device: dev.id, name, type: '1000base-t', mgmt_only: mgmt });
  const [a, , c] = [
    await iface(m1, 'ge-1/0/0'),
    await iface(m1, 'mgmt0', true),
    await iface(m2, 'ge-2/0/0'),
    await iface(m2, 'mgmt1', true),
  ];
  const names = async (query: string) =>
    (await list(service, `/api/dcim/interfaces/?${query}`)).map((i: { name: string }) => i.name).sort();
  t.deepEqual(await names(`device_id=${m2.id}`), ['ge-1/0/0', 'ge-2/0/0', 'mgmt1']);
  t.deepEqual(await names('device=m1'), ['ge-1/0/0', 'ge-2/0/0', 'mgmt0']);
  t.deepEqual(await names('device=m2'), ['ge-2/0/0', 'mgmt1']);
  t.true(a.id < c.id);
});

/**
 * NetBox 3.4's filters that select a device's `vc_interfaces` (dcim/filtersets.py, ipam/filtersets.py):
 * interfaces by `device_id` (any member: `if_master=False`) and by `device` (master only), IP addresses
 * and FHRP group assignments by `device` and `device_id` (master only). `vc_interfaces` is the device's
 * own interfaces plus, for the chassis it may speak for, the other members' non-management ones.
 */
const VC_FILTERS: Array<{
  list: string;
  param: 'device' | 'device_id';
  anyMember: boolean;
  ifaceOf: (o: Record<string, any>) => number;
}> = [
  { list: '/api/dcim/interfaces/', param: 'device_id', anyMember: true, ifaceOf: (o) => o.id },
  { list: '/api/dcim/interfaces/', param: 'device', anyMember: false, ifaceOf: (o) => o.id },
  { list: '/api/ipam/ip-addresses/', param: 'device_id', anyMember: false, ifaceOf: (o) => o.assigned_object_id },
  { list: '/api/ipam/ip-addresses/', param: 'device', anyMember: false, ifaceOf: (o) => o.assigned_object_id },
  { list: '/api/ipam/fhrp-group-assignments/', param: 'device_id', anyMember: false, ifaceOf: (o) => o.interface_id },
  { list: '/api/ipam/fhrp-group-assignments/', param: 'device', anyMember: false, ifaceOf: (o) => o.interface_id },
];

test('interfaces, IP addresses and FHRP assignments by device select its vc_interfaces, as NetBox 3.4 does; services by device only its own', async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const site = await post(service, '/api/dcim/sites/', { name: 'DC-7', slug: 'dc-7' });
  const maker = await post(service, '/api/dcim/manufacturers/', { name: 'Stackers', slug: 'stackers' });
  const type = await post(service, '/api/dcim/device-types/', {
    manufacturer: maker.id,
    model: 'Stack',
    slug: 'stack',
  });
  const role = await post(service, '/api/dcim/device-roles/', { name: 'Access', slug: 'access' });
  const device = (name: string) =>
    post(service, '/api/dcim/devices/', { name, device_type: type.id, device_role: role.id, site: site.id });
  const [master, member, alone] = [await device('master'), await device('member'), await device('alone')];
  const chassis = await post(service, '/api/dcim/virtual-chassis/', { name: 'vc', master: master.id });
  t.is(
    (await service.api('PATCH', `/api/dcim/devices/${member.id}/`, { virtual_chassis: chassis.id, vc_position: 2 }))
      .status,
    200,
  );
  const group = await post(service, '/api/ipam/fhrp-groups/', { protocol: 'vrrp2', group_id: 1 });
  const interfaces: Array<{ id: number; device: number; mgmt: boolean }> = [];
  let host = 1;
  for (const dev of [master, member, alone]) {
    for (const mgmt of [false, true]) {
      const iface = await post(service, '/api/dcim/interfaces/', {
        device: dev.id,
        name: mgmt ? 'mgmt0' : 'ge-0/0/0',
        type: '1000base-t',
        mgmt_only: mgmt,
      });
      interfaces.push({ id: iface.id, device: dev.id, mgmt });
      await post(service, '/api/ipam/ip-addresses/', {
        address: `192.0.2.${host++}/24`,
        assigned_object_type: 'dcim.interface',
        assigned_object_id: iface.id,
      });
      await post(service, '/api/ipam/fhrp-group-assignments/', {
        group: group.id,
        interface_type: 'dcim.interface',
        interface_id: iface.id,
        priority: 100,
      });
    }
  }
  const members = new Set([master.id, member.id]);
  /** Device.vc_interfaces(if_master) of NetBox 3.4. */
  const vcInterfaces = (dev: { id: number }, anyMember: boolean) => {
    const speaksForChassis = members.has(dev.id) && (dev.id === master.id || anyMember);
    return interfaces
      .filter((i) => i.device === dev.id || (speaksForChassis && members.has(i.device) && !i.mgmt))
      .map((i) => i.id)
      .sort();
  };
  for (const rule of VC_FILTERS) {
    for (const dev of [master, member, alone]) {
      const value = rule.param === 'device' ? dev.name : dev.id;
      const found = (await list(service, `${rule.list}?${rule.param}=${value}`)).map(rule.ifaceOf).sort();
      t.deepEqual(found, vcInterfaces(dev, rule.anyMember), `${rule.list}?${rule.param}=${dev.name}`);
    }
  }
  // NetBox 3.4's other filters by device read the object's own device: a service of a member is not the master's
  const services = new Map<number, number>();
  for (const dev of [master, member, alone])
    services.set(
      dev.id,
      (await post(service, '/api/ipam/services/', { device: dev.id, name: 'ssh', protocol: 'tcp', ports: [22] })).id,
    );
  for (const dev of [master, member, alone]) {
    t.deepEqual(
      ids(await list(service, `/api/ipam/services/?device_id=${dev.id}`)),
      [services.get(dev.id)],
      `services of ${dev.name}`,
    );
    t.deepEqual(
      ids(await list(service, `/api/ipam/services/?device=${dev.name}`)),
      [services.get(dev.id)],
      `services of ${dev.name}`,
    );
  }
  const both = (await list(service, `/api/ipam/ip-addresses/?device_id=${master.id}&device_id=${alone.id}`))
    .map((a) => a.assigned_object_id)
    .sort();
  t.deepEqual(
    both,
    [...new Set([...vcInterfaces(master, false), ...vcInterfaces(alone, false)])].sort(),
    'several devices: the union',
  );
});

test("a chassis' interfaces come back by device name, then interface name, as NetBox orders them (not by device id)", async (t) => {
  const service = await startService();
  t.teardown(() => service.close());
  const site = await post(service, '/api/dcim/sites/', { name: 'DC-8', slug: 'dc-8' });
  const maker = await post(service, '/api/dcim/manufacturers/', { name: 'Stackers', slug: 'stackers' });
  const type = await post(service, '/api/dcim/device-types/', {
    manufacturer: maker.id,
    model: 'Stack',
    slug: 'stack',
  });
  const role = await post(service, '/api/dcim/device-roles/', { name: 'Access', slug: 'access' });
  const device = (name: string) =>
    post(service, '/api/dcim/devices/', { name, device_type: type.id, device_role: role.id, site: site.id });
  // created in the order their names sort against
  const [sw10, sw2] = [await device('sw10'), await device('sw2')];
  const chassis = await post(service, '/api/dcim/virtual-chassis/', { name: 'vc', master: sw10.id });
  t.is(
    (await service.api('PATCH', `/api/dcim/devices/${sw2.id}/`, { virtual_chassis: chassis.id, vc_position: 2 }))
      .status,
    200,
  );
  for (const dev of [sw10, sw2])
    for (const name of ['ge-0/0/10', 'ge-0/0/2'])
      await post(service, '/api/dcim/interfaces/', { device: dev.id, name, type: '1000base-t' });
  const shown = (await list(service, `/api/dcim/interfaces/?device_id=${sw10.id}`)).map(
    (i: { device: { name: string }; name: string }) => `${i.device.name} ${i.name}`,
  );
  t.deepEqual(shown, ['sw2 ge-0/0/2', 'sw2 ge-0/0/10', 'sw10 ge-0/0/2', 'sw10 ge-0/0/10']);
  await service.api('PATCH', `/api/dcim/devices/${sw2.id}/`, { name: 'sw20' });
  const renamed = (await list(service, `/api/dcim/interfaces/?device_id=${sw10.id}`)).map(
    (i: { device: { name: string }; name: string }) => `${i.device.name} ${i.name}`,
  );
  t.deepEqual(
    renamed,
    ['sw10 ge-0/0/2', 'sw10 ge-0/0/10', 'sw20 ge-0/0/2', 'sw20 ge-0/0/10'],
    'a renamed device moves its interfaces',
  );
});
