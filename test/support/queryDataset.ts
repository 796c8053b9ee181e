/**
 * A small registry with known ids for the query tests, loaded straight into a read
 * store (stored form + the models' derived hidden keys, as the projector writes them),
 * and a runner that answers a list query string the way the list view does.
 */
import { compileFilter } from '../../src/api/query/compileFilter.js';
import { relationOrderedPage, requestedRelations } from '../../src/api/query/relationOrder.js';
import { compileSort } from '../../src/api/query/sort.js';
import { ValidationError } from '../../src/errors/requestErrors.js';
import { registry } from '../../src/models/registry.js';
import { withProjectedColumns } from '../../src/projections/projectedColumns.js';
import { readModelIndexes } from '../../src/projections/readModelIndexes.js';
import type { DocumentChange, ReadDocument, ReadStore } from '../../src/projections/ReadStore.js';

type Obj = Record<string, unknown> & { id: number };

const T0 = '2024-01-01T00:00:00.000000Z';
const T1 = '2024-06-15T12:30:00.000000Z';
const T2 = '2025-01-01T00:00:00.000000Z';

export const DATASET: Record<string, Obj[]> = {
  'tenancy.tenantgroup': [
    { id: 1, name: 'Customers', slug: 'customers', parent: null },
    { id: 2, name: 'Key accounts', slug: 'key-accounts', parent: 1 },
  ],
  'tenancy.tenant': [
    { id: 1, name: 'Acme', slug: 'acme', group: 2 },
    { id: 2, name: 'Globex', slug: 'globex', group: 1 },
    { id: 3, name: 'Initech', slug: 'initech', group: null },
  ],
  // Alice (NOC, under Staff) is the admin of device 1 and of site 3; Bob (no group) of site 2.
  'tenancy.contactgroup': [
    { id: 1, name: 'Staff', slug: 'staff', parent: null },
    { id: 2, name: 'NOC', slug: 'noc', parent: 1 },
  ],
  'tenancy.contact': [
    { id: 1, name: 'Alice', group: 2 },
    { id: 2, name: 'Bob', group: null },
  ],
  'tenancy.contactrole': [{ id: 1, name: 'Admin', slug: 'admin' }],
  'tenancy.contactassignment': [
    { id: 1, content_type: 'dcim.device', object_id: 1, contact: 1, role: 1, priority: '' },
    { id: 2, content_type: 'dcim.site', object_id: 2, contact: 2, role: 1, priority: '' },
    { id: 3, content_type: 'dcim.site', object_id: 3, contact: 1, role: 1, priority: 'primary' },
  ],
  'dcim.region': [
    { id: 1, name: 'Europe', slug: 'europe', parent: null },
    { id: 2, name: 'Germany', slug: 'germany', parent: 1 },
    { id: 3, name: 'Asia', slug: 'asia', parent: null },
  ],
  'dcim.sitegroup': [{ id: 1, name: 'Core', slug: 'core', parent: null }],
  'dcim.site': [
    { id: 1, name: 'DC-1', slug: 'dc-1', region: 2, group: 1, tenant: 1, status: 'active', facility: 'Frankfurt' },
    { id: 2, name: 'DC-10', slug: 'dc-10', region: 3, group: null, tenant: null, status: 'planned', facility: '' },
    {
      id: 3,
      name: 'DC-2',
      slug: 'dc-2',
      region: null,
      group: null,
      tenant: 2,
      status: 'active',
      facility: 'frankfurt-2',
    },
  ],
  'dcim.location': [
    { id: 1, name: 'Hall A', slug: 'hall-a', site: 1, parent: null },
    { id: 2, name: 'Cage 1', slug: 'cage-1', site: 1, parent: 1 },
  ],
  'dcim.rackrole': [{ id: 1, name: 'Network', slug: 'network', color: '2196f3' }],
  'dcim.rack': [{ id: 1, name: 'R1', site: 1, location: 2, status: 'active' }],
  'dcim.manufacturer': [
    { id: 1, name: 'Juniper', slug: 'juniper' },
    { id: 2, name: 'Cisco', slug: 'cisco' },
  ],
  'dcim.devicetype': [
    { id: 1, manufacturer: 1, model: 'MX204', slug: 'mx204', is_full_depth: true, u_height: 1 },
    { id: 2, manufacturer: 2, model: 'C9300', slug: 'c9300', is_full_depth: false, u_height: 1 },
  ],
  'dcim.devicerole': [
    { id: 1, name: 'Router', slug: 'router', color: 'ff0000' },
    { id: 2, name: 'Switch', slug: 'switch', color: '00ff00' },
  ],
  'dcim.device': [
    {
      id: 1,
      name: 'edge10',
      device_type: 1,
      device_role: 1,
      site: 1,
      location: 2,
      rack: 1,
      status: 'active',
      tenant: 1,
      serial: 'ABC-1',
      position: 10,
      tags: [],
      primary_ip4: 6,
      created: T0,
      last_updated: T0,
      custom_fields: { color: 'Dark Red', code: 'foo', count: 5, hidden: 'x' },
    },
    {
      id: 2,
      name: 'edge2',
      device_type: 1,
      device_role: 1,
      site: 1,
      status: 'planned',
      tenant: null,
      serial: 'abc-2',
      position: 20.5,
      tags: [1],
      created: T1,
      last_updated: T1,
      custom_fields: { color: 'blue', code: 'foobar', count: 10, hidden: 'y' },
    },
    {
      id: 3,
      name: 'core1',
      device_type: 2,
      device_role: 2,
      site: 2,
      status: 'active',
      tenant: 2,
      serial: '',
      tags: [1, 2],
      local_context_data: { ntp: '10.0.0.1' },
      created: T2,
      last_updated: T2,
      custom_fields: { color: null, code: 'bar', count: null },
    },
    {
      id: 4,
      name: null,
      device_type: 2,
      device_role: 2,
      site: 3,
      status: 'offline',
      tenant: null,
      serial: '',
      asset_tag: 'A.*',
      tags: [2],
      created: T2,
      last_updated: T2,
      custom_fields: {},
    },
    {
      id: 5,
      name: 'a.*b',
      device_type: 2,
      device_role: 2,
      site: 3,
      status: 'active',
      tenant: null,
      serial: 'x\ny',
      tags: [],
      created: T2,
      last_updated: T2,
      custom_fields: {},
    },
  ],
  'dcim.interface': [
    { id: 1, device: 1, name: 'eth10', type: '1000base-t', mtu: 9000 },
    { id: 2, device: 1, name: 'eth2', type: '1000base-t', mtu: 1500 },
    { id: 3, device: 1, name: 'eth1', type: '1000base-t', mtu: null },
    { id: 4, device: 1, name: 'xe-0/0/1', type: '10gbase-x-sfpp', untagged_vlan: 1 },
    { id: 5, device: 1, name: 'lo0', type: 'virtual', tagged_vlans: [2, 6] },
    { id: 6, device: 2, name: 'eth0', type: '1000base-t', mac_address: 'AA:BB:CC:DD:EE:FF' },
    { id: 7, device: 3, name: 'wlan0', type: 'ieee802.11a', mark_connected: true },
  ],
  'ipam.vrf': [
    { id: 1, name: 'Internet', rd: '65000:1' },
    { id: 2, name: 'Mgmt', rd: null },
  ],
  'ipam.role': [{ id: 1, name: 'Transit', slug: 'transit', weight: 1000 }],
  'ipam.vlangroup': [
    { id: 1, name: 'Site VLANs', slug: 'site-vlans', scope_type: 'dcim.site', scope_id: 1 },
    { id: 2, name: 'Europe VLANs', slug: 'europe-vlans', scope_type: 'dcim.region', scope_id: 1 },
    { id: 3, name: 'Global VLANs', slug: 'global-vlans', scope_type: null, scope_id: null },
    { id: 4, name: 'Asia VLANs', slug: 'asia-vlans', scope_type: 'dcim.region', scope_id: 3 },
  ],
  'ipam.vlan': [
    { id: 1, vid: 100, name: 'servers', group: 1, site: null, status: 'active' },
    { id: 2, vid: 200, name: 'voice', group: 2, site: null, status: 'active' },
    { id: 3, vid: 300, name: 'asia', group: null, site: 2, status: 'reserved' },
    { id: 4, vid: 400, name: 'global', group: null, site: null, status: 'active' },
    { id: 5, vid: 500, name: 'unscoped', group: 3, site: null, status: 'deprecated' },
    { id: 6, vid: 600, name: 'local', group: null, site: 1, status: 'active' },
    { id: 7, vid: 700, name: 'asia-group', group: 4, site: null, status: 'active' },
  ],
  'ipam.prefix': [
    { id: 1, prefix: '10.0.0.0/8', status: 'container', vrf: null, site: null },
    { id: 2, prefix: '10.1.0.0/16', status: 'active', vrf: 1, site: 1, vlan: 1, description: 'Core Net' },
    { id: 3, prefix: '10.1.2.0/24', status: 'active', vrf: null, site: 1, tenant: 1 },
    { id: 4, prefix: '192.168.0.0/16', status: 'reserved', vrf: null, site: 3 },
    { id: 5, prefix: '2001:db8::/32', status: 'active', vrf: null, site: null },
    { id: 6, prefix: '10.0.0.0/8', status: 'active', vrf: 1, site: null, vlan: 2 },
    { id: 7, prefix: '9.0.0.0/8', status: 'deprecated', vrf: null, site: null },
  ],
  'ipam.ipaddress': [
    { id: 1, address: '10.1.2.3/24', status: 'active', vrf: null, dns_name: 'a.example.com' },
    { id: 2, address: '10.1.2.10/24', status: 'active', vrf: 1, dns_name: 'B.example.com', role: 'vip' },
    { id: 3, address: '10.1.2.9/24', status: 'reserved', vrf: null },
    { id: 4, address: '192.168.1.1/16', status: 'dhcp', vrf: null },
    { id: 5, address: '2001:db8::1/64', status: 'slaac', vrf: null },
    {
      id: 6,
      address: '10.0.0.1/8',
      status: 'active',
      vrf: 1,
      assigned_object_type: 'dcim.interface',
      assigned_object_id: 6,
    },
    {
      id: 7,
      address: '9.255.255.255/32',
      status: 'active',
      vrf: null,
      assigned_object_type: 'dcim.interface',
      assigned_object_id: 1,
    },
    { id: 8, address: '10.1.2.3/32', status: 'active', vrf: null },
  ],
  'extras.tag': [
    { id: 1, name: 'Red', slug: 'red', color: 'ff0000' },
    { id: 2, name: 'Blue', slug: 'blue', color: '0000ff' },
  ],
  'extras.customfield': [
    { id: 1, name: 'color', type: 'text', filter_logic: 'loose', content_types: ['dcim.device'] },
    { id: 2, name: 'code', type: 'text', filter_logic: 'exact', content_types: ['dcim.device'] },
    { id: 3, name: 'count', type: 'integer', filter_logic: 'loose', content_types: ['dcim.device'] },
    { id: 4, name: 'hidden', type: 'text', filter_logic: 'disabled', content_types: ['dcim.device'] },
  ],
};

