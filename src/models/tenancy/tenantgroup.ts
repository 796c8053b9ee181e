// Field facts come from NetBox 3.4's REST API reference (scripts/import-reference.ts); hooks are hand-written.
import { countField } from '../commonFields.js';
import { nestedGroupModel } from '../nestedGroupModel.js';

export const tenantgroup = nestedGroupModel({
  key: 'tenancy.tenantgroup',
  path: 'tenant-groups',
  verboseName: 'tenant group',
  // NetBox counts objects assigned to descendants too; this counts direct ones
  counts: [countField('tenant_count', 'tenancy.tenant', 'group')],
});
