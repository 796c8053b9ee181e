/**
 * Choices that several dcim models share (NetBox keeps them in dcim/choices.py), declared
 * once here: a model's own one-off choices stay in its file.
 */
import type { Choice } from '../types.js';

/** The life cycle of a site or location (NetBox's SiteStatusChoices / LocationStatusChoices). */
export const SITE_STATUS_CHOICES: Choice[] = [
  { value: 'planned', label: 'Planned' },
  { value: 'staging', label: 'Staging' },
  { value: 'active', label: 'Active' },
  { value: 'decommissioning', label: 'Decommissioning' },
  { value: 'retired', label: 'Retired' },
];

/** The unit a weight is given in (racks, device types, module types). */
export const WEIGHT_UNIT_CHOICES: Choice[] = [
  { value: 'kg', label: 'Kilograms' },
  { value: 'g', label: 'Grams' },
  { value: 'lb', label: 'Pounds' },
  { value: 'oz', label: 'Ounces' },
];

/** Airflow directions of device types and devices. */
export const AIRFLOW_CHOICES: Choice[] = [
  { value: 'front-to-rear', label: 'Front to rear' },
  { value: 'rear-to-front', label: 'Rear to front' },
  { value: 'left-to-right', label: 'Left to right' },
  { value: 'right-to-left', label: 'Right to left' },
  { value: 'side-to-rear', label: 'Side to rear' },
  { value: 'passive', label: 'Passive' },
  { value: 'mixed', label: 'Mixed' },
];

