/**
 * Ansible's dynamic inventory from the registry: the netbox.netbox collection's
 * nb_inventory plugin (`ansible-inventory --list`), which reads /api/status/ and NetBox
 * 3.4's Swagger 2.0 document before listing devices and virtual machines. Skipped (with a
 * message) where Ansible or the collection is missing.
 */
import test from 'ava';

import { ansibleAvailability } from '../support/ansible.js';
import { type InventoryRun, inventoryRunner } from '../support/ansibleInventory.js';
import { startService, type TestService } from '../support/startService.js';

interface Requested {
  method: string;
  path: string;
  status: number;
}

/** A small estate: two sites, racks, roles, platforms, tenants, tags, four devices (one decommissioning, two with a primary IPv4) and a VM in a cluster. */
async function populate(service: TestService) {
  const create = async (path: string, body: Record<string, unknown>) => {
    const response = await service.api('POST', path, body);
    if (response.status !== 201) throw new Error(`${path}: ${response.status} ${JSON.stringify(response.body)}`);
    return response.body.id as number;
  };
  const ams = await create('/api/dcim/sites/', { name: 'Amsterdam', slug: 'ams' });
  const fra = await create('/api/dcim/sites/', { name: 'Frankfurt', slug: 'fra' });
  const rack = await create('/api/dcim/racks/', { name: 'R1', site: ams });
  const router = await create('/api/dcim/device-roles/', { name: 'Router', slug: 'router', color: 'ff0000' });
  const server = await create('/api/dcim/device-roles/', {
    name: 'Server',
    slug: 'server',
    color: '00ff00',
    vm_role: true,
  });
  const junos = await create('/api/dcim/platforms/', { name: 'Junos', slug: 'junos' });
  const linux = await create('/api/dcim/platforms/', { name: 'Linux', slug: 'linux' });
  const acme = await create('/api/tenancy/tenants/', { name: 'Acme', slug: 'acme' });
  await create('/api/extras/tags/', { name: 'Edge', slug: 'edge' });
  await create('/api/extras/tags/', { name: 'Backup', slug: 'backup' });
  const vendor = await create('/api/dcim/manufacturers/', { name: 'Juniper', slug: 'juniper' });
  const model = await create('/api/dcim/device-types/', { manufacturer: vendor, model: 'MX204', slug: 'mx204' });
  const device = (name: string, fields: Record<string, unknown>) =>
    create('/api/dcim/devices/', { name, device_type: model, ...fields });
  const edge1 = await device('edge1', {
    site: ams,
    rack,
    device_role: router,
    platform: junos,
    tenant: acme,
    status: 'active',
    tags: [{ slug: 'edge' }],
  });
  const edge2 = await device('edge2', {
    site: fra,
    device_role: router,
    platform: junos,
    status: 'planned',
    tags: [{ slug: 'edge' }, { slug: 'backup' }],
  });
  await device('srv1', { site: ams, rack, device_role: server, platform: linux, tenant: acme, status: 'offline' });
  await device('old1', { site: fra, device_role: router, status: 'decommissioning' });
  for (const [id, address] of [
    [edge1, '192.0.2.1/24'],
    [edge2, '198.51.100.7/25'],
  ] as const) {
    const iface = await create('/api/dcim/interfaces/', { device: id, name: 'lo0', type: 'virtual' });
    const ip = await create('/api/ipam/ip-addresses/', {
      address,
      assigned_object_type: 'dcim.interface',
      assigned_object_id: iface,
    });
    const patched = await service.api('PATCH', `/api/dcim/devices/${id}/`, { primary_ip4: ip });
    if (patched.status !== 200) throw new Error(`primary_ip4: ${patched.status} ${JSON.stringify(patched.body)}`);
  }
  await create('/api/ipam/services/', { device: edge1, name: 'ssh', protocol: 'tcp', ports: [22] });
  const kvm = await create('/api/virtualization/cluster-types/', { name: 'KVM', slug: 'kvm' });
  const cluster = await create('/api/virtualization/clusters/', { name: 'ams-kvm', type: kvm, site: ams });
  const vm = await create('/api/virtualization/virtual-machines/', {
    name: 'vm1',
    cluster,
    role: server,
    platform: linux,
    tenant: acme,
    status: 'active',
    tags: [{ slug: 'backup' }],
  });
  const eth0 = await create('/api/virtualization/interfaces/', { virtual_machine: vm, name: 'eth0' });
  const vmIp = await create('/api/ipam/ip-addresses/', {
    address: '203.0.113.10/24',
    assigned_object_type: 'virtualization.vminterface',
    assigned_object_id: eth0,
  });
  const patched = await service.api('PATCH', `/api/virtualization/virtual-machines/${vm}/`, { primary_ip4: vmIp });
  if (patched.status !== 200) throw new Error(`VM primary_ip4: ${patched.status} ${JSON.stringify(patched.body)}`);
  await create('/api/ipam/services/', { virtual_machine: vm, name: 'https', protocol: 'tcp', ports: [443, 8443] });
}

