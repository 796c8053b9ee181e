// Field facts come from NetBox 3.4's REST API reference (scripts/import-reference.ts); hooks are hand-written.
import { countField } from '../commonFields.js';
import { organizationalModel } from '../organizationalModel.js';

export const platform = organizationalModel({
  key: 'dcim.platform',
  path: 'platforms',
  verboseName: 'platform',
  fields: [
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
  ],
  counts: [
    countField('device_count', 'dcim.device', 'platform'),
    countField('virtualmachine_count', 'virtualization.virtualmachine', 'platform'),
  ],
  brief: ['id', 'url', 'display', 'name', 'slug', 'device_count', 'virtualmachine_count'],
});
