/**
 * The cost of cabling and of reading cabled objects. Not a test: run with
 * `npx tsx bench/cables.bench.ts`.
 *
 *  1. starts the service in this process on the embedded defaults (FileEventLog +
 *     MemoryReadStore) in a temp DATA_DIR, port 0;
 * List pages are timed with the body read but not parsed (the service's cost, not the client's).
 *
 *  2. makes DEVICES devices of a type with PORTS interface templates (DEVICES x PORTS
 *     interfaces, 20,000 by default) and reads GET /api/dcim/interfaces/?limit=1000
 *     before any cable exists;
 *  3. creates one cable per pair of interfaces (10,000 by default) in bulk requests of
 *     BULK cables and reports wall and CPU ms per cable;
 *  4. reads GET /api/dcim/interfaces/?limit=1000 again: every interface cabled, each
 *     row's link peer and connected endpoint traced;
 *  5. builds a chain of CHAIN patch panels (a front and a rear port each) between two
 *     interfaces and reports the cost of tracing the path through it: the interface's
 *     detail GET, its /trace/, and the first read after a cable in the chain changes.
 * With ONLY_READ=1 it stops after step 2 (for code without cables).
 *
 * Env: DEVICES (400), PORTS (50), BULK (500), CHAIN (10), READS (20), KEEP=1 keeps the data dir,
 * EXTRA: further interface list queries to time, separated by '|'.
 */
import os from 'node:os';
import { performance } from 'node:perf_hooks';

import { api, cpuMs, fixed, HEADERS, startBenchService } from './inProcessService.js';

const DEVICES = Number(process.env.DEVICES ?? 400);
const PORTS = Number(process.env.PORTS ?? 50);
const BULK = Number(process.env.BULK ?? 500);
const CHAIN = Number(process.env.CHAIN ?? 10);
const READS = Number(process.env.READS ?? 20);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** A GET whose body is read but not parsed: the figure is the service's, not the client's JSON.parse. */
async function fetchBody(base: string, route: string): Promise<{ bytes: number }> {
  const response = await fetch(base + route, { headers: HEADERS });
  const body = await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`GET ${route}: ${response.status}`);
  return { bytes: body.byteLength };
}

/** Median wall and CPU ms of `READS` runs of `read` (after two warm-up runs). */
async function timed(read: () => Promise<unknown>): Promise<{ wall: number; cpu: number; kib?: number }> {
  const walls: number[] = [];
  const cpus: number[] = [];
  for (let i = 0; i < READS + 2; i++) {
    const w0 = performance.now();
    const c0 = cpuMs();
    await read();
    if (i >= 2) {
      walls.push(performance.now() - w0);
      cpus.push(cpuMs() - c0);
    }
  }
  const last = (await read()) as { bytes?: number };
  const kib = Math.round((last?.bytes ?? JSON.stringify(last).length) / 1024);
  return { wall: median(walls), cpu: median(cpus), kib };
}

const running = await startBenchService('cables');
const { url } = running;
const rows: string[] = [];
const row = (what: string, figures: { wall: number; cpu: number; kib?: number }, per = '') =>
  rows.push(
    `| ${what} | ${fixed(figures.wall)} | ${fixed(figures.cpu)} | ${per || (figures.kib === undefined ? '' : `${figures.kib} KiB body`)} | ${os.loadavg()[0]!.toFixed(1)} |`,
  );

