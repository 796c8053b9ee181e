/**
 * The overlaid past views (PastView, what `?as_of=` reads by default) answer exactly as the
 * replayed past states (PastStates, a copy rebuilt from the log): for many seeds, random
 * creates, updates and deletes over models whose documents keep columns from their
 * neighbours (racks, power panels and VLANs keep their site's order key, power feeds their
 * panel's, itself composed with the site's; prefixes their depth and children), then at
 * random positions the same documents, pages, counts and objects from both, read from the
 * stores and over HTTP.
 */
import anyTest, { type TestFn } from 'ava';

import { PastView } from '../../src/audit/PastView.js';
import { registry } from '../../src/models/registry.js';
import type { ReadStore, Sort } from '../../src/projections/ReadStore.js';
import { startService, type TestService } from '../support/startService.js';

const test = anyTest as TestFn<{ service: TestService }>;

test.before(async (t) => {
  t.context.service = await startService();
});
test.after.always(async (t) => {
  await t.context.service?.close();
});

/** mulberry32: a small seeded generator, so a failing seed can be run again. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

interface Kind {
  route: string;
  collection: string;
  /** A body for a create or an update (null: this kind cannot be made now). */
  body(pick: Picker): Record<string, unknown> | null;
}

interface Picker {
  int(n: number): number;
  word(): string;
  one(route: string): number | null;
}

const KINDS: Kind[] = [
  {
    route: '/api/dcim/sites/',
    collection: 'dcim.site',
    body: (p) => {
      const name = `${p.word()}-${p.int(1e9)}`;
      return { name, slug: name, description: p.word() };
    },
  },
  {
    route: '/api/ipam/vlan-groups/',
    collection: 'ipam.vlangroup',
    body: (p) => {
      const name = `${p.word()}-${p.int(1e9)}`;
      return { name, slug: name };
    },
  },
  {
    route: '/api/dcim/racks/',
    collection: 'dcim.rack',
    body: (p) => {
      const site = p.one('/api/dcim/sites/');
      return site === null ? null : { site, name: `${p.word()}-${p.int(1e9)}` };
    },
  },
  {
    route: '/api/dcim/power-panels/',
    collection: 'dcim.powerpanel',
    body: (p) => {
      const site = p.one('/api/dcim/sites/');
      return site === null ? null : { site, name: `${p.word()}-${p.int(1e9)}` };
    },
  },
  {
    route: '/api/dcim/power-feeds/',
    collection: 'dcim.powerfeed',
    body: (p) => {
      const panel = p.one('/api/dcim/power-panels/');
      return panel === null ? null : { power_panel: panel, name: `${p.word()}-${p.int(1e9)}` };
    },
  },
  {
    route: '/api/ipam/vlans/',
    collection: 'ipam.vlan',
    body: (p) => {
      const site = p.int(3) === 0 ? null : p.one('/api/dcim/sites/');
      return { vid: 1 + p.int(4000), name: p.word(), site };
    },
  },
  {
    route: '/api/ipam/prefixes/',
    collection: 'ipam.prefix',
    body: (p) => {
      const length = [8, 16, 20, 24, 28][p.int(5)]!;
      const octets = [10, p.int(4), p.int(4) * 16, 0];
      return { prefix: `${octets.join('.')}/${length}`, description: p.word() };
    },
  },
];

const WORDS = ['alpha', 'bravo', 'Charlie', 'delta', 'echo', 'foxtrot', 'golf', 'Hotel', 'india', 'juliet'];

