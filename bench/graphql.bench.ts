/**
 * GraphQL batching benchmark: 1,000 devices, each with 10 interfaces holding one IP address
 * (10,000 interfaces, 10,000 addresses), read as one GraphQL query and as the REST pages
 * that hold the same objects (limit=1000: 1 page of devices, 10 of interfaces, 10 of
 * addresses). For each: read-store calls per request (find, getMany, count, countBy,
 * findWithCount, get: every call the HTTP layer makes to the store), wall time, response
 * bytes. The service runs in this process on the embedded defaults (MemoryReadStore).
 *
 *   [ANSWER_CACHE_MB=0] [RENDER_CACHE_MB=0] npx tsx bench/graphql.bench.ts [--rounds N]
 *
 * Not a test: prints a table of medians.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { loadConfig } from '../src/config.js';
import { start } from '../src/main.js';
import type { ReadStore } from '../src/projections/ReadStore.js';
import { api, cpuMs, deviceFixtures, fixed, HEADERS } from './inProcessService.js';

const ONLY_GRAPHQL = process.argv.includes('--graphql-only');
const ROUNDS = process.argv.includes('--rounds') ? Number(process.argv[process.argv.indexOf('--rounds') + 1]) : 5;
const DEVICES = 1000;
const INTERFACES = 10;

const STORE_CALLS = ['get', 'getMany', 'find', 'count', 'countBy', 'findWithCount'] as const;

/** Counts the store calls made while `run` runs. */
function counting(store: ReadStore): { measure<T>(run: () => Promise<T>): Promise<{ result: T; calls: number }> } {
  let calls = 0;
  const target = store as unknown as Record<string, (...args: unknown[]) => unknown>;
  for (const name of STORE_CALLS) {
    const original = target[name];
    if (typeof original !== 'function') continue;
    target[name] = function (this: unknown, ...args: unknown[]) {
      calls++;
      return original.apply(this, args);
    };
  }
  return {
    async measure(run) {
      const before = calls;
      const result = await run();
      return { result, calls: calls - before };
    },
  };
}

