import type { StoredObject } from '../storedObject.js';
import type { Criterion } from './contextScopes.js';
import { isJsonObject, type JsonObject, mergeAll } from './deepMerge.js';

/** An object's values per criterion (tree ancestors included); a criterion without an entry has no value. */
export type CriterionValues = ReadonlyMap<Criterion, readonly number[]>;

/**
 * The active config contexts of one moment, indexed so that finding those that apply to
 * an object costs what the object's own values select, not a pass over every context:
 * per criterion, the contexts that list each value; per context, how many criteria it
 * restricts. A context applies when every criterion it restricts is met by one of the
 * object's values. Contexts are ranked by weight, then name (the order they merge in),
 * and the merged data of each set of contexts is kept, so the objects of a page that share
 * a set share its merge.
 */
export class ContextIndex {
  /** The contexts in merge order: weight, then name. */
  private readonly contexts: StoredObject[];
  /** Per rank: how many of the considered criteria the context restricts. */
  private readonly restrictions: number[];
  private readonly unrestricted: number[] = [];
  private readonly listed = new Map<Criterion, Map<number, number[]>>();
  private readonly mergedBySet = new Map<string, JsonObject>();
  /** Per rank, for `applicable`: criteria met so far, and the call and criterion that last counted it. */
  private readonly met: Uint8Array;
  private readonly countedBy: Uint32Array;
  private calls = 0;

  /** `criteria`: those that count for the kind of object rendered; the others never restrict. */
  constructor(contexts: readonly StoredObject[], criteria: readonly Criterion[]) {
    this.contexts = [...contexts].sort(byWeightThenName);
    this.restrictions = this.contexts.map((context, rank) => {
      let restricted = 0;
      for (const criterion of criteria) {
        const ids = context[criterion];
        if (!Array.isArray(ids) || ids.length === 0) continue;
        restricted++;
        const byValue = this.listed.get(criterion) ?? new Map<number, number[]>();
        this.listed.set(criterion, byValue);
        for (const id of new Set(ids as number[])) {
          const ranks = byValue.get(id);
          if (ranks) ranks.push(rank);
          else byValue.set(id, [rank]);
        }
      }
      if (restricted === 0) this.unrestricted.push(rank);
      return restricted;
    });
    this.met = new Uint8Array(this.contexts.length);
    this.countedBy = new Uint32Array(this.contexts.length);
  }

  get size(): number {
    return this.contexts.length;
  }

  /** The criteria some context restricts: the only ones whose values an object needs. */
  get usedCriteria(): Criterion[] {
    return [...this.listed.keys()];
  }

  /** Ranks of the contexts that apply to an object with these values, in merge order. */
  applicable(values: CriterionValues): number[] {
    // Counters reused from call to call (a page asks once per object): a rank's count is
    // valid only if this call touched it, and a criterion counts a rank once however many
    // of the object's values (a region and its parent, several tags) list it.
    const call = ++this.calls * (this.listed.size + 1);
    const out = [...this.unrestricted];
    let criterionNumber = 0;
    for (const [criterion, byValue] of this.listed) {
      const stamp = call + ++criterionNumber;
      for (const value of values.get(criterion) ?? []) {
        for (const rank of byValue.get(value) ?? []) {
          if (this.countedBy[rank] === stamp) continue;
          this.met[rank] = this.countedBy[rank] > call ? this.met[rank] + 1 : 1;
          this.countedBy[rank] = stamp;
          if (this.met[rank] === this.restrictions[rank]) out.push(rank);
        }
      }
    }
    return out.sort((a, b) => a - b);
  }

  /** The data of the contexts at these ranks (in merge order), merged in that order. */
  merged(ranks: readonly number[]): JsonObject {
    const key = ranks.join(',');
    let data = this.mergedBySet.get(key);
    if (!data) {
      data = mergeAll(ranks.map((rank) => this.contexts[rank].data).filter(isJsonObject));
      this.mergedBySet.set(key, data);
    }
    return data;
  }

  /** The contexts at these ranks (for tests and diagnostics). */
  names(ranks: readonly number[]): string[] {
    return ranks.map((rank) => String(this.contexts[rank].name));
  }
}

function byWeightThenName(a: StoredObject, b: StoredObject): number {
  const weight = Number(a.weight) - Number(b.weight);
  if (weight !== 0) return weight;
  const [x, y] = [String(a.name), String(b.name)];
  return x < y ? -1 : x > y ? 1 : 0;
}
