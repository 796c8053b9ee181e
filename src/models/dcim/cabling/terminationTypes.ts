/** What a cable may connect (NetBox's CABLE_TERMINATION_MODELS and COMPATIBLE_TERMINATION_TYPES). */

export const CABLE_TERMINATION_MODELS = [
  'circuits.circuittermination',
  'dcim.consoleport',
  'dcim.consoleserverport',
  'dcim.frontport',
  'dcim.interface',
  'dcim.powerfeed',
  'dcim.poweroutlet',
  'dcim.powerport',
  'dcim.rearport',
];

/** By model name: which models the other end of a cable may be. */
export const COMPATIBLE_TERMINATION_TYPES: Record<string, string[]> = {
  circuittermination: ['interface', 'frontport', 'rearport', 'circuittermination'],
  consoleport: ['consoleserverport', 'frontport', 'rearport'],
  consoleserverport: ['consoleport', 'frontport', 'rearport'],
  interface: ['interface', 'circuittermination', 'frontport', 'rearport'],
  frontport: ['consoleport', 'consoleserverport', 'interface', 'frontport', 'rearport', 'circuittermination'],
  powerfeed: ['powerport'],
  poweroutlet: ['powerport'],
  powerport: ['poweroutlet', 'powerfeed'],
  rearport: ['consoleport', 'consoleserverport', 'interface', 'frontport', 'rearport', 'circuittermination'],
};
