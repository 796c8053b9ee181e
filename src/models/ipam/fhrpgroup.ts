// Field facts come from NetBox 3.4's REST API reference (scripts/import-reference.ts); hooks are hand-written.
import { changeLoggedFields, descriptionField, identityFields } from '../commonFields.js';
import type { GenericListItem } from '../fieldDefinition.js';
import { existingIds } from '../filterSpecs.js';
import type { FilterMethod } from '../filterTypes.js';
import { pyStr } from '../hooks.js';
import type { LookupView } from '../lookupView.js';
import type { ModelDefinition } from '../modelDefinition.js';
import type { StoredObject } from '../storedObject.js';
import { addressSortKey, hostKeys, lastAddress, networkAddress, parseCidr } from '../values/ipNetworks.js';
import { FHRP_AUTH_TYPE_CHOICES, FHRP_PROTOCOL_CHOICES } from './choices.js';

/** The virtual addresses of the group: IP addresses assigned to it, lowest first. */
async function groupAddresses(group: StoredObject, view: LookupView): Promise<StoredObject[]> {
  const found = await view.find('ipam.ipaddress', {
    assigned_object_type: 'ipam.fhrpgroup',
    assigned_object_id: group.id,
  });
  const key = (a: StoredObject) => hostKeys(a.address)?._address ?? '';
  return found.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : a.id - b.id));
}

/**
 * '[<name> ]<protocol label>: <group_id>', then ' (<first address>)' once the group has
 * addresses, e.g. 'VRRPv2: 10 (192.0.2.1/24)'.
 */
export async function fhrpGroupDisplay(obj: StoredObject, view: LookupView): Promise<string> {
  const label = FHRP_PROTOCOL_CHOICES.find((c) => c.value === obj.protocol)?.label ?? pyStr(obj.protocol);
  const base = `${obj.name ? `${String(obj.name)} ` : ''}${label}: ${pyStr(obj.group_id)}`;
  if (typeof obj.id !== 'number') return base;
  const [first] = await groupAddresses(obj, view);
  return first ? `${base} (${String(first.address)})` : base;
}

/**
 * Groups with an address inside (or equal to) the network of any of the given addresses,
 * in the same VRF (or both in the global table). An unknown address is a 400.
 */
const relatedIp: FilterMethod = async (values, env) => {
  const given = await env.find('ipam.ipaddress', {
    id: { $in: await existingIds(env, 'ipam.ipaddress', 'id', values) },
  });
  const alternatives: Record<string, unknown>[] = [];
  for (const address of given) {
    const cidr = typeof address.address === 'string' ? parseCidr(address.address) : null;
    if (!cidr) continue;
    alternatives.push({
      vrf: address.vrf ?? null,
      _address: {
        $gte: addressSortKey(cidr.family, networkAddress(cidr)),
        $lte: addressSortKey(cidr.family, lastAddress(cidr)),
      },
    });
  }
  if (alternatives.length === 0) return { id: { $in: [] } };
  const inside = await env.find('ipam.ipaddress', { assigned_object_type: 'ipam.fhrpgroup', $or: alternatives });
  return { id: { $in: [...new Set(inside.map((a) => a.assigned_object_id))] } };
};

export const fhrpgroup: ModelDefinition = {
  key: 'ipam.fhrpgroup',
  app: 'ipam',
  model: 'fhrpgroup',
  path: 'fhrp-groups',
  verboseName: 'FHRP group',
  verboseNamePlural: 'FHRP groups',
  fields: [
    // NetBox's serializer lists name between id and url
    identityFields[0],
    { name: 'name', type: 'string', blank: true, default: '', maxLength: 100 },
    ...identityFields.slice(1),
    { name: 'protocol', type: 'choice', required: true, choiceRender: 'plain', choices: FHRP_PROTOCOL_CHOICES },
    { name: 'group_id', type: 'integer', required: true, min: 0, max: 32767 },
    {
      name: 'auth_type',
      type: 'choice',
      blank: true,
      default: '',
      choiceRender: 'plain',
      choices: FHRP_AUTH_TYPE_CHOICES,
    },
    // a credential: sealed with SECRET_KEY in events and the change log, shown in clear to readers as NetBox does
    { name: 'auth_key', type: 'string', blank: true, default: '', maxLength: 255, secret: 'sealed' },
    { name: 'auth_key_sealed', type: 'string', internal: true, nullable: true },
    descriptionField,
    { name: 'comments', type: 'string', blank: true, default: '' },
    ...changeLoggedFields,
    // the addresses assigned to the group (an IP address's assigned_object), read-only here
    {
      name: 'ip_addresses',
      type: 'computed',
      readOnly: true,
      nullable: true,
      references: 'many',
      dependsOn: ['ipam.ipaddress'],
    },
  ],
  displayReads: ['ipam.ipaddress'],
  brief: ['id', 'url', 'display', 'protocol', 'group_id'],
  ordering: ['protocol', 'group_id', 'id'],
  search: ['description', 'name'],
  filters: {
    related_ip: { kind: 'method', value: 'integer', method: relatedIp },
    description: false,
    comments: false,
  },
  hooks: {
    display: fhrpGroupDisplay,
    compute: {
      ip_addresses: async (obj, view): Promise<GenericListItem[]> =>
        (await groupAddresses(obj, view)).map((a) => ({ object_type: 'ipam.ipaddress', object_id: a.id })),
    },
  },
};
