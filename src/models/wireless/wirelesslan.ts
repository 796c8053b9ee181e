// Field facts from NetBox 3.4.10's wireless serializers, models and filter sets; the reference folder has no wireless app.
import { changeLoggedFields, descriptionField, identityFields, tenantField } from '../commonFields.js';
import { tenancyFilters, treeFilters, UNKNOWN_CHOICE } from '../filterSpecs.js';
import type { FilterEnvironment } from '../filterTypes.js';
import { attributeOrNumber } from '../hooks.js';
import type { ModelDefinition } from '../modelDefinition.js';
import { authCipherField, authPskField, authPskSealedField, authTypeField } from './authFields.js';
import { SSID_MAX_LENGTH, WIRELESS_LAN_STATUS_CHOICES } from './choices.js';

export const wirelesslan: ModelDefinition = {
  key: 'wireless.wirelesslan',
  app: 'wireless',
  model: 'wirelesslan',
  path: 'wireless-lans',
  verboseName: 'Wireless LAN',
  verboseNamePlural: 'Wireless LANs',
  fields: [
    ...identityFields,
    { name: 'ssid', type: 'string', label: 'SSID', required: true, maxLength: SSID_MAX_LENGTH },
    // NetBox's serializer lists description twice; the first place is the one rendered.
    descriptionField,
    {
      name: 'group',
      type: 'fk',
      target: 'wireless.wirelesslangroup',
      onDelete: 'SET_NULL',
      nullable: true,
      default: null,
    },
    { name: 'status', type: 'choice', default: 'active', choices: WIRELESS_LAN_STATUS_CHOICES },
    {
      name: 'vlan',
      type: 'fk',
      label: 'VLAN',
      target: 'ipam.vlan',
      onDelete: 'PROTECT',
      nullable: true,
      default: null,
      relatedName: 'wirelesslan_set',
    },
    tenantField,
    authTypeField,
    authCipherField,
    authPskField,
    authPskSealedField,
    { name: 'comments', type: 'string', blank: true, default: '' },
    ...changeLoggedFields,
  ],
  brief: ['id', 'url', 'display', 'ssid'],
  ordering: ['ssid', 'id'],
  search: ['ssid', 'description'],
  filters: {
    ...tenancyFilters,
    ...treeFilters('group_id', 'group', 'wireless.wirelesslangroup', ['group']),
    // The LANs the interfaces carry (a filter NetBox gained after 3.4).
    interface_id: { kind: 'method', value: 'integer', method: lansOfInterfaces },
    vlan: false,
    comments: false,
  },
  hooks: {
    display: attributeOrNumber('ssid'),
  },
};

/** LANs named by the interfaces' wireless_lans; an unknown interface is a 400, as for any object filter. */
async function lansOfInterfaces(
  ids: Array<string | number | boolean>,
  env: FilterEnvironment,
): Promise<Record<string, unknown>> {
  const interfaces = await env.find('dcim.interface', { id: { $in: ids } });
  const found = new Set(interfaces.map((i) => i.id));
  for (const id of ids) if (!found.has(id as number)) env.invalid(UNKNOWN_CHOICE.replace('That choice', String(id)));
  const lans = new Set(
    interfaces.flatMap((i) => (Array.isArray(i.wireless_lans) ? (i.wireless_lans as number[]) : [])),
  );
  return { id: { $in: [...lans] } };
}