/** The stored form of a dataset object: defaults filled in, derived keys added, as the projector writes it. */
export function storedDocument(model: string, obj: Obj, position: number): ReadDocument {
  const definition = registry.get(model);
  const doc: Record<string, unknown> = { created: T0, last_updated: T0 };
  for (const field of definition.fields) {
    if (field.default !== undefined) doc[field.name] = structuredClone(field.default);
    if (['fk', 'tags', 'm2m'].includes(field.type) && doc[field.name] === undefined)
      doc[field.name] = field.type === 'fk' ? null : [];
  }
  Object.assign(doc, structuredClone(obj));
  // family, as the IPAM normalize hooks set it
  const text = doc.prefix ?? doc.address;
  if ((model === 'ipam.prefix' || model === 'ipam.ipaddress') && typeof text === 'string')
    doc.family = text.includes(':') ? 6 : 4;
  const derived = definition.hooks?.derive?.(doc as never) ?? {};
  return {
    ...doc,
    ...derived,
    display: String(doc.name ?? doc.prefix ?? doc.address ?? obj.id),
    id: obj.id,
    _pos: position,
  } as ReadDocument;
}

/** Loads the dataset (or `extra` documents) into the store, with the registry's indexes. */
export async function loadDataset(store: ReadStore, dataset: Record<string, Obj[]> = DATASET): Promise<void> {
  for (const [collection, fields] of readModelIndexes(registry)) await store.ensureIndexes(collection, fields);
  let position = 0;
  const changes: DocumentChange[] = [];
  for (const [model, objects] of Object.entries(dataset)) {
    for (const obj of objects) {
      position++;
      changes.push({ collection: model, id: obj.id, position, doc: storedDocument(model, obj, position) });
    }
  }
  // as the projector applies a batch: with the columns documents keep from others (relation order keys ...)
  await store.apply(await withProjectedColumns(registry, store, changes), position);
}

export type QueryResult = { ids: number[] } | { error: unknown };

/** A list query as the list view answers it: the filter, the ordering, ids in order (or the 400 body). */
export async function runQuery(
  store: ReadStore,
  model: string,
  queryString: string,
  limit?: number,
): Promise<QueryResult> {
  const definition = registry.get(model);
  const params = new URLSearchParams(queryString);
  try {
    const filter = await compileFilter(registry, definition, params, store);
    const sort = compileSort(definition, params.get('ordering'), { brief: !!params.get('brief') });
    const relations = requestedRelations(definition, params.get('ordering'), sort);
    const docs = relations.size
      ? (await relationOrderedPage(store, definition, filter, sort, relations, 0, limit, registry)).docs
      : await store.find(model, filter, { sort, limit });
    return { ids: docs.map((d) => d.id) };
  } catch (error) {
    if (error instanceof ValidationError) return { error: error.body };
    throw error;
  }
}
