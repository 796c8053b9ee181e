/**
 * The free-address search: it must answer what subtracting every used address from the
 * range answers (AddressSet), while asking for each run of used addresses only once.
 */
import test from 'ava';

import { AddressSet, type Interval } from '../../src/models/allocation/addressSet.js';
import {
  ascendingUsed,
  findFreeRuns,
  sortedUsed,
  type UsedAddresses,
} from '../../src/models/allocation/freeAddresses.js';
import type { FreeAddressQuery } from '../../src/models/lookupView.js';
import { seededRandom } from '../support/seededRandom.js';

const query = (first: bigint, last: bigint, taken: Interval[], limit: number): FreeAddressQuery => ({
  collection: 'ipam.ipaddress',
  field: '_address',
  family: 4,
  first,
  last,
  taken,
  limit,
});

/** What the search must find: the range less every used and taken address, lowest `limit` of them. */
function expected(used: bigint[], q: FreeAddressQuery): Interval[] {
  const free = AddressSet.span(4, q.first, q.last).without([...used.map((v) => ({ first: v, last: v })), ...q.taken]);
  return [...free.lowest(q.limit).intervals];
}

const distinctSorted = (values: bigint[]) => [...new Set(values)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

async function* ascending(values: bigint[]): AsyncGenerator<bigint> {
  for (const value of [...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))) yield value;
}

/** Counts the questions a search asks. */
function counted(runs: UsedAddresses): { runs: UsedAddresses; asked: () => number } {
  let n = 0;
  return {
    runs: {
      next: (from) => {
        n++;
        return runs.next(from);
      },
      runEnd: (start) => {
        n++;
        return runs.runEnd(start);
      },
    },
    asked: () => n,
  };
}

test('random used and taken addresses: the search answers what the set difference answers, from a sorted index and from an ordered cursor', async (t) => {
  const random = seededRandom(20261124);
  const int = (n: number) => Math.floor(random() * n);
  for (let round = 0; round < 400; round++) {
    const span = 1 + int(200);
    const base = BigInt(int(1000));
    // Dense or sparse use, with repeats (several documents may hold one address).
    const density = random();
    const used: bigint[] = [];
    for (let i = 0; i < span * 1.5; i++) if (random() < density) used.push(base + BigInt(int(span + 20)) - 10n);
    const taken: Interval[] = [];
    for (let i = int(4); i > 0; i--) {
      const first = base + BigInt(int(span + 10)) - 5n;
      taken.push({ first, last: first + BigInt(int(12)) });
    }
    const limits = [0, 1, 2, 1 + int(span), Infinity];
    const first = base + BigInt(int(5));
    const last = base + BigInt(span);
    for (const limit of limits) {
      const q = query(first, last, taken, limit);
      const want = expected(used, q);
      const label = JSON.stringify({ round, limit: String(limit) });
      t.deepEqual(await findFreeRuns(sortedUsed(distinctSorted(used)), q), want, label);
      t.deepEqual(await findFreeRuns(ascendingUsed(ascending(used)), q), want, label);
    }
  }
});

test('a run of 20,000 used addresses is crossed with a few questions, not one per address', async (t) => {
  const used = Array.from({ length: 20_000 }, (_, i) => 1_000n + BigInt(i));
  const search = counted(sortedUsed(used));
  const q = query(1_000n, 70_000n, [], 1);
  t.deepEqual(await findFreeRuns(search.runs, q), [{ first: 21_000n, last: 21_000n }]);
  t.true(search.asked() <= 3, `asked ${search.asked()} times`);
});

test('alternate used and free addresses: the lowest `limit` free ones cost about two questions each', async (t) => {
  const used = Array.from({ length: 10_000 }, (_, i) => BigInt(2 * i));
  const search = counted(sortedUsed(used));
  const found = await findFreeRuns(search.runs, query(0n, 40_000n, [], 5));
  t.deepEqual(
    found,
    [1n, 3n, 5n, 7n, 9n].map((v) => ({ first: v, last: v })),
  );
  t.true(search.asked() <= 11, `asked ${search.asked()} times`);
});

test('an ordered cursor is read only as far as the free addresses asked for', async (t) => {
  let read = 0;
  async function* values(): AsyncGenerator<bigint> {
    for (let v = 0n; v < 10_000n; v++) {
      if (v === 50n) continue;
      read++;
      yield v;
    }
  }
  t.deepEqual(await findFreeRuns(ascendingUsed(values()), query(0n, 20_000n, [], 1)), [{ first: 50n, last: 50n }]);
  t.true(read <= 52, `read ${read} values`);
});

test('taken runs and the range ends bound the free runs; a taken run over used ones is crossed once', async (t) => {
  const used = [10n, 11n, 12n, 20n];
  const q = query(
    8n,
    25n,
    [
      { first: 13n, last: 15n },
      { first: 9n, last: 9n },
      { first: 24n, last: 30n },
    ],
    Infinity,
  );
  t.deepEqual(await findFreeRuns(sortedUsed(used), q), [
    { first: 8n, last: 8n },
    { first: 16n, last: 19n },
    { first: 21n, last: 23n },
  ]);
  t.deepEqual(
    await findFreeRuns(sortedUsed(used), query(10n, 12n, [], Infinity)),
    [],
    'a wholly used range has nothing free',
  );
  t.deepEqual(
    await findFreeRuns(sortedUsed([]), query(5n, 5n, [], 3)),
    [{ first: 5n, last: 5n }],
    'a one-address range',
  );
});

test('AddressSet: union merges overlapping and touching runs; lowest keeps the lowest addresses; has finds members', (t) => {
  const set = AddressSet.union(4, [
    { first: 10n, last: 12n },
    { first: 1n, last: 3n },
    { first: 4n, last: 5n },
    { first: 11n, last: 20n },
  ]);
  t.deepEqual(set.intervals, [
    { first: 1n, last: 5n },
    { first: 10n, last: 20n },
  ]);
  t.deepEqual(set.lowest(7).intervals, [
    { first: 1n, last: 5n },
    { first: 10n, last: 11n },
  ]);
  t.is(set.lowest(Infinity), set);
  t.is(set.lowest(100), set);
  t.deepEqual(set.lowest(0).intervals, []);
  t.deepEqual(
    [0n, 1n, 5n, 6n, 9n, 10n, 20n, 21n].map((v) => set.has(v)),
    [false, true, true, false, false, true, true, false],
  );
});
