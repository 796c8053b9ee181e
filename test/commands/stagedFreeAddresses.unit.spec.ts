/**
 * The writer's view of free addresses: the read store's answer corrected by changes
 * decided but not yet projected (staged creates, moves and deletes, in layers). It must
 * agree with the plain computation over the same view (every used address read with
 * `find`), which is what the allocators did before the index.
 */
import test from 'ava';

import { Overlay, StagedView } from '../../src/commands/StagedView.js';
import { AddressSet } from '../../src/models/allocation/addressSet.js';
import { scanFreeAddresses } from '../../src/models/allocation/freeAddresses.js';
import type { FreeAddressQuery } from '../../src/models/lookupView.js';
import { registry } from '../../src/models/registry.js';
import { addressSortKey, formatAddress, parseAddress } from '../../src/models/values/ipNetworks.js';
import { MemoryReadStore } from '../../src/projections/memory/MemoryReadStore.js';
import { readModelIndexes } from '../../src/projections/readModelIndexes.js';
import type { DocumentChange } from '../../src/projections/ReadStore.js';
import { seededRandom } from '../support/seededRandom.js';

const IP = 'ipam.ipaddress';
const ip = (text: string) => parseAddress(text)!.value;

function put(id: number, value: bigint | string, vrf: number | null, position: number): DocumentChange {
  const v = typeof value === 'string' ? ip(value) : value;
  return {
    collection: IP,
    id,
    position,
    doc: { id, _pos: position, address: `${formatAddress(4, v)}/24`, _address: addressSortKey(4, v), vrf },
  };
}

const gone = (id: number, position: number): DocumentChange => ({ collection: IP, id, position, doc: null });

function query(scope: number | null | 'any', limit: number, first = '10.0.0.0', last = '10.0.0.255'): FreeAddressQuery {
  return {
    collection: IP,
    field: '_address',
    family: 4,
    first: ip(first),
    last: ip(last),
    ...(scope === 'any' ? {} : { scope: { field: 'vrf', value: scope } }),
    taken: [{ first: ip(first), last: ip(first) }],
    limit,
  };
}

const addresses = (runs: Array<{ first: bigint; last: bigint }>) =>
  [...AddressSet.union(4, runs).addresses()].map((v) => formatAddress(4, v));

async function storeWith(changes: DocumentChange[]): Promise<MemoryReadStore> {
  const store = new MemoryReadStore();
  await store.open();
  await store.ensureIndexes(IP, readModelIndexes(registry).get(IP)!);
  await store.apply(changes, changes.length);
  return store;
}

function layer(changes: DocumentChange[]): Overlay {
  const overlay = new Overlay();
  for (const change of changes) overlay.put(change);
  return overlay;
}

test('staged changes: a delete or a move frees a stored address unless another document still holds it; a create takes one', async (t) => {
  const store = await storeWith([
    put(1, '10.0.0.1', null, 1),
    put(2, '10.0.0.2', null, 2),
    put(3, '10.0.0.2', null, 3),
    put(4, '10.0.0.3', null, 4),
    put(5, '10.0.0.4', null, 5),
  ]);
  const view = new StagedView(store, [
    layer([gone(1, 6), gone(2, 7), put(4, '10.0.0.3', 9, 8)]),
    layer([put(6, '10.0.0.5', null, 9), put(5, '10.0.0.4', null, 5)]),
  ]);
  const free = await view.freeAddresses(query(null, 4));
  t.deepEqual(
    addresses(free),
    ['10.0.0.1', '10.0.0.3', '10.0.0.6', '10.0.0.7'],
    '.2 is still held by 3; .4 is staged as it is stored; .5 is staged',
  );
  t.deepEqual(free, await scanFreeAddresses(view, query(null, 4)));
  t.deepEqual(
    addresses(await view.freeAddresses(query(9, 3))),
    ['10.0.0.1', '10.0.0.2', '10.0.0.4'],
    'the moved address counts in its new VRF',
  );
});

test('staged changes: an address freed above the lowest ones the store found does not displace them; the newest layer wins', async (t) => {
  const store = await storeWith([put(1, '10.0.0.9', null, 1), put(2, '10.0.0.1', null, 2)]);
  const view = new StagedView(store, [layer([gone(1, 3), gone(2, 4)]), layer([put(2, '10.0.0.1', null, 5)])]);
  t.deepEqual(addresses(await view.freeAddresses(query(null, 2))), ['10.0.0.2', '10.0.0.3']);
  t.deepEqual(addresses(await view.freeAddresses(query(null, 8))), [
    '10.0.0.2',
    '10.0.0.3',
    '10.0.0.4',
    '10.0.0.5',
    '10.0.0.6',
    '10.0.0.7',
    '10.0.0.8',
    '10.0.0.9',
  ]);
  t.deepEqual(await view.freeAddresses(query(null, 0)), []);
});

test('random stored and staged changes in two layers: the writer view agrees with the plain computation over it', async (t) => {
  const random = seededRandom(7);
  const int = (n: number) => Math.floor(random() * n);
  for (let round = 0; round < 30; round++) {
    let position = 0;
    let nextId = 1;
    const ids: number[] = [];
    const randomChange = (): DocumentChange => {
      position++;
      if (ids.length > 0 && random() < 0.3) return gone(ids[int(ids.length)]!, position);
      const id = ids.length > 0 && random() < 0.4 ? ids[int(ids.length)]! : nextId++;
      if (!ids.includes(id)) ids.push(id);
      return put(id, ip('10.0.0.0') + BigInt(int(64)), random() < 0.7 ? null : 1, position);
    };
    const store = await storeWith(Array.from({ length: int(80) }, randomChange));
    const view = new StagedView(store, [
      layer(Array.from({ length: int(12) }, randomChange)),
      layer(Array.from({ length: int(4) }, randomChange)),
    ]);
    for (const scope of [null, 1, 'any'] as const) {
      for (const limit of [1, 3, 20, Infinity]) {
        const q = query(scope, limit, '10.0.0.0', '10.0.0.63');
        t.deepEqual(
          await view.freeAddresses(q),
          await scanFreeAddresses(view, q),
          JSON.stringify({ round, scope, limit: String(limit) }),
        );
      }
    }
  }
});
