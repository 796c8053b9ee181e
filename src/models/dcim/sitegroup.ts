// Field facts come from NetBox 3.4's REST API reference (scripts/import-reference.ts); hooks are hand-written.
import { countField } from '../commonFields.js';
import { contactFilters } from '../filterSpecs.js';
import { nestedGroupModel } from '../nestedGroupModel.js';

export const sitegroup = nestedGroupModel({
  key: 'dcim.sitegroup',
  path: 'site-groups',
  verboseName: 'site group',
  uniqueAmongSiblings: true,
  // NetBox counts objects assigned to descendants too; this counts direct ones
  counts: [countField('site_count', 'dcim.site', 'group')],
  filters: { ...contactFilters },
});