/** Interface types (NetBox's InterfaceTypeChoices): interfaces and interface templates. */
export const INTERFACE_TYPE_CHOICES: Choice[] = [
  { value: 'virtual', label: 'Virtual' },
  { value: 'bridge', label: 'Bridge' },
  { value: 'lag', label: 'Link Aggregation Group (LAG)' },
  { value: '100base-fx', label: '100BASE-FX (10/100ME FIBER)' },
  { value: '100base-lfx', label: '100BASE-LFX (10/100ME FIBER)' },
  { value: '100base-tx', label: '100BASE-TX (10/100ME)' },
  { value: '100base-t1', label: '100BASE-T1 (10/100ME Single Pair)' },
  { value: '1000base-t', label: '1000BASE-T (1GE)' },
  { value: '2.5gbase-t', label: '2.5GBASE-T (2.5GE)' },
  { value: '5gbase-t', label: '5GBASE-T (5GE)' },
  { value: '10gbase-t', label: '10GBASE-T (10GE)' },
  { value: '10gbase-cx4', label: '10GBASE-CX4 (10GE)' },
  { value: '1000base-x-gbic', label: 'GBIC (1GE)' },
  { value: '1000base-x-sfp', label: 'SFP (1GE)' },
  { value: '10gbase-x-sfpp', label: 'SFP+ (10GE)' },
  { value: '10gbase-x-xfp', label: 'XFP (10GE)' },
  { value: '10gbase-x-xenpak', label: 'XENPAK (10GE)' },
  { value: '10gbase-x-x2', label: 'X2 (10GE)' },
  { value: '25gbase-x-sfp28', label: 'SFP28 (25GE)' },
  { value: '50gbase-x-sfp56', label: 'SFP56 (50GE)' },
  { value: '40gbase-x-qsfpp', label: 'QSFP+ (40GE)' },
  { value: '50gbase-x-sfp28', label: 'QSFP28 (50GE)' },
  { value: '100gbase-x-cfp', label: 'CFP (100GE)' },
  { value: '100gbase-x-cfp2', label: 'CFP2 (100GE)' },
  { value: '200gbase-x-cfp2', label: 'CFP2 (200GE)' },
  { value: '100gbase-x-cfp4', label: 'CFP4 (100GE)' },
  { value: '100gbase-x-cpak', label: 'Cisco CPAK (100GE)' },
  { value: '100gbase-x-qsfp28', label: 'QSFP28 (100GE)' },
  { value: '200gbase-x-qsfp56', label: 'QSFP56 (200GE)' },
  { value: '400gbase-x-qsfpdd', label: 'QSFP-DD (400GE)' },
  { value: '400gbase-x-osfp', label: 'OSFP (400GE)' },
  { value: '800gbase-x-qsfpdd', label: 'QSFP-DD (800GE)' },
  { value: '800gbase-x-osfp', label: 'OSFP (800GE)' },
  { value: '1000base-kx', label: '1000BASE-KX (1GE)' },
  { value: '10gbase-kr', label: '10GBASE-KR (10GE)' },
  { value: '10gbase-kx4', label: '10GBASE-KX4 (10GE)' },
  { value: '25gbase-kr', label: '25GBASE-KR (25GE)' },
  { value: '40gbase-kr4', label: '40GBASE-KR4 (40GE)' },
  { value: '50gbase-kr', label: '50GBASE-KR (50GE)' },
  { value: '100gbase-kp4', label: '100GBASE-KP4 (100GE)' },
  { value: '100gbase-kr2', label: '100GBASE-KR2 (100GE)' },
  { value: '100gbase-kr4', label: '100GBASE-KR4 (100GE)' },
  { value: 'ieee802.11a', label: 'IEEE 802.11a' },
  { value: 'ieee802.11g', label: 'IEEE 802.11b/g' },
  { value: 'ieee802.11n', label: 'IEEE 802.11n' },
  { value: 'ieee802.11ac', label: 'IEEE 802.11ac' },
  { value: 'ieee802.11ad', label: 'IEEE 802.11ad' },
  { value: 'ieee802.11ax', label: 'IEEE 802.11ax' },
  { value: 'ieee802.11ay', label: 'IEEE 802.11ay' },
  { value: 'ieee802.15.1', label: 'IEEE 802.15.1 (Bluetooth)' },
  { value: 'other-wireless', label: 'Other (Wireless)' },
  { value: 'gsm', label: 'GSM' },
  { value: 'cdma', label: 'CDMA' },
  { value: 'lte', label: 'LTE' },
  { value: 'sonet-oc3', label: 'OC-3/STM-1' },
  { value: 'sonet-oc12', label: 'OC-12/STM-4' },
  { value: 'sonet-oc48', label: 'OC-48/STM-16' },
  { value: 'sonet-oc192', label: 'OC-192/STM-64' },
  { value: 'sonet-oc768', label: 'OC-768/STM-256' },
  { value: 'sonet-oc1920', label: 'OC-1920/STM-640' },
  { value: 'sonet-oc3840', label: 'OC-3840/STM-1234' },
  { value: '1gfc-sfp', label: 'SFP (1GFC)' },
  { value: '2gfc-sfp', label: 'SFP (2GFC)' },
  { value: '4gfc-sfp', label: 'SFP (4GFC)' },
  { value: '8gfc-sfpp', label: 'SFP+ (8GFC)' },
  { value: '16gfc-sfpp', label: 'SFP+ (16GFC)' },
  { value: '32gfc-sfp28', label: 'SFP28 (32GFC)' },
  { value: '64gfc-qsfpp', label: 'QSFP+ (64GFC)' },
  { value: '128gfc-qsfp28', label: 'QSFP28 (128GFC)' },
  { value: 'infiniband-sdr', label: 'SDR (2 Gbps)' },
  { value: 'infiniband-ddr', label: 'DDR (4 Gbps)' },
  { value: 'infiniband-qdr', label: 'QDR (8 Gbps)' },
  { value: 'infiniband-fdr10', label: 'FDR10 (10 Gbps)' },
  { value: 'infiniband-fdr', label: 'FDR (13.5 Gbps)' },
  { value: 'infiniband-edr', label: 'EDR (25 Gbps)' },
  { value: 'infiniband-hdr', label: 'HDR (50 Gbps)' },
  { value: 'infiniband-ndr', label: 'NDR (100 Gbps)' },
  { value: 'infiniband-xdr', label: 'XDR (250 Gbps)' },
  { value: 't1', label: 'T1 (1.544 Mbps)' },
  { value: 'e1', label: 'E1 (2.048 Mbps)' },
  { value: 't3', label: 'T3 (45 Mbps)' },
  { value: 'e3', label: 'E3 (34 Mbps)' },
  { value: 'xdsl', label: 'xDSL' },
  { value: 'docsis', label: 'DOCSIS' },
  { value: 'gpon', label: 'GPON (2.5 Gbps / 1.25 Gps)' },
  { value: 'xg-pon', label: 'XG-PON (10 Gbps / 2.5 Gbps)' },
  { value: 'xgs-pon', label: 'XGS-PON (10 Gbps)' },
  { value: 'ng-pon2', label: 'NG-PON2 (TWDM-PON) (4x10 Gbps)' },
  { value: 'epon', label: 'EPON (1 Gbps)' },
  { value: '10g-epon', label: '10G-EPON (10 Gbps)' },
  { value: 'cisco-stackwise', label: 'Cisco StackWise' },
  { value: 'cisco-stackwise-plus', label: 'Cisco StackWise Plus' },
  { value: 'cisco-flexstack', label: 'Cisco FlexStack' },
  { value: 'cisco-flexstack-plus', label: 'Cisco FlexStack Plus' },
  { value: 'cisco-stackwise-80', label: 'Cisco StackWise-80' },
  { value: 'cisco-stackwise-160', label: 'Cisco StackWise-160' },
  { value: 'cisco-stackwise-320', label: 'Cisco StackWise-320' },
  { value: 'cisco-stackwise-480', label: 'Cisco StackWise-480' },
  { value: 'cisco-stackwise-1t', label: 'Cisco StackWise-1T' },
  { value: 'juniper-vcp', label: 'Juniper VCP' },
  { value: 'extreme-summitstack', label: 'Extreme SummitStack' },
  { value: 'extreme-summitstack-128', label: 'Extreme SummitStack-128' },
  { value: 'extreme-summitstack-256', label: 'Extreme SummitStack-256' },
  { value: 'extreme-summitstack-512', label: 'Extreme SummitStack-512' },
  { value: 'other', label: 'Other' },
];

/** PoE roles of interfaces and interface templates: powered device or power source. */
export const INTERFACE_POE_MODE_CHOICES: Choice[] = [
  { value: 'pd', label: 'PD' },
  { value: 'pse', label: 'PSE' },
];

/** PoE types of interfaces and interface templates. */
export const INTERFACE_POE_TYPE_CHOICES: Choice[] = [
  { value: 'type1-ieee802.3af', label: '802.3af (Type 1)' },
  { value: 'type2-ieee802.3at', label: '802.3at (Type 2)' },
  { value: 'type3-ieee802.3bt', label: '802.3bt (Type 3)' },
  { value: 'type4-ieee802.3bt', label: '802.3bt (Type 4)' },
  { value: 'passive-24v-2pair', label: 'Passive 24V (2-pair)' },
  { value: 'passive-24v-4pair', label: 'Passive 24V (4-pair)' },
  { value: 'passive-48v-2pair', label: 'Passive 48V (2-pair)' },
  { value: 'passive-48v-4pair', label: 'Passive 48V (4-pair)' },
];

/** 802.1Q modes of device and virtual machine interfaces. */
export const INTERFACE_MODE_CHOICES: Choice[] = [
  { value: 'access', label: 'Access' },
  { value: 'tagged', label: 'Tagged' },
  { value: 'tagged-all', label: 'Tagged (All)' },
];
