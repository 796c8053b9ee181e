import type { WriteTransaction } from '../commands/WriteCoordinator.js';
import type { FieldErrors } from '../errors/fieldErrors.js';
import { ConflictError, NotFoundError, ValidationError } from '../errors/requestErrors.js';
import type { ChangeEvent } from '../events/ChangeEvent.js';
import { BRANCH, type BranchRecord, isOpen, newSchemaId } from './branchRecord.js';

/** What a client may write of a branch (netbox-branching's writable fields). */
export interface BranchInput {
  name?: unknown;
  description?: unknown;
  comments?: unknown;
  tags?: unknown;
  custom_fields?: unknown;
}

const WRITABLE = ['name', 'description', 'comments', 'tags', 'custom_fields'];

/**
 * The branch decisions of the single writer: each one request on main whose event is the
 * branch's new state (main's read models keep branches; the branches' views follow them).
 */
export async function createBranch(tx: WriteTransaction, input: unknown, chosenId?: string): Promise<ChangeEvent> {
  const fields = await validInput(tx, input, null);
  const id = tx.allocateId(BRANCH);
  // A chosen schema_id (tests: a known name for the branch's events) must be free like a drawn one.
  let schemaId = chosenId ?? newSchemaId();
  while ((await tx.view.find(BRANCH, { schema_id: schemaId }, 1)).length > 0) {
    if (chosenId) throw new ConflictError(`schema_id ${chosenId} is taken`);
    schemaId = newSchemaId();
  }
  // The branch sees main as it is before this request; its own changes follow it in the log.
  const origin = tx.nextPosition;
  const record: BranchRecord = {
    id,
    name: fields.name as string,
    description: (fields.description as string | undefined) ?? '',
    comments: (fields.comments as string | undefined) ?? '',
    status: 'ready',
    owner: tx.user?.id ?? null,
    schema_id: schemaId,
    last_sync: null,
    merged_time: null,
    merged_by: null,
    tags: (fields.tags as number[] | undefined) ?? [],
    custom_fields: (fields.custom_fields as Record<string, unknown> | undefined) ?? {},
    created: tx.time,
    last_updated: tx.time,
    fork_position: origin - 1,
    origin_position: origin,
    merge_request: null,
  };
  return recordBranch(tx, null, record);
}

export async function updateBranch(tx: WriteTransaction, id: number, input: unknown): Promise<ChangeEvent> {
  const current = await branchById(tx, id);
  const fields = await validInput(tx, input, current);
  return recordBranch(tx, current, { ...current, ...fields, last_updated: tx.time });
}

export async function deleteBranch(tx: WriteTransaction, id: number): Promise<ChangeEvent> {
  const current = await branchById(tx, id);
  return tx.record({
    action: 'delete',
    objectType: BRANCH,
    objectId: id,
    objectRepr: current.name,
    prechange: current as never,
    postchange: null,
  });
}

/** Sync: the branch sees main as it is now, its own changes on top (for a field both changed, the branch's value). */
export async function syncBranch(tx: WriteTransaction, id: number): Promise<ChangeEvent> {
  const current = await branchById(tx, id);
  if (!isOpen(current))
    throw new ConflictError(`Branch ${current.name} is ${current.status}: only a ready branch syncs.`);
  return recordBranch(tx, current, {
    ...current,
    fork_position: tx.nextPosition - 1,
    last_sync: tx.time,
    last_updated: tx.time,
  });
}

/** In its merge request: the branch is merged (closed to the header) and names that request, which a revert undoes. */
export async function markMerged(tx: WriteTransaction, id: number, mergeRequest: string): Promise<ChangeEvent> {
  const current = await branchById(tx, id);
  return recordBranch(tx, current, {
    ...current,
    status: 'merged',
    merged_time: tx.time,
    merged_by: tx.user?.id ?? null,
    merge_request: mergeRequest,
    last_updated: tx.time,
  });
}

/** Archive: a merged branch is kept for the record only (netbox-branching archives merged branches). */
export async function archiveBranch(tx: WriteTransaction, id: number): Promise<ChangeEvent> {
  const current = await branchById(tx, id);
  if (current.status !== 'merged')
    throw new ConflictError(`Branch ${current.name} is ${current.status}: only a merged branch can be archived.`);
  return recordBranch(tx, current, { ...current, status: 'archived', last_updated: tx.time });
}

export async function branchById(tx: WriteTransaction, id: number): Promise<BranchRecord> {
  const current = (await tx.view.get(BRANCH, id)) as unknown as BranchRecord | null;
  if (!current) throw new NotFoundError();
  return current;
}

function recordBranch(tx: WriteTransaction, before: BranchRecord | null, after: BranchRecord): ChangeEvent {
  const { id, ...post } = after;
  return tx.record({
    action: before ? 'update' : 'create',
    objectType: BRANCH,
    objectId: id,
    objectRepr: after.name,
    prechange: before ? (stored(before) as never) : null,
    postchange: post as never,
  });
}

function stored(record: BranchRecord): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(record)) if (key !== 'display' && !key.startsWith('_')) out[key] = value;
  return out;
}

/** The writable fields of a POST (current null), PUT or PATCH, checked; 400 with NetBox's shape otherwise. */
async function validInput(
  tx: WriteTransaction,
  input: unknown,
  current: BranchRecord | null,
): Promise<Partial<BranchRecord>> {
  if (!input || typeof input !== 'object' || Array.isArray(input))
    throw new ValidationError({ non_field_errors: ['Invalid data. Expected a dictionary, but got list.'] });
  const body = input as BranchInput & Record<string, unknown>;
  const errors: FieldErrors = {};
  const out: Record<string, unknown> = {};
  for (const key of WRITABLE) if (key in body) out[key] = body[key];
  const text = (field: string, max: number, required: boolean) => {
    const value = body[field];
    if (value === undefined) {
      if (required) errors[field] = ['This field is required.'];
      return;
    }
    if (typeof value !== 'string') errors[field] = ['Not a valid string.'];
    else if (required && value.trim() === '') errors[field] = ['This field may not be blank.'];
    else if (value.length > max) errors[field] = [`Ensure this field has no more than ${max} characters.`];
  };
  text('name', 100, current === null);
  text('description', 200, false);
  text('comments', 100_000, false);
  if ('tags' in body && (!Array.isArray(body.tags) || !body.tags.every((t) => Number.isSafeInteger(t))))
    errors.tags = ['Expected a list of tag ids.'];
  if (
    'custom_fields' in body &&
    (!body.custom_fields || typeof body.custom_fields !== 'object' || Array.isArray(body.custom_fields))
  )
    errors.custom_fields = ['Expected a dictionary.'];
  if (typeof body.name === 'string' && !errors.name) {
    const [same] = await tx.view.find(BRANCH, { name: body.name }, 2);
    if (same && same.id !== current?.id) errors.name = ['branch with this name already exists.'];
  }
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);
  return out as Partial<BranchRecord>;
}
