import { isDeepStrictEqual } from 'node:util';

import { storedForm } from '../commands/storedForm.js';
import type { ChangeAction } from '../events/ChangeEvent.js';
import type { LookupView } from '../models/lookupView.js';
import type { BranchView } from './BranchView.js';

/**
 * Fields every change rewrites by itself: both sides changing them is no conflict.
 * (An object's `last_updated` after a merge is the merge's time.)
 */
const BOOKKEEPING = new Set(['last_updated']);

/** One object the branch changed, seen from three sides (netbox-branching's ChangeDiff). */
export interface ObjectDiff {
  object_type: string;
  object_id: number;
  object_repr: string;
  /** What the branch did to it overall: created it, changed it or deleted it. */
  action: ChangeAction;
  /** On main at the fork (or the last sync); null: it did not exist. */
  original: Record<string, unknown> | null;
  /** In the branch now; null: deleted there. */
  modified: Record<string, unknown> | null;
  /** On main now; null: it does not exist there. */
  current: Record<string, unknown> | null;
  /** Fields changed both in the branch and on main since the fork, to different values (empty: none). */
  conflicts: string[];
  /** Position of the branch's last change of it. */
  last_position: number;
}

/**
 * The branch's changes, one entry per object in the order it first changed them, with the
 * conflicts a merge would meet. `main` is main as the merge would see it (the writer's view,
 * or the read models for a listing).
 */
export async function branchDiffs(view: BranchView, main: LookupView): Promise<ObjectDiff[]> {
  const firsts = new Map<string, { type: string; id: number; created: boolean; last: number; repr: string }>();
  for (const event of view.own) {
    const key = `${event.objectType}:${event.objectId}`;
    const seen = firsts.get(key);
    if (seen) {
      seen.last = event.position;
      seen.repr = event.objectRepr;
    } else
      firsts.set(key, {
        type: event.objectType,
        id: event.objectId,
        created: event.prechange === null,
        last: event.position,
        repr: event.objectRepr,
      });
  }
  const diffs: ObjectDiff[] = [];
  for (const [key, first] of firsts) {
    const now = await main.get(first.type, first.id);
    const current = now ? withoutId(storedForm(now)) : null;
    const atFork = view.mainAtFork.has(key) ? view.mainAtFork.get(key)! : now;
    const original = first.created ? null : atFork ? withoutId(storedForm(atFork)) : null;
    const inBranch = await view.store.get(first.type, first.id);
    const modified = inBranch ? withoutId(storedForm(inBranch)) : null;
    const action: ChangeAction = original === null ? 'create' : modified === null ? 'delete' : 'update';
    diffs.push({
      object_type: first.type,
      object_id: first.id,
      object_repr: first.repr,
      action,
      original,
      modified,
      current,
      conflicts: conflictingFields(original, modified, current),
      last_position: first.last,
    });
  }
  return diffs;
}

/**
 * Fields changed on both sides since the fork, to different values. An object one side
 * deleted and the other changed conflicts on every field the other side changed.
 */
export function conflictingFields(
  original: Record<string, unknown> | null,
  modified: Record<string, unknown> | null,
  current: Record<string, unknown> | null,
): string[] {
  if (original === null) return []; // created in the branch: ids never collide, main cannot have touched it
  if (modified === null && current === null) return []; // deleted on both sides
  const fields = new Set([...Object.keys(original), ...Object.keys(modified ?? {}), ...Object.keys(current ?? {})]);
  const conflicts: string[] = [];
  for (const field of fields) {
    if (BOOKKEEPING.has(field)) continue;
    const before = original[field];
    const branchChanged = modified === null || !isDeepStrictEqual(modified[field], before);
    const mainChanged = current === null || !isDeepStrictEqual(current[field], before);
    if (!branchChanged || !mainChanged) continue;
    if (modified !== null && current !== null && isDeepStrictEqual(modified[field], current[field])) continue;
    conflicts.push(field);
  }
  return conflicts.sort();
}

function withoutId(obj: Record<string, unknown>): Record<string, unknown> {
  const { id: _id, ...rest } = obj;
  return rest;
}
