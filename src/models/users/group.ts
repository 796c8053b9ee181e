// Field facts come from NetBox 3.4's REST API reference (users.json, auth.group); hooks are hand-written.
import type { ModelDefinition } from '../types.js';
import { displayAttribute } from '../hooks.js';

/** Django's auth.group, served at /api/users/groups/: members are set through the user's `groups`. */
export const group: ModelDefinition = {
  key: 'auth.group',
  app: 'users',
  model: 'group',
  path: 'groups',
  verboseName: 'group',
  verboseNamePlural: 'groups',
  fields: [
    { name: 'id', type: 'id', readOnly: true },
    { name: 'url', type: 'url', readOnly: true },
    { name: 'display', type: 'display', readOnly: true },
    { name: 'name', type: 'string', required: true, unique: true, maxLength: 150 },
    {
      name: 'user_count',
      type: 'count',
      readOnly: true,
      annotated: true,
      count: { model: 'auth.user', via: 'groups' },
    },
  ],
  brief: ['id', 'url', 'display', 'name'],
  ordering: ['name', 'id'],
  orderingFields: ['id', 'name'],
  unique: [{ fields: ['name'] }],
  search: ['name'],
  hooks: {
    display: displayAttribute('name'),
  },
};
