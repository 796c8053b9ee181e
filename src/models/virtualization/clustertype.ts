// Field facts come from NetBox 3.4's REST API reference (scripts/import-reference.ts); hooks are hand-written.
import { countField } from '../commonFields.js';
import { organizationalModel } from '../organizationalModel.js';

export const clustertype = organizationalModel({
  key: 'virtualization.clustertype',
  path: 'cluster-types',
  verboseName: 'cluster type',
  counts: [countField('cluster_count', 'virtualization.cluster', 'type')],
  brief: ['id', 'url', 'display', 'name', 'slug', 'cluster_count'],
});