/** Random writes through the API; returns how many succeeded. */
async function randomWrites(service: TestService, seed: number, count: number): Promise<number> {
  const next = random(seed);
  const ids = new Map<string, number[]>();
  const pick: Picker = {
    int: (n) => Math.floor(next() * n),
    word: () => WORDS[Math.floor(next() * WORDS.length)]!,
    one: (route) => {
      const list = ids.get(route) ?? [];
      return list.length === 0 ? null : list[Math.floor(next() * list.length)]!;
    },
  };
  let done = 0;
  for (let i = 0; i < count; i++) {
    const kind = KINDS[pick.int(KINDS.length)]!;
    const list = ids.get(kind.route) ?? [];
    ids.set(kind.route, list);
    const roll = next();
    const target = list.length > 0 ? list[pick.int(list.length)]! : null;
    if (target !== null && roll < 0.15) {
      const response = await service.api('DELETE', `${kind.route}${target}/`);
      if (response.status === 204) {
        list.splice(list.indexOf(target), 1);
        done++;
      }
    } else if (target !== null && roll < 0.55) {
      const body = kind.body(pick);
      if (body && (await service.api('PATCH', `${kind.route}${target}/`, body)).status === 200) done++;
    } else {
      const body = kind.body(pick);
      if (!body) continue;
      const response = await service.api('POST', kind.route, body);
      if (response.status === 201) {
        list.push(response.body.id);
        done++;
      }
    }
  }
  return done;
}

/** Every read of a collection both stores are asked: all documents, pages by several orders, counts, single objects. */
async function storeReads(store: ReadStore, collection: string, maxId: number): Promise<unknown> {
  const definition = registry.get(collection);
  const defaultSort = Object.fromEntries(
    definition.ordering.map((term) => [term.replace(/^-/, ''), term.startsWith('-') ? -1 : 1]),
  );
  const ids = Array.from({ length: maxId }, (_, i) => i + 1);
  return {
    // Ordered and filtered by last_updated first, before other reads widen the overlay: objects
    // whose other fields the list does not read are overlaid with their past last_updated alone.
    byLastUpdated: await store.find(collection, {}, { sort: { last_updated: -1, id: 1 }, limit: 5 }),
    oldestUpdated: await store.findWithCount!(collection, {}, { sort: { last_updated: 1, id: 1 }, skip: 1, limit: 3 }),
    wordByLastUpdated: await store.find(collection, { description: 'bravo' }, { sort: { last_updated: -1, id: 1 } }),
    all: await store.find(collection, {}, { sort: { id: 1 } }),
    // Lists by fields the random updates change, read before the collection is overlaid whole:
    // selected over the objects whose past differs in those fields (fieldMarks.ts).
    byWords: await store.findWithCount!(
      collection,
      { $or: [{ description: { $in: ['alpha', 'Charlie'] } }, { name: { $regex: '^[a-d]' } }] },
      { sort: { id: 1 } },
    ),
    byDescription: await store.find(collection, {}, { sort: { description: 1, id: 1 }, skip: 1, limit: 4 }),
    countOfWord: await store.count(collection, { description: 'bravo' }),
    byDefault: await store.find(collection, {}, { sort: { ...defaultSort, id: 1 } }),
    page: await store.find(collection, {}, { sort: { ...defaultSort, id: 1 }, skip: 2, limit: 3 }),
    reversed: await store.find(collection, {}, { sort: { id: -1 }, limit: 4 }),
    count: await store.count(collection, {}),
    filtered: await store.findWithCount!(collection, { id: { $lte: Math.ceil(maxId / 2) } }, { sort: { id: 1 } }),
    singles: await Promise.all(ids.map((id) => store.get(collection, id))),
    many: await store.getMany(collection, ids.slice(0, 5)),
  };
}

const COLLECTIONS = KINDS.map((k) => k.collection);

