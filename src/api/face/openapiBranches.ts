/**
 * netbox-branching's REST API in the document (README: Branches): the branches (list with
 * their filters, create, read, replace, change, delete), their actions (sync, merge, revert,
 * archive), the per-object changes and the branch events, plus the `X-NetBox-Branch` header
 * on the models' operations. The Branch components come from the branch's one declaration
 * (branchMetadata.ts's BRANCH_SHAPE) through the same generator as the models'.
 */
import type { BranchEventType } from '../../branches/branchEvents.js';
import type { ModelRegistry } from '../../models/registry.js';
import { BRANCH_HEADER } from '../branches/branchHeader.js';
import { BRANCH_SHAPE } from '../branches/branchMetadata.js';
import { BRANCHES_PATH, CHANGES_PATH, EVENTS_PATH } from '../branches/renderBranch.js';
import type { NestedRef } from './openapiFieldSchemas.js';
import {
  errorResponses,
  json,
  nullable,
  operationPrefix,
  pageLinkSchemas,
  ref,
  type Schema,
} from './openapiFragments.js';
import { filterParameters } from './openapiModelPaths.js';
import { modelSchemas } from './openapiModelSchemas.js';

const NAME = 'Branch';
const TAGS = ['plugins'];
const PREFIX = operationPrefix(BRANCH_SHAPE);
const ACTIONS = {
  sync: "Apply main's changes since the fork onto the branch (main's value wins where both changed a field)",
  merge: "Apply the branch's changes to main as one request (409 with the conflicts when both changed a field)",
  revert: 'Revert the merge request as one unit: the changes undone, the branch ready again',
  archive: 'Close a merged branch for good',
} as const;

/** The shared parameter of the header: components.parameters.branch. */
export function branchHeaderParameter(): Schema {
  return {
    name: BRANCH_HEADER,
    in: 'header',
    required: false,
    description:
      'The schema_id of an open branch: the request reads and writes inside it. An unknown, merged or archived ' +
      'branch is 400; a write to an access-control model (users, tokens, permissions) inside a branch is 400.',
    schema: { type: 'string' },
  };
}

/** Branch, BriefBranch, NestedBranch, PaginatedBranchList, WritableBranch, PatchedWritableBranch, and the rest. */
export function branchSchemas(nestedRef: NestedRef): Record<string, Schema> {
  const schemas = modelSchemas(BRANCH_SHAPE, NAME, nestedRef);
  // The branch list has no brief form: its page holds complete branches only.
  const page = schemas[`Paginated${NAME}List`] as { properties: Record<string, Schema> };
  page.properties.results = { type: 'array', items: ref(NAME) };
  const pageOf = (item: string, description: string): Schema => ({
    type: 'object',
    description,
    properties: { count: { type: 'integer' }, ...pageLinkSchemas(), results: { type: 'array', items: ref(item) } },
    required: ['count', 'next', 'previous', 'results'],
  });
  const choice = (values: string[]): Schema => ({
    type: 'object',
    properties: { value: { enum: values }, label: { type: 'string' } },
    required: ['value', 'label'],
  });
  const user = nullable(nestedRef('auth.user'));
  return {
    ...schemas,
    BranchActionRequest: {
      type: 'object',
      description: 'true runs the action; false (the default) is a dry run: the same decision, nothing written.',
      properties: { commit: { type: 'boolean', default: false } },
    },
    BranchActionResult: {
      type: 'object',
      description:
        'The outcome (or, with commit false, the plan) of an action: the branch as it is (or would be), and what ' +
        'the action wrote: main_values (sync), changes and conflicts (merge), request_id, reverted_request_id.',
      properties: {
        commit: { type: 'boolean' },
        branch: ref(NAME),
        request_id: { type: 'string', format: 'uuid' },
        reverted_request_id: { type: 'string', format: 'uuid' },
        merge_request: { type: 'string', format: 'uuid' },
        changes: { type: 'integer' },
        conflicts: { type: 'array', items: ref('ChangeDiff') },
        main_values: { type: 'array', items: { type: 'object', additionalProperties: true } },
      },
      required: ['commit'],
      additionalProperties: true,
    },
    ChangeDiff: {
      type: 'object',
      description: "One object's diff in an open branch: at the fork on main, in the branch, on main now.",
      properties: {
        id: { type: 'integer' },
        url: { type: 'string', format: 'uri' },
        display: { type: 'string' },
        branch: ref(`Nested${NAME}`),
        object_type: { type: 'string' },
        object_id: { type: 'integer' },
        object_repr: { type: 'string' },
        action: choice(['create', 'update', 'delete']),
        original_data: nullable({ type: 'object', additionalProperties: true }),
        modified_data: nullable({ type: 'object', additionalProperties: true }),
        current_data: nullable({ type: 'object', additionalProperties: true }),
        conflicts: nullable({ type: 'array', items: { type: 'string' } }),
      },
      required: ['id', 'url', 'display', 'branch', 'object_type', 'object_id', 'action'],
    },
    BranchEvent: {
      type: 'object',
      description: "One event of a branch's life (provisioned, synced, merged, reverted, archived ...).",
      properties: {
        id: { type: 'integer' },
        url: { type: 'string', format: 'uri' },
        display: { type: 'string' },
        time: { type: 'string', format: 'date-time' },
        branch: ref(`Nested${NAME}`),
        user,
        type: choice(['provisioned', 'synced', 'merged', 'reverted', 'archived'] satisfies BranchEventType[]),
      },
      required: ['id', 'url', 'display', 'time', 'branch', 'user', 'type'],
    },
    PaginatedChangeDiffList: pageOf('ChangeDiff', "A page of the open branches' changes."),
    PaginatedBranchEventList: pageOf('BranchEvent', 'A page of branch events, newest first.'),
  };
}

