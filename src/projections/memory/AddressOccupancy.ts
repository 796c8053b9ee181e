import type { Family } from '../../models/values/ipNetworks.js';
import { sortKeyValue } from '../../models/values/ipNetworks.js';
import type { ReadDocument } from '../ReadStore.js';

/** The group of documents whose scope field is absent from the query (every document). */
const EVERY = Symbol('every document');

/** One family's distinct used addresses of one group, ascending, with how many documents hold each. */
class DistinctAddresses {
  values: bigint[] = [];
  private readonly holders = new Map<bigint, number>();

  /** Many at once (a rebuild): one sort rather than an insertion each. */
  static of(all: bigint[]): DistinctAddresses {
    const used = new DistinctAddresses();
    for (const value of all) used.holders.set(value, (used.holders.get(value) ?? 0) + 1);
    used.values = [...used.holders.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    return used;
  }

  add(value: bigint): void {
    const n = this.holders.get(value);
    if (n !== undefined) {
      this.holders.set(value, n + 1);
      return;
    }
    this.holders.set(value, 1);
    const values = this.values;
    if (values.length === 0 || values[values.length - 1] < value) values.push(value);
    else values.splice(this.position(value), 0, value);
  }

  remove(value: bigint): void {
    const n = this.holders.get(value);
    if (n === undefined) return;
    if (n > 1) {
      this.holders.set(value, n - 1);
      return;
    }
    this.holders.delete(value);
    this.values.splice(this.position(value), 1);
  }

  private position(value: bigint): number {
    let lo = 0;
    let hi = this.values.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.values[mid] < value) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

/**
 * The addresses a collection's documents hold in one hidden sort-key field (e.g. an IP
 * address's `_address`), grouped by the value of a scope field (e.g. `vrf`, a missing
 * one counting as null) or all together, each group per family kept as a sorted array
 * of distinct values: the next free address is then found by binary search
 * (freeAddresses.sortedUsed), however many are used. Built at its first query, kept up
 * to date change by change, rebuilt at the next query after a large batch (a replay).
 */
export class AddressOccupancy {
  stale = true;
  private readonly groups = new Map<unknown, Map<Family, DistinctAddresses>>();

  constructor(
    readonly field: string,
    readonly scopeField: string | null,
  ) {}

  /** The used addresses of a group and family (an empty list when none). */
  used(scope: unknown, family: Family): readonly bigint[] {
    return this.groups.get(this.scopeField === null ? EVERY : (scope ?? null))?.get(family)?.values ?? [];
  }

  rebuild(docs: Iterable<ReadDocument>): void {
    const all = new Map<unknown, Map<Family, bigint[]>>();
    for (const doc of docs) {
      const held = this.heldBy(doc);
      if (!held) continue;
      let families = all.get(held.group);
      if (!families) all.set(held.group, (families = new Map()));
      let values = families.get(held.family);
      if (!values) families.set(held.family, (values = []));
      values.push(held.value);
    }
    this.groups.clear();
    for (const [group, families] of all) {
      this.groups.set(group, new Map([...families].map(([family, values]) => [family, DistinctAddresses.of(values)])));
    }
    this.stale = false;
  }

  clear(): void {
    this.groups.clear();
    this.stale = true;
  }

  add(doc: ReadDocument): void {
    const held = this.heldBy(doc);
    if (!held) return;
    let families = this.groups.get(held.group);
    if (!families) this.groups.set(held.group, (families = new Map()));
    let used = families.get(held.family);
    if (!used) families.set(held.family, (used = new DistinctAddresses()));
    used.add(held.value);
  }

  remove(doc: ReadDocument): void {
    const held = this.heldBy(doc);
    if (held) this.groups.get(held.group)?.get(held.family)?.remove(held.value);
  }

  /** Does replacing `before` with `after` change what the index holds? */
  changes(before: ReadDocument, after: ReadDocument): boolean {
    return (
      before[this.field] !== after[this.field] ||
      (this.scopeField !== null && (before[this.scopeField] ?? null) !== (after[this.scopeField] ?? null))
    );
  }

  private heldBy(doc: ReadDocument): { group: unknown; family: Family; value: bigint } | null {
    const key = doc[this.field];
    if (typeof key !== 'string') return null;
    const family: Family = key[0] === '6' ? 6 : 4;
    const value = sortKeyValue(key, family);
    if (value === null) return null;
    return { group: this.scopeField === null ? EVERY : (doc[this.scopeField] ?? null), family, value };
  }
}