/** List and detail pages over HTTP at `position`. */
async function pages(service: TestService, position: number, siteIds: number[]): Promise<unknown[]> {
  const routes = [
    `/api/dcim/sites/?description=alpha&description=bravo`,
    `/api/dcim/sites/?q=a&limit=5`,
    `/api/ipam/vlans/?name=echo&limit=1000`,
    `/api/dcim/sites/?limit=1000`,
    `/api/dcim/sites/?ordering=-name&limit=3&offset=1`,
    `/api/dcim/sites/?ordering=-last_updated&limit=4`,
    `/api/dcim/racks/?ordering=last_updated&limit=3&offset=1`,
    `/api/dcim/racks/?limit=1000`,
    `/api/dcim/power-panels/?limit=1000`,
    `/api/dcim/power-feeds/?limit=1000`,
    `/api/dcim/power-feeds/?limit=2&offset=1`,
    `/api/ipam/vlans/?limit=1000`,
    `/api/ipam/vlans/?limit=3&offset=2`,
    `/api/ipam/vlan-groups/?limit=1000`,
    `/api/ipam/prefixes/?limit=1000`,
    `/api/ipam/prefixes/?limit=2&offset=1&ordering=-prefix`,
    ...siteIds.flatMap((id) => [`/api/dcim/sites/${id}/`, `/api/ipam/vlans/?site_id=${id}`]),
  ];
  const out: unknown[] = [];
  for (const route of routes) {
    const response = await service.api('GET', `${route}${route.includes('?') ? '&' : '?'}as_of=${position}`);
    out.push({ route, status: response.status, body: response.body });
  }
  return out;
}

test('past views answer as the replayed past states do, at random positions of random histories', async (t) => {
  const { service } = t.context;
  const audit = service.services.audit!;
  const live = service.services.store;
  const seeds = Number(process.env.EQUIVALENCE_SEEDS ?? 12);
  let compared = 0;
  let restamped = 0;
  let byPositions = 0;
  for (let seed = 1; seed <= seeds; seed++) {
    const before = audit.log.head;
    t.true((await randomWrites(service, seed, 45)) >= 10, `seed ${seed}: writes succeed`);
    await audit.log.sync();
    const head = audit.log.head;
    const next = random(seed * 7919);
    const maxIds = await live.maxIds();
    const positions = [before, head, ...Array.from({ length: 3 }, () => Math.floor(next() * (head + 1)))];
    for (const position of positions) {
      const replayed = await audit.past.at(position);
      const view = new PastView(registry, audit.log, live, position);
      for (const collection of COLLECTIONS) {
        const maxId = maxIds[collection] ?? 0;
        t.deepEqual(
          await storeReads(view, collection, maxId),
          await storeReads(replayed, collection, maxId),
          `seed ${seed}, position ${position}, ${collection}`,
        );
      }
      restamped += view.objectsRestamped;
      byPositions += view.pagesByLastUpdated;
      const sites = (await replayed.find('dcim.site', {}, { sort: { id: 1 } })).map((d) => d.id);
      const vlanSites = [...sites.slice(0, 2), maxIds['dcim.site'] ?? 0];
      t.deepEqual(
        await view.countBy('ipam.vlan', 'site', vlanSites),
        await replayed.countBy('ipam.vlan', 'site', vlanSites),
        `seed ${seed}, position ${position}: VLANs per site`,
      );
      audit.pastReads = 'overlay';
      const overlaid = await pages(service, position, vlanSites);
      audit.pastReads = 'replay';
      const fromReplay = await pages(service, position, vlanSites);
      audit.pastReads = 'overlay';
      t.deepEqual(overlaid, fromReplay, `seed ${seed}, position ${position}: pages`);
      compared++;
    }
  }
  t.is(compared, seeds * 5);
  t.true(restamped > 0, 'some objects were overlaid with their past last_updated alone');
  t.true(byPositions > 0, 'some pages ordered by last_updated were read off the positions');
});

test('a past view read while the live read models move on answers as of its position', async (t) => {
  const { service } = t.context;
  const audit = service.services.audit!;
  const live = service.services.store;
  await randomWrites(service, 1001, 30);
  await audit.log.sync();
  const position = audit.log.head;
  const view = new PastView(registry, audit.log, live, position);
  const first = await storeReads(view, 'dcim.site', (await live.maxIds())['dcim.site'] ?? 0);
  // Overlaid before the writes below, so that these collections are taken in by extension.
  for (const collection of ['dcim.powerfeed', 'ipam.prefix']) await view.find(collection, {});
  // Written after the view's collections were overlaid: the view takes the changes in on its next read.
  await randomWrites(service, 1002, 30);
  await audit.log.sync();
  const maxId = (await live.maxIds())['dcim.site'] ?? 0;
  const replayed = await audit.past.at(position);
  t.deepEqual(await storeReads(view, 'dcim.site', maxId), await storeReads(replayed, 'dcim.site', maxId));
  // Sites renamed again since the view overlaid them: the panels and feeds that keep their keys follow.
  for (const collection of ['dcim.powerpanel', 'dcim.powerfeed', 'dcim.rack', 'ipam.vlan', 'ipam.prefix']) {
    const most = (await live.maxIds())[collection] ?? 0;
    t.deepEqual(await storeReads(view, collection, most), await storeReads(replayed, collection, most), collection);
  }
  t.deepEqual(first, await storeReads(replayed, 'dcim.site', (first as { singles: unknown[] }).singles.length));
});

