/**
 * Resident memory per object on the embedded default: the service (in this process) is
 * filled through its bulk API with a mix of models, and at each checkpoint the heap is
 * collected and the resident size read. Bytes per object are the growth since the empty
 * service, divided by the objects added: read models, their indexes and the audit
 * indexes together (the render cache is empty: nothing is read).
 *
 *   npx tsx bench/memory.bench.ts          (or: npm run bench -- memory)
 *
 * Env: OBJECTS (checkpoints, default "100000,1000000"), BATCH (objects per request, 1000).
 * The mix per 100 objects: 1 site, 1 rack, 10 devices, 50 interfaces, 30 IP addresses,
 * 4 prefixes, 4 VLANs.
 */
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import v8 from 'node:v8';
import vm from 'node:vm';

import { reportFigure } from './figures.js';
import { api, startBenchService } from './inProcessService.js';

const CHECKPOINTS = (process.env.OBJECTS ?? '100000,1000000')
  .split(',')
  .map(Number)
  .sort((a, b) => a - b);
const BATCH = Number(process.env.BATCH ?? 1000);

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;
const resident = () => {
  for (let i = 0; i < 3; i++) gc();
  const { rss, heapUsed, heapTotal, external, arrayBuffers } = process.memoryUsage();
  return { rss, heapUsed, heapTotal, external: external + arrayBuffers };
};
const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;

const service = await startBenchService('memory');
const url = service.url;
try {
  const manufacturer = await api(url, 'POST', '/api/dcim/manufacturers/', { name: 'maker', slug: 'maker' });
  const type = await api(url, 'POST', '/api/dcim/device-types/', {
    manufacturer: manufacturer.id,
    model: 'box',
    slug: 'box',
  });
  const role = await api(url, 'POST', '/api/dcim/device-roles/', { name: 'role', slug: 'role', color: 'ff0000' });
  const empty = resident();
  console.log(
    `memory bench: node ${process.version}, ${os.cpus().length} CPUs, ${mib(os.totalmem())} RAM; empty service: rss ${mib(empty.rss)}, heap ${mib(empty.heapUsed)}`,
  );
  console.log('objects     rss        heap       rss/object  heap/object  heap total  external   fill time');

  let objects = 0;
  let unit = 0; // one unit = 100 objects of the mix
  const t0 = performance.now();
  for (const checkpoint of CHECKPOINTS) {
    while (objects < checkpoint) {
      // One round: BATCH/100 units, each model posted as one bulk request.
      const units = Math.max(1, Math.floor(BATCH / 100));
      const first = unit;
      const sites = await api(
        url,
        'POST',
        '/api/dcim/sites/',
        range(units, (i) => ({ name: `site ${first + i}`, slug: `site-${first + i}` })),
      );
      const racks = await api(
        url,
        'POST',
        '/api/dcim/racks/',
        sites.map((s: { id: number; name: string }) => ({ name: `rack of ${s.name}`, site: s.id })),
      );
      const devices = await api(
        url,
        'POST',
        '/api/dcim/devices/',
        range(units * 10, (i) => ({
          name: `device ${first * 10 + i}`,
          device_type: type.id,
          device_role: role.id,
          site: sites[Math.floor(i / 10)].id,
          rack: racks[Math.floor(i / 10)].id,
          status: 'active',
        })),
      );
      await api(
        url,
        'POST',
        '/api/dcim/interfaces/',
        range(units * 50, (i) => ({ device: devices[Math.floor(i / 5)].id, name: `eth${i % 5}`, type: '1000base-t' })),
      );
      await api(
        url,
        'POST',
        '/api/ipam/ip-addresses/',
        range(units * 30, (i) => ({ address: address(first * 30 + i), status: 'active' })),
      );
      await api(
        url,
        'POST',
        '/api/ipam/prefixes/',
        range(units * 4, (i) => ({ prefix: prefix(first * 4 + i), status: 'active' })),
      );
      await api(
        url,
        'POST',
        '/api/ipam/vlans/',
        range(units * 4, (i) => ({
          vid: 1 + ((first * 4 + i) % 4094),
          name: `vlan ${first * 4 + i}`,
          site: sites[Math.floor(i / 4)].id,
        })),
      );
      unit += units;
      objects += units * 100;
    }
    const seconds = (performance.now() - t0) / 1000;
    const now = resident();
    const rssPer = (now.rss - empty.rss) / objects;
    const heapPer = (now.heapUsed - empty.heapUsed) / objects;
    console.log(
      `${String(objects).padEnd(10)}  ${mib(now.rss).padEnd(9)}  ${mib(now.heapUsed).padEnd(9)}  ${`${rssPer.toFixed(0)} B`.padEnd(10)}  ${`${heapPer.toFixed(0)} B`.padEnd(11)}  ${mib(now.heapTotal).padEnd(10)}  ${mib(now.external).padEnd(9)}  ${seconds.toFixed(0)} s`,
    );
    reportFigure({
      name: `resident size at ${objects.toLocaleString('en')} objects`,
      value: `${mib(now.rss)} (${rssPer.toFixed(0)} B/object)`,
      ...(objects >= 1_000_000 ? { target: '≤ 2 GB at 1,000,000', met: now.rss <= 2 * 2 ** 30 } : {}),
    });
  }
} finally {
  await service.stop();
}

function range<T>(n: number, make: (i: number) => T): T[] {
  return Array.from({ length: n }, (_, i) => make(i));
}

/** Distinct host addresses in 10.0.0.0/8, then 11.0.0.0/8 ... */
function address(n: number): string {
  return `${10 + (n >> 24)}.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}/32`;
}

/** Distinct /24s in 100.0.0.0/8, then 101.0.0.0/8 ... */
function prefix(n: number): string {
  return `${100 + (n >> 16)}.${(n >> 8) & 255}.${n & 255}.0/24`;
}
