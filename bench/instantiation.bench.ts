/**
 * The cost of creating devices whose type carries component templates. Not a test: run
 * with `npx tsx bench/instantiation.bench.ts`.
 *
 *  1. starts the service in this process on the embedded defaults (FileEventLog +
 *     MemoryReadStore) in a temp DATA_DIR, port 0;
 *  2. makes two device types: a bare one, and a 48-port switch (48 interface templates,
 *     4 uplinks, a console port, two power ports with an outlet each, a module bay);
 *  3. creates DEVICES devices of each type, one request at a time, then the same in bulk
 *     requests of BULK devices, and reports wall and this process's CPU ms per device and
 *     per component made (the service runs here; the client is a plain fetch).
 *
 * Env: DEVICES (200), BULK (50), KEEP=1 keeps the temp data dir.
 */
import os from 'node:os';
import { performance } from 'node:perf_hooks';

import { api, cpuMs, fixed, startBenchService } from './inProcessService.js';

const DEVICES = Number(process.env.DEVICES ?? 200);
const BULK = Number(process.env.BULK ?? 50);

const running = await startBenchService('instantiation');
const { url } = running;

try {
  console.log(
    `netledger instantiation bench: node ${process.version}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model.trim()}), ` +
      `${DEVICES} devices per type, bulk ${BULK}; load average at start ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`,
  );
  const site = await api(url, 'POST', '/api/dcim/sites/', { name: 'bench', slug: 'bench' });
  const role = await api(url, 'POST', '/api/dcim/device-roles/', { name: 'switch', slug: 'switch', color: '00aa00' });
  const vendor = await api(url, 'POST', '/api/dcim/manufacturers/', { name: 'Vendor', slug: 'vendor' });
  const bare = await api(url, 'POST', '/api/dcim/device-types/', {
    manufacturer: vendor.id,
    model: 'Bare',
    slug: 'bare',
  });
  const switchType = await api(url, 'POST', '/api/dcim/device-types/', {
    manufacturer: vendor.id,
    model: 'Switch48',
    slug: 'switch48',
  });
  const ports = Array.from({ length: 48 }, (_, i) => ({
    device_type: switchType.id,
    name: `ge-0/0/${i}`,
    type: '1000base-t',
  }));
  const uplinks = Array.from({ length: 4 }, (_, i) => ({
    device_type: switchType.id,
    name: `xe-0/1/${i}`,
    type: '10gbase-x-sfpp',
  }));
  await api(url, 'POST', '/api/dcim/interface-templates/', [...ports, ...uplinks]);
  await api(url, 'POST', '/api/dcim/console-port-templates/', {
    device_type: switchType.id,
    name: 'con',
    type: 'rj-45',
  });
  const psus = await api(url, 'POST', '/api/dcim/power-port-templates/', [
    { device_type: switchType.id, name: 'PSU1', maximum_draw: 150 },
    { device_type: switchType.id, name: 'PSU2', maximum_draw: 150 },
  ]);
  await api(
    url,
    'POST',
    '/api/dcim/power-outlet-templates/',
    psus.map((p: { id: number; name: string }) => ({
      device_type: switchType.id,
      name: `out-${p.name}`,
      power_port: p.id,
    })),
  );
  await api(url, 'POST', '/api/dcim/module-bay-templates/', {
    device_type: switchType.id,
    name: 'Slot 1',
    position: '1',
  });
  const componentsPerSwitch = 48 + 4 + 1 + 2 + 2 + 1;

  let serial = 0;
  const device = (type: { id: number }) => ({
    name: `d${++serial}`,
    device_type: type.id,
    device_role: role.id,
    site: site.id,
  });
  const rows: string[] = [];
  for (const [label, type, components] of [
    ['bare type', bare, 0],
    ['48-port switch type', switchType, componentsPerSwitch],
  ] as const) {
    for (const mode of ['one per request', `bulk of ${BULK}`]) {
      const wall0 = performance.now();
      const cpu0 = cpuMs();
      if (mode === 'one per request') {
        for (let i = 0; i < DEVICES; i++) await api(url, 'POST', '/api/dcim/devices/', device(type));
      } else {
        for (let i = 0; i < DEVICES; i += BULK)
          await api(
            url,
            'POST',
            '/api/dcim/devices/',
            Array.from({ length: Math.min(BULK, DEVICES - i) }, () => device(type)),
          );
      }
      const wall = (performance.now() - wall0) / DEVICES;
      const cpu = (cpuMs() - cpu0) / DEVICES;
      const perComponent = components ? fixed(cpu / (components + 1)) : '–';
      rows.push(
        `| ${label} | ${mode} | ${components} | ${fixed(wall)} | ${fixed(cpu)} | ${perComponent} | ${os.loadavg()[0]!.toFixed(1)} |`,
      );
    }
  }
  const made = await api(url, 'GET', '/api/dcim/interfaces/?limit=1');
  console.log(`interfaces made from templates: ${made.count} (expected ${DEVICES * 2 * 52})`);
  console.log(
    '| device type | requests | components per device | wall ms per device | CPU ms per device | CPU ms per object written | load1 |',
  );
  console.log('|---|---|---:|---:|---:|---:|---:|');
  for (const row of rows) console.log(row);
} finally {
  await running.stop();
}