try {
  console.log(
    `netledger cables bench: node ${process.version}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model.trim()}), ` +
      `${DEVICES} devices x ${PORTS} interfaces, bulk ${BULK}, chain ${CHAIN}; load average at start ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`,
  );
  const site = await api(url, 'POST', '/api/dcim/sites/', { name: 'bench', slug: 'bench' });
  const role = await api(url, 'POST', '/api/dcim/device-roles/', { name: 'switch', slug: 'switch', color: '00aa00' });
  const vendor = await api(url, 'POST', '/api/dcim/manufacturers/', { name: 'Vendor', slug: 'vendor' });
  const type = await api(url, 'POST', '/api/dcim/device-types/', {
    manufacturer: vendor.id,
    model: 'Switch',
    slug: 'switch',
  });
  await api(
    url,
    'POST',
    '/api/dcim/interface-templates/',
    Array.from({ length: PORTS }, (_, i) => ({ device_type: type.id, name: `ge-0/0/${i}`, type: '1000base-t' })),
  );
  for (let i = 0; i < DEVICES; i += 50) {
    await api(
      url,
      'POST',
      '/api/dcim/devices/',
      Array.from({ length: Math.min(50, DEVICES - i) }, (_, j) => ({
        name: `d${i + j + 1}`,
        device_type: type.id,
        device_role: role.id,
        site: site.id,
      })),
    );
  }
  const page = () => fetchBody(url, '/api/dcim/interfaces/?limit=1000');
  row('GET /api/dcim/interfaces/?limit=1000, no cable', await timed(page));
  if (!process.env.ONLY_READ) {
    // Every interface once: device 2k-1's ports to device 2k's, port for port.
    const ids: number[] = [];
    for (let offset = 0; ; offset += 1000) {
      const listed = await api(url, 'GET', `/api/dcim/interfaces/?limit=1000&offset=${offset}&fields=id`);
      ids.push(...listed.results.map((r: { id: number }) => r.id));
      if (!listed.next) break;
    }
    ids.sort((a, b) => a - b);
    const pairs: Array<[number, number]> = [];
    for (let d = 0; d + 1 < DEVICES; d += 2) {
      for (let p = 0; p < PORTS; p++) pairs.push([ids[d * PORTS + p]!, ids[(d + 1) * PORTS + p]!]);
    }
    const ref = (id: number) => ({ object_type: 'dcim.interface', object_id: id });
    const w0 = performance.now();
    const c0 = cpuMs();
    for (let i = 0; i < pairs.length; i += BULK) {
      await api(
        url,
        'POST',
        '/api/dcim/cables/',
        pairs.slice(i, i + BULK).map(([a, b]) => ({ a_terminations: [ref(a)], b_terminations: [ref(b)] })),
      );
    }
    const made = { wall: performance.now() - w0, cpu: cpuMs() - c0 };
    row(
      `create ${pairs.length} cables, bulk of ${BULK} (total)`,
      made,
      `${fixed(made.wall / pairs.length)} wall / ${fixed(made.cpu / pairs.length)} CPU ms per cable`,
    );
    row('GET /api/dcim/interfaces/?limit=1000, all cabled', await timed(page));
    // EXTRA: further list queries to time, separated by '|' (e.g. to see what each field costs)
    for (const query of (process.env.EXTRA ?? '').split('|').filter(Boolean))
      row(`GET /api/dcim/interfaces/?${query}`, await timed(() => fetchBody(url, `/api/dcim/interfaces/?${query}`)));
    row(
      'GET /api/dcim/interfaces/?limit=1000&brief=1, all cabled',
      await timed(() => fetchBody(url, '/api/dcim/interfaces/?limit=1000&brief=1')),
    );
    row(
      'GET /api/dcim/interfaces/?cabled=true&limit=1000',
      await timed(() => fetchBody(url, '/api/dcim/interfaces/?cabled=true&limit=1000')),
    );
    row(
      `GET /api/dcim/interfaces/?connected=true&limit=1 (traces all ${pairs.length * 2})`,
      await timed(() => api(url, 'GET', '/api/dcim/interfaces/?connected=true&limit=1')),
    );

    // A chain of patch panels between two interfaces.
    const panelType = await api(url, 'POST', '/api/dcim/device-types/', {
      manufacturer: vendor.id,
      model: 'Panel',
      slug: 'panel',
    });
    const ends = await api(url, 'POST', '/api/dcim/devices/', [
      { name: 'chain-a', device_type: panelType.id, device_role: role.id, site: site.id },
      { name: 'chain-b', device_type: panelType.id, device_role: role.id, site: site.id },
    ]);
    const [a, b] = await api(
      url,
      'POST',
      '/api/dcim/interfaces/',
      ends.map((d: { id: number }) => ({ device: d.id, name: 'eth0', type: '10gbase-x-sfpp' })),
    );
    const panels = await api(
      url,
      'POST',
      '/api/dcim/devices/',
      Array.from({ length: CHAIN }, (_, i) => ({
        name: `panel${i + 1}`,
        device_type: panelType.id,
        device_role: role.id,
        site: site.id,
      })),
    );
    const rears = await api(
      url,
      'POST',
      '/api/dcim/rear-ports/',
      panels.map((p: { id: number }) => ({ device: p.id, name: 'R', type: 'lc' })),
    );
    const fronts = await api(
      url,
      'POST',
      '/api/dcim/front-ports/',
      panels.map((p: { id: number }, i: number) => ({ device: p.id, name: 'F', type: 'lc', rear_port: rears[i].id })),
    );
    const hop = (x: object, y: object) => ({ a_terminations: [x], b_terminations: [y] });
    const chain = [hop(ref(a.id), { object_type: 'dcim.frontport', object_id: fronts[0].id })];
    for (let i = 0; i + 1 < CHAIN; i++)
      chain.push(
        hop(
          { object_type: 'dcim.rearport', object_id: rears[i].id },
          { object_type: 'dcim.frontport', object_id: fronts[i + 1].id },
        ),
      );
    chain.push(hop({ object_type: 'dcim.rearport', object_id: rears[CHAIN - 1].id }, ref(b.id)));
    const cables = await api(url, 'POST', '/api/dcim/cables/', chain);
    const far = await api(url, 'GET', `/api/dcim/interfaces/${a.id}/`);
    if (far.connected_endpoints?.[0]?.id !== b.id) throw new Error('the chain does not connect the two interfaces');
    row(
      `GET interface detail, path through ${CHAIN} front/rear pairs`,
      await timed(() => api(url, 'GET', `/api/dcim/interfaces/${a.id}/`)),
    );
    row(
      `GET interface /trace/ through ${CHAIN} pairs (${CHAIN + 1} segments)`,
      await timed(() => api(url, 'GET', `/api/dcim/interfaces/${a.id}/trace/`)),
    );
    const middle = cables[Math.floor(CHAIN / 2)].id;
    let status = 'planned';
    row(
      `PATCH a cable in the chain, then GET the interface (path re-traced)`,
      await timed(async () => {
        await api(url, 'PATCH', `/api/dcim/cables/${middle}/`, { status });
        status = status === 'planned' ? 'connected' : 'planned';
        return api(url, 'GET', `/api/dcim/interfaces/${a.id}/`);
      }),
    );
    row(
      `GET rear port /paths/ in the middle of the chain`,
      await timed(() => api(url, 'GET', `/api/dcim/rear-ports/${rears[Math.floor(CHAIN / 2)].id}/paths/`)),
    );
  }
  console.log('| what | wall ms (median) | CPU ms (median) | per item / body | load1 |');
  console.log('|---|---:|---:|---|---:|');
  for (const line of rows) console.log(line);
} finally {
  await running.stop();
}
