// Field facts come from NetBox 3.4's REST API reference (scripts/import-reference.ts); hooks are hand-written.
import { countField } from '../commonFields.js';
import { organizationalModel } from '../organizationalModel.js';

export const rir = organizationalModel({
  key: 'ipam.rir',
  path: 'rirs',
  verboseName: 'RIR',
  fields: [{ name: 'is_private', type: 'boolean', default: false }],
  counts: [countField('aggregate_count', 'ipam.aggregate', 'rir')],
  brief: ['id', 'url', 'display', 'name', 'slug', 'aggregate_count'],
});
