// Field facts come from NetBox 3.4's REST API reference (scripts/import-reference.ts); hooks are hand-written.
import { changeLoggedFields, descriptionField, identityFields } from '../commonFields.js';
import { treeFilters } from '../filterSpecs.js';
import type { ModelDefinition } from '../modelDefinition.js';

export const contact: ModelDefinition = {
  key: 'tenancy.contact',
  app: 'tenancy',
  model: 'contact',
  path: 'contacts',
  verboseName: 'contact',
  verboseNamePlural: 'contacts',
  fields: [
    ...identityFields,
    {
      name: 'group',
      type: 'fk',
      target: 'tenancy.contactgroup',
      onDelete: 'SET_NULL',
      nullable: true,
      default: null,
      defaultOnPut: true,
    },
    { name: 'name', type: 'string', required: true, maxLength: 100 },
    { name: 'title', type: 'string', blank: true, default: '', maxLength: 100 },
    { name: 'phone', type: 'string', blank: true, default: '', maxLength: 50 },
    { name: 'email', type: 'string', blank: true, default: '', maxLength: 254, format: 'email' },
    { name: 'address', type: 'string', blank: true, default: '', maxLength: 200 },
    { name: 'link', type: 'string', blank: true, default: '', maxLength: 200, format: 'uri' },
    descriptionField,
    { name: 'comments', type: 'string', blank: true, default: '' },
    ...changeLoggedFields,
  ],
  brief: ['id', 'url', 'display', 'name'],
  ordering: ['name', 'id'],
  search: ['name', 'title', 'phone', 'email', 'address', 'link', 'comments'],
  unique: [{ fields: ['group', 'name'] }],
  filters: {
    ...treeFilters('group_id', 'group', 'tenancy.contactgroup', ['group']),
    description: false,
    comments: false,
  },
};
