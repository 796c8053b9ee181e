/**
 * The read-only fields a cabled component shows (NetBox's CabledObjectModel and
 * PathEndpoint mixins). Cables and cable paths are not modelled yet, so each is the
 * constant NetBox shows for a component without a cable; cabling replaces them here,
 * once, for every component that spreads these lists.
 */
import type { FieldDefinition } from '../types.js';

/** The cable on the component and what is at its far end. */
export const cableEndFields: FieldDefinition[] = [
  { name: 'cable', type: 'computed', readOnly: true, nullable: true, value: null },
  { name: 'cable_end', type: 'computed', readOnly: true, value: '' },
  { name: 'link_peers', type: 'computed', readOnly: true, value: [] },
  { name: 'link_peers_type', type: 'computed', readOnly: true, nullable: true, value: null },
];

/** Where the component's cable path ends (console, power and network endpoints; not pass-through ports). */
export const pathEndpointFields: FieldDefinition[] = [
  { name: 'connected_endpoints', type: 'computed', readOnly: true, nullable: true, value: null },
  { name: 'connected_endpoints_type', type: 'computed', readOnly: true, nullable: true, value: null },
  { name: 'connected_endpoints_reachable', type: 'computed', readOnly: true, nullable: true, value: null },
];

/** Cabled or marked connected. */
export const occupiedField: FieldDefinition = { name: '_occupied', type: 'computed', readOnly: true, value: false };
