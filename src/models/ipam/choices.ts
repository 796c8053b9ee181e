/**
 * Choices that several ipam models share (NetBox keeps them in ipam/choices.py), declared
 * once here: a model's own one-off choices stay in its file.
 */
import type { Choice } from '../types.js';

/** The address family of aggregates, prefixes, IP ranges and addresses. */
export const IP_FAMILY_CHOICES: Choice[] = [
  { value: 4, label: 'IPv4' },
  { value: 6, label: 'IPv6' },
];

/** The status of VLANs and IP ranges. */
export const VLAN_STATUS_CHOICES: Choice[] = [
  { value: 'active', label: 'Active' },
  { value: 'reserved', label: 'Reserved' },
  { value: 'deprecated', label: 'Deprecated' },
];
