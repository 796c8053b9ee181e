/**
 * The choice tables of ipam models (NetBox keeps them in ipam/choices.py), one declaration
 * each: a model's file names the table, this file spells it.
 */
import type { Choice } from '../fieldDefinition.js';

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

/** The transport protocol of a service (or service template). */
export const SERVICE_PROTOCOL_CHOICES: Choice[] = [
  { value: 'tcp', label: 'TCP' },
  { value: 'udp', label: 'UDP' },
  { value: 'sctp', label: 'SCTP' },
];

/** The kinds of L2VPN. */
export const L2VPN_TYPE_CHOICES: Choice[] = [
  { value: 'vpws', label: 'VPWS' },
  { value: 'vpls', label: 'VPLS' },
  { value: 'vxlan', label: 'VXLAN' },
  { value: 'vxlan-evpn', label: 'VXLAN-EVPN' },
  { value: 'mpls-evpn', label: 'MPLS EVPN' },
  { value: 'pbb-evpn', label: 'PBB EVPN' },
  { value: 'epl', label: 'EPL' },
  { value: 'evpl', label: 'EVPL' },
  { value: 'ep-lan', label: 'Ethernet Private LAN' },
  { value: 'evp-lan', label: 'Ethernet Virtual Private LAN' },
  { value: 'ep-tree', label: 'Ethernet Private Tree' },
  { value: 'evp-tree', label: 'Ethernet Virtual Private Tree' },
];

/** The role of an IP address (loopback, VIP, ...). */
export const IP_ADDRESS_ROLE_CHOICES: Choice[] = [
  { value: 'loopback', label: 'Loopback' },
  { value: 'secondary', label: 'Secondary' },
  { value: 'anycast', label: 'Anycast' },
  { value: 'vip', label: 'VIP' },
  { value: 'vrrp', label: 'VRRP' },
  { value: 'hsrp', label: 'HSRP' },
  { value: 'glbp', label: 'GLBP' },
  { value: 'carp', label: 'CARP' },
];

/** The life cycle of an IP address. */
export const IP_ADDRESS_STATUS_CHOICES: Choice[] = [
  { value: 'active', label: 'Active' },
  { value: 'reserved', label: 'Reserved' },
  { value: 'deprecated', label: 'Deprecated' },
  { value: 'dhcp', label: 'DHCP' },
  { value: 'slaac', label: 'SLAAC' },
];

/** The life cycle of a prefix (or IP range). */
export const PREFIX_STATUS_CHOICES: Choice[] = [
  { value: 'container', label: 'Container' },
  { value: 'active', label: 'Active' },
  { value: 'reserved', label: 'Reserved' },
  { value: 'deprecated', label: 'Deprecated' },
];

/** The first-hop redundancy protocols. */
export const FHRP_PROTOCOL_CHOICES: Choice[] = [
  { value: 'vrrp2', label: 'VRRPv2' },
  { value: 'vrrp3', label: 'VRRPv3' },
  { value: 'carp', label: 'CARP' },
  { value: 'clusterxl', label: 'ClusterXL' },
  { value: 'hsrp', label: 'HSRP' },
  { value: 'glbp', label: 'GLBP' },
  { value: 'other', label: 'Other' },
];

/** How an FHRP group authenticates. */
export const FHRP_AUTH_TYPE_CHOICES: Choice[] = [
  { value: 'plaintext', label: 'Plaintext' },
  { value: 'md5', label: 'MD5' },
];
