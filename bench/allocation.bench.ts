/**
 * Allocation throughput: POST /api/ipam/prefixes/<id>/available-ips/ from CONNECTIONS
 * concurrent clients (autocannon in a child process, as bench/api.bench.ts). Not a
 * test: run with `npx tsx bench/allocation.bench.ts`.
 *
 * Every allocation is decided by the single writer against committed plus staged
 * state, so the figure is the writer's allocation rate. Two prefixes: an empty /16, and
 * a /16 that already holds FILL addresses: free addresses come from an ordered index of
 * the used ones, so the two should cost the same (the second run is the warmer one).
 * After each run the answered addresses are checked against the log: all distinct, one
 * create event each.
 *
 * Env: CONNECTIONS (50), DURATION (10), WARMUP (2), FILL (20000), KEEP=1 keeps the data dir.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { loadConfig } from '../src/config.js';
import type { ChangeEvent } from '../src/events/ChangeEvent.js';
import { FileEventLog } from '../src/events/file/FileEventLog.js';
import { start } from '../src/main.js';
import { cannon, type CannonResult } from './cannon.js';

const CONNECTIONS = Number(process.env.CONNECTIONS ?? 50);
const DURATION = Number(process.env.DURATION ?? 10);
const WARMUP = Number(process.env.WARMUP ?? 2);
const FILL = Number(process.env.FILL ?? 20_000);
const CHUNK = 1_000;

const TOKEN = '0123456789abcdef0123456789abcdef01234567';
const HEADERS = { Authorization: `Token ${TOKEN}`, 'Content-Type': 'application/json', Accept: 'application/json' };

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
const ms = (n: number) => (n < 10 ? n.toFixed(2) : n < 100 ? n.toFixed(1) : n.toFixed(0));

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

function load(url: string, route: string, duration: number): Promise<CannonResult> {
  return cannon({
    url,
    connections: CONNECTIONS,
    duration,
    headers: HEADERS,
    scenario: { kind: 'post', path: route, body: {} },
  });
}

const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'netledger-allocation-bench-'));
const config = loadConfig({
  DATA_DIR: dataDir,
  HOST: '127.0.0.1',
  PORT: '0',
  SUPERUSER_NAME: 'admin',
  SUPERUSER_API_TOKEN: TOKEN,
  SECRET_KEY: 'bench-secret-key',
});
const running = await start(config, (entry) => {
  if (entry.level === 'warn' || entry.level === 'error' || entry.level === 'fatal')
    process.stderr.write(JSON.stringify(entry) + '\n');
});
const { url, services } = running;
const fileLog = services.log instanceof FileEventLog ? services.log : null;

/** The addresses the log created since `position`, and the requests that created them. */
async function createdSince(position: number): Promise<ChangeEvent[]> {
  const events: ChangeEvent[] = [];
  for await (const batch of services.log.read(position + 1)) {
    for (const e of batch) if (e.objectType === 'ipam.ipaddress' && e.action === 'create') events.push(e);
  }
  return events;
}

async function run(name: string, prefix: string, fill: number): Promise<string[]> {
  const parent = await api(url, 'POST', '/api/ipam/prefixes/', { prefix });
  for (let first = 0; first < fill; first += CHUNK) {
    // The lowest addresses taken first, as a prefix filled by allocation would be.
    const body = Array.from({ length: Math.min(CHUNK, fill - first) }, (_, k) => {
      const i = first + k + 1;
      return { address: `${prefix.split('.').slice(0, 2).join('.')}.${i >> 8}.${i & 255}/16` };
    });
    await api(url, 'POST', '/api/ipam/ip-addresses/', body);
  }
  const route = `/api/ipam/prefixes/${parent.id}/available-ips/`;
  const position = services.log.head();
  const before = fileLog?.stats;
  const c0 = cpuMs();
  const r = await load(url, route, DURATION);
  const cpu = cpuMs() - c0;
  const after = fileLog?.stats;
  const created = await createdSince(position);
  const addresses = new Set(created.map((e) => String(e.postchange?.address)));
  // Requests still in flight when the run stops are written but their answers not counted.
  if (created.length < r['2xx'] || created.length > r['2xx'] + CONNECTIONS || addresses.size !== created.length) {
    throw new Error(
      `${name}: ${r['2xx']} answered 201, ${created.length} create events, ${addresses.size} distinct addresses`,
    );
  }
  const perSecond = r['2xx'] / DURATION;
  const syncs = before && after ? after.syncs - before.syncs : 0;
  const appends = before && after ? after.appends - before.appends : 0;
  return [
    name,
    fmt(perSecond),
    String(r.latency.p50),
    String(r.latency.p97_5),
    String(r.latency.p99),
    ms(cpu / Math.max(1, r['2xx'])),
    os.loadavg()[0]!.toFixed(1),
    `${fmt(r['2xx'])} answered (${fmt(created.length)} logged, all distinct); ${r.non2xx} non-2xx, ${r.errors} errors (${r.timeouts} client timeouts)` +
      (syncs ? `; ${(appends / syncs).toFixed(1)} appends/fdatasync` : ''),
  ];
}

try {
  const [l1, l5] = os.loadavg();
  console.log(
    `netledger allocation bench: node ${process.version}, ${os.cpus().length} CPUs, ${services.log.constructor.name} + ${services.store.constructor.name}, ` +
      `autocannon ${CONNECTIONS} connections x ${DURATION} s POST available-ips {} (after ${WARMUP} s warm-up); load average ${l1!.toFixed(1)} / ${l5!.toFixed(1)}`,
  );
  if (WARMUP > 0) {
    const warm = await api(url, 'POST', '/api/ipam/prefixes/', { prefix: '10.250.0.0/16' });
    await load(url, `/api/ipam/prefixes/${warm.id}/available-ips/`, WARMUP);
  }
  const rows = [
    await run('empty /16', '10.1.0.0/16', 0),
    await run(`/16 holding ${fmt(FILL)} addresses`, '10.2.0.0/16', FILL),
  ];
  const header = ['prefix', 'addresses/s', 'p50 ms', 'p97.5', 'p99', 'CPU ms/address', 'load1', 'notes'];
  const widths = header.map((h, c) => Math.max(h.length, ...rows.map((r) => r[c]!.length)));
  const line = (r: string[]) =>
    r
      .map((v, c) => (c === 0 || c === r.length - 1 ? v.padEnd(widths[c]!) : v.padStart(widths[c]!)))
      .join('  ')
      .trimEnd();
  console.log(`\nAllocation (${CONNECTIONS} concurrent clients, one address per request)`);
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const r of rows) console.log(line(r));
} finally {
  await running.stop();
  if (process.env.KEEP !== '1') rmSync(dataDir, { recursive: true, force: true });
}
