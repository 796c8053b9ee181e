import test from 'ava';

import { ContextIndex } from '../../src/models/configContexts/ContextIndex.js';
import {
  CRITERIA,
  type Criterion,
  DEVICE_CONTEXT_SCOPE,
  VIRTUAL_MACHINE_CONTEXT_SCOPE,
} from '../../src/models/configContexts/contextScopes.js';
import { deepMerge } from '../../src/models/configContexts/deepMerge.js';
import { renderConfigContexts } from '../../src/models/configContexts/renderConfigContexts.js';
import { allModels } from '../../src/models/index.js';
import type { LookupView } from '../../src/models/lookupView.js';
import type { ModelDefinition } from '../../src/models/modelDefinition.js';
import { ModelRegistry } from '../../src/models/registry.js';
import type { StoredObject } from '../../src/models/storedObject.js';
import { jsonbText } from '../../src/models/values/jsonbText.js';
import { seededRandom } from '../support/seededRandom.js';

/* ------------------------------------------------------------ the merge */

test('merge: nested objects merge key by key; lists and scalars are replaced, not joined', (t) => {
  const merged = deepMerge(
    { ntp: { servers: ['a'], prefer: 'a' }, syslog: 'x', keep: 1 },
    { ntp: { servers: ['b'] }, syslog: { host: 'y' } },
  );
  t.deepEqual(merged, { ntp: { servers: ['b'], prefer: 'a' }, syslog: { host: 'y' }, keep: 1 });
});

test('merge: an empty object replaces the object it meets (NetBox merges only a non-empty one)', (t) => {
  t.deepEqual(deepMerge({ a: { x: 1 } }, { a: {} }), { a: {} });
  t.deepEqual(deepMerge({ a: {} }, { a: { x: 1 } }), { a: { x: 1 } });
  t.deepEqual(deepMerge({ a: 1 }, { a: { x: 1 } }), { a: { x: 1 } });
  t.deepEqual(deepMerge({ a: { x: 1 } }, { a: null }), { a: null });
});

test('merge: keys keep their first position, new ones follow; the inputs are not changed', (t) => {
  const original = { b: 1, a: { y: 1 } };
  const update = { c: 3, a: { z: 2 }, b: 2 };
  const merged = deepMerge(original, update);
  t.deepEqual(Object.keys(merged), ['b', 'a', 'c']);
  t.deepEqual(Object.keys(merged.a as object), ['y', 'z']);
  t.deepEqual(original, { b: 1, a: { y: 1 } });
  t.deepEqual(update, { c: 3, a: { z: 2 }, b: 2 });
});

test('merge: a key named "__proto__" stays a key of the data and changes no prototype', (t) => {
  const merged = deepMerge(JSON.parse('{"__proto__": {"a": 1}}'), JSON.parse('{"__proto__": {"b": 2}, "c": 3}'));
  t.is(Object.getPrototypeOf(merged), Object.prototype);
  t.is(JSON.stringify(merged), '{"__proto__":{"a":1,"b":2},"c":3}');
  t.is(({} as Record<string, unknown>).b, undefined);
});

/* ------------------------------------------------------------ the index */

let nextId = 1;
function context(
  name: string,
  weight: number,
  data: Record<string, unknown>,
  criteria: Partial<Record<Criterion, number[]>> = {},
  isActive = true,
): StoredObject {
  const lists = Object.fromEntries(CRITERIA.map((c) => [c, criteria[c] ?? []]));
  return { id: nextId++, name, weight, is_active: isActive, data, ...lists };
}

const values = (entries: Partial<Record<Criterion, number[]>>) =>
  new Map(Object.entries(entries).map(([c, ids]) => [c as Criterion, ids]));

test('index: contexts apply in weight order, then by name; a context without criteria applies to everything', (t) => {
  const index = new ContextIndex(
    [context('b', 100, {}), context('a', 100, {}), context('heavy', 2000, {}), context('light', 10, {})],
    CRITERIA,
  );
  t.deepEqual(index.names(index.applicable(values({}))), ['light', 'a', 'b', 'heavy']);
});

