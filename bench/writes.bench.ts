/**
 * The write path alone: sequential single creates (a tag, a device), 1, 10 and 50
 * concurrent writers creating tags (autocannon in a child process, so this process's CPU
 * time is the service's), a bulk create of 1,000 IP addresses and a bulk PATCH of 200
 * devices. Each row gives wall time and CPU ms per request; the concurrent rows also
 * give fdatasyncs per request (group commit shares them).
 *
 *   npx tsx bench/writes.bench.ts        (or: npm run bench -- writes)
 *
 * Env: CREATES (300 sequential creates of each kind), DURATION (3 s per concurrency
 * level), ROUNDS (5 bulk requests of each kind), CONCURRENCY (1,10,50), ROWS (which rows:
 * tag,device,concurrent,bulk-ip,bulk-patch; all by default).
 * The sequential and bulk rows' client runs in this process: their CPU includes it.
 */
import os from 'node:os';
import { performance } from 'node:perf_hooks';

import { cannon } from './cannon.js';
import { api, cpuMs, deviceFixtures, HEADERS, startBenchService, TOKEN } from './inProcessService.js';

const CREATES = Number(process.env.CREATES ?? 300);
const DURATION = Number(process.env.DURATION ?? 3);
const ROUNDS = Number(process.env.ROUNDS ?? 5);
const CONCURRENCY = (process.env.CONCURRENCY ?? '1,10,50').split(',').map(Number);
const ROWS = new Set((process.env.ROWS ?? 'tag,device,concurrent,bulk-ip,bulk-patch').split(','));

const service = await startBenchService('writes');
const url = service.url;
const rows: string[][] = [];
const load1 = () => os.loadavg()[0]!.toFixed(1);
const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))]!;
const ms = (n: number) => (n < 10 ? n.toFixed(2) : n.toFixed(0));

/** fdatasyncs of the event log so far, from the service's own metrics. */
async function syncs(): Promise<number> {
  const response = await fetch(`${url}/metrics`, { headers: { Authorization: `Token ${TOKEN}` } });
  const match = /^netledger_event_log_syncs_total (\d+)$/m.exec(await response.text());
  return match ? Number(match[1]) : NaN;
}

/** Runs `request` `count` times one after the other: wall p50/p99 and CPU per request. */
async function sequential(name: string, count: number, request: (i: number) => Promise<unknown>, note = '') {
  const times: number[] = [];
  const c0 = cpuMs();
  for (let i = 0; i < count; i++) {
    const t0 = performance.now();
    await request(i);
    times.push(performance.now() - t0);
  }
  const cpu = (cpuMs() - c0) / count;
  rows.push([
    name,
    '',
    `${ms(percentile(times, 0.5))} ms`,
    `${ms(percentile(times, 0.99))} ms`,
    `${ms(cpu)} ms`,
    '',
    load1(),
    note,
  ]);
}

try {
  const { site, type, role, racks } = await deviceFixtures(url);
  const deviceBody = (name: string, i: number) => ({
    name,
    device_type: type.id,
    device_role: role.id,
    site: site.id,
    rack: racks[i % 5].id,
    status: 'active',
  });
  const devices = await api(
    url,
    'POST',
    '/api/dcim/devices/',
    Array.from({ length: 200 }, (_, i) => deviceBody(`device ${i}`, i)),
  );
  // Warm up the write path (schema compiles, JIT) before anything is timed.
  for (let i = 0; i < 50; i++) await api(url, 'POST', '/api/extras/tags/', { name: `warm ${i}`, slug: `warm-${i}` });

  if (ROWS.has('tag')) {
    const tag = (i: number) => api(url, 'POST', '/api/extras/tags/', { name: `tag ${i}`, slug: `tag-${i}` });
    await sequential('single create: tag', CREATES, tag, `${CREATES} sequential`);
  }
  if (ROWS.has('device')) {
    const device = (i: number) => api(url, 'POST', '/api/dcim/devices/', deviceBody(`single ${i}`, i));
    await sequential('single create: device', CREATES, device, `${CREATES} sequential`);
  }

  for (const connections of ROWS.has('concurrent') ? CONCURRENCY : []) {
    const s0 = await syncs();
    const c0 = cpuMs();
    const scenario = { kind: 'createTag', path: '/api/extras/tags/', prefix: `c${connections}` } as const;
    const result = await cannon({ url, connections, duration: DURATION, headers: HEADERS, scenario });
    const cpu = cpuMs() - c0;
    const synced = (await syncs()) - s0;
    const done = Math.max(1, result['2xx']);
    const failed = result.non2xx + result.errors + result.timeouts;
    rows.push([
      `${connections} concurrent tag creates`,
      `${Math.round(result.requests.average)} req/s`,
      `${result.latency.p50} ms`,
      `${result.latency.p99} ms`,
      `${ms(cpu / done)} ms`,
      (synced / done).toFixed(2),
      load1(),
      failed ? `${failed} failed` : 'client in a child',
    ]);
  }

  if (ROWS.has('bulk-ip')) {
    let round = 0;
    const bulkCreate = () => {
      round++;
      const body = Array.from({ length: 1000 }, (_, i) => ({
        address: `10.${round}.${i >> 8}.${i & 255}/16`,
        status: 'active',
      }));
      return api(url, 'POST', '/api/ipam/ip-addresses/', body);
    };
    await sequential('bulk create 1,000 IPs', ROUNDS, bulkCreate, `${ROUNDS} requests`);
  }
  if (ROWS.has('bulk-patch')) {
    let round = 0;
    const bulkPatch = () => {
      round++;
      const body = devices.map((d: { id: number }) => ({ id: d.id, status: round % 2 ? 'planned' : 'active' }));
      return api(url, 'PATCH', '/api/dcim/devices/', body);
    };
    await sequential('bulk PATCH 200 devices', ROUNDS, bulkPatch, `${ROUNDS} requests`);
  }

  const header = ['figure', 'throughput', 'p50', 'p99', 'CPU/request', 'syncs/request', 'load', 'note'];
  const widths = header.map((h, c) => Math.max(h.length, ...rows.map((r) => r[c]!.length)));
  const line = (r: string[]) =>
    r
      .map((v, c) => (c === 0 || c === r.length - 1 ? v.padEnd(widths[c]!) : v.padStart(widths[c]!)))
      .join('  ')
      .trimEnd();
  console.log(
    `\nwrites bench: node ${process.version}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model.trim()}), ${DURATION} s per concurrency level`,
  );
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const r of rows) console.log(line(r));
} finally {
  await service.stop();
}