const paging = [{ $ref: '#/components/parameters/limit' }, { $ref: '#/components/parameters/offset' }];
const idList = (name: string, description: string, items: Schema): Schema => ({
  name,
  in: 'query',
  description,
  schema: { type: 'array', items },
  style: 'form',
  explode: true,
});

/** The plugin's path items. */
export function branchPaths(registry: ModelRegistry): Record<string, Schema> {
  const one = ref(NAME);
  const writable = ref(`Writable${NAME}`);
  const writeErrors = errorResponses([400, 403, 404, 409, 413, 415]);
  const paths: Record<string, Schema> = {
    [BRANCHES_PATH]: {
      get: {
        operationId: `${PREFIX}_list`,
        summary: 'List branches',
        description: "netbox-branching's BranchFilterSet; filters combine with AND, a repeated filter ORs its values.",
        tags: TAGS,
        parameters: [...paging, ...filterParameters(registry, BRANCH_SHAPE, undefined)],
        responses: {
          200: { description: 'A page of branches', content: json(ref(`Paginated${NAME}List`)) },
          ...errorResponses([400, 403]),
        },
      },
      post: {
        operationId: `${PREFIX}_create`,
        summary: 'Create a branch (ready at once)',
        tags: TAGS,
        requestBody: { required: true, content: json(writable) },
        responses: {
          201: { description: 'The created branch', content: json(one) },
          ...errorResponses([400, 403, 413, 415]),
        },
      },
    },
    [`${BRANCHES_PATH}{id}/`]: {
      parameters: [{ $ref: '#/components/parameters/id' }],
      get: {
        operationId: `${PREFIX}_read`,
        summary: 'Read a branch',
        tags: TAGS,
        responses: { 200: { description: 'The branch', content: json(one) }, ...errorResponses([403, 404]) },
      },
      put: {
        operationId: `${PREFIX}_update`,
        summary: 'Replace a branch (every required field)',
        tags: TAGS,
        requestBody: { required: true, content: json(writable) },
        responses: { 200: { description: 'The updated branch', content: json(one) }, ...writeErrors },
      },
      patch: {
        operationId: `${PREFIX}_partial_update`,
        summary: 'Change fields of a branch',
        tags: TAGS,
        requestBody: { required: true, content: json(ref(`PatchedWritable${NAME}`)) },
        responses: { 200: { description: 'The updated branch', content: json(one) }, ...writeErrors },
      },
      delete: {
        operationId: `${PREFIX}_delete`,
        summary: 'Delete a branch (refused while an action holds it)',
        tags: TAGS,
        responses: { 204: { description: 'Deleted' }, ...errorResponses([403, 404, 409]) },
      },
    },
    [CHANGES_PATH]: {
      get: {
        operationId: 'plugins_branching_changes_list',
        summary: "List the open branches' changes, object by object",
        tags: TAGS,
        parameters: [
          ...paging,
          idList('branch_id', 'Only the branches with these ids', { type: 'integer' }),
          idList('branch', 'Only the branches with these schema ids', { type: 'string' }),
        ],
        responses: {
          200: { description: 'A page of changes', content: json(ref('PaginatedChangeDiffList')) },
          ...errorResponses([403]),
        },
      },
    },
    [EVENTS_PATH]: {
      get: {
        operationId: 'plugins_branching_branch_events_list',
        summary: 'List branch events, newest first',
        tags: TAGS,
        parameters: [
          ...paging,
          idList('branch_id', 'Only the events of the branches with these ids', { type: 'integer' }),
          idList('type', 'Only events of these types', { type: 'string' }),
        ],
        responses: {
          200: { description: 'A page of branch events', content: json(ref('PaginatedBranchEventList')) },
          ...errorResponses([403]),
          409: {
            description: 'The audit side, which branch events are read from, is not run',
            content: json(ref('Error')),
          },
        },
      },
    },
  };
  for (const [action, summary] of Object.entries(ACTIONS)) {
    paths[`${BRANCHES_PATH}{id}/${action}/`] = {
      parameters: [{ $ref: '#/components/parameters/id' }],
      post: {
        operationId: `${PREFIX}_${action}`,
        summary,
        tags: TAGS,
        requestBody: { required: false, content: json(ref('BranchActionRequest')) },
        responses: {
          200: { description: 'The outcome, or with commit false the plan', content: json(ref('BranchActionResult')) },
          400: { description: 'Invalid input', content: json(ref('ValidationError')) },
          ...errorResponses([403, 404]),
          409: {
            description: 'The branch is not in a state for this action, is held by another one, or (merge) conflicts',
            content: json({ anyOf: [ref('Error'), ref('BranchActionResult')] }),
          },
        },
      },
    };
  }
  return paths;
}

/** The header on every operation of the registry's models (main's paths stay as they are). */
export function withBranchHeader(items: Record<string, Schema>): void {
  for (const item of Object.values(items)) {
    item.parameters = [
      ...((item.parameters as Schema[] | undefined) ?? []),
      { $ref: '#/components/parameters/branch' },
    ];
  }
}
