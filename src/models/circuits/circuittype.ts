// Field facts come from NetBox 3.4's REST API reference (scripts/import-reference.ts); hooks are hand-written.
import { countField } from '../commonFields.js';
import { organizationalModel } from '../organizationalModel.js';

export const circuittype = organizationalModel({
  key: 'circuits.circuittype',
  path: 'circuit-types',
  verboseName: 'circuit type',
  counts: [countField('circuit_count', 'circuits.circuit', 'type')],
  brief: ['id', 'url', 'display', 'name', 'slug', 'circuit_count'],
});