test('index: every criterion a context restricts must be met, each by any one of its values', (t) => {
  const index = new ContextIndex(
    [
      context('site 1', 1, {}, { sites: [1] }),
      context('site 1 or 2, role 7', 2, {}, { sites: [1, 2], roles: [7] }),
      context('tag 5 or 6', 3, {}, { tags: [5, 6] }),
      context('site 3', 4, {}, { sites: [3] }),
    ],
    CRITERIA,
  );
  t.deepEqual(index.names(index.applicable(values({ sites: [2], roles: [7], tags: [6, 5] }))), [
    'site 1 or 2, role 7',
    'tag 5 or 6',
  ]);
  t.deepEqual(
    index.names(index.applicable(values({ sites: [1] }))),
    ['site 1'],
    'no role: the role-restricted context does not apply',
  );
  t.deepEqual(index.names(index.applicable(values({}))), [], 'an object without values meets no restricted context');
});

test('index: a context listing a region and its parent counts the criterion once for an object in both', (t) => {
  const index = new ContextIndex([context('europe or germany', 1, {}, { regions: [1, 2], sites: [9] })], CRITERIA);
  t.deepEqual(index.names(index.applicable(values({ regions: [2, 1], sites: [9] }))), ['europe or germany']);
});

test('index: a criterion not counted for the kind of object never keeps a context from applying', (t) => {
  const withoutLocations = CRITERIA.filter((c) => c !== 'locations');
  const index = new ContextIndex([context('location 4', 1, { x: 1 }, { locations: [4] })], withoutLocations);
  t.deepEqual(index.names(index.applicable(values({}))), ['location 4']);
  t.deepEqual(index.usedCriteria, []);
});

test('index: over many objects in a row it answers as a plain check of every context would (random contexts and objects)', (t) => {
  const random = seededRandom(11);
  const int = (n: number) => Math.floor(random() * n);
  const some = () => Array.from({ length: int(3) }, () => int(6));
  const used: Criterion[] = ['regions', 'sites', 'roles', 'tags', 'tenants'];
  const contexts = Array.from({ length: 60 }, (_, i) =>
    context(
      `c${String(i).padStart(2, '0')}`,
      int(5),
      {},
      Object.fromEntries(used.filter(() => random() < 0.3).map((c) => [c, some()])),
    ),
  );
  const index = new ContextIndex(contexts, CRITERIA);
  const ordered = [...contexts].sort(
    (a, b) => Number(a.weight) - Number(b.weight) || String(a.name).localeCompare(String(b.name)),
  );
  for (let n = 0; n < 500; n++) {
    const object = Object.fromEntries(used.filter(() => random() < 0.8).map((c) => [c, some()]));
    const naive = ordered
      .filter((c) =>
        used.every(
          (criterion) =>
            (c[criterion] as number[]).length === 0 ||
            (c[criterion] as number[]).some((v) => object[criterion]?.includes(v)),
        ),
      )
      .map((c) => String(c.name));
    t.deepEqual(index.names(index.applicable(values(object))), naive, JSON.stringify(object));
  }
});

test('index: the merged data of a set of contexts is computed once and shared', (t) => {
  const index = new ContextIndex([context('x', 1, { a: { b: 1 } }), context('y', 2, { a: { c: 2 } })], CRITERIA);
  const first = index.merged(index.applicable(values({})));
  t.deepEqual(first, { a: { b: 1, c: 2 } });
  t.is(index.merged(index.applicable(values({ sites: [1] }))), first);
});

/* ------------------------------------------------------------ rendering over a view */

type Rows = Record<string, StoredObject[]>;

/** A view over plain rows that counts its reads; answers `{is_active}` and `{id: {$in}}` as the renderer asks. */
function countingView(rows: Rows): LookupView & { reads: string[] } {
  const reads: string[] = [];
  const matches = (doc: StoredObject, query: Record<string, unknown>) =>
    Object.entries(query).every(([key, condition]) => {
      if (condition && typeof condition === 'object' && '$in' in condition)
        return (condition.$in as unknown[]).includes(doc[key]);
      return doc[key] === condition;
    });
  return {
    reads,
    async get(model, id) {
      reads.push(`get ${model}`);
      return rows[model]?.find((d) => d.id === id) ?? null;
    },
    async find(model, query) {
      reads.push(`find ${model}`);
      return (rows[model] ?? []).filter((d) => matches(d, query));
    },
  };
}

