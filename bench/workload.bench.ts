/**
 * The performance issue's side-by-side workload, as one table: a site, racks, 200 devices
 * (the first 100 with 10 interfaces each: 1,000), 1,000 IP addresses; reads and single
 * creates driven by autocannon (CONNECTIONS connections, DURATION s after a WARMUP s run)
 * from a child process, so this process's CPU time is the service's; bulk writes repeated by
 * autocannon over one connection (latency: one request at a time). The service is pinned to one core and
 * autocannon to the other
 * (bench/cpuPinning.ts): req/s are per core, CPU µs per request the service's alone.
 *
 *   npx tsx bench/workload.bench.ts        (or: npm run bench -- workload)
 *
 * Env: CONNECTIONS (10), DURATION (5), WARMUP (2), PIN (1; 0: not pinned).
 */
import os from 'node:os';
import { performance } from 'node:perf_hooks';

import { cannon, type CannonResult, type CannonScenario } from './cannon.js';
import { pinningMethod, pinService } from './cpuPinning.js';
import { reportFigure } from './figures.js';
import { api, cpuMs, deviceFixtures, HEADERS, startBenchService } from './inProcessService.js';

const CONNECTIONS = Number(process.env.CONNECTIONS ?? 10);
const DURATION = Number(process.env.DURATION ?? 5);
const WARMUP = Number(process.env.WARMUP ?? 2);

pinService();
const service = await startBenchService('workload');
const url = service.url;
const rows: string[][] = [];
/** Issue 34's targets, by figure: throughput floors on one core for the pages, ceilings for the rest. */
const TARGETS: Record<string, { reqPerSec?: number; ms?: number }> = {
  'devices, page of 50': { reqPerSec: 10_000 },
  'device detail': { reqPerSec: 20_000 },
  'sites ?name__ic=': { reqPerSec: 8_000 },
  'interfaces ?limit=1000': { ms: 12 },
  'devices ?limit=1000': { ms: 3 },
  'single create, service CPU': { ms: 1 },
  'bulk create 1,000 IPs': { ms: 50 },
  'bulk PATCH 200 devices': { ms: 25 },
};
function figure(name: string, measured: { reqPerSec?: number; ms?: number }, note = ''): void {
  const target = TARGETS[name]!;
  if (target.reqPerSec !== undefined) {
    const value = Math.round(measured.reqPerSec!);
    reportFigure({
      name,
      value: `${value.toLocaleString('en')} req/s${note}`,
      target: `≥ ${target.reqPerSec.toLocaleString('en')} req/s`,
      met: value >= target.reqPerSec,
    });
  } else {
    reportFigure({
      name,
      value: `${measured.ms!.toFixed(2)} ms${note}`,
      target: `≤ ${target.ms} ms`,
      met: measured.ms! <= target.ms!,
    });
  }
}
const load1 = () => os.loadavg()[0]!.toFixed(1);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/**
 * One autocannon load with this process's CPU time per request (the service's: autocannon runs
 * in a child process), after a warm-up run that is not measured (`warm`, none when null).
 */
async function measured(
  scenario: CannonScenario,
  { warm = scenario as CannonScenario | null, connections = CONNECTIONS } = {},
): Promise<{ result: CannonResult; cpuMs: number }> {
  const load = (what: CannonScenario, duration: number) =>
    cannon({ url, connections, duration, headers: HEADERS, scenario: what });
  if (warm && WARMUP > 0) await load(warm, WARMUP);
  const c0 = cpuMs();
  const result = await load(scenario, DURATION);
  return { result, cpuMs: (cpuMs() - c0) / Math.max(1, result.requests.total) };
}

