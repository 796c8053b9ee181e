// Field facts come from NetBox 3.4's REST API reference (scripts/import-reference.ts); hooks are hand-written.
import type { ModelDefinition } from '../types.js';
import { changeLoggedFields, countField, identityFields, slugField, uniqueNameField } from '../commonFields.js';

export const platform: ModelDefinition = {
  key: 'dcim.platform',
  app: 'dcim',
  model: 'platform',
  path: 'platforms',
  verboseName: 'platform',
  verboseNamePlural: 'platforms',
  fields: [
    ...identityFields,
    uniqueNameField(),
    slugField,
    {
      name: 'manufacturer',
      type: 'fk',
      target: 'dcim.manufacturer',
      onDelete: 'PROTECT',
      nullable: true,
      default: null,
    },
    { name: 'napalm_driver', type: 'string', blank: true, default: '', maxLength: 50 },
    { name: 'napalm_args', type: 'json', nullable: true, default: null },
    { name: 'description', type: 'string', blank: true, default: '', maxLength: 200 },
    ...changeLoggedFields,
    countField('device_count', 'dcim.device', 'platform'),
    countField('virtualmachine_count', 'virtualization.virtualmachine', 'platform'),
  ],
  brief: ['id', 'url', 'display', 'name', 'slug', 'device_count', 'virtualmachine_count'],
  ordering: ['name', 'id'],
  search: ['name', 'slug'],
};