test('a past view’s prefix hierarchy stays as of its position when prefixes are created and changed after it was read', async (t) => {
  const { service } = t.context;
  const audit = service.services.audit!;
  const live = service.services.store;
  const parent = await service.api('POST', '/api/ipam/prefixes/', { prefix: '10.250.0.0/16' });
  t.is(parent.status, 201);
  await audit.log.sync();
  const position = audit.log.head;
  t.is((await service.api('PATCH', `/api/ipam/prefixes/${parent.body.id}/`, { description: 'since' })).status, 200);
  await audit.log.sync();
  const view = new PastView(registry, audit.log, live, position);
  await view.find('ipam.prefix', {}); // overlaid now: the parent's version then
  // A child of it after the view was read: the live parent counts it, the view's must not.
  t.is((await service.api('POST', '/api/ipam/prefixes/', { prefix: '10.250.1.0/24' })).status, 201);
  await audit.log.sync();
  const replayed = await audit.past.at(position);
  const most = (await live.maxIds())['ipam.prefix'] ?? 0;
  t.deepEqual(await storeReads(view, 'ipam.prefix', most), await storeReads(replayed, 'ipam.prefix', most));
  t.like(await view.get('ipam.prefix', parent.body.id), { _children: 0 });
});

test('a branch’s creates merged later keep their earlier last_updated: pages ordered by it place them as replay does', async (t) => {
  const { service } = t.context;
  const audit = service.services.audit!;
  const live = service.services.store;
  const branches = '/api/plugins/branching/branches/';
  const branch = await service.api('POST', branches, { name: `late-stamps-${Date.now()}` });
  t.is(branch.status, 201);
  const inBranch = { 'X-NetBox-Branch': branch.body.schema_id };
  for (const name of ['late-a', 'late-b'])
    t.is((await service.api('POST', '/api/dcim/sites/', { name, slug: name }, inBranch)).status, 201);
  // Main moves on after the branch's creates, then the branch is merged: its sites keep their time.
  await randomWrites(service, 2001, 20);
  t.is((await service.api('POST', `${branches}${branch.body.id}/merge/`, { commit: true })).status, 200);
  await randomWrites(service, 2002, 10);
  await audit.log.sync();
  t.true(audit.log.index.stamps.late.length > 0, 'the merged creates are late');
  t.true(audit.log.index.stamps.ordered);
  const head = audit.log.head;
  for (const position of [head - 12, head - 3, head]) {
    const view = new PastView(registry, audit.log, live, position);
    const replayed = await audit.past.at(position);
    const sorts: Sort[] = [{ last_updated: -1 }, { last_updated: 1, name: 1 }];
    for (const sort of sorts) {
      for (const [skip, limit] of [
        [0, 5],
        [3, 30],
      ]) {
        t.deepEqual(
          (await view.find('dcim.site', {}, { sort, skip, limit })).map((d) => [d.id, d.last_updated]),
          (await replayed.find('dcim.site', {}, { sort: { ...sort, id: 1 }, skip, limit })).map((d) => [
            d.id,
            d.last_updated,
          ]),
          `position ${position}, ${JSON.stringify(sort)}, ${skip}/${limit}`,
        );
      }
    }
    t.true(view.pagesByLastUpdated > 0);
  }
});