/** Wall time, and this process's CPU time (service and client: the contention on a shared machine inflates it less). */
async function timed(run: () => Promise<number>): Promise<{ ms: number; cpu: number; bytes: number }> {
  const started = performance.now();
  const cpuStarted = cpuMs();
  const bytes = await run();
  return { ms: performance.now() - started, cpu: cpuMs() - cpuStarted, bytes };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main() {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'netledger-graphql-bench-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    HOST: '127.0.0.1',
    PORT: '0',
    SUPERUSER_NAME: 'admin',
    SUPERUSER_API_TOKEN: HEADERS.Authorization.slice(6),
    SECRET_KEY: 'bench',
    KEEPALIVE_TIMEOUT: '60',
    RENDER_CACHE_MB: process.env.RENDER_CACHE_MB ?? '',
    // ANSWER_CACHE_MB=0: REST pages go through the whole read path (the answer cache keeps them whole otherwise)
    ANSWER_CACHE_MB: process.env.ANSWER_CACHE_MB ?? '',
  });
  const running = await start(config, (entry) => {
    if (entry.level === 'error' || entry.level === 'fatal') process.stderr.write(JSON.stringify(entry) + '\n');
  });
  const url = running.url;
  try {
    const loadStarted = performance.now();
    const { site, type, role } = await deviceFixtures(url);
    const devices: any[] = [];
    for (let i = 0; i < DEVICES; i += 100) {
      const batch = Array.from({ length: 100 }, (_, j) => ({
        name: `dev-${i + j}`,
        site: site.id,
        device_type: type.id,
        device_role: role.id,
      }));
      devices.push(...(await api(url, 'POST', '/api/dcim/devices/', batch)));
    }
    const interfaces: any[] = [];
    for (let i = 0; i < devices.length; i += 50) {
      const batch = devices
        .slice(i, i + 50)
        .flatMap((d) =>
          Array.from({ length: INTERFACES }, (_, k) => ({ device: d.id, name: `et-${k}`, type: '10gbase-t' })),
        );
      interfaces.push(...(await api(url, 'POST', '/api/dcim/interfaces/', batch)));
    }
    for (let i = 0; i < interfaces.length; i += 500) {
      const batch = interfaces.slice(i, i + 500).map((f, j) => ({
        address: `10.${Math.floor((i + j) / 65536)}.${Math.floor((i + j) / 256) % 256}.${(i + j) % 256}/32`,
        assigned_object_type: 'dcim.interface',
        assigned_object_id: f.id,
      }));
      await api(url, 'POST', '/api/ipam/ip-addresses/', batch);
    }
    console.log(
      `loaded ${DEVICES} devices, ${interfaces.length} interfaces and addresses in ${((performance.now() - loadStarted) / 1000).toFixed(1)} s`,
    );

    const store = counting(running.services.store);
    const get = async (route: string) => {
      const response = await fetch(url + route, { headers: HEADERS });
      const text = await response.text();
      if (response.status !== 200) throw new Error(`${route}: ${response.status} ${text.slice(0, 300)}`);
      return text.length;
    };
    const graphql = async (query: string) => {
      const response = await fetch(`${url}/graphql/`, {
        method: 'POST',
        headers: HEADERS,
        body: JSON.stringify({ query }),
      });
      const text = await response.text();
      if (response.status !== 200 || text.includes('"errors"'))
        throw new Error(`graphql: ${response.status} ${text.slice(0, 300)}`);
      return text.length;
    };
    const restPages = async () => {
      let bytes = await get('/api/dcim/devices/?limit=1000');
      for (let offset = 0; offset < interfaces.length; offset += 1000)
        bytes += await get(`/api/dcim/interfaces/?limit=1000&offset=${offset}`);
      for (let offset = 0; offset < interfaces.length; offset += 1000)
        bytes += await get(`/api/ipam/ip-addresses/?limit=1000&offset=${offset}`);
      return bytes;
    };
    const cases: Array<[string, number, () => Promise<number>]> = [
      [
        'GraphQL: devices { id name interfaces { id name ip_addresses { id address } } }',
        1,
        () => graphql('{ device_list(limit: 1000) { id name interfaces { id name ip_addresses { id address } } } }'),
      ],
      [
        'GraphQL: + status, site, type, role; interface type/enabled/mac; address status/vrf/dns',
        1,
        () =>
          graphql(
            '{ device_list(limit: 1000) { id name status display site { name } device_type { model } device_role { name } ' +
              'interfaces { id name type enabled mac_address ip_addresses { id address status dns_name vrf { name } } } } }',
          ),
      ],
      ['REST complete pages: devices, interfaces, ip-addresses (limit=1000)', 21, restPages],
      [
        'REST brief pages: the same with ?brief=1',
        21,
        async () => {
          let bytes = await get('/api/dcim/devices/?limit=1000&brief=1');
          for (let offset = 0; offset < interfaces.length; offset += 1000)
            bytes += await get(`/api/dcim/interfaces/?limit=1000&offset=${offset}&brief=1`);
          for (let offset = 0; offset < interfaces.length; offset += 1000)
            bytes += await get(`/api/ipam/ip-addresses/?limit=1000&offset=${offset}&brief=1`);
          return bytes;
        },
      ],
    ];
    console.log(
      `\n| read (${ROUNDS} rounds, medians) | HTTP requests | store calls | wall ms | CPU ms | response bytes |`,
    );
    console.log('| --- | --- | --- | --- | --- | --- |');
    for (const [name, requests, run] of ONLY_GRAPHQL ? cases.slice(0, 1) : cases) {
      await run(); // warm the render cache and the JIT as a steady reader would find them
      const calls: number[] = [];
      const ms: number[] = [];
      const cpu: number[] = [];
      let bytes = 0;
      for (let round = 0; round < ROUNDS; round++) {
        const { result, calls: made } = await store.measure(() => timed(run));
        calls.push(made);
        ms.push(result.ms);
        cpu.push(result.cpu);
        bytes = result.bytes;
      }
      console.log(
        `| ${name} | ${requests} | ${median(calls)} | ${fixed(median(ms))} | ${fixed(median(cpu))} | ${(bytes / 1e6).toFixed(2)} MB |`,
      );
    }
  } finally {
    await running.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
