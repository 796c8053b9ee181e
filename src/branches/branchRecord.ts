import { randomBytes } from 'node:crypto';

/**
 * A branch as main's log records it: objects of `netbox_branching.branch` (the content type
 * netbox-branching gives them, so its clients and permissions name it the same), created,
 * changed and deleted by ordinary events on main and kept in main's read models, so a
 * restart, a replica or a Kafka-backed service all see the same branches.
 */
export const BRANCH = 'netbox_branching.branch';

/** netbox-branching's statuses; netledger uses new (never: a branch is ready at once), ready, merged, archived. */
export const BRANCH_STATUSES = [
  ['new', 'New'],
  ['provisioning', 'Provisioning'],
  ['ready', 'Ready'],
  ['syncing', 'Syncing'],
  ['migrating', 'Migrating'],
  ['merging', 'Merging'],
  ['reverting', 'Reverting'],
  ['merged', 'Merged'],
  ['archived', 'Archived'],
  ['pending-migrations', 'Pending migrations'],
  ['failed', 'Failed'],
] as const;

export type BranchStatus = (typeof BRANCH_STATUSES)[number][0];

export interface BranchRecord {
  id: number;
  name: string;
  description: string;
  comments: string;
  status: BranchStatus;
  /** The user who created it (auth.user id). */
  owner: number | null;
  /** 8 characters, the branch's name in the X-NetBox-Branch header and on its events. */
  schema_id: string;
  last_sync: string | null;
  merged_time: string | null;
  merged_by: number | null;
  tags: number[];
  custom_fields: Record<string, unknown>;
  created: string;
  last_updated: string;
  /** The branch sees main as it was at this log position (its creation, or its last sync). */
  fork_position: number;
  /** Where its own changes begin in the log (its creation): a restart reads the log from here. */
  origin_position: number;
  /** The request on main that merged it (what its revert undoes), or null. */
  merge_request: string | null;
}

/** Only a ready branch is read and written through the header. */
export function isOpen(branch: Pick<BranchRecord, 'status'>): boolean {
  return branch.status === 'ready';
}

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** A fresh schema_id: 8 random lower-case letters and digits, as netbox-branching makes them. */
export function newSchemaId(): string {
  const bytes = randomBytes(8);
  let id = '';
  for (const byte of bytes) id += ALPHABET[byte % ALPHABET.length];
  return id;
}