/**
 * A stack of two switches: master stack1 (a loopback without an address) and member stack2,
 * whose ge-0/0/0 holds the master's primary IPv4, as on a stack managed through a member's
 * port. The plugin lists the chassis as its master with every member's interfaces and, without
 * fetch_all, asks for the addresses of the master alone (`ip-addresses/?device_id=<master>`):
 * NetBox 3.4 answers with its vc_interfaces' addresses, the member's included.
 */
async function populateStack(service: TestService) {
  const create = async (path: string, body: Record<string, unknown>) => {
    const response = await service.api('POST', path, body);
    if (response.status !== 201) throw new Error(`${path}: ${response.status} ${JSON.stringify(response.body)}`);
    return response.body.id as number;
  };
  const site = await create('/api/dcim/sites/', { name: 'Berlin', slug: 'ber' });
  const role = await create('/api/dcim/device-roles/', { name: 'Access', slug: 'access', color: '0000ff' });
  const vendor = await create('/api/dcim/manufacturers/', { name: 'Juniper', slug: 'juniper' });
  const model = await create('/api/dcim/device-types/', { manufacturer: vendor, model: 'EX4300', slug: 'ex4300' });
  const device = (name: string) => create('/api/dcim/devices/', { name, device_type: model, device_role: role, site });
  const [master, member] = [await device('stack1'), await device('stack2')];
  const chassis = await create('/api/dcim/virtual-chassis/', { name: 'stack', master });
  const joined = await service.api('PATCH', `/api/dcim/devices/${member}/`, {
    virtual_chassis: chassis,
    vc_position: 2,
  });
  if (joined.status !== 200) throw new Error(`member: ${joined.status} ${JSON.stringify(joined.body)}`);
  await create('/api/dcim/interfaces/', { device: master, name: 'lo0', type: 'virtual' });
  const port = await create('/api/dcim/interfaces/', { device: member, name: 'ge-0/0/0', type: '1000base-t' });
  const ip = await create('/api/ipam/ip-addresses/', {
    address: '192.0.2.50/24',
    assigned_object_type: 'dcim.interface',
    assigned_object_id: port,
  });
  const patched = await service.api('PATCH', `/api/dcim/devices/${master}/`, { primary_ip4: ip });
  if (patched.status !== 200) throw new Error(`primary_ip4: ${patched.status} ${JSON.stringify(patched.body)}`);
}

/** The inventory's groups (without Ansible's own `all` and `ungrouped`) with their sorted hosts. */
function groups(run: InventoryRun): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [name, group] of Object.entries<any>(run.inventory)) {
    if (name === '_meta' || name === 'all' || name === 'ungrouped') continue;
    out[name] = [...(group.hosts ?? [])].sort();
  }
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => a.localeCompare(b)));
}

const OPTIONS = {
  validate_certs: false,
  config_context: false,
  services: true,
  interfaces: true,
  racks: true,
  group_by: ['sites', 'device_roles', 'platforms', 'tenants', 'racks', 'tags', 'status'],
  // names the plugin checks against the list parameters of the schema document
  device_query_filters: [{ status__n: 'decommissioning' }, { no_such_filter: 'x' }],
  vm_query_filters: [{ cluster: 'ams-kvm' }],
};

