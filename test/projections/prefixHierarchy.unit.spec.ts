import test, { type ExecutionContext } from 'ava';

import { registry } from '../../src/models/registry.js';
import { parseCidr } from '../../src/models/values/ipNetworks.js';
import { evolve } from '../../src/projections/evolve.js';
import { MemoryReadStore } from '../../src/projections/memory/MemoryReadStore.js';
import { withProjectedColumns } from '../../src/projections/projectedColumns.js';
import { readModelIndexes } from '../../src/projections/readModelIndexes.js';
import type { ReadDocument, ReadStore } from '../../src/projections/ReadStore.js';
import { makeEvent } from '../support/makeEvent.js';
import { scratchMongoStore } from '../support/scratchMongoStore.js';
import { seededRandom } from '../support/seededRandom.js';

const PREFIX = 'ipam.prefix';
type Spec = { prefix: string; vrf?: number | null };

/** A read store fed prefix events as the projector feeds it: evolve, projected columns, one apply per batch. */
class Ledger {
  private position = 0;
  private readonly current = new Map<number, Spec>();
  /** The position of each prefix's last event: its `_pos`, whatever its neighbours did since. */
  private readonly written = new Map<number, number>();

  constructor(readonly store: ReadStore) {}

  async batch(steps: Array<{ id: number; spec: Spec | null }>): Promise<void> {
    const events = steps.map(({ id, spec }) => {
      const position = ++this.position;
      const action = spec === null ? 'delete' : this.current.has(id) ? 'update' : 'create';
      if (spec === null) this.current.delete(id);
      else this.current.set(id, spec);
      this.written.set(id, position);
      return makeEvent(position, {
        action,
        objectType: PREFIX,
        objectId: id,
        objectRepr: spec?.prefix ?? 'gone',
        postchange:
          spec === null
            ? null
            : {
                id,
                prefix: spec.prefix,
                vrf: spec.vrf ?? null,
                family: parseCidr(spec.prefix)!.family,
                status: 'active',
              },
      });
    });
    const changes = events.map((e) => evolve(registry, e));
    await this.store.apply(await withProjectedColumns(registry, this.store, changes), this.position);
  }

  create(id: number, prefix: string, vrf: number | null = null) {
    return this.batch([{ id, spec: { prefix, vrf } }]);
  }

  async columns(id: number): Promise<{ children: unknown; depth: unknown; pos: number }> {
    const doc = (await this.store.get(PREFIX, id))!;
    return { children: doc._children, depth: doc._depth, pos: doc._pos };
  }

  /** Every prefix's columns as NetBox's definition has them, counted by brute force. */
  expected(): Map<number, { children: number; depth: number }> {
    const all = [...this.current].map(([id, spec]) => ({ id, vrf: spec.vrf ?? null, cidr: parseCidr(spec.prefix)! }));
    const contains = (outer: (typeof all)[number], inner: (typeof all)[number]) => {
      if (
        outer.vrf !== inner.vrf ||
        outer.cidr.family !== inner.cidr.family ||
        outer.cidr.prefixlen >= inner.cidr.prefixlen
      )
        return false;
      const bits = outer.cidr.family === 4 ? 32 : 128;
      const shift = BigInt(bits - outer.cidr.prefixlen);
      return outer.cidr.value >> shift === inner.cidr.value >> shift;
    };
    const out = new Map<number, { children: number; depth: number }>();
    for (const p of all) {
      const network = (q: (typeof all)[number]) =>
        q.cidr.value >> BigInt((q.cidr.family === 4 ? 32 : 128) - q.cidr.prefixlen);
      const around = new Set(all.filter((q) => contains(q, p)).map((q) => `${network(q)}/${q.cidr.prefixlen}`));
      out.set(p.id, { children: all.filter((q) => contains(p, q)).length, depth: around.size });
    }
    return out;
  }

  async assertColumns(t: ExecutionContext, message: string): Promise<void> {
    const docs = await this.store.find(PREFIX, {});
    const actual = new Map(docs.map((d: ReadDocument) => [d.id, { children: d._children, depth: d._depth }]));
    t.deepEqual(actual, this.expected(), message);
    t.deepEqual(
      new Map(docs.map((d) => [d.id, d._pos])),
      new Map([...this.current.keys()].map((id) => [id, this.written.get(id)])),
      `${message}: versions`,
    );
  }
}

async function memoryLedger(): Promise<Ledger> {
  const store = new MemoryReadStore();
  for (const [collection, fields] of readModelIndexes(registry)) await store.ensureIndexes(collection, fields);
  return new Ledger(store);
}

