/**
 * What every cabled object is found by (NetBox's CabledObjectFilterSet: device components,
 * power feeds, circuit terminations).
 */
import type { FilterSpec } from '../types.js';
import { noneExist } from '../filterSpecs.js';

/** Cables are not modelled yet: no object has a cable end, a cable or a connection. */
export const cabledObjectFilters: Record<string, FilterSpec> = {
  cable_end: { kind: 'field', field: 'cable_end', value: 'string', lookups: ['n'], choices: ['A', 'B'] },
  cabled: noneExist,
  connected: noneExist,
  // Occupied means cabled or marked connected; without cables, only the mark counts.
  occupied: { kind: 'method', value: 'boolean', single: true, method: ([occupied]) => ({ mark_connected: occupied }) },
};