/** Europe (1) > Germany (2) > Berlin (3); site groups core (1) > edge (2); tenant groups 1 > 2. */
function world(contexts: StoredObject[]): Rows {
  return {
    'extras.configcontext': contexts,
    'dcim.region': [
      { id: 1, name: 'Europe', parent: null },
      { id: 2, name: 'Germany', parent: 1 },
      { id: 3, name: 'Berlin', parent: 2 },
    ],
    'dcim.sitegroup': [
      { id: 1, name: 'core', parent: null },
      { id: 2, name: 'edge', parent: 1 },
    ],
    'dcim.site': [
      { id: 10, name: 'BER1', region: 3, group: 2 },
      { id: 11, name: 'PAR1', region: null, group: null },
    ],
    'virtualization.cluster': [{ id: 30, name: 'c1', type: 31, group: 32, site: 10 }],
    'tenancy.tenant': [{ id: 40, name: 't', group: 2 }],
  };
}

function device(id: number, fields: Record<string, unknown> = {}): StoredObject {
  return {
    id,
    site: 10,
    location: null,
    device_type: 50,
    device_role: 60,
    platform: null,
    cluster: null,
    tenant: null,
    tags: [],
    local_context_data: null,
    ...fields,
  };
}

test("device: region and site-group criteria match the site's own and every one above it", async (t) => {
  const contexts = [
    context('europe', 1, { r: 'europe' }, { regions: [1] }),
    context('berlin', 2, { r: 'berlin' }, { regions: [3] }),
    context('core', 3, { g: 'core' }, { site_groups: [1] }),
    context('other region', 4, { r: 'other' }, { regions: [99] }),
  ];
  const [berlin, paris] = await renderConfigContexts(DEVICE_CONTEXT_SCOPE)(
    [device(1), device(2, { site: 11 })],
    countingView(world(contexts)),
  );
  t.deepEqual(berlin, { r: 'berlin', g: 'core' });
  t.deepEqual(paris, {}, 'a site without a region or group meets no region or group criterion');
});

test('device: tenant groups, locations and the rest match only the value itself, not its ancestors', async (t) => {
  const contexts = [
    context('tenant group 1', 1, { tg1: true }, { tenant_groups: [1] }),
    context('tenant group 2', 2, { tg2: true }, { tenant_groups: [2] }),
    context('tenant 40', 3, { t: true }, { tenants: [40] }),
  ];
  const [rendered] = await renderConfigContexts(DEVICE_CONTEXT_SCOPE)(
    [device(1, { tenant: 40 })],
    countingView(world(contexts)),
  );
  t.deepEqual(rendered, { tg2: true, t: true });
});

test("device: cluster criteria match its cluster, the cluster's type and group; role is the device role", async (t) => {
  const contexts = [
    context('cluster', 1, { c: 1 }, { clusters: [30] }),
    context('cluster type', 2, { ct: 1 }, { cluster_types: [31] }),
    context('cluster group', 3, { cg: 1 }, { cluster_groups: [32] }),
    context('role', 4, { role: 1 }, { roles: [60] }),
    context('other cluster type', 5, { no: 1 }, { cluster_types: [99] }),
  ];
  const [inCluster, outside] = await renderConfigContexts(DEVICE_CONTEXT_SCOPE)(
    [device(1, { cluster: 30 }), device(2)],
    countingView(world(contexts)),
  );
  t.deepEqual(inCluster, { c: 1, ct: 1, cg: 1, role: 1 });
  t.deepEqual(outside, { role: 1 });
});