test("nested prefixes: a new prefix counts among its containers' children and deepens the prefixes inside it; neighbours keep their version", async (t) => {
  const ledger = await memoryLedger();
  await ledger.create(1, '10.0.0.0/8');
  await ledger.create(2, '10.1.1.0/24');
  t.like(await ledger.columns(1), { children: 1, depth: 0, pos: 1 });
  t.like(await ledger.columns(2), { children: 0, depth: 1, pos: 2 });
  // a middle prefix, created after both
  await ledger.create(3, '10.1.0.0/16');
  t.like(await ledger.columns(3), { children: 1, depth: 1, pos: 3 });
  t.like(await ledger.columns(1), { children: 2, depth: 0, pos: 1 }, 'the container counts it; its _pos stays');
  t.like(await ledger.columns(2), { children: 0, depth: 2, pos: 2 }, 'the prefix inside is one deeper; its _pos stays');
  // an unrelated neighbour of the same /8 does not touch the /16's subtree
  await ledger.create(4, '10.2.0.0/16');
  t.like(await ledger.columns(1), { children: 3, depth: 0, pos: 1 });
  t.like(await ledger.columns(2), { children: 0, depth: 2, pos: 2 });
  await ledger.assertColumns(t, 'as counted by brute force');
});

test('deleting a middle prefix: its container counts one fewer, the prefixes inside it rise', async (t) => {
  const ledger = await memoryLedger();
  await ledger.batch([
    { id: 1, spec: { prefix: '10.0.0.0/8' } },
    { id: 2, spec: { prefix: '10.1.0.0/16' } },
    { id: 3, spec: { prefix: '10.1.1.0/24' } },
    { id: 4, spec: { prefix: '10.1.1.128/25' } },
  ]);
  t.like(await ledger.columns(4), { children: 0, depth: 3 });
  await ledger.batch([{ id: 2, spec: null }]);
  t.is(await ledger.store.get(PREFIX, 2), null);
  t.like(await ledger.columns(1), { children: 2, depth: 0, pos: 1 });
  t.like(await ledger.columns(3), { children: 1, depth: 1, pos: 3 });
  t.like(await ledger.columns(4), { children: 0, depth: 2, pos: 4 });
  await ledger.assertColumns(t, 'as counted by brute force');
});

test('VRFs are separate hierarchies; a change of VRF moves a prefix out of one and into the other', async (t) => {
  const ledger = await memoryLedger();
  await ledger.create(1, '10.0.0.0/8');
  await ledger.create(2, '10.0.0.0/8', 7);
  await ledger.create(3, '10.1.0.0/16');
  await ledger.create(4, '10.1.2.0/24', 7);
  t.like(await ledger.columns(1), { children: 1, depth: 0 });
  t.like(await ledger.columns(2), { children: 1, depth: 0 });
  t.like(await ledger.columns(4), { children: 0, depth: 1 }, "the global /16 is no container of a VRF's /24");
  await ledger.batch([{ id: 3, spec: { prefix: '10.1.0.0/16', vrf: 7 } }]);
  t.like(await ledger.columns(1), { children: 0, depth: 0, pos: 1 });
  t.like(await ledger.columns(2), { children: 2, depth: 0, pos: 2 });
  t.like(await ledger.columns(3), { children: 1, depth: 1, pos: 5 });
  t.like(await ledger.columns(4), { children: 0, depth: 2, pos: 4 });
  await ledger.assertColumns(t, 'as counted by brute force');
});

test('IPv6 prefixes nest like IPv4 ones and never with them; a duplicate prefix is counted once for depth', async (t) => {
  const ledger = await memoryLedger();
  await ledger.batch([
    { id: 1, spec: { prefix: '2001:db8::/32' } },
    { id: 2, spec: { prefix: '2001:db8:1::/48' } },
    { id: 3, spec: { prefix: '2001:db8:1:2::/64' } },
    { id: 4, spec: { prefix: '0.0.0.0/0' } },
    { id: 5, spec: { prefix: '2001:db8::/32' } },
  ]);
  t.like(await ledger.columns(1), { children: 2, depth: 0 });
  t.like(await ledger.columns(3), { children: 0, depth: 2 }, 'two /32s, one depth');
  t.like(await ledger.columns(4), { children: 0, depth: 0 }, 'an IPv4 default route contains no IPv6 prefix');
  await ledger.batch([{ id: 5, spec: null }]);
  t.like(await ledger.columns(3), { children: 0, depth: 2 }, 'the other /32 still holds it');
  await ledger.batch([{ id: 2, spec: { prefix: '2001:db8:2::/48' } }]);
  t.like(await ledger.columns(3), { children: 0, depth: 1 });
  await ledger.assertColumns(t, 'as counted by brute force');
});

