/**
 * Sets of IP addresses as sorted, disjoint, inclusive intervals of BigInt values: the
 * free space of a prefix or range after its used addresses and networks are taken out.
 * Intervals keep a /8 with a few children small, where a list of addresses would not.
 */
import type { AddressRun } from '../lookupView.js';
import type { Cidr, Family } from '../values/ipNetworks.js';
import { lastAddress, networkAddress } from '../values/ipNetworks.js';

const BITS: Record<Family, number> = { 4: 32, 6: 128 };

/** An inclusive run of addresses, first <= last. */
export type Interval = AddressRun;

export class AddressSet {
  private constructor(
    readonly family: Family,
    /** Sorted by `first`, disjoint and not adjacent. */
    private readonly runs: readonly Interval[],
  ) {}

  static empty(family: Family): AddressSet {
    return new AddressSet(family, []);
  }

  /** Every address from `first` to `last` (both included). */
  static span(family: Family, first: bigint, last: bigint): AddressSet {
    return new AddressSet(family, first <= last ? [{ first, last }] : []);
  }

  /** Every address of a network. */
  static of(cidr: Cidr): AddressSet {
    return AddressSet.span(cidr.family, networkAddress(cidr), lastAddress(cidr));
  }

  /** Every address of the runs (any order; they may overlap). */
  static union(family: Family, runs: Iterable<Interval>): AddressSet {
    return new AddressSet(family, mergeRuns([...runs]));
  }

  get intervals(): readonly Interval[] {
    return this.runs;
  }

  get isEmpty(): boolean {
    return this.runs.length === 0;
  }

  /** How many addresses the set holds. */
  get size(): bigint {
    let total = 0n;
    for (const run of this.runs) total += run.last - run.first + 1n;
    return total;
  }

  /** The set without the given addresses (runs in any order; they may overlap). */
  without(removed: Iterable<Interval>): AddressSet {
    const cuts = mergeRuns([...removed]);
    if (cuts.length === 0 || this.runs.length === 0) return this;
    const out: Interval[] = [];
    let c = 0;
    for (const run of this.runs) {
      let first = run.first;
      while (c < cuts.length && cuts[c].last < first) c++;
      let k = c;
      while (first <= run.last && k < cuts.length && cuts[k].first <= run.last) {
        const cut = cuts[k];
        if (cut.first > first) out.push({ first, last: cut.first - 1n });
        if (cut.last >= first) first = cut.last + 1n;
        k++;
      }
      if (first <= run.last) out.push({ first, last: run.last });
    }
    return new AddressSet(this.family, out);
  }

  /** Is the address in the set? */
  has(value: bigint): boolean {
    let lo = 0;
    let hi = this.runs.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.runs[mid].last < value) lo = mid + 1;
      else hi = mid;
    }
    return lo < this.runs.length && this.runs[lo].first <= value;
  }

  /** The lowest `count` addresses of the set (all of them when it holds fewer). */
  lowest(count: number | bigint): AddressSet {
    if (count === Infinity) return this;
    let remaining = BigInt(count);
    const out: Interval[] = [];
    for (const run of this.runs) {
      if (remaining <= 0n) break;
      const size = run.last - run.first + 1n;
      out.push(size <= remaining ? run : { first: run.first, last: run.first + remaining - 1n });
      remaining -= size;
    }
    return out.length === this.runs.length && remaining >= 0n ? this : new AddressSet(this.family, out);
  }

  /** The set without one network. */
  withoutNetwork(cidr: Cidr): AddressSet {
    return this.without([{ first: networkAddress(cidr), last: lastAddress(cidr) }]);
  }

  /** The addresses, lowest first. */
  *addresses(): Generator<bigint> {
    for (const run of this.runs) {
      for (let value = run.first; value <= run.last; value++) yield value;
    }
  }

  /** The set as the fewest CIDR blocks, lowest address first. */
  *blocks(): Generator<Cidr> {
    const bits = BITS[this.family];
    for (const run of this.runs) {
      let first = run.first;
      while (first <= run.last) {
        // The largest block that starts at `first` (aligned) and ends inside the run.
        const hostBits = Math.min(trailingZeros(first, bits), bitLength(run.last - first + 1n) - 1);
        yield { family: this.family, value: first, prefixlen: bits - hostBits };
        first += 1n << BigInt(hostBits);
      }
    }
  }

  /**
   * The lowest-addressed network of length `prefixlen` that lies in the set, found as
   * the first of `blocks()` at least that large (null when none is).
   */
  firstNetworkOf(prefixlen: number): Cidr | null {
    for (const block of this.blocks()) {
      if (block.prefixlen <= prefixlen) return { family: this.family, value: block.value, prefixlen };
    }
    return null;
  }
}

/** Runs sorted and fused where they overlap or touch. */
function mergeRuns(runs: Interval[]): Interval[] {
  runs.sort((a, b) => (a.first < b.first ? -1 : a.first > b.first ? 1 : 0));
  const out: Interval[] = [];
  for (const run of runs) {
    const last = out[out.length - 1];
    if (last && run.first <= last.last + 1n) {
      if (run.last > last.last) last.last = run.last;
    } else {
      out.push({ first: run.first, last: run.last });
    }
  }
  return out;
}

/** Number of low zero bits of `value` (all `bits` of them for zero). */
function trailingZeros(value: bigint, bits: number): number {
  if (value === 0n) return bits;
  let count = 0;
  while (((value >> BigInt(count)) & 1n) === 0n) count++;
  return count;
}

/** Number of bits needed to write `value` (> 0). */
function bitLength(value: bigint): number {
  return value.toString(2).length;
}
