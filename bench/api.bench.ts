/**
 * HTTP load benchmark of the whole service. Not a test: run with `npx tsx bench/api.bench.ts`.
 *
 *  1. starts the service in this process on the embedded defaults (FileEventLog +
 *     MemoryReadStore) in a temp DATA_DIR, port 0, request logs dropped;
 *  2. loads tenants, VRFs, SITES sites and IPS IP addresses by bulk POST (1,000 per
 *     request, sequential) and times it;
 *  3. drives each scenario with autocannon (CONNECTIONS connections, DURATION s, after a
 *     WARMUP s run that is not reported) from a child process (bench/autocannonProcess.mjs),
 *     so that the load generator does not share the service's event loop and this
 *     process's CPU time is the service's: reported as CPU ms per request, a figure that
 *     holds up better than req/s when other work shares the machine (the 1-minute load
 *     average is printed beside it);
 *  4. reports the group commit (FileEventLog appends per fdatasync) of the single-create run;
 *  5. times BULK sequential bulk creates of 1,000 IP addresses.
 *
 * Env: SITES (10000), IPS (100000), CONNECTIONS (10), DURATION (10), WARMUP (2), BULK (5),
 *      KEEP=1 keeps the temp data dir.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';

import { loadConfig } from '../src/config.js';
import { FileEventLog } from '../src/events/file/FileEventLog.js';
import { start } from '../src/main.js';
import { cannon, type CannonResult, type CannonScenario } from './cannon.js';

const SITES = Number(process.env.SITES ?? 10_000);
const IPS = Number(process.env.IPS ?? 100_000);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 10);
const DURATION = Number(process.env.DURATION ?? 10);
const WARMUP = Number(process.env.WARMUP ?? 2);
const BULK = Number(process.env.BULK ?? 5);
const CHUNK = 1_000;
const TENANTS = 20;
const VRFS = 5;

const TOKEN = '0123456789abcdef0123456789abcdef01234567';
const HEADERS = { Authorization: `Token ${TOKEN}`, 'Content-Type': 'application/json', Accept: 'application/json' };

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
const ms = (n: number) => (n < 10 ? n.toFixed(2) : n < 100 ? n.toFixed(1) : n.toFixed(0));
const mib = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MiB`;

/* ------------------------------------------------------------- data shapes */

const SITE_STATUSES = ['active', 'active', 'active', 'planned', 'staging', 'decommissioning', 'retired'];
// 7 entries: i % 7 is independent of the VRF choice (i % 4, (i >> 2) % 5)
const IP_STATUSES = ['active', 'active', 'active', 'active', 'reserved', 'deprecated', 'dhcp'];

const siteName = (i: number) => `site-${String(i).padStart(5, '0')}`;

function siteBody(i: number, tenantIds: number[]) {
  return {
    name: siteName(i),
    slug: siteName(i),
    status: SITE_STATUSES[i % SITE_STATUSES.length],
    tenant: i % 3 === 0 ? tenantIds[i % tenantIds.length] : null,
    facility: `Facility ${i % 97}`,
    description: `bench site ${i}`,
  };
}

