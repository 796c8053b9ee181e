// Field facts come from NetBox 3.4's REST API reference (scripts/import-reference.ts); hooks are hand-written.
import { changeLoggedFields, countField, descriptionField, identityFields, tenantField } from '../commonFields.js';
import { contactFilters, siteScopeFilters, tenancyFilters } from '../filterSpecs.js';
import type { ModelDefinition } from '../modelDefinition.js';
import { CLUSTER_STATUS_CHOICES } from './choices.js';

export const cluster: ModelDefinition = {
  key: 'virtualization.cluster',
  app: 'virtualization',
  model: 'cluster',
  path: 'clusters',
  verboseName: 'cluster',
  verboseNamePlural: 'clusters',
  fields: [
    ...identityFields,
    { name: 'name', type: 'string', required: true, maxLength: 100 },
    { name: 'type', type: 'fk', target: 'virtualization.clustertype', onDelete: 'PROTECT', required: true },
    {
      name: 'group',
      type: 'fk',
      target: 'virtualization.clustergroup',
      onDelete: 'PROTECT',
      nullable: true,
      default: null,
      defaultOnPut: true,
    },
    {
      name: 'status',
      type: 'choice',
      default: 'active',
      choices: CLUSTER_STATUS_CHOICES,
    },
    tenantField,
    {
      name: 'site',
      type: 'fk',
      target: 'dcim.site',
      onDelete: 'PROTECT',
      nullable: true,
      default: null,
      defaultOnPut: true,
    },
    descriptionField,
    { name: 'comments', type: 'string', blank: true, default: '' },
    ...changeLoggedFields,
    countField('device_count', 'dcim.device', 'cluster'),
    countField('virtualmachine_count', 'virtualization.virtualmachine', 'cluster'),
  ],
  brief: ['id', 'url', 'display', 'name', 'virtualmachine_count'],
  ordering: ['name', 'id'],
  search: ['name', 'comments'],
  unique: [{ fields: ['group', 'name'] }, { fields: ['site', 'name'] }],
  filters: {
    ...tenancyFilters,
    ...contactFilters,
    ...siteScopeFilters(['site']),
  },
};
