/**
 * What a batch of projected changes leaves behind: per document only its newest
 * change counts (the batch is applied as a whole), and the highest id created per
 * collection, including objects created and deleted within the batch (ids are
 * never reused).
 */
import type { DocumentChange } from '../ReadStore.js';

export interface ApplyPlan {
  /** collection → id → the newest change of that document in the batch. */
  latest: Map<string, Map<number, DocumentChange>>;
  maxIds: Map<string, number>;
  /** collection → id → projected columns to set on the stored document (no new version of it), written after the changes. */
  patches: Map<string, Map<number, Record<string, unknown>>>;
}

export function planChanges(changes: DocumentChange[]): ApplyPlan {
  const latest = new Map<string, Map<number, DocumentChange>>();
  const maxIds = new Map<string, number>();
  const patches = new Map<string, Map<number, Record<string, unknown>>>();
  for (const change of changes) {
    if (change.columns) {
      let byId = patches.get(change.collection);
      if (!byId) patches.set(change.collection, (byId = new Map()));
      byId.set(change.id, { ...byId.get(change.id), ...change.columns });
      continue;
    }
    let byId = latest.get(change.collection);
    if (!byId) latest.set(change.collection, (byId = new Map()));
    const known = byId.get(change.id);
    if (!known || known.position <= change.position) byId.set(change.id, change);
    if (change.doc !== null) maxIds.set(change.collection, Math.max(maxIds.get(change.collection) ?? 0, change.id));
  }
  return { latest, maxIds, patches };
}

/** The tombstone key of a deleted object (collection names never contain '#'). */
export function tombstoneId(collection: string, id: number): string {
  return `${collection}#${id}`;
}

/**
 * The plan in parts of at most `size` documents each (the highest ids go with the
 * first, the column patches with the last), for batches too large for one transaction
 * (a rebuild's windows).
 */
export function splitPlan(plan: ApplyPlan, size: number): ApplyPlan[] {
  const parts: ApplyPlan[] = [];
  let current: ApplyPlan = { latest: new Map(), maxIds: plan.maxIds, patches: new Map() };
  let inCurrent = 0;
  for (const [name, byId] of plan.latest) {
    for (const [id, change] of byId) {
      if (inCurrent === size) {
        parts.push(current);
        current = { latest: new Map(), maxIds: new Map(), patches: new Map() };
        inCurrent = 0;
      }
      let target = current.latest.get(name);
      if (!target) current.latest.set(name, (target = new Map()));
      target.set(id, change);
      inCurrent++;
    }
  }
  current.patches = plan.patches;
  parts.push(current);
  return parts;
}

export function planSize(plan: ApplyPlan): number {
  let n = 0;
  for (const byId of plan.latest.values()) n += byId.size;
  for (const byId of plan.patches.values()) n += byId.size;
  return n;
}
