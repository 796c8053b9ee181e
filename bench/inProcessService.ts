/**
 * What the in-process benchmarks share: the service started in the benchmark's own
 * process on the embedded defaults in a temp DATA_DIR (port 0), a JSON client for it,
 * and the process's CPU clock.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { loadConfig } from '../src/config.js';
import { start } from '../src/main.js';

export const TOKEN = '0123456789abcdef0123456789abcdef01234567';
export const HEADERS = {
  Authorization: `Token ${TOKEN}`,
  'Content-Type': 'application/json',
  Accept: 'application/json',
};

/** This process's user + system CPU time, ms. */
export const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

export const fixed = (n: number) => (n < 10 ? n.toFixed(2) : n.toFixed(1));

/** One request; a status of 300 or more throws with the body's start. */
export async function api(base: string, method: string, route: string, body?: unknown): Promise<any> {
  const response = await fetch(base + route, {
    method,
    headers: HEADERS,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (response.status >= 300) throw new Error(`${method} ${route}: ${response.status} ${text.slice(0, 500)}`);
  return text ? JSON.parse(text) : null;
}

/** The service on a fresh data directory; `stop` also removes the directory unless KEEP is set. */
export async function startBenchService(name: string): Promise<{ url: string; stop(): Promise<void> }> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), `netledger-${name}-bench-`));
  const config = loadConfig({
    DATA_DIR: dataDir,
    HOST: '127.0.0.1',
    PORT: '0',
    SUPERUSER_NAME: 'admin',
    SUPERUSER_API_TOKEN: TOKEN,
    SECRET_KEY: 'bench-secret-key',
    KEEPALIVE_TIMEOUT: '60',
    // ANSWER_CACHE_MB=0 measures the whole middleware chain on every read.
    ...(process.env.ANSWER_CACHE_MB ? { ANSWER_CACHE_MB: process.env.ANSWER_CACHE_MB } : {}),
  });
  const running = await start(config, (entry) => {
    if (entry.level === 'warn' || entry.level === 'error' || entry.level === 'fatal')
      process.stderr.write(JSON.stringify(entry) + '\n');
  });
  return {
    url: running.url,
    stop: async () => {
      await running.stop();
      if (!process.env.KEEP) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** What the workload benchmarks build devices from: a site, a manufacturer, a device type, a role and 5 racks. */
export async function deviceFixtures(url: string): Promise<{ site: any; type: any; role: any; racks: any[] }> {
  const site = await api(url, 'POST', '/api/dcim/sites/', { name: 'site 1', slug: 'site-1' });
  const manufacturer = await api(url, 'POST', '/api/dcim/manufacturers/', { name: 'maker', slug: 'maker' });
  const type = await api(url, 'POST', '/api/dcim/device-types/', {
    manufacturer: manufacturer.id,
    model: 'box',
    slug: 'box',
  });
  const role = await api(url, 'POST', '/api/dcim/device-roles/', { name: 'role', slug: 'role', color: 'ff0000' });
  const racks = await api(
    url,
    'POST',
    '/api/dcim/racks/',
    Array.from({ length: 5 }, (_, i) => ({ name: `rack ${i}`, site: site.id })),
  );
  return { site, type, role, racks };
}
