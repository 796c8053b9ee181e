import type { ChangeEvent } from '../events/ChangeEvent.js';
import type { BranchRecord } from './branchRecord.js';

/** netbox-branching's BranchEvent types. */
export type BranchEventType = 'provisioned' | 'synced' | 'merged' | 'reverted' | 'archived';

export interface BranchEvent {
  /** The log position of the change that made it. */
  position: number;
  time: string;
  user: ChangeEvent['user'];
  type: BranchEventType;
}

/**
 * What happened to a branch, read from its own changes on main's log (a branch keeps no
 * separate event table): its creation (provisioned, ready at once), each sync, its merge,
 * the revert of its merge and its archiving. Renames and deletion are no branch event.
 */
export function branchEvents(changes: readonly ChangeEvent[]): BranchEvent[] {
  const out: BranchEvent[] = [];
  for (const change of changes) {
    const before = change.prechange as Partial<BranchRecord> | null;
    const after = change.postchange as Partial<BranchRecord> | null;
    const type: BranchEventType | null =
      before === null && after !== null
        ? 'provisioned'
        : !after || !before
          ? null
          : after.status === 'merged' && before.status !== 'merged'
            ? 'merged'
            : before.status === 'merged' && after.status === 'ready'
              ? 'reverted'
              : after.status === 'archived' && before.status !== 'archived'
                ? 'archived'
                : after.last_sync !== before.last_sync
                  ? 'synced'
                  : null;
    if (type) out.push({ position: change.position, time: change.time, user: change.user, type });
  }
  return out;
}
