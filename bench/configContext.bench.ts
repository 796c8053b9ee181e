/**
 * The cost of rendering `config_context` on device lists. Not a test: run with
 * `npx tsx bench/configContext.bench.ts`.
 *
 *  1. starts the service in this process on the embedded defaults (FileEventLog +
 *     MemoryReadStore) in a temp DATA_DIR, port 0, request logs dropped;
 *  2. loads a region tree (5 > 4 > 3), site groups, SITES sites, roles, platforms, tenants
 *     in tenant groups, tags, DEVICES devices spread over them (each with 0-2 tags, every
 *     10th with local context data) and CONTEXTS config contexts with mixed criteria
 *     (none, region at any level, site group, site, role, platform, tenant, tenant group,
 *     tags, and role+region / site+tag pairs), weights 0..2000, a few inactive;
 *  3. drives GET /api/dcim/devices/?limit=DEVICES with and without
 *     `exclude=config_context` with autocannon (CONNECTIONS connections, DURATION s after
 *     WARMUP s) from a child process, reporting req/s, latency and this process's CPU ms
 *     per request (the service's: autocannon runs elsewhere);
 *  4. times the rendering step alone (the field's computeMany over the DEVICES documents,
 *     ITERATIONS times in this process): wall and CPU per page.
 *
 * Env: DEVICES (1000), CONTEXTS (100), SITES (50), CONNECTIONS (4), DURATION (10),
 *      WARMUP (2), ITERATIONS (50), KEEP=1 keeps the temp data dir.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';

import { loadConfig } from '../src/config.js';
import { start } from '../src/main.js';
import { registry } from '../src/models/registry.js';
import type { StoredObject } from '../src/models/storedObject.js';
import { lookupView } from '../src/projections/lookupView.js';
import { seededRandom } from '../test/support/seededRandom.js';
import { cannon, type CannonResult } from './cannon.js';

const DEVICES = Number(process.env.DEVICES ?? 1_000);
const CONTEXTS = Number(process.env.CONTEXTS ?? 100);
const SITES = Number(process.env.SITES ?? 50);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 4);
const DURATION = Number(process.env.DURATION ?? 10);
const WARMUP = Number(process.env.WARMUP ?? 2);
const ITERATIONS = Number(process.env.ITERATIONS ?? 50);
const ROLES = 10;
const PLATFORMS = 5;
const TENANT_GROUPS = 3;
const TENANTS = 12;
const TAGS = 20;
const SITE_GROUPS = 6;

const TOKEN = '0123456789abcdef0123456789abcdef01234567';
const HEADERS = { Authorization: `Token ${TOKEN}`, 'Content-Type': 'application/json', Accept: 'application/json' };

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
const ms = (n: number) => (n < 10 ? n.toFixed(2) : n < 100 ? n.toFixed(1) : n.toFixed(0));
const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};
const load1 = () => os.loadavg()[0]!.toFixed(1);

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

const ids = (objects: Array<{ id: number }>) => objects.map((o) => o.id);

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'netledger-configcontext-bench-'));
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

try {
  console.log(
    `netledger config-context bench: node ${process.version}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model.trim()}), ` +
      `${fmt(DEVICES)} devices, ${fmt(CONTEXTS)} contexts, ${SITES} sites; load average at start ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`,
  );
  const random = seededRandom(7);
  const int = (n: number) => Math.floor(random() * n);
  const pick = <T>(xs: T[]) => xs[int(xs.length)]!;
  const post = (route: string, body: unknown) => api(url, 'POST', route, body);

  /* ---- the registry around the devices */
  const t0 = performance.now();
  const regions: Array<{ id: number; depth: number }> = [];
  for (let a = 0; a < 5; a++) {
    const top = await post('/api/dcim/regions/', { name: `r${a}`, slug: `r${a}` });
    regions.push({ id: top.id, depth: 0 });
    for (let b = 0; b < 4; b++) {
      const mid = await post('/api/dcim/regions/', { name: `r${a}-${b}`, slug: `r${a}-${b}`, parent: top.id });
      regions.push({ id: mid.id, depth: 1 });
      const leaves = await post(
        '/api/dcim/regions/',
        [0, 1, 2].map((c) => ({ name: `r${a}-${b}-${c}`, slug: `r${a}-${b}-${c}`, parent: mid.id })),
      );
      for (const leaf of leaves) regions.push({ id: leaf.id, depth: 2 });
    }
  }
  const leafRegions = regions.filter((r) => r.depth === 2).map((r) => r.id);
  const coreGroup = await post('/api/dcim/site-groups/', { name: 'core', slug: 'core' });
  const siteGroups = [
    coreGroup.id,
    ...ids(
      await post(
        '/api/dcim/site-groups/',
        Array.from({ length: SITE_GROUPS - 1 }, (_, i) => ({
          name: `sg${i}`,
          slug: `sg${i}`,
          parent: i % 2 ? coreGroup.id : null,
        })),
      ),
    ),
  ];
  const sites = ids(
    await post(
      '/api/dcim/sites/',
      Array.from({ length: SITES }, (_, i) => ({
        name: `site-${i}`,
        slug: `site-${i}`,
        region: pick(leafRegions),
        group: pick(siteGroups),
      })),
    ),
  );
  const manufacturer = await post('/api/dcim/manufacturers/', { name: 'Juniper', slug: 'juniper' });
  const deviceTypes = ids(
    await post(
      '/api/dcim/device-types/',
      [0, 1, 2, 3, 4].map((i) => ({ manufacturer: manufacturer.id, model: `m${i}`, slug: `m${i}` })),
    ),
  );
  const roles = ids(
    await post(
      '/api/dcim/device-roles/',
      Array.from({ length: ROLES }, (_, i) => ({ name: `role${i}`, slug: `role${i}`, color: 'ff0000' })),
    ),
  );
  const platforms = ids(
    await post(
      '/api/dcim/platforms/',
      Array.from({ length: PLATFORMS }, (_, i) => ({ name: `os${i}`, slug: `os${i}` })),
    ),
  );
  const tenantGroups = ids(
    await post(
      '/api/tenancy/tenant-groups/',
      Array.from({ length: TENANT_GROUPS }, (_, i) => ({ name: `tg${i}`, slug: `tg${i}` })),
    ),
  );
  const tenants = ids(
    await post(
      '/api/tenancy/tenants/',
      Array.from({ length: TENANTS }, (_, i) => ({
        name: `t${i}`,
        slug: `t${i}`,
        group: tenantGroups[i % TENANT_GROUPS],
      })),
    ),
  );
  const tags: Array<{ id: number; slug: string }> = await post(
    '/api/extras/tags/',
    Array.from({ length: TAGS }, (_, i) => ({ name: `tag${i}`, slug: `tag${i}` })),
  );
  const tagIds = ids(tags);
  for (let first = 0; first < DEVICES; first += 500) {
    const body = Array.from({ length: Math.min(500, DEVICES - first) }, (_, k) => {
      const i = first + k;
      return {
        name: `dev-${String(i).padStart(5, '0')}`,
        device_type: pick(deviceTypes),
        device_role: pick(roles),
        site: pick(sites),
        platform: random() < 0.8 ? pick(platforms) : null,
        tenant: random() < 0.7 ? pick(tenants) : null,
        tags: [...new Set(Array.from({ length: int(3) }, () => pick(tagIds)))],
        local_context_data: i % 10 === 0 ? { local: { id: i }, ntp: { prefer: `local-${i}` } } : null,
      };
    });
    await post('/api/dcim/devices/', body);
  }

  /* ---- config contexts with mixed criteria */
  const criteria: Array<() => Record<string, unknown>> = [
    () => ({}),
    () => ({ regions: [pick(regions).id] }),
    () => ({ regions: [pick(regions).id, pick(regions).id] }),
    () => ({ site_groups: [pick(siteGroups)] }),
    () => ({ sites: [pick(sites), pick(sites), pick(sites)] }),
    () => ({ roles: [pick(roles)] }),
    () => ({ platforms: [pick(platforms)] }),
    () => ({ tenants: [pick(tenants)] }),
    () => ({ tenant_groups: [pick(tenantGroups)] }),
    () => ({ tags: [pick(tags).slug, pick(tags).slug] }),
    () => ({ roles: [pick(roles)], regions: [pick(regions.filter((r) => r.depth < 2)).id] }),
    () => ({ sites: [pick(sites)], tags: [pick(tags).slug] }),
  ];
  const contexts = Array.from({ length: CONTEXTS }, (_, i) => ({
    name: `ctx-${String(i).padStart(4, '0')}`,
    weight: int(2001),
    is_active: i % 25 !== 24,
    ...criteria[i % criteria.length]!(),
    data: {
      [`k${i % 30}`]: { value: i, list: [i, i + 1] },
      ntp: { servers: [`192.0.2.${i % 250}`], prefer: `ctx-${i}` },
      [`flag${i}`]: true,
    },
  }));
  await post('/api/extras/config-contexts/', contexts);
  const loaded = (performance.now() - t0) / 1000;

  const listPath = `/api/dcim/devices/?limit=${DEVICES}`;
  const sample = await api(url, 'GET', listPath);
  const sizes = (sample.results as Array<{ config_context: Record<string, unknown> }>).map(
    (d) => Object.keys(d.config_context).length,
  );
  const distinct = new Set(
    (sample.results as Array<{ config_context: unknown }>).map((d) => JSON.stringify(d.config_context)),
  ).size;
  const bytes = async (route: string) =>
    (await (await fetch(url + route, { headers: HEADERS })).arrayBuffer()).byteLength;
  console.log(
    `loaded in ${loaded.toFixed(1)} s; one page: ${sample.results.length} devices, ${distinct} distinct rendered contexts, ` +
      `${(sizes.reduce((a, b) => a + b, 0) / sizes.length).toFixed(1)} top-level keys on average; ` +
      `${fmt((await bytes(listPath)) / 1024)} KiB per page (${fmt((await bytes(`${listPath}&exclude=config_context`)) / 1024)} KiB without the contexts)`,
  );

  /* ---- HTTP: with and without the rendered context */
  const rows: string[][] = [];
  for (const [name, route] of [
    [`GET ${listPath}`, listPath],
    [`GET ${listPath}&exclude=config_context`, `${listPath}&exclude=config_context`],
  ] as const) {
    await cannon({
      url,
      connections: CONNECTIONS,
      duration: WARMUP,
      headers: HEADERS,
      scenario: { kind: 'get', path: route },
    });
    const cpu0 = cpuMs();
    const r: CannonResult = await cannon({
      url,
      connections: CONNECTIONS,
      duration: DURATION,
      headers: HEADERS,
      scenario: { kind: 'get', path: route },
    });
    const cpu = (cpuMs() - cpu0) / Math.max(1, r.requests.total);
    if (r.non2xx || r.errors) console.log(`  ${name}: ${r.non2xx} non-2xx, ${r.errors} errors`);
    rows.push([name, r.requests.average.toFixed(1), String(r.latency.p50), String(r.latency.p99), ms(cpu), load1()]);
  }
  console.log('\n| scenario | req/s | p50 ms | p99 ms | CPU ms/req | load1 |');
  console.log('|---|---:|---:|---:|---:|---:|');
  for (const row of rows) console.log(`| ${row.join(' | ')} |`);

  /* ---- the rendering step alone */
  const definition = registry.get('dcim.device');
  const field = definition.fields.find((f) => f.name === 'config_context')!;
  const docs = await services.store.find('dcim.device', {}, { limit: DEVICES });
  const view = lookupView(services.store);
  const walls: number[] = [];
  const cpus: number[] = [];
  for (let i = 0; i < ITERATIONS + 3; i++) {
    const w0 = performance.now();
    const c0 = cpuMs();
    await field.computeMany!(docs as StoredObject[], view, definition, new Map(), registry);
    if (i >= 3) {
      walls.push(performance.now() - w0);
      cpus.push(cpuMs() - c0);
    }
  }
  walls.sort((a, b) => a - b);
  cpus.sort((a, b) => a - b);
  const median = (xs: number[]) => xs[Math.floor(xs.length / 2)]!;
  console.log(
    `\nconfig_context of ${fmt(docs.length)} devices alone (computeMany, ${ITERATIONS} runs): ` +
      `wall p50 ${ms(median(walls))} ms, CPU p50 ${ms(median(cpus))} ms (${ms((median(cpus) * 1000) / docs.length)} µs per device)`,
  );

  /* ---- the page rendered and turned into JSON, without HTTP */
  for (const exclude of [undefined, new Set(['config_context'])]) {
    const renderCpu: number[] = [];
    const textCpu: number[] = [];
    for (let i = 0; i < ITERATIONS + 3; i++) {
      const c0 = cpuMs();
      const rendered = await services.serializer.render(definition, docs, 'complete', { baseUrl: url, exclude });
      const c1 = cpuMs();
      JSON.stringify({ count: docs.length, results: rendered });
      if (i >= 3) {
        renderCpu.push(c1 - c0);
        textCpu.push(cpuMs() - c1);
      }
    }
    renderCpu.sort((a, b) => a - b);
    textCpu.sort((a, b) => a - b);
    console.log(
      `Serializer.render of the page${exclude ? ' excluding config_context' : ''}: CPU p50 ${ms(median(renderCpu))} ms, JSON.stringify ${ms(median(textCpu))} ms`,
    );
  }
} finally {
  await running.stop();
  if (!process.env.KEEP) rmSync(dataDir, { recursive: true, force: true });
}