/** i-th address 10.a.b.c/24; every 4th goes to a VRF, every 5th to a tenant. */
function ipBody(i: number, vrfIds: number[], tenantIds: number[]) {
  return {
    address: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}/24`,
    status: IP_STATUSES[i % 7],
    dns_name: `host-${i}.dc${i % 20}.example.net`,
    vrf: i % 4 === 0 ? vrfIds[(i >> 2) % vrfIds.length] : null,
    tenant: i % 5 === 0 ? tenantIds[i % tenantIds.length] : null,
    description: i % 10 === 0 ? `bench address ${i}` : '',
  };
}

/* --------------------------------------------------------------- plumbing */

async function api(base: string, method: string, route: string, body?: unknown): Promise<any> {
  const response = await fetch(base + route, {
    method,
    headers: HEADERS,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (response.status >= 300) throw new Error(`${method} ${route}: ${response.status} ${text.slice(0, 500)}`);
  return text ? JSON.parse(text) : null;
}

/** Sequential bulk POSTs of `total` objects, CHUNK per request; returns the ids in order. */
async function bulkLoad(base: string, route: string, total: number, make: (i: number) => unknown) {
  const ids: number[] = [];
  const perRequest: number[] = [];
  const t0 = performance.now();
  for (let first = 0; first < total; first += CHUNK) {
    const body = Array.from({ length: Math.min(CHUNK, total - first) }, (_, k) => make(first + k));
    const r0 = performance.now();
    const created = (await api(base, 'POST', route, body)) as { id: number }[];
    perRequest.push(performance.now() - r0);
    for (const o of created) ids.push(o.id);
  }
  const wall = performance.now() - t0;
  return { ids, wall, perRequest };
}

function load(url: string, scenario: CannonScenario, duration: number): Promise<CannonResult> {
  return cannon({ url, connections: CONNECTIONS, duration, headers: HEADERS, scenario });
}

const table: string[][] = [];
const notes: string[] = [];

/** CPU time (user + system) of this process, ms: the service (and, during loads, the fetch client). */
const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};
const load1 = () => os.loadavg()[0]!.toFixed(1);

function row(name: string, reqPerS: string, p50: string, p975: string, p99: string, cpu: string, extra: string) {
  table.push([name, reqPerS, p50, p975, p99, cpu, load1(), extra]);
}

function printTable(title: string, header: string[], rows: string[][]) {
  const widths = header.map((h, c) => Math.max(h.length, ...rows.map((r) => r[c]!.length)));
  const line = (r: string[]) =>
    r
      .map((v, c) => (c === 0 || c === r.length - 1 ? v.padEnd(widths[c]!) : v.padStart(widths[c]!)))
      .join('  ')
      .trimEnd();
  console.log(`\n${title}`);
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const r of rows) console.log(line(r));
}

/* ------------------------------------------------------------------- main */

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'netledger-api-bench-'));
const config = loadConfig({
  DATA_DIR: dataDir,
  HOST: '127.0.0.1',
  PORT: '0',
  SUPERUSER_NAME: 'admin',
  SUPERUSER_API_TOKEN: TOKEN,
  SECRET_KEY: 'bench-secret-key',
});
// Drop request logs and the start-up line; anything alarming still goes to stderr.
const running = await start(config, (entry) => {
  if (entry.level === 'warn' || entry.level === 'error' || entry.level === 'fatal')
    process.stderr.write(JSON.stringify(entry) + '\n');
});
const { url, services } = running;
const fileLog = services.log instanceof FileEventLog ? services.log : null;

try {
  console.log(
    `netledger API bench: node ${process.version}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model.trim()}), ` +
      `${services.log.constructor.name} + ${services.store.constructor.name}, ${fmt(SITES)} sites, ${fmt(IPS)} IP addresses, ` +
      `autocannon ${CONNECTIONS} connections x ${DURATION} s (after ${WARMUP} s warm-up) in a child process`,
  );
  const [l1, l5] = os.loadavg();
  console.log(
    `load average at start: ${l1!.toFixed(1)} (1 min), ${l5!.toFixed(1)} (5 min)` +
      (l1! > os.cpus().length * 0.5
        ? ` -- WARNING: the machine is busy, throughput and latency figures are contended`
        : ''),
  );

  /* ---- load */
  const loadRows: string[][] = [];
  const tenants = await bulkLoad(url, '/api/tenancy/tenants/', TENANTS, (i) => ({
    name: `Tenant ${i}`,
    slug: `tenant-${i}`,
  }));
  const vrfs = await bulkLoad(url, '/api/ipam/vrfs/', VRFS, (i) => ({ name: `VRF-${i}`, rd: `65000:${i}` }));
  let cpu0 = cpuMs();
  const sites = { ...(await bulkLoad(url, '/api/dcim/sites/', SITES, (i) => siteBody(i, tenants.ids))), cpu: 0 };
  sites.cpu = cpuMs() - cpu0;
  cpu0 = cpuMs();
  const ips = {
    ...(await bulkLoad(url, '/api/ipam/ip-addresses/', IPS, (i) => ipBody(i, vrfs.ids, tenants.ids))),
    cpu: 0,
  };
  ips.cpu = cpuMs() - cpu0;
  for (const [name, load, n] of [
    ['sites', sites, SITES],
    ['IP addresses', ips, IPS],
  ] as const) {
    const sorted = [...load.perRequest].sort((a, b) => a - b);
    loadRows.push([
      `${fmt(n)} ${name}`,
      String(load.perRequest.length),
      `${(load.wall / 1000).toFixed(1)} s`,
      fmt(n / (load.wall / 1000)),
      ms(sorted[Math.floor(sorted.length / 2)]!),
      `${ms(sorted[0]!)} .. ${ms(sorted[sorted.length - 1]!)}`,
      fmt(load.cpu / load.perRequest.length),
      load1(),
    ]);
  }
  const mem = process.memoryUsage();
  notes.push(
    `after load: event log ${fmt(services.log.head())} events` +
      (fileLog ? `, ${mib(fileLog.stats.bytesWritten)} on disk` : '') +
      `; process RSS ${mib(mem.rss)}, heap used ${mib(mem.heapUsed)} (service and bench together)`,
  );
  printTable(
    `Load (sequential bulk POSTs of ${fmt(CHUNK)}; ${TENANTS} tenants and ${VRFS} VRFs first)`,
    ['load', 'requests', 'wall', 'objects/s', 'p50 ms/request', 'min .. max ms/request', 'CPU ms/request', 'load1'],
    loadRows,
  );

  /* ---- autocannon scenarios */
  const vrfId = vrfs.ids[1]!;
  const siteLookup = siteName(Math.floor(SITES / 2));
  const ipId = ips.ids[Math.floor(ips.ids.length / 2)]!;
  const filtered = await api(url, 'GET', `/api/ipam/ip-addresses/?status=active&vrf_id=${vrfId}`);
  const bySite = await api(url, 'GET', `/api/dcim/sites/?name=${siteLookup}`);
  if (bySite.count !== 1) throw new Error(`site lookup by name found ${bySite.count}`);
  const firstPage = await api(url, 'GET', '/api/ipam/ip-addresses/');
  if (firstPage.results.length !== Math.min(50, IPS) || firstPage.count !== IPS)
    throw new Error(`first page: ${firstPage.results.length} of ${firstPage.count}`);

  const scenarios: { name: string; scenario: CannonScenario }[] = [
    { name: 'GET ip-addresses/ (first page, 50)', scenario: { kind: 'get', path: '/api/ipam/ip-addresses/' } },
    {
      name: `GET ip-addresses/?status=active&vrf_id=${vrfId} (${fmt(filtered.count)} match, page 50)`,
      scenario: { kind: 'get', path: `/api/ipam/ip-addresses/?status=active&vrf_id=${vrfId}` },
    },
    // status is a plain choice field: the read model keeps no index on it (readModelIndexes indexes relations and unique fields)
    {
      name: 'GET ip-addresses/?status=reserved (no index on status)',
      scenario: { kind: 'get', path: '/api/ipam/ip-addresses/?status=reserved' },
    },
    { name: `GET sites/?name=${siteLookup}`, scenario: { kind: 'get', path: `/api/dcim/sites/?name=${siteLookup}` } },
    { name: `GET ip-addresses/${ipId}/`, scenario: { kind: 'get', path: `/api/ipam/ip-addresses/${ipId}/` } },
    {
      name: 'POST tags/ (single create, unique body)',
      scenario: { kind: 'createTag', path: '/api/extras/tags/', prefix: 'bench' },
    },
  ];
  for (const { name, scenario } of scenarios) {
    if (WARMUP > 0) {
      const warm = scenario.kind === 'createTag' ? { ...scenario, prefix: 'warmup' } : scenario;
      await load(url, warm, WARMUP);
    }
    const before = fileLog?.stats;
    const c0 = cpuMs();
    const r = await load(url, scenario, DURATION);
    const cpu = (cpuMs() - c0) / Math.max(1, r.requests.total);
    const after = fileLog?.stats;
    let extra = `${fmt(r.requests.total)} requests`;
    if (r.non2xx || r.errors || r.timeouts)
      extra += `, ${r.non2xx} non-2xx, ${r.errors} errors, ${r.timeouts} timeouts`;
    if (scenario.kind === 'createTag' && before && after) {
      const appends = after.appends - before.appends;
      const syncs = after.syncs - before.syncs;
      extra += `; ${fmt(appends)} appends in ${fmt(syncs)} fdatasyncs = ${(appends / Math.max(1, syncs)).toFixed(2)} appends/fsync`;
    }
    row(
      name,
      fmt(r.requests.average),
      String(r.latency.p50),
      String(r.latency.p97_5),
      String(r.latency.p99),
      ms(cpu),
      extra,
    );
  }

  /* ---- sequential bulk creates */
  const bulkTimes: number[] = [];
  let bulkCpu = 0;
  for (let k = 0; k < BULK; k++) {
    // 172.16.0.0/12 space, disjoint from the loaded 10/8 addresses
    const body = Array.from({ length: CHUNK }, (_, j) => {
      const i = k * CHUNK + j;
      return {
        address: `172.${16 + ((i >> 16) & 15)}.${(i >> 8) & 255}.${i & 255}/16`,
        status: 'reserved',
        dns_name: `bulk-${i}.example.net`,
      };
    });
    const t0 = performance.now();
    const c0 = cpuMs();
    const created = (await api(url, 'POST', '/api/ipam/ip-addresses/', body)) as unknown[];
    bulkCpu += cpuMs() - c0;
    bulkTimes.push(performance.now() - t0);
    if (created.length !== CHUNK) throw new Error(`bulk create returned ${created.length}`);
  }
  const sortedBulk = [...bulkTimes].sort((a, b) => a - b);
  const medianBulk = sortedBulk[Math.floor(sortedBulk.length / 2)]!;
  row(
    `POST ip-addresses/ bulk of ${fmt(CHUNK)} (${BULK} sequential)`,
    (1000 / medianBulk).toFixed(2),
    ms(medianBulk),
    '',
    ms(sortedBulk[sortedBulk.length - 1]!),
    ms(bulkCpu / BULK),
    `${fmt(CHUNK / (medianBulk / 1000))} objects/s; min ${ms(sortedBulk[0]!)} ms; per request: ${bulkTimes.map(ms).join(', ')} ms`,
  );

  printTable(
    `HTTP (${CONNECTIONS} connections, ${DURATION} s each; latency in ms; CPU ms/req = service process CPU time / requests)`,
    ['scenario', 'req/s', 'p50', 'p97.5', 'p99', 'CPU ms/req', 'load1', 'notes'],
    table,
  );
  console.log(
    'bulk row: one connection; req/s = 1000 / median ms; p50 = median; p99 column = slowest of the sequential requests',
  );
  console.log(
    'load rows: CPU ms/request includes building the request bodies and parsing the responses in this process',
  );
  for (const note of notes) console.log(note);
} finally {
  await running.stop();
  if (process.env.KEEP !== '1') rmSync(dataDir, { recursive: true, force: true });
}
