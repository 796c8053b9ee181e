import { storedForm } from '../commands/storedForm.js';
import type { WriteContext, WriteCoordinator, WriteTransaction } from '../commands/WriteCoordinator.js';
import { ConflictError } from '../errors/requestErrors.js';
import type { ChangeEvent } from '../events/ChangeEvent.js';
import type { LookupView } from '../models/lookupView.js';
import type { StoredObject } from '../models/storedObject.js';
import { syncBranch } from './branchCommands.js';
import { branchDiffs } from './branchDiff.js';
import type { BranchView } from './BranchView.js';

/** One object both sides changed since the fork: the fields a sync sets to main's value in the branch. */
export interface MainValues {
  object_type: string;
  object_id: number;
  object_repr: string;
  fields: Record<string, { branch: unknown; main: unknown }>;
}

/**
 * What a sync takes from main beyond moving the fork: netbox-branching applies main's changes
 * onto the branch, so for a field both sides changed main's value wins (the branch's other
 * changes stay). Objects one side deleted are left as they are: they still conflict.
 */
export async function mainValuesToApply(view: BranchView, main: LookupView): Promise<MainValues[]> {
  const plan: MainValues[] = [];
  for (const diff of await branchDiffs(view, main)) {
    const { modified, current } = diff;
    if (diff.conflicts.length === 0 || !modified || !current) continue;
    const fields: MainValues['fields'] = {};
    for (const field of diff.conflicts) fields[field] = { branch: modified[field], main: current[field] };
    plan.push({ object_type: diff.object_type, object_id: diff.object_id, object_repr: diff.object_repr, fields });
  }
  return plan;
}

/** Decided inside the branch: each planned object updated to main's values for those fields. */
export async function applyMainValues(tx: WriteTransaction, plan: MainValues[]): Promise<ChangeEvent[]> {
  const made: ChangeEvent[] = [];
  for (const item of plan) {
    const held = await tx.view.get(item.object_type, item.object_id);
    if (!held) continue;
    const prechange = storedForm(held) as StoredObject;
    const postchange = { ...prechange } as Record<string, unknown>;
    for (const [field, values] of Object.entries(item.fields)) postchange[field] = values.main;
    if ('last_updated' in postchange) postchange.last_updated = tx.time;
    made.push(
      tx.record({
        action: 'update',
        objectType: item.object_type,
        objectId: item.object_id,
        objectRepr: item.object_repr,
        prechange,
        postchange: postchange as StoredObject,
      }),
    );
  }
  return made;
}

/** Main changed a planned field again between the branch's request and the sync's: plan again. */
class MainMovedOn extends Error {}

const ATTEMPTS = 5;

/**
 * A sync as netbox-branching does it, in two requests of the writer, the branch held by the
 * caller meanwhile: first, inside the branch, main's values for the fields both sides changed;
 * then, on main, the fork moved to now. A crash between them leaves the branch holding main's
 * values with the old fork, which conflicts on nothing (equal values) and syncs again. The
 * second request checks main did not change those fields in between (else both are planned
 * again), so after it the branch differs from main only where main did not change.
 */
export async function syncWithMain(
  coordinator: WriteCoordinator,
  view: BranchView,
  context: WriteContext,
  main: LookupView,
): Promise<{ applied: MainValues[]; events: ChangeEvent[] }> {
  const applied: MainValues[] = [];
  const events: ChangeEvent[] = [];
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const plan = await mainValuesToApply(view, main);
    if (plan.length > 0) {
      const inBranch = await coordinator.execute({ ...context, branch: view.target() }, (tx) =>
        applyMainValues(tx, plan),
      );
      applied.push(...plan);
      events.push(...inBranch.events);
    }
    try {
      const synced = await coordinator.execute(context, async (tx) => {
        if ((await mainValuesToApply(view, tx.view)).length > 0) throw new MainMovedOn();
        return syncBranch(tx, view.record.id);
      });
      return { applied, events: [...events, ...synced.events] };
    } catch (error) {
      if (!(error instanceof MainMovedOn)) throw error;
    }
  }
  throw new ConflictError(`Branch ${view.id} did not sync: main kept changing the same fields; try again.`);
}
