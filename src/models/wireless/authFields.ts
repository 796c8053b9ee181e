/**
 * The authentication a wireless LAN or link declares (NetBox's WirelessAuthenticationBase):
 * type, cipher and pre-shared key, each optional, and the filters NetBox's filter sets
 * give them (choices, several values OR-ed).
 */
import type { FieldDefinition, FilterSpec } from '../types.js';
import { PSK_MAX_LENGTH, WIRELESS_AUTH_CIPHER_CHOICES, WIRELESS_AUTH_TYPE_CHOICES } from './choices.js';

export const authTypeField: FieldDefinition = {
  name: 'auth_type',
  type: 'choice',
  label: 'Auth Type',
  blank: true,
  emptyAsNull: true,
  default: '',
  choices: WIRELESS_AUTH_TYPE_CHOICES,
};

export const authCipherField: FieldDefinition = {
  name: 'auth_cipher',
  type: 'choice',
  blank: true,
  emptyAsNull: true,
  default: '',
  choices: WIRELESS_AUTH_CIPHER_CHOICES,
};

/** Shown in clear, as NetBox shows it: the key is configuration the registry documents, not a credential of this service. */
export const authPskField: FieldDefinition = {
  name: 'auth_psk',
  type: 'string',
  label: 'Pre-shared key',
  blank: true,
  default: '',
  maxLength: PSK_MAX_LENGTH,
};

/** auth_psk is matched exactly only (NetBox lists it among the filter set's plain fields). */
export const authFilters: Record<string, FilterSpec> = {
  auth_psk: { kind: 'field', field: 'auth_psk', value: 'string', lookups: [] },
};