try {
  const { site, type, role, racks } = await deviceFixtures(url);
  const devices = await api(
    url,
    'POST',
    '/api/dcim/devices/',
    Array.from({ length: 200 }, (_, i) => ({
      name: `device ${i}`,
      device_type: type.id,
      device_role: role.id,
      site: site.id,
      rack: racks[i % 5].id,
      status: 'active',
    })),
  );
  for (let k = 0; k < 10; k++) {
    await api(
      url,
      'POST',
      '/api/dcim/interfaces/',
      devices.slice(0, 100).map((d: { id: number }) => ({ device: d.id, name: `eth${k}`, type: '1000base-t' })),
    );
  }
  await api(
    url,
    'POST',
    '/api/ipam/ip-addresses/',
    Array.from({ length: 1000 }, (_, i) => ({ address: `10.0.${i >> 8}.${i & 255}/16`, status: 'active' })),
  );

  const reads: Array<[string, string]> = [
    ['devices, page of 50', '/api/dcim/devices/?limit=50'],
    ['device detail', `/api/dcim/devices/${devices[7].id}/`],
    ['sites ?name__ic=', '/api/dcim/sites/?name__ic=site'],
    ['interfaces ?limit=1000', '/api/dcim/interfaces/?limit=1000'],
    ['devices ?limit=1000', '/api/dcim/devices/?limit=1000'],
  ];
  for (const [name, path] of reads) {
    const { result, cpuMs: cpu } = await measured({ kind: 'get', path });
    const failed = result.non2xx + result.errors + result.timeouts;
    rows.push([
      name,
      `${Math.round(result.requests.average)} req/s`,
      `${result.latency.p50} ms`,
      `${Math.round(cpu * 1000)} µs`,
      load1(),
      failed ? `${failed} failed` : '',
    ]);
    if (TARGETS[name]?.reqPerSec !== undefined)
      figure(name, { reqPerSec: result.requests.average }, `, ${Math.round(cpu * 1000)} CPU µs/request`);
    else {
      // A page's own latency: one request at a time, so no other request's work is in it.
      const times: number[] = [];
      for (let i = 0; i < 30; i++) {
        const t0 = performance.now();
        const response = await fetch(url + path, { headers: HEADERS });
        await response.arrayBuffer();
        times.push(performance.now() - t0);
      }
      rows.push([`${name}, one at a time`, '', `${median(times).toFixed(2)} ms`, '', load1(), 'median of 30']);
      figure(name, { ms: median(times) }, `, ${Math.round(cpu * 1000)} CPU µs/request`);
    }
  }

  // Single creates from autocannon (unique tags), so the CPU clock holds the service's work only;
  // the fdatasyncs are shared by group commit and mostly wait, not compute.
  const createScenario = { kind: 'createTag' as const, path: '/api/extras/tags/', prefix: 'bench' };
  const { result: creates, cpuMs: createCpu } = await measured(createScenario, {
    warm: { ...createScenario, prefix: 'warm' },
  });
  rows.push([
    'single create, service CPU',
    `${Math.round(creates.requests.average)} req/s`,
    `${creates.latency.p50} ms`,
    `${Math.round(createCpu * 1000)} µs`,
    load1(),
    `${creates.requests.total} tags; ${creates.non2xx + creates.errors} failed`,
  ]);
  figure('single create, service CPU', { ms: createCpu }, ` CPU, p50 ${creates.latency.p50} ms`);

  // The bulk writes, sent again and again from autocannon on the other core (one connection, so
  // one request at a time): its latency is the wall time a client sees, and the CPU clock holds
  // the service's work alone. PATCH sets a status the devices have after the first request: each
  // request still decides and records 200 updates.
  const bulk = async (name: string, method: 'POST' | 'PATCH', path: string, body: unknown) => {
    const { result, cpuMs: ms } = await measured({ kind: 'send', method, path, body }, { warm: null, connections: 1 });
    const failed = result.non2xx + result.errors + result.timeouts;
    const note = `p50 of ${result.requests.total}${failed ? `, ${failed} failed` : ''}`;
    rows.push([name, '', `${result.latency.p50} ms`, `${ms.toFixed(1)} ms`, load1(), note]);
    figure(name, { ms: result.latency.p50 }, `, service CPU ${ms.toFixed(1)} ms`);
  };
  await bulk(
    'bulk create 1,000 IPs',
    'POST',
    '/api/ipam/ip-addresses/',
    Array.from({ length: 1000 }, (_, i) => ({ address: `10.9.${i >> 8}.${i & 255}/16`, status: 'active' })),
  );
  await bulk(
    'bulk PATCH 200 devices',
    'PATCH',
    '/api/dcim/devices/',
    devices.map((d: { id: number }) => ({ id: d.id, status: 'active' })),
  );

  const header = ['figure', 'throughput', 'latency', 'CPU/request', 'load', 'note'];
  const widths = header.map((h, c) => Math.max(h.length, ...rows.map((r) => r[c]!.length)));
  const line = (r: string[]) =>
    r
      .map((v, c) => (c === 0 || c === r.length - 1 ? v.padEnd(widths[c]!) : v.padStart(widths[c]!)))
      .join('  ')
      .trimEnd();
  console.log(
    `\nworkload bench: node ${process.version}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model.trim()}), ${CONNECTIONS} connections, ${DURATION} s per read`,
  );
  console.log(pinningMethod());
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const r of rows) console.log(line(r));
} finally {
  await service.stop();
}
