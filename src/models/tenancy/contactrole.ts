// Field facts come from NetBox 3.4's REST API reference (scripts/import-reference.ts); hooks are hand-written.
import { organizationalModel } from '../organizationalModel.js';

export const contactrole = organizationalModel({
  key: 'tenancy.contactrole',
  path: 'contact-roles',
  verboseName: 'contact role',
});