test('device: inactive contexts are left out; local_context_data is merged last; an empty one changes nothing', async (t) => {
  const contexts = [
    context('base', 1000, { ntp: { servers: ['a'], prefer: 'a' }, dns: 'x' }),
    context('off', 1, { dns: 'inactive' }, {}, false),
  ];
  const view = countingView(world(contexts));
  const [local, empty] = await renderConfigContexts(DEVICE_CONTEXT_SCOPE)(
    [device(1, { local_context_data: { ntp: { servers: ['b'] } } }), device(2, { local_context_data: {} })],
    view,
  );
  t.deepEqual(local, { ntp: { servers: ['b'], prefer: 'a' }, dns: 'x' });
  t.deepEqual(empty, { ntp: { servers: ['a'], prefer: 'a' }, dns: 'x' });
});

test('virtual machine: site, region and group come from its cluster; device types never match; locations do not restrict', async (t) => {
  const contexts = [
    context('berlin', 1, { berlin: 1 }, { regions: [3] }),
    context('site', 2, { site: 1 }, { sites: [10] }),
    context('device type', 3, { device_type: 1 }, { device_types: [50] }),
    context('location', 4, { location: 1 }, { locations: [70] }),
    context('role', 5, { role: 1 }, { roles: [60] }),
  ];
  const vm = (id: number, fields: Record<string, unknown>) => ({
    id,
    site: 10,
    cluster: null,
    role: 60,
    platform: null,
    tenant: null,
    tags: [],
    local_context_data: null,
    ...fields,
  });
  const [clustered, siteOnly] = await renderConfigContexts(VIRTUAL_MACHINE_CONTEXT_SCOPE)(
    [vm(1, { cluster: 30 }), vm(2, {})],
    countingView(world(contexts)),
  );
  t.deepEqual(clustered, { berlin: 1, site: 1, location: 1, role: 1 });
  t.deepEqual(siteOnly, { location: 1, role: 1 }, 'without a cluster the VM meets no site or region criterion');
});

test('a page of devices reads the contexts once and each related model once per level, however many devices', async (t) => {
  const contexts = Array.from({ length: 50 }, (_, i) =>
    context(
      `ctx${i}`,
      i,
      { [`k${i}`]: i },
      i % 3 === 0 ? { regions: [1 + (i % 3)] } : i % 3 === 1 ? { tenant_groups: [2], sites: [10] } : { tags: [i] },
    ),
  );
  const page = Array.from({ length: 500 }, (_, i) => device(i + 1, { site: 10 + (i % 2), tenant: 40, tags: [i % 50] }));
  const view = countingView(world(contexts));
  const rendered = await renderConfigContexts(DEVICE_CONTEXT_SCOPE)(page, view);
  t.is(rendered.length, 500);
  t.true(view.reads.filter((r) => r === 'find extras.configcontext').length === 1);
  t.true(view.reads.length <= 8, view.reads.join(', '));
});

test('without active contexts nothing but the contexts is read', async (t) => {
  const view = countingView(world([context('off', 1, { a: 1 }, {}, false)]));
  const rendered = await renderConfigContexts(DEVICE_CONTEXT_SCOPE)(
    [device(1, { local_context_data: { a: 2 } }), device(2)],
    view,
  );
  t.deepEqual(rendered, [{ a: 2 }, {}]);
  t.deepEqual(view.reads, ['find extras.configcontext']);
});

/* ------------------------------------------------------------ declarations */

test('registry: computeMany belongs to a computed field without a compute hook', (t) => {
  const base = allModels.find((m) => m.key === 'extras.tag')!;
  const broken: ModelDefinition = {
    ...base,
    fields: [...base.fields, { name: 'x', type: 'string', computeMany: async (objs) => objs.map(() => 1) }],
  };
  const registry = new ModelRegistry(allModels.map((m) => (m === base ? broken : m)));
  const error = t.throws(() => registry.validate());
  t.regex(error!.message, /field 'x': computeMany on a field that is not computed/);
});

test('search text: a JSON value as PostgreSQL prints jsonb (key order by length, then bytes)', (t) => {
  t.is(
    jsonbText({ bb: [1, 'x', null], a: { z: true, yy: 1.5 } }),
    '{"a": {"z": true, "yy": 1.5}, "bb": [1, "x", null]}',
  );
  t.is(jsonbText('a"b'), '"a\\"b"');
});
