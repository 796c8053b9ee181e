/**
 * The choice sets of NetBox's wireless app (wireless/choices.py); the link status a
 * wireless link shares with cables is dcim's (LINK_STATUS_CHOICES).
 */
import type { Choice } from '../fieldDefinition.js';

export const WIRELESS_LAN_STATUS_CHOICES: Choice[] = [
  { value: 'active', label: 'Active' },
  { value: 'reserved', label: 'Reserved' },
  { value: 'disabled', label: 'Disabled' },
  { value: 'deprecated', label: 'Deprecated' },
];

export const WIRELESS_AUTH_TYPE_CHOICES: Choice[] = [
  { value: 'open', label: 'Open' },
  { value: 'wep', label: 'WEP' },
  { value: 'wpa-personal', label: 'WPA Personal (PSK)' },
  { value: 'wpa-enterprise', label: 'WPA Enterprise' },
];

export const WIRELESS_AUTH_CIPHER_CHOICES: Choice[] = [
  { value: 'auto', label: 'Auto' },
  { value: 'tkip', label: 'TKIP' },
  { value: 'aes', label: 'AES' },
];

/** IEEE 802.11-2007's longest SSID. */
export const SSID_MAX_LENGTH = 32;
/** The longest pre-shared key NetBox stores. */
export const PSK_MAX_LENGTH = 64;
