import type { ObjectDiff } from '../../branches/branchDiff.js';
import { BRANCH_STATUSES, type BranchRecord } from '../../branches/branchRecord.js';
import type { ReadStore } from '../../projections/ReadStore.js';

export const BRANCHES_PATH = '/api/plugins/branching/branches/';
export const CHANGES_PATH = '/api/plugins/branching/changes/';
export const EVENTS_PATH = '/api/plugins/branching/branch-events/';

const LABELS = new Map<string, string>(BRANCH_STATUSES);

/** A branch as netbox-branching's BranchSerializer shows it (hidden bookkeeping left out). */
export async function renderBranch(store: ReadStore, baseUrl: string, branch: BranchRecord): Promise<unknown> {
  return {
    id: branch.id,
    url: `${baseUrl}${BRANCHES_PATH}${branch.id}/`,
    display: branch.name,
    name: branch.name,
    owner: await nestedUser(store, baseUrl, branch.owner),
    description: branch.description,
    schema_id: branch.schema_id,
    status: { value: branch.status, label: LABELS.get(branch.status) ?? branch.status },
    applied_migrations: [],
    last_sync: branch.last_sync,
    merged_time: branch.merged_time,
    merged_by: await nestedUser(store, baseUrl, branch.merged_by),
    comments: branch.comments,
    tags: await nestedTags(store, baseUrl, branch.tags),
    custom_fields: branch.custom_fields,
    created: branch.created,
    last_updated: branch.last_updated,
  };
}

/** A branch in other objects (a change diff's `branch`). */
export function nestedBranch(baseUrl: string, branch: BranchRecord): unknown {
  return {
    id: branch.id,
    url: `${baseUrl}${BRANCHES_PATH}${branch.id}/`,
    display: branch.name,
    name: branch.name,
    schema_id: branch.schema_id,
  };
}

/** One object's diff as netbox-branching's ChangeDiffSerializer shows it. */
export function renderDiff(baseUrl: string, branch: BranchRecord, diff: ObjectDiff): unknown {
  return {
    id: diff.last_position,
    url: `${baseUrl}${CHANGES_PATH}${diff.last_position}/`,
    display: `${diff.object_repr} (${diff.action})`,
    branch: nestedBranch(baseUrl, branch),
    object_type: diff.object_type,
    object_id: diff.object_id,
    object_repr: diff.object_repr,
    action: { value: diff.action, label: diff.action[0]!.toUpperCase() + diff.action.slice(1) },
    original_data: diff.original,
    modified_data: diff.modified,
    current_data: diff.current,
    conflicts: diff.conflicts.length > 0 ? diff.conflicts : null,
  };
}

async function nestedUser(store: ReadStore, baseUrl: string, id: number | null): Promise<unknown> {
  if (id === null) return null;
  const user = await store.get('auth.user', id);
  const username = String(user?.username ?? id);
  return { id, url: `${baseUrl}/api/users/users/${id}/`, display: username, username };
}

async function nestedTags(store: ReadStore, baseUrl: string, ids: number[]): Promise<unknown[]> {
  const tags = await store.getMany('extras.tag', ids);
  return tags.map((tag) => ({
    id: tag.id,
    url: `${baseUrl}/api/extras/tags/${tag.id}/`,
    display: tag.name,
    name: tag.name,
    slug: tag.slug,
    color: tag.color,
  }));
}
