// Field facts come from NetBox 3.4's REST API reference (users.json, auth.group); hooks are hand-written.
import { countField, identityFields } from '../commonFields.js';
import type { ModelDefinition } from '../modelDefinition.js';

/** Django's auth.group, served at /api/users/groups/: members are set through the user's `groups`. */
export const group: ModelDefinition = {
  key: 'auth.group',
  app: 'users',
  model: 'group',
  path: 'groups',
  verboseName: 'group',
  verboseNamePlural: 'groups',
  fields: [
    ...identityFields,
    { name: 'name', type: 'string', required: true, unique: true, maxLength: 150 },
    countField('user_count', 'auth.user', 'groups'),
  ],
  brief: ['id', 'url', 'display', 'name'],
  ordering: ['name', 'id'],
  search: ['name'],
  changeLogged: false,
  exemptable: false,
  accessControl: true,
};
