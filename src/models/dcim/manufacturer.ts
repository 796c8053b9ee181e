// Field facts come from NetBox 3.4's REST API reference (scripts/import-reference.ts); hooks are hand-written.
import { countField } from '../commonFields.js';
import { contactFilters } from '../filterSpecs.js';
import { organizationalModel } from '../organizationalModel.js';

export const manufacturer = organizationalModel({
  key: 'dcim.manufacturer',
  path: 'manufacturers',
  verboseName: 'manufacturer',
  counts: [
    countField('devicetype_count', 'dcim.devicetype', 'manufacturer'),
    countField('inventoryitem_count', 'dcim.inventoryitem', 'manufacturer'),
    countField('platform_count', 'dcim.platform', 'manufacturer'),
  ],
  brief: ['id', 'url', 'display', 'name', 'slug', 'devicetype_count'],
  filters: { ...contactFilters },
});
