import { checkUniqueness } from '../commands/checkUniqueness.js';
import { assertReferencesExist, assertUnreferenced } from '../commands/referentialChecks.js';
import { storedForm } from '../commands/storedForm.js';
import type { WriteTransaction } from '../commands/WriteCoordinator.js';
import { ConflictError } from '../errors/requestErrors.js';
import type { ChangeEvent } from '../events/ChangeEvent.js';
import type { ModelRegistry } from '../models/registry.js';
import type { StoredObject } from '../models/storedObject.js';
import { branchDiffs, type ObjectDiff } from './branchDiff.js';
import type { BranchView } from './BranchView.js';
import { changedFields } from './changedFields.js';

/** A merge refused: objects changed on both sides since the fork, on the same fields. */
export class BranchConflictError extends ConflictError {
  constructor(
    readonly branch: string,
    readonly conflicts: ObjectDiff[],
  ) {
    super(
      `Branch ${branch} cannot be merged: ${conflicts.length} object(s) were changed both in the branch and on main ` +
        "since the fork, on the same fields. Sync the branch (main's values then stand: re-apply yours) " +
        "or set those fields in the branch to main's values, then merge again.",
    );
  }
}

/**
 * Decides the merge of a branch into main, inside one request of the writer (one request
 * id, appended atomically, revertible as one unit): refused with the conflicts if any,
 * else each of the branch's events replayed on main in order, as the same action on the
 * same object (ids are shared with main, so nothing is renumbered: a client finds on main
 * the objects it created in the branch under the same ids). A change replays the fields
 * the branch's event changed onto main's current version, so main's own changes to other
 * fields stay. Each event keeps the user who made the change in the branch and names the
 * branch (`mergedFrom`). Uniqueness is checked against main as the merge goes, and so are
 * references: an object a change names must exist on main, and one the branch deletes must not
 * be named by an object main made meanwhile (409 otherwise).
 */
export async function mergeBranch(
  registry: ModelRegistry,
  tx: WriteTransaction,
  view: BranchView,
): Promise<ChangeEvent[]> {
  const conflicts = (await branchDiffs(view, tx.view)).filter((diff) => diff.conflicts.length > 0);
  if (conflicts.length > 0) throw new BranchConflictError(view.id, conflicts);
  const made: ChangeEvent[] = [];
  const refuse = (reason: string) => new ConflictError(`Branch ${view.id} cannot be merged: ${reason}`);
  // Objects the branch deletes may refer to each other: neither keeps the other.
  const deleting = new Set(view.own.filter((e) => e.action === 'delete').map((e) => `${e.objectType}:${e.objectId}`));
  const laterSets = fieldsSetLater(view.own);
  for (const change of view.own) {
    const current = await tx.view.get(change.objectType, change.objectId);
    const definition = registry.tryGet(change.objectType);
    const label = `${change.objectType} ${change.objectId} (${change.objectRepr})`;
    let event: ChangeEvent;
    if (change.action === 'create') {
      if (current) throw new ConflictError(`Branch ${view.id} cannot be merged: ${label} exists on main.`);
      const created = { ...change.postchange, id: change.objectId } as StoredObject;
      if (definition) await assertReferencesExist(registry, tx, definition, created, label, refuse);
      await assertUnique(tx, definition, created, label, view.id);
      event = tx.record({ ...recorded(change), prechange: null, postchange: created });
    } else if (change.action === 'update') {
      if (!current) throw new ConflictError(`Branch ${view.id} cannot be merged: ${label} was deleted on main.`);
      const fields = lasting(change, laterSets);
      if (!fields) continue;
      const updated = { ...storedForm(current), ...fields, id: change.objectId } as StoredObject;
      if ('last_updated' in updated) updated.last_updated = tx.time;
      if (definition) await assertReferencesExist(registry, tx, definition, updated, label, refuse);
      await assertUnique(tx, definition, updated, label, view.id);
      event = tx.record({ ...recorded(change), prechange: storedForm(current), postchange: updated });
    } else {
      if (!current) continue; // deleted on both sides
      // Main may have made new references to it since the fork.
      if (definition) await assertUnreferenced(registry, tx, definition, change.objectId, label, refuse, deleting);
      event = tx.record({ ...recorded(change), prechange: storedForm(current), postchange: null });
    }
    // Additive envelope fields: who made the change in the branch, and which branch it came from.
    event.user = change.user;
    event.mergedFrom = view.id;
    made.push(event);
  }
  return made;
}

/**
 * For each update of the branch, the fields a later update of the same object sets again
 * (a value a sync replaced with main's, or one the branch changed twice): those intermediate
 * values never reach main, which only briefly held them inside the merge otherwise.
 */
function fieldsSetLater(own: ChangeEvent[]): Map<ChangeEvent, Set<string>> {
  const later = new Map<string, Set<string>>();
  const out = new Map<ChangeEvent, Set<string>>();
  for (let i = own.length - 1; i >= 0; i--) {
    const change = own[i]!;
    const key = `${change.objectType}:${change.objectId}`;
    if (change.action !== 'update') {
      later.delete(key);
      continue;
    }
    const set = later.get(key) ?? new Set<string>();
    out.set(change, new Set(set));
    for (const field of Object.keys(changedFields(change))) set.add(field);
    later.set(key, set);
  }
  return out;
}

/** The fields of `change` that stand on main after the merge; null: every one is set again later (skipped). */
function lasting(change: ChangeEvent, laterSets: Map<ChangeEvent, Set<string>>): Record<string, unknown> | null {
  const fields = changedFields(change);
  const later = laterSets.get(change);
  if (!later || later.size === 0) return fields;
  const kept = Object.fromEntries(Object.entries(fields).filter(([field]) => !later.has(field)));
  return Object.keys(kept).length > 0 ? kept : null;
}

function recorded(change: ChangeEvent) {
  return {
    action: change.action,
    objectType: change.objectType,
    objectId: change.objectId,
    objectRepr: change.objectRepr,
    related: change.related ?? null,
  };
}

async function assertUnique(
  tx: WriteTransaction,
  definition: ReturnType<ModelRegistry['tryGet']>,
  obj: StoredObject,
  label: string,
  branch: string,
): Promise<void> {
  if (!definition) return;
  const messages = Object.values(await checkUniqueness(tx.view, definition, obj)).flat();
  if (messages.length > 0)
    throw new ConflictError(
      `Branch ${branch} cannot be merged: ${label} would break a uniqueness rule on main: ${messages.join(' ')}`,
    );
}
