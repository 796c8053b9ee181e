// Field facts come from NetBox 3.4's REST API reference (scripts/import-reference.ts); hooks are hand-written.
import { countField } from '../commonFields.js';
import { contactFilters } from '../filterSpecs.js';
import { organizationalModel } from '../organizationalModel.js';

export const clustergroup = organizationalModel({
  key: 'virtualization.clustergroup',
  path: 'cluster-groups',
  verboseName: 'cluster group',
  counts: [countField('cluster_count', 'virtualization.cluster', 'group')],
  brief: ['id', 'url', 'display', 'name', 'slug', 'cluster_count'],
  filters: { ...contactFilters },
});
