/**
 * The authentication a wireless LAN or link declares (NetBox's WirelessAuthenticationBase):
 * type, cipher and pre-shared key, each optional.
 */
import type { FieldDefinition } from '../fieldDefinition.js';
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

/**
 * A credential: events and the change log keep it sealed (encrypted with SECRET_KEY in
 * `auth_psk_sealed`); readers of the LAN or link see it in clear, as in NetBox. Sealed, it
 * cannot be matched, so NetBox's `auth_psk` filter is not answered.
 */
export const authPskField: FieldDefinition = {
  name: 'auth_psk',
  type: 'string',
  label: 'Pre-shared key',
  blank: true,
  default: '',
  maxLength: PSK_MAX_LENGTH,
  secret: 'sealed',
};

export const authPskSealedField: FieldDefinition = {
  name: 'auth_psk_sealed',
  type: 'string',
  internal: true,
  nullable: true,
};