const availability = ansibleAvailability();
if (availability.skipReason !== null) {
  test.skip(`Ansible nb_inventory (skipped: ${availability.skipReason})`, () => {});
} else {
  test.serial(
    `netbox.netbox ${availability.version}: nb_inventory groups devices and VMs by site, role, platform, tenant, rack, tag and status, ansible_host from primary_ip4, services per host; the second run is the same`,
    async (t) => {
      t.timeout(600_000);
      const requested: Requested[] = [];
      const service = await startService({}, undefined, {
        logger: (entry) => {
          if (typeof entry.path === 'string' && typeof entry.status === 'number')
            requested.push({ method: String(entry.method), path: entry.path, status: entry.status });
        },
      });
      const runner = inventoryRunner(service);
      t.teardown(async () => {
        runner.close();
        await service.close();
      });
      await populate(service);
      requested.length = 0;

      const first = await runner.list(OPTIONS);
      t.is(first.code, 0, first.stderr);
      t.deepEqual(groups(first), {
        device_roles_router: ['edge1', 'edge2'],
        device_roles_server: ['srv1', 'vm1'],
        platforms_junos: ['edge1', 'edge2'],
        platforms_linux: ['srv1', 'vm1'],
        racks_R1: ['edge1', 'srv1'],
        sites_ams: ['edge1', 'srv1', 'vm1'],
        sites_fra: ['edge2'],
        status_active: ['edge1', 'vm1'],
        status_offline: ['srv1'],
        status_planned: ['edge2'],
        tags_backup: ['edge2', 'vm1'],
        tags_edge: ['edge1', 'edge2'],
        tenants_acme: ['edge1', 'srv1', 'vm1'],
      });
      const hostvars = first.inventory._meta.hostvars;
      t.deepEqual(Object.keys(hostvars).sort(), ['edge1', 'edge2', 'srv1', 'vm1']);
      t.is(hostvars.edge1.ansible_host, '192.0.2.1');
      t.is(hostvars.edge2.ansible_host, '198.51.100.7');
      t.is(hostvars.vm1.ansible_host, '203.0.113.10');
      t.false('ansible_host' in hostvars.srv1);
      t.is(hostvars.vm1.is_virtual, true);
      t.is(hostvars.vm1.cluster, 'ams-kvm');
      t.deepEqual(
        hostvars.edge1.interfaces.map((i: { name: string }) => i.name),
        ['lo0'],
      );
      t.deepEqual(
        hostvars.edge1.interfaces[0].ip_addresses.map((ip: { address: string }) => ip.address),
        ['192.0.2.1/24'],
      );
      const services = (host: string) =>
        hostvars[host].services.map((s: { name: string; ports: number[] }) => `${s.name}:${s.ports.join(',')}`);
      t.deepEqual(services('edge1'), ['ssh:22']);
      t.deepEqual(services('vm1'), ['https:443,8443']);
      t.deepEqual(services('srv1'), []);
      // the unknown filter is warned about and left out; the known one reached the service
      t.regex(first.stderr, /no_such_filter not in/);

      // The plugin keeps the document while info.version equals the API version of /api/status/.
      const kept = runner.keptSchema();
      t.is(kept?.swagger, '2.0');
      t.is(kept?.info.version, '3.4');
      t.is(requested.filter((r) => r.path === '/api/docs/').length, 1);

      const second = await runner.list(OPTIONS);
      t.is(second.code, 0, second.stderr);
      t.true(second.stdout === first.stdout, 'the second run lists the same inventory');
      t.is(requested.filter((r) => r.path === '/api/docs/').length, 1, 'the second run used its kept document');

      // Without fetch_all the plugin asks for interfaces and addresses of the hosts it listed (device_id, virtual_machine_id, assigned_to_interface filters).
      const chunked = await runner.list({ ...OPTIONS, fetch_all: false });
      t.is(chunked.code, 0, chunked.stderr);
      t.deepEqual(groups(chunked), groups(first));
      t.deepEqual(chunked.inventory._meta.hostvars, hostvars);

      const refused = requested.filter((r) => r.status >= 400).map((r) => `${r.method} ${r.path} ${r.status}`);
      t.deepEqual(refused, []);
      t.log(`requests: ${[...new Set(requested.map((r) => `${r.method} ${r.path} ${r.status}`))].join(', ')}`);
    },
  );

  test.serial(
    `netbox.netbox ${availability.version}: nb_inventory lists a virtual chassis as its master, with the member's interface and the address on it, with and without fetch_all`,
    async (t) => {
      t.timeout(600_000);
      const requested: Requested[] = [];
      const service = await startService({}, undefined, {
        logger: (entry) => {
          if (typeof entry.path === 'string' && typeof entry.status === 'number')
            requested.push({ method: String(entry.method), path: entry.path, status: entry.status });
        },
      });
      const runner = inventoryRunner(service);
      t.teardown(async () => {
        runner.close();
        await service.close();
      });
      await populateStack(service);
      requested.length = 0;
      const options = { validate_certs: false, config_context: false, interfaces: true, group_by: ['sites'] };
      const runs = { all: await runner.list(options), chunked: await runner.list({ ...options, fetch_all: false }) };
      for (const [name, run] of Object.entries(runs)) {
        t.is(run.code, 0, `${name}: ${run.stderr}`);
        const hostvars = run.inventory._meta?.hostvars ?? {};
        t.deepEqual(Object.keys(hostvars), ['stack1'], `${name}: the member is listed through its master`);
        t.is(hostvars.stack1?.ansible_host, '192.0.2.50', name);
        const addresses = Object.fromEntries(
          (hostvars.stack1?.interfaces ?? []).map((i: { name: string; ip_addresses: Array<{ address: string }> }) => [
            i.name,
            i.ip_addresses.map((a) => a.address),
          ]),
        );
        t.deepEqual(addresses, { lo0: [], 'ge-0/0/0': ['192.0.2.50/24'] }, name);
      }
      t.deepEqual(runs.chunked.inventory._meta.hostvars, runs.all.inventory._meta.hostvars);
      t.true(
        requested.some((r) => r.path === '/api/ipam/ip-addresses/'),
        'the addresses were asked for (by device_id without fetch_all)',
      );
      t.deepEqual(
        requested.filter((r) => r.status >= 400).map((r) => `${r.method} ${r.path} ${r.status}`),
        [],
      );
    },
  );
}
