import type { TestService } from './startService.js';

/** A realistic small registry: a device in a rack in a site, an interface, an address, a prefix and a VLAN. */
export async function seedInfrastructure(service: TestService) {
  const post = async (path: string, body: unknown) => {
    const response = await service.api('POST', path, body);
    if (response.status !== 201) throw new Error(`${path}: ${response.status} ${JSON.stringify(response.body)}`);
    return response.body;
  };
  const tenantGroup = await post('/api/tenancy/tenant-groups/', { name: 'Customers', slug: 'customers' });
  const tenant = await post('/api/tenancy/tenants/', { name: 'Acme', slug: 'acme', group: tenantGroup.id });
  const region = await post('/api/dcim/regions/', { name: 'Europe', slug: 'europe' });
  const siteGroup = await post('/api/dcim/site-groups/', { name: 'Core sites', slug: 'core-sites' });
  const site = await post('/api/dcim/sites/', {
    name: 'DC-1',
    slug: 'dc-1',
    region: region.id,
    group: siteGroup.id,
    tenant: tenant.id,
  });
  const location = await post('/api/dcim/locations/', { name: 'Hall A', slug: 'hall-a', site: site.id });
  const rackRole = await post('/api/dcim/rack-roles/', { name: 'Network', slug: 'network', color: '2196f3' });
  const rack = await post('/api/dcim/racks/', { name: 'R1', site: site.id, location: location.id, role: rackRole.id });
  const manufacturer = await post('/api/dcim/manufacturers/', { name: 'Juniper', slug: 'juniper' });
  // a parent type, so that the device may have device bays
  const deviceType = await post('/api/dcim/device-types/', {
    manufacturer: manufacturer.id,
    model: 'MX204',
    slug: 'mx204',
    subdevice_role: 'parent',
  });
  const deviceRole = await post('/api/dcim/device-roles/', { name: 'Router', slug: 'router', color: 'ff0000' });
  const platform = await post('/api/dcim/platforms/', { name: 'Junos', slug: 'junos', manufacturer: manufacturer.id });
  const device = await post('/api/dcim/devices/', {
    name: 'edge1',
    device_type: deviceType.id,
    device_role: deviceRole.id,
    platform: platform.id,
    site: site.id,
    location: location.id,
    rack: rack.id,
  });
  const iface = await post('/api/dcim/interfaces/', { device: device.id, name: 'et-0/0/0', type: '100gbase-x-qsfp28' });
  const vrf = await post('/api/ipam/vrfs/', { name: 'Internet', rd: '65000:1' });
  const rir = await post('/api/ipam/rirs/', { name: 'RIPE', slug: 'ripe' });
  const aggregate = await post('/api/ipam/aggregates/', { prefix: '192.0.2.0/24', rir: rir.id });
  const role = await post('/api/ipam/roles/', { name: 'Transit', slug: 'transit' });
  const vlanGroup = await post('/api/ipam/vlan-groups/', { name: 'DC-1 VLANs', slug: 'dc-1-vlans' });
  const vlan = await post('/api/ipam/vlans/', { vid: 100, name: 'servers', group: vlanGroup.id, role: role.id });
  const prefix = await post('/api/ipam/prefixes/', {
    prefix: '192.0.2.0/25',
    site: site.id,
    vrf: vrf.id,
    vlan: vlan.id,
    role: role.id,
  });
  const address = await post('/api/ipam/ip-addresses/', {
    address: '192.0.2.1/25',
    vrf: vrf.id,
    assigned_object_type: 'dcim.interface',
    assigned_object_id: iface.id,
  });
  const provider = await post('/api/circuits/providers/', { name: 'Transit Co', slug: 'transit-co' });
  const circuitType = await post('/api/circuits/circuit-types/', { name: 'Internet', slug: 'internet' });
  const circuit = await post('/api/circuits/circuits/', {
    cid: 'TC-1001',
    provider: provider.id,
    type: circuitType.id,
  });
  const tag = await post('/api/extras/tags/', { name: 'Production', slug: 'production', color: '4caf50' });
  return {
    tenantGroup,
    tenant,
    region,
    siteGroup,
    site,
    location,
    rackRole,
    rack,
    manufacturer,
    deviceType,
    deviceRole,
    platform,
    device,
    iface,
    vrf,
    rir,
    aggregate,
    role,
    vlanGroup,
    vlan,
    prefix,
    address,
    provider,
    circuitType,
    circuit,
    tag,
  };
}
