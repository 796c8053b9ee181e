import { BRANCH_STATUSES } from '../../branches/branchRecord.js';
import type { FieldDefinition } from '../../models/fieldDefinition.js';
import type { ModelDefinition } from '../../models/modelDefinition.js';
import { type OptionsBody, optionsBody } from '../face/options.js';

/**
 * The branch's fields as netbox-branching's serializer declares them, for OPTIONS (what
 * pynetbox's `choices()` and form builders read). A branch is kept by main's log but is no
 * registry model (README: Branches), so its shape is declared here, as data, once.
 */
const FIELDS: FieldDefinition[] = [
  { name: 'id', type: 'id', readOnly: true },
  { name: 'url', type: 'url', readOnly: true },
  { name: 'display', type: 'display', readOnly: true },
  { name: 'name', type: 'string', required: true, maxLength: 100 },
  { name: 'owner', type: 'fk', target: 'auth.user', readOnly: true },
  { name: 'description', type: 'string', maxLength: 200 },
  { name: 'schema_id', type: 'string', readOnly: true },
  {
    name: 'status',
    type: 'choice',
    readOnly: true,
    choices: BRANCH_STATUSES.map(([value, label]) => ({ value, label })),
  },
  { name: 'applied_migrations', type: 'json', readOnly: true },
  { name: 'last_sync', type: 'datetime', readOnly: true, nullable: true },
  { name: 'merged_time', type: 'datetime', readOnly: true, nullable: true },
  { name: 'merged_by', type: 'fk', target: 'auth.user', readOnly: true },
  { name: 'comments', type: 'string' },
  { name: 'tags', type: 'tags', target: 'extras.tag' },
  { name: 'custom_fields', type: 'custom_fields' },
  { name: 'created', type: 'datetime', readOnly: true },
  { name: 'last_updated', type: 'datetime', readOnly: true },
];

/**
 * The branch's shape, also what the generic list filters are derived from (filterSet.ts): each
 * field brings its type's filters and lookups; netbox-branching's BranchFilterSet (a
 * NetBoxModelFilterSet: id, name, description, created, last_updated, tag, q over name and
 * description; status, last_sync, owner_id, owner by username) decides which stay.
 */
export const BRANCH_SHAPE = {
  key: 'netbox_branching.branch',
  app: 'plugins/branching',
  model: 'branch',
  path: 'branches',
  verboseName: 'branch',
  verboseNamePlural: 'branches',
  fields: FIELDS,
  brief: ['id', 'url', 'display', 'name'],
  ordering: ['name'],
  search: ['name', 'description'],
  filters: {
    owner: { kind: 'related', target: 'auth.user', by: 'username', path: ['owner'] },
    // Not in the plugin's filter set: comments, and who merged it.
    comments: false,
    merged_by_id: false,
    merged_by: false,
  },
} satisfies ModelDefinition;

/** OPTIONS of the branch list (`detail` false) or of one branch. */
export function branchOptions(detail: boolean, may: { add: boolean; change: boolean }): OptionsBody {
  return optionsBody(detail ? 'Branch' : 'Branch List', BRANCH_SHAPE, detail, may);
}
