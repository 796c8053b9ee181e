/**
 * The write side of relation orderings (src/projections/relationOrderKeys.ts): what one
 * projected change costs when it moves an order key others keep, so the projector patches
 * them (and theirs) in the same apply. Each case renames one object back and forth and
 * times the projector's work for that one-change batch: `withProjectedColumns` (order keys
 * and their patches) plus `MemoryReadStore.apply`, against the same object's description
 * changed (no key moves) as the baseline.
 *
 *   npx tsx bench/orderKeyCascade.bench.ts [--quick]
 *
 * Data (MemoryReadStore with the registry's indexes, loaded as the projector loads it):
 * a manufacturer with 500 device types of 24 port templates each (12,000 templates, which
 * keep the device type's key, itself holding the manufacturer's), a site with 1,000 racks
 * and 1,000 VLANs (which keep the site's key), and a device with 48 interfaces. Not a test.
 */
import { registry } from '../src/models/registry.js';
import { MemoryReadStore } from '../src/projections/memory/MemoryReadStore.js';
import { withProjectedColumns } from '../src/projections/projectedColumns.js';
import { readModelIndexes } from '../src/projections/readModelIndexes.js';
import type { DocumentChange, ReadDocument } from '../src/projections/ReadStore.js';
import { storedDocument } from '../test/support/queryDataset.js';

const ITERATIONS = process.argv.includes('--quick') ? 10 : 40;
const DEVICE_TYPES = 500;
const TEMPLATES_PER_TYPE = { 'dcim.interfacetemplate': 20, 'dcim.consoleporttemplate': 2, 'dcim.powerporttemplate': 2 };
const RACKS = 1000;
const VLANS = 1000;
const INTERFACES = 48;

let position = 0;
const doc = (model: string, obj: Record<string, unknown> & { id: number }): DocumentChange => {
  position++;
  return { collection: model, id: obj.id, position, doc: storedDocument(model, obj, position) };
};

function dataset(): DocumentChange[] {
  const out: DocumentChange[] = [
    doc('dcim.manufacturer', { id: 1, name: 'Juniper', slug: 'juniper' }),
    doc('dcim.site', { id: 1, name: 'DC-1', slug: 'dc-1', status: 'active' }),
    doc('dcim.devicerole', { id: 1, name: 'Switch', slug: 'switch', color: '00ff00' }),
  ];
  let templateId = 0;
  for (let t = 1; t <= DEVICE_TYPES; t++) {
    out.push(doc('dcim.devicetype', { id: t, manufacturer: 1, model: `EX-${t}`, slug: `ex-${t}` }));
    for (const [model, count] of Object.entries(TEMPLATES_PER_TYPE))
      for (let i = 0; i < count; i++)
        out.push(doc(model, { id: ++templateId, device_type: t, name: `port-${i}`, type: '1000base-t' }));
  }
  for (let r = 1; r <= RACKS; r++) out.push(doc('dcim.rack', { id: r, name: `R${r}`, site: 1, status: 'active' }));
  for (let v = 1; v <= VLANS; v++)
    out.push(doc('ipam.vlan', { id: v, vid: v, name: `v${v}`, site: 1, status: 'active' }));
  out.push(doc('dcim.device', { id: 1, name: 'sw1', device_type: 1, device_role: 1, site: 1, status: 'active' }));
  for (let i = 1; i <= INTERFACES; i++)
    out.push(doc('dcim.interface', { id: i, device: 1, name: `ge-0/0/${i}`, type: '1000base-t', enabled: true }));
  return out;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** One object changed `ITERATIONS` times (alternating two values of `field`): p50 wall and CPU ms of the projector's work, and the patches it made. */
async function measure(store: MemoryReadStore, model: string, id: number, field: string, values: [string, string]) {
  const walls: number[] = [];
  const cpus: number[] = [];
  let patched = 0;
  for (let i = 0; i < ITERATIONS + 3; i++) {
    const current = (await store.get(model, id)) as ReadDocument;
    position++;
    const next = { ...current, [field]: values[i % 2], _pos: position } as ReadDocument;
    const derived = registry.get(model).hooks?.derive?.(next as never) ?? {};
    const change: DocumentChange = { collection: model, id, position, doc: { ...next, ...derived } };
    const started = performance.now();
    const cpu = process.cpuUsage();
    const batch = await withProjectedColumns(registry, store, [change]);
    await store.apply(batch, position);
    const used = process.cpuUsage(cpu);
    if (i >= 3) {
      walls.push(performance.now() - started);
      cpus.push((used.user + used.system) / 1000);
    }
    patched = batch.filter((c) => c.columns).length;
  }
  walls.sort((a, b) => a - b);
  cpus.sort((a, b) => a - b);
  return { wall: percentile(walls, 50), cpu: percentile(cpus, 50), patched };
}

const os = await import('node:os');
console.log(
  `load average at start: ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')} (${os.cpus().length} cores)`,
);
const store = new MemoryReadStore();
await store.open();
for (const [collection, fields] of readModelIndexes(registry)) await store.ensureIndexes(collection, fields);
const changes = dataset();
const loadStart = performance.now();
for (let i = 0; i < changes.length; i += 5000) {
  const slice = changes.slice(i, i + 5000);
  await store.apply(await withProjectedColumns(registry, store, slice), slice[slice.length - 1]!.position);
}
console.log(`loaded ${changes.length} documents in ${(performance.now() - loadStart).toFixed(0)} ms\n`);

const CASES: Array<[string, string, number, string, [string, string]]> = [
  ['device: description (no key moves)', 'dcim.device', 1, 'description', ['a', 'b']],
  ['device renamed: its 48 interfaces patched', 'dcim.device', 1, 'name', ['sw1', 'sw9']],
  ['site: description (no key moves)', 'dcim.site', 1, 'description', ['a', 'b']],
  ['site renamed: 1,000 racks and 1,000 VLANs patched', 'dcim.site', 1, 'name', ['DC-1', 'DC-9']],
  ['manufacturer: description (no key moves)', 'dcim.manufacturer', 1, 'description', ['a', 'b']],
  [
    'manufacturer renamed: 500 device types and their 12,000 templates patched',
    'dcim.manufacturer',
    1,
    'name',
    ['Juniper', 'Arista'],
  ],
];
console.log('| one change | documents patched | p50 ms | CPU p50 ms |');
console.log('|---|---:|---:|---:|');
for (const [name, model, id, field, values] of CASES) {
  const r = await measure(store, model, id, field, values);
  console.log(`| ${name} | ${r.patched} | ${r.wall.toFixed(2)} | ${r.cpu.toFixed(2)} |`);
}
await store.close();
