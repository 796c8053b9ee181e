/**
 * The fields a cabled object shows (NetBox's CabledObjectModel and PathEndpoint mixins):
 * its cable and end, kept by the cable (read-only here), and what is at the far end of
 * the cable (or an interface's wireless link) and of the whole path, traced on read
 * (src/models/dcim/cabling/).
 */
import type { FieldDefinition } from '../fieldDefinition.js';
import { pagePaths, pagePeers } from './cabling/pagePaths.js';
import { CABLE_TERMINATION_MODELS } from './cabling/terminationTypes.js';
import { destinations } from './cabling/tracePath.js';

const PATH_DEPENDS = [
  'dcim.cable',
  'dcim.frontport',
  'dcim.rearport',
  'circuits.circuittermination',
  'wireless.wirelesslink',
];

/** The cable on the object and what is at its far end. */
export const cableEndFields: FieldDefinition[] = [
  {
    name: 'cable',
    type: 'fk',
    target: 'dcim.cable',
    onDelete: 'SET_NULL',
    readOnly: true,
    nullable: true,
    default: null,
    clearsWith: { cable_end: '' },
    // NetBox's nested forms of cabled objects give the cable's id only
    briefAttribute: 'id',
  },
  { name: 'cable_end', type: 'string', readOnly: true, default: '', maxLength: 1 },
  {
    name: 'link_peers',
    type: 'computed',
    readOnly: true,
    value: [],
    references: 'many',
    targets: CABLE_TERMINATION_MODELS,
    dependsOn: ['dcim.cable', 'wireless.wirelesslink'],
    computeMany: (objs, view, model, memo) => pagePeers(objs, view, model, memo),
  },
  {
    name: 'link_peers_type',
    type: 'computed',
    readOnly: true,
    nullable: true,
    value: null,
    dependsOn: ['dcim.cable', 'wireless.wirelesslink'],
    computeMany: async (objs, view, model, memo) =>
      (await pagePeers(objs, view, model, memo)).map((peers) => peers[0]?.object_type ?? null),
  },
];

/** Where the object's cable path ends (console, power and network endpoints; not pass-through ports). */
export const pathEndpointFields: FieldDefinition[] = [
  {
    name: 'connected_endpoints',
    type: 'computed',
    readOnly: true,
    nullable: true,
    value: null,
    references: 'many',
    targets: [...CABLE_TERMINATION_MODELS, 'circuits.providernetwork'],
    dependsOn: PATH_DEPENDS,
    computeMany: async (objs, view, model, memo) =>
      (await pagePaths(objs, view, model, memo)).map((path) => {
        const ends = destinations(path);
        return ends.length ? ends : null;
      }),
  },
  {
    name: 'connected_endpoints_type',
    type: 'computed',
    readOnly: true,
    nullable: true,
    value: null,
    dependsOn: PATH_DEPENDS,
    computeMany: async (objs, view, model, memo) =>
      (await pagePaths(objs, view, model, memo)).map((path) => destinations(path)[0]?.object_type ?? null),
  },
  {
    name: 'connected_endpoints_reachable',
    type: 'computed',
    readOnly: true,
    nullable: true,
    value: null,
    dependsOn: PATH_DEPENDS,
    computeMany: async (objs, view, model, memo) =>
      (await pagePaths(objs, view, model, memo)).map((path) => (path ? path.isComplete && path.isActive : null)),
  },
];

/** Cabled, marked connected, or (an interface) on a wireless link. */
export const occupiedField: FieldDefinition = {
  name: '_occupied',
  type: 'computed',
  readOnly: true,
  value: false,
  computeMany: async (objs) =>
    objs.map((o) => typeof o.cable === 'number' || o.mark_connected === true || typeof o.wireless_link === 'number'),
};
