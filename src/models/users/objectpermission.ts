// Field facts come from NetBox 3.4's REST API reference (users.json, users.objectpermission); hooks are hand-written.
import type { FieldErrors } from '../../errors/fieldErrors.js';
import { descriptionField, identityFields } from '../commonFields.js';
import { contentTypeIdFilter } from '../contentTypeIdFilter.js';
import { pairFilters } from '../filterSpecs.js';
import type { ModelDefinition } from '../modelDefinition.js';

/**
 * '<app_label>.<model>'. NetBox accepts any installed content type; models this service does
 * not serve yet (e.g. virtualization.*) are accepted too, so that permission sets written for
 * NetBox load unchanged, and simply match nothing here.
 */
const CONTENT_TYPE = /^[a-z][a-z0-9_]*\.[a-z][a-z0-9_]*$/;

/**
 * NetBox's rules for a permission beyond field types: object types must be content type labels,
 * actions a non-empty list of short names, constraints null, an object or a list of objects
 * (each an AND of lookups; the list ORs them). Lookup names are checked when a constraint is
 * evaluated (src/auth/constraints.ts), as NetBox does.
 */
function permissionErrors(obj: Record<string, unknown>): FieldErrors | undefined {
  const errors: FieldErrors = {};
  const types = obj.object_types;
  if (Array.isArray(types)) {
    if (types.length === 0) errors.object_types = ['This list may not be empty.'];
    for (const label of types) {
      if (errors.object_types) break;
      if (typeof label !== 'string' || !CONTENT_TYPE.test(label)) {
        errors.object_types = ["Invalid value. Specify a content type as '<app_label>.<model_name>'."];
      }
    }
  }
  const actions = obj.actions;
  if (Array.isArray(actions)) {
    if (actions.length === 0) errors.actions = ['This list may not be empty.'];
    else if (actions.some((a) => typeof a !== 'string' || a.length > 30))
      errors.actions = ['Ensure this field has no more than 30 characters.'];
    else if (actions.some((a) => a === '')) errors.actions = ['This field may not be blank.'];
  }
  const constraints = obj.constraints;
  const isLookupSet = (c: unknown) => c !== null && typeof c === 'object' && !Array.isArray(c);
  if (constraints !== null && constraints !== undefined && !isLookupSet(constraints)) {
    if (!Array.isArray(constraints) || !constraints.every(isLookupSet)) {
      errors.constraints = ['Constraints must be a dictionary of lookups or a list of dictionaries.'];
    }
  }
  return Object.keys(errors).length ? errors : undefined;
}

export const objectpermission: ModelDefinition = {
  key: 'users.objectpermission',
  app: 'users',
  model: 'objectpermission',
  path: 'permissions',
  verboseName: 'permission',
  verboseNamePlural: 'permissions',
  fields: [
    ...identityFields,
    { name: 'name', type: 'string', required: true, maxLength: 100 },
    descriptionField,
    { name: 'enabled', type: 'boolean', default: true },
    {
      name: 'object_types',
      type: 'array',
      items: 'string',
      required: true,
      help: "content types covered, '<app_label>.<model>'",
    },
    { name: 'groups', type: 'm2m', target: 'auth.group', default: [] },
    { name: 'users', type: 'm2m', target: 'auth.user', default: [] },
    {
      name: 'actions',
      type: 'array',
      items: 'string',
      required: true,
      help: 'view, add, change, delete or a custom action (grant)',
    },
    {
      name: 'constraints',
      type: 'json',
      nullable: true,
      default: null,
      help: "null/{} = all objects; an object = AND of lookups; a list = OR of them; '$user' is the requesting user",
    },
  ],
  brief: ['id', 'url', 'display', 'name', 'enabled', 'object_types', 'groups', 'users', 'actions'],
  ordering: ['name', 'id'],
  // NetBox's: its groups, users and constraints are orderable too
  orderingFields: ['id', 'name', 'description', 'enabled', 'object_types', 'groups', 'users', 'actions', 'constraints'],
  search: ['name', 'description'],
  filters: {
    // NetBox names the types by content-type id here
    object_types: contentTypeIdFilter('object_types'),
    user_id: { kind: 'related', target: 'auth.user', path: ['users'] },
    user: { kind: 'related', target: 'auth.user', by: 'username', path: ['users'] },
    ...pairFilters('group_id', 'group', 'auth.group', ['groups'], 'name'),
    users_id: false,
    groups_id: false,
    groups: false,
  },
  changeLogged: false,
  exemptable: false,
  accessControl: true,
  hooks: {
    validate: async (obj) => permissionErrors(obj),
  },
};