test('applying the same batch again leaves the same columns', async (t) => {
  const store = new MemoryReadStore();
  const ledger = new Ledger(store);
  await ledger.create(1, '10.0.0.0/8');
  const again = new Ledger(store);
  await again.create(1, '10.0.0.0/8'); // position 1 again: already applied
  await ledger.create(2, '10.1.0.0/16');
  const changes = [
    evolve(
      registry,
      makeEvent(2, {
        objectType: PREFIX,
        objectId: 2,
        objectRepr: '10.1.0.0/16',
        postchange: { id: 2, prefix: '10.1.0.0/16', vrf: null, family: 4 },
      }),
    ),
  ];
  await store.apply(await withProjectedColumns(registry, store, changes), 2);
  t.like(await ledger.columns(1), { children: 1, depth: 0, pos: 1 });
  t.like(await ledger.columns(2), { children: 0, depth: 1, pos: 2 });
});

test("randomized: one batch holding a whole history (a rebuild's window) leaves the same columns as a brute-force count", async (t) => {
  const random = seededRandom(99);
  const ledger = await memoryLedger();
  await ledger.batch([{ id: 1000, spec: { prefix: '10.0.0.0/8' } }]);
  const steps: Array<{ id: number; spec: Spec | null }> = [];
  for (let i = 0; i < 600; i++) {
    const id = 1 + Math.floor(random() * 150);
    const length = [12, 16, 20, 24][Math.floor(random() * 4)]!;
    const spec =
      random() < 0.15
        ? null
        : {
            prefix: `10.${Math.floor(random() * 3)}.${Math.floor(random() * 3) * 16}.0/${length}`,
            vrf: random() < 0.2 ? 1 : null,
          };
    steps.push({ id, spec });
  }
  await ledger.batch(
    steps.filter((s, i) => s.spec !== null || steps.slice(0, i).some((p) => p.id === s.id && p.spec !== null)),
  );
  await ledger.assertColumns(t, 'after one large batch');
});

/**
 * Random creates, moves and deletes over a small address space, in batches of random
 * size (host bits are left as drawn: the hierarchy reads the network keys, which drop them).
 */
async function randomized(t: ExecutionContext, ledger: Ledger, seed: number, rounds: number) {
  const random = seededRandom(seed);
  const pick = <T>(items: T[]) => items[Math.floor(random() * items.length)]!;
  const randomPrefix = (): string => {
    if (random() < 0.25) {
      const length = pick([16, 32, 40, 48, 56, 64]);
      const words = [0x2001, 0xdb8, Math.floor(random() * 4), Math.floor(random() * 4)];
      return `${words.map((w) => w.toString(16)).join(':')}::/${length}`;
    }
    const length = pick([8, 12, 16, 20, 24, 24, 28]);
    const address = [10, Math.floor(random() * 4), Math.floor(random() * 4) * 16, 0];
    return `${address.join('.')}/${length}`;
  };
  const live = new Set<number>();
  let next = 1;
  for (let round = 0; round < rounds; round++) {
    const steps: Array<{ id: number; spec: { prefix: string; vrf: number | null } | null }> = [];
    const size = 1 + Math.floor(random() * 4);
    for (let i = 0; i < size; i++) {
      const roll = random();
      const vrf = random() < 0.3 ? pick([1, 2]) : null;
      if (roll < 0.55 || live.size === 0) {
        const id = next++;
        live.add(id);
        steps.push({ id, spec: { prefix: randomPrefix(), vrf } });
      } else if (roll < 0.8) {
        steps.push({ id: pick([...live]), spec: { prefix: randomPrefix(), vrf } });
      } else {
        const id = pick([...live]);
        live.delete(id);
        steps.push({ id, spec: null });
      }
    }
    await ledger.batch(steps);
    if (process.env.DEBUG_HIERARCHY)
      await ledger.assertColumns(t, `seed ${seed} round ${round}: ${JSON.stringify(steps)}`);
  }
  await ledger.assertColumns(t, `seed ${seed}: the columns equal a brute-force count`);
}

for (const seed of [1, 2, 3, 4, 5]) {
  test(`randomized: after random creates, moves and deletes the columns equal a brute-force count (memory, seed ${seed})`, async (t) => {
    await randomized(t, await memoryLedger(), seed, 120);
  });
}

const mongoUrl = process.env.MONGODB_URL;
if (mongoUrl) {
  test('randomized: the same on MongoDB', async (t) => {
    const { store, cleanup } = await scratchMongoStore(mongoUrl, `netledger-hierarchy-${process.pid}`);
    t.teardown(cleanup);
    for (const [collection, fields] of readModelIndexes(registry)) await store.ensureIndexes(collection, fields);
    await randomized(t, new Ledger(store), 11, 80);
  });
}
