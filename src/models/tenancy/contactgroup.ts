// Field facts come from NetBox 3.4's REST API reference (scripts/import-reference.ts); hooks are hand-written.
import { countField } from '../commonFields.js';
import { nestedGroupModel } from '../nestedGroupModel.js';

export const contactgroup = nestedGroupModel({
  key: 'tenancy.contactgroup',
  path: 'contact-groups',
  verboseName: 'contact group',
  uniqueAmongSiblings: true,
  // Only (parent, name): top-level groups may share a name, and slugs are never unique.
  unique: [{ fields: ['parent', 'name'] }],
  // NetBox counts contacts of descendant groups too; this counts direct ones
  counts: [countField('contact_count', 'tenancy.contact', 'group')],
});
