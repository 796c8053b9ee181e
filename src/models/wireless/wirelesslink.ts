// Field facts from NetBox 3.4.10's wireless serializers, models and filter sets; the reference folder has no wireless app.
import { changeLoggedFields, descriptionField, identityFields, tenantField } from '../commonFields.js';
import { LINK_STATUS_CHOICES } from '../dcim/choices.js';
import { tenancyFilters } from '../filterSpecs.js';
import { attributeOrNumber } from '../hooks.js';
import type { ModelDefinition } from '../modelDefinition.js';
import { authCipherField, authPskField, authPskSealedField, authTypeField } from './authFields.js';
import { SSID_MAX_LENGTH } from './choices.js';
import { recordInterfaceDevices, wirelessEndFollowUps, wirelessLinkProblem } from './wirelessLinkEnds.js';

const wirelessInterface = (name: string, label: string) =>
  ({ name, type: 'fk', label, target: 'dcim.interface', onDelete: 'PROTECT', required: true }) as const;

/** The device of each end, kept so that deleting a device takes its wireless links with it. */
const endDevice = (name: string) =>
  ({
    name,
    type: 'fk',
    target: 'dcim.device',
    onDelete: 'CASCADE',
    internal: true,
    readOnly: true,
    nullable: true,
  }) as const;

export const wirelesslink: ModelDefinition = {
  key: 'wireless.wirelesslink',
  app: 'wireless',
  model: 'wirelesslink',
  path: 'wireless-links',
  verboseName: 'wireless link',
  verboseNamePlural: 'wireless links',
  fields: [
    ...identityFields,
    wirelessInterface('interface_a', 'Interface A'),
    wirelessInterface('interface_b', 'Interface B'),
    { name: 'ssid', type: 'string', label: 'SSID', blank: true, default: '', maxLength: SSID_MAX_LENGTH },
    { name: 'status', type: 'choice', default: 'connected', choices: LINK_STATUS_CHOICES },
    tenantField,
    authTypeField,
    authCipherField,
    authPskField,
    authPskSealedField,
    descriptionField,
    { name: 'comments', type: 'string', blank: true, default: '' },
    ...changeLoggedFields,
    endDevice('interface_a_device'),
    endDevice('interface_b_device'),
  ],
  brief: ['id', 'url', 'display', 'ssid'],
  ordering: ['id'],
  unique: [{ fields: ['interface_a', 'interface_b'] }],
  search: ['ssid', 'description'],
  filters: {
    ...tenancyFilters,
    // Plain numbers, as NetBox's: an unknown interface matches nothing rather than being refused.
    interface_a_id: { kind: 'field', field: 'interface_a', value: 'integer', lookups: [] },
    interface_b_id: { kind: 'field', field: 'interface_b', value: 'integer', lookups: [] },
    interface_a: false,
    interface_b: false,
    comments: false,
  },
  hooks: {
    display: attributeOrNumber('ssid'),
    validate: (obj, view) => wirelessLinkProblem(obj, view),
    beforeSave: (obj, view) => recordInterfaceDevices(obj, view),
    followUps: (change, view) => wirelessEndFollowUps(change, view),
  },
};
