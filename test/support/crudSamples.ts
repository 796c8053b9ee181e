import type { seedInfrastructure } from './fixtures.js';

type Seeded = Awaited<ReturnType<typeof seedInfrastructure>>;

/** How the CRUD test makes and changes one object of a model. */
export interface CrudSample {
  /** The object seedInfrastructure creates for the model (its name there), or ... */
  seeded?: keyof Seeded;
  /** ... the body that creates one, given the objects made so far by model key. */
  create?: (made: Record<string, { id: number }>) => Record<string, unknown>;
  /** A change to it; its first key is read back. */
  patch: Record<string, unknown>;
  /** Further objects `create` needs that no sample makes (by a name of its own), created over HTTP first. */
  prepare?: (
    post: (path: string, body: unknown) => Promise<{ id: number }>,
    made: Record<string, { id: number }>,
  ) => Promise<Record<string, { id: number }>>;
}

/**
 * One sample per change-logged model, by model key. The CRUD test walks the registry, so a
 * model registered without a sample fails it; scripts/import-reference.ts adds one for
 * each model it generates.
 */
export const CRUD_SAMPLES: Record<string, CrudSample> = {
  'tenancy.tenantgroup': { seeded: 'tenantGroup', patch: { description: 'paying' } },
  'tenancy.tenant': { seeded: 'tenant', patch: { description: 'big one' } },
  'dcim.region': { seeded: 'region', patch: { description: 'EU' } },
  'dcim.sitegroup': { seeded: 'siteGroup', patch: { description: 'core' } },
  'dcim.site': { seeded: 'site', patch: { facility: 'Equinix FR5' } },
  'dcim.location': { seeded: 'location', patch: { description: 'ground floor' } },
  'dcim.rackrole': { seeded: 'rackRole', patch: { color: '00ff00' } },
  'dcim.rack': { seeded: 'rack', patch: { serial: 'SN-R1' } },
  'dcim.manufacturer': { seeded: 'manufacturer', patch: { description: 'vendor' } },
  'dcim.devicetype': { seeded: 'deviceType', patch: { part_number: 'MX204-HW-BASE' } },
  'dcim.devicerole': { seeded: 'deviceRole', patch: { color: '0000ff' } },
  'dcim.platform': { seeded: 'platform', patch: { description: 'os' } },
  'dcim.device': { seeded: 'device', patch: { serial: 'JN1234' } },
  'dcim.interface': { seeded: 'iface', patch: { description: 'uplink' } },
  'ipam.vrf': { seeded: 'vrf', patch: { description: 'public' } },
  'ipam.rir': { seeded: 'rir', patch: { description: 'registry' } },
  'ipam.aggregate': { seeded: 'aggregate', patch: { description: 'doc range' } },
  'ipam.role': { seeded: 'role', patch: { weight: 500 } },
  'ipam.vlangroup': { seeded: 'vlanGroup', patch: { description: 'all' } },
  'ipam.vlan': { seeded: 'vlan', patch: { name: 'servers-2' } },
  'ipam.prefix': { seeded: 'prefix', patch: { description: 'lan' } },
  'ipam.ipaddress': { seeded: 'address', patch: { dns_name: 'edge1.example.net' } },
  'circuits.provider': { seeded: 'provider', patch: { account: 'ACC-1' } },
  'circuits.circuittype': { seeded: 'circuitType', patch: { description: 'IP transit' } },
  'circuits.circuit': { seeded: 'circuit', patch: { commit_rate: 10000 } },
  'extras.tag': { seeded: 'tag', patch: { description: 'prod' } },
  'extras.customfield': {
    create: () => ({ name: 'ticket', type: 'text', content_types: ['dcim.site'] }),
    patch: { description: 'ticket number' },
  },
  'extras.configcontext': {
    create: (made) => ({ name: 'Example config context', sites: [made['dcim.site'].id], data: { ntp: ['192.0.2.1'] } }),
    patch: { weight: 500 },
  },
  'extras.webhook': {
    create: () => ({
      name: 'Example webhook',
      content_types: ['dcim.site'],
      type_create: true,
      payload_url: 'http://127.0.0.1:9/hook',
    }),
    patch: { enabled: false },
  },
  'extras.exporttemplate': {
    create: () => ({ name: 'Example export', content_types: ['dcim.site'], template_code: '{{ queryset | length }}' }),
    patch: { mime_type: 'text/csv' },
  },
  'tenancy.contactrole': {
    create: () => ({ name: 'Example contact role', slug: 'example-contact-role' }),
    patch: { description: 'changed' },
  },
  'virtualization.clustertype': {
    create: () => ({ name: 'Example cluster type', slug: 'example-cluster-type' }),
    patch: { description: 'changed' },
  },
  'virtualization.clustergroup': {
    create: () => ({ name: 'Example cluster group', slug: 'example-cluster-group' }),
    patch: { description: 'changed' },
  },
  'virtualization.cluster': {
    create: (made) => ({ name: 'Example cluster', type: made['virtualization.clustertype'].id }),
    patch: { description: 'changed' },
  },
  'virtualization.virtualmachine': {
    create: (made) => ({ name: 'Example virtual machine', cluster: made['virtualization.cluster'].id }),
    patch: { description: 'changed' },
  },
  'virtualization.vminterface': {
    create: (made) => ({ virtual_machine: made['virtualization.virtualmachine'].id, name: 'Example interface' }),
    patch: { description: 'changed' },
  },
  'dcim.consoleporttemplate': {
    create: (made) => ({ device_type: made['dcim.devicetype'].id, name: 'Example console port template' }),
    patch: { description: 'changed' },
  },
  'dcim.consoleserverporttemplate': {
    create: (made) => ({ device_type: made['dcim.devicetype'].id, name: 'Example console server port template' }),
    patch: { description: 'changed' },
  },
  'dcim.powerporttemplate': {
    create: (made) => ({ device_type: made['dcim.devicetype'].id, name: 'Example power port template' }),
    patch: { description: 'changed' },
  },
  'dcim.poweroutlettemplate': {
    create: (made) => ({ device_type: made['dcim.devicetype'].id, name: 'Example power outlet template' }),
    patch: { description: 'changed' },
  },
  'dcim.consoleport': {
    create: (made) => ({ device: made['dcim.device'].id, name: 'Example console port' }),
    patch: { description: 'changed' },
  },
  'dcim.consoleserverport': {
    create: (made) => ({ device: made['dcim.device'].id, name: 'Example console server port' }),
    patch: { description: 'changed' },
  },
  'dcim.powerport': {
    create: (made) => ({ device: made['dcim.device'].id, name: 'Example power port' }),
    patch: { description: 'changed' },
  },
  'dcim.poweroutlet': {
    create: (made) => ({ device: made['dcim.device'].id, name: 'Example power outlet' }),
    patch: { description: 'changed' },
  },
  'dcim.moduletype': {
    create: (made) => ({ manufacturer: made['dcim.manufacturer'].id, model: 'example model' }),
    patch: { description: 'changed' },
  },
  'dcim.modulebay': {
    create: (made) => ({ device: made['dcim.device'].id, name: 'Example module bay' }),
    patch: { description: 'changed' },
  },
  'dcim.module': {
    create: (made) => ({
      device: made['dcim.device'].id,
      module_bay: made['dcim.modulebay'].id,
      module_type: made['dcim.moduletype'].id,
    }),
    patch: { description: 'changed' },
  },
  // module bays, modules and component templates (not change-logged by the generator's rule, but NetBox logs them)
  'dcim.modulebaytemplate': {
    create: (made) => ({ device_type: made['dcim.devicetype'].id, name: 'Example module bay template' }),
    patch: { description: 'changed' },
  },
  'dcim.interfacetemplate': {
    create: (made) => ({
      device_type: made['dcim.devicetype'].id,
      name: 'Example interface template',
      type: '1000base-t',
    }),
    patch: { description: 'changed' },
  },
  'dcim.rearporttemplate': {
    create: (made) => ({ device_type: made['dcim.devicetype'].id, name: 'Example rear port template', type: '8p8c' }),
    patch: { description: 'changed' },
  },
  'dcim.frontporttemplate': {
    create: (made) => ({
      device_type: made['dcim.devicetype'].id,
      name: 'Example front port template',
      type: '8p8c',
      rear_port: made['dcim.rearporttemplate'].id,
    }),
    patch: { description: 'changed' },
  },
  'dcim.rearport': {
    create: (made) => ({ device: made['dcim.device'].id, name: 'Example rear port', type: '8p8c' }),
    patch: { description: 'changed' },
  },
  'dcim.frontport': {
    create: (made) => ({
      device: made['dcim.device'].id,
      name: 'Example front port',
      type: '8p8c',
      rear_port: made['dcim.rearport'].id,
    }),
    patch: { description: 'changed' },
  },
  'dcim.devicebaytemplate': {
    create: (made) => ({ device_type: made['dcim.devicetype'].id, name: 'Example device bay template' }),
    patch: { description: 'changed' },
  },
  'dcim.devicebay': {
    create: (made) => ({ device: made['dcim.device'].id, name: 'Example device bay' }),
    patch: { description: 'changed' },
  },
  'dcim.inventoryitemrole': {
    create: () => ({ name: 'Example inventory item role', slug: 'example-inventory-item-role' }),
    patch: { description: 'changed' },
  },
  'dcim.inventoryitemtemplate': {
    create: (made) => ({ device_type: made['dcim.devicetype'].id, name: 'Example inventory item template' }),
    patch: { description: 'changed' },
  },
  'dcim.inventoryitem': {
    create: (made) => ({ device: made['dcim.device'].id, name: 'Example inventory item' }),
    patch: { description: 'changed' },
  },
  'dcim.cable': {
    create: (made) => ({
      a_terminations: [{ object_type: 'dcim.interface', object_id: made['dcim.interface'].id }],
      b_terminations: [{ object_type: 'dcim.frontport', object_id: made['dcim.frontport'].id }],
    }),
    patch: { description: 'changed' },
  },
  'dcim.powerpanel': {
    create: (made) => ({ site: made['dcim.site'].id, name: 'Example power panel' }),
    patch: { description: 'changed' },
  },
  'dcim.powerfeed': {
    create: (made) => ({ power_panel: made['dcim.powerpanel'].id, name: 'Example power feed' }),
    patch: { description: 'changed' },
  },
  'circuits.providernetwork': {
    create: (made) => ({ provider: made['circuits.provider'].id, name: 'Example provider network' }),
    patch: { description: 'changed' },
  },
  'circuits.circuittermination': {
    create: (made) => ({ circuit: made['circuits.circuit'].id, term_side: 'A', site: made['dcim.site'].id }),
    patch: { description: 'changed' },
  },
  'dcim.virtualchassis': { create: () => ({ name: 'Example virtual chassis' }), patch: { description: 'changed' } },
  'dcim.virtualdevicecontext': {
    create: (made) => ({ name: 'Example virtual device context', device: made['dcim.device'].id, status: 'active' }),
    patch: { description: 'changed' },
  },
  'dcim.rackreservation': {
    create: (made) => ({
      rack: made['dcim.rack'].id,
      units: [1],
      user: { username: 'admin' },
      description: 'example description',
    }),
    patch: { description: 'changed' },
  },
  'ipam.asn': { create: (made) => ({ asn: 65000, rir: made['ipam.rir'].id }), patch: { description: 'changed' } },
  'ipam.routetarget': { create: () => ({ name: '65000:100' }), patch: { description: 'changed' } },
  'ipam.servicetemplate': {
    create: () => ({ name: 'Example service template', ports: [80, 443], protocol: 'tcp' }),
    patch: { description: 'changed' },
  },
  'ipam.service': {
    create: (made) => ({ device: made['dcim.device'].id, name: 'Example service', ports: [22], protocol: 'tcp' }),
    patch: { description: 'changed' },
  },
  'ipam.fhrpgroup': { create: () => ({ protocol: 'vrrp2', group_id: 10 }), patch: { description: 'changed' } },
  'ipam.fhrpgroupassignment': {
    create: (made) => ({
      group: made['ipam.fhrpgroup'].id,
      interface_type: 'dcim.interface',
      interface_id: made['dcim.interface'].id,
      priority: 100,
    }),
    patch: { priority: 200 },
  },
  'tenancy.contactgroup': {
    create: () => ({ name: 'Example contact group', slug: 'example-contact-group' }),
    patch: { description: 'changed' },
  },
  'tenancy.contact': { create: () => ({ name: 'Example contact' }), patch: { description: 'changed' } },
  'tenancy.contactassignment': {
    create: (made) => ({
      content_type: 'tenancy.tenant',
      object_id: made['tenancy.tenant'].id,
      contact: made['tenancy.contact'].id,
      role: made['tenancy.contactrole'].id,
    }),
    // a generic pair is written whole; the seeded tenant is the service's first
    patch: { content_type: 'tenancy.tenant', object_id: 1 },
  },
  'ipam.iprange': {
    create: () => ({ start_address: '192.0.2.10/24', end_address: '192.0.2.20/24' }),
    patch: { description: 'changed' },
  },
  'ipam.l2vpn': {
    create: () => ({ name: 'Example L2VPN', slug: 'example-l2vpn', type: 'vpws' }),
    patch: { description: 'changed' },
  },
  'ipam.l2vpntermination': {
    create: (made) => ({
      l2vpn: made['ipam.l2vpn'].id,
      assigned_object_type: 'dcim.interface',
      assigned_object_id: made['dcim.interface'].id,
    }),
    // moved to the seeded VLAN, the service's first
    patch: { assigned_object_type: 'ipam.vlan', assigned_object_id: 1 },
  },
  'wireless.wirelesslangroup': {
    create: () => ({ name: 'Example wireless LAN group', slug: 'example-wireless-lan-group' }),
    patch: { description: 'changed' },
  },
  'wireless.wirelesslan': {
    create: (made) => ({
      ssid: 'example',
      group: made['wireless.wirelesslangroup'].id,
      vlan: made['ipam.vlan'].id,
      auth_type: 'wpa-personal',
      auth_psk: 'secret-psk',
    }),
    patch: { description: 'changed' },
  },
  'wireless.wirelesslink': {
    // a wireless link joins two radios: the seeded interface is not one
    prepare: async (post, made) => ({
      radioA: await post('/api/dcim/interfaces/', {
        device: made['dcim.device'].id,
        name: 'wlan0',
        type: 'ieee802.11ac',
      }),
      radioB: await post('/api/dcim/interfaces/', {
        device: made['dcim.device'].id,
        name: 'wlan1',
        type: 'ieee802.11ac',
      }),
    }),
    create: (made) => ({ interface_a: made.radioA.id, interface_b: made.radioB.id, ssid: 'backhaul' }),
    patch: { description: 'changed' },
  },
  'extras.journalentry': {
    create: (made) => ({
      assigned_object_type: 'dcim.site',
      assigned_object_id: made['dcim.site'].id,
      comments: 'example comments',
    }),
    patch: { comments: 'changed' },
  },
  'extras.savedfilter': {
    create: () => ({
      name: 'Example saved filter',
      slug: 'example-saved-filter',
      content_types: ['dcim.site'],
      parameters: { status: ['active'] },
    }),
    patch: { weight: 500 },
  },
  'extras.customlink': {
    create: () => ({
      name: 'Example custom link',
      content_types: ['dcim.site'],
      link_text: 'Open',
      link_url: 'https://example.com/{{ object.name }}',
    }),
    patch: { group_name: 'changed' },
  },
};
