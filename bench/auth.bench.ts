/**
 * What authentication and authorisation add to a request. Not a test: run with
 * `npx tsx bench/auth.bench.ts`.
 *
 *  1. starts the service in this process (FileEventLog + MemoryReadStore, temp DATA_DIR);
 *  2. creates a user with an IP-restricted token and a constrained object permission;
 *  3. times, in-process with a warm cache (ITERATIONS calls after WARMUP):
 *     - token authentication of the superuser's token (digest + cache look-ups + checks),
 *     - the same for the restricted user (adds the allowed_ips verdict),
 *     - authentication plus the view scope of a list (the constraint query),
 *     - for comparison, the same look-up uncached (a read-model find per request);
 *  4. times the password check (scrypt, per login or provisioning attempt);
 *  5. sends HTTP_REQUESTS sequential GETs of an exempt list with and without a token,
 *     interleaved, and reports the medians of the server-side time of each (the request
 *     log's `ms`: every middleware and the view); their difference is auth over HTTP.
 *
 * Env: ITERATIONS (200000), WARMUP (20000), HTTP_REQUESTS (2000).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';

import type { RequestOrigin } from '../src/auth/AuthService.js';
import { hashPassword, verifyPasswordAsync } from '../src/auth/secrets.js';
import { loadConfig } from '../src/config.js';
import { start } from '../src/main.js';
import { lookupView } from '../src/projections/lookupView.js';

const ITERATIONS = Number(process.env.ITERATIONS ?? 200_000);
const WARMUP = Number(process.env.WARMUP ?? 20_000);
const HTTP_REQUESTS = Number(process.env.HTTP_REQUESTS ?? 2_000);
const ADMIN = '0123456789abcdef0123456789abcdef01234567';

const us = (ms: number) => `${(ms * 1000).toFixed(2)} µs`;

async function timeIt(label: string, iterations: number, fn: () => Promise<unknown>): Promise<number> {
  for (let i = 0; i < Math.min(WARMUP, iterations); i++) await fn();
  const started = performance.now();
  for (let i = 0; i < iterations; i++) await fn();
  const perCall = (performance.now() - started) / iterations;
  console.log(`${label.padEnd(62)} ${us(perCall).padStart(12)} per request`);
  return perCall;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

const dir = mkdtempSync(path.join(os.tmpdir(), 'netledger-auth-bench-'));
/** Server-side request times (the request log's ms), per label of the request being sent. */
const serverMs = new Map<string, number[]>();
let sending = '';
const running = await start(
  loadConfig({
    DATA_DIR: dir,
    PORT: '0',
    HOST: '127.0.0.1',
    SUPERUSER_API_TOKEN: ADMIN,
    SECRET_KEY: 'bench',
    EXEMPT_VIEW_PERMISSIONS: 'extras.tag',
  }),
  (entry) => {
    if (sending && typeof entry.ms === 'number') serverMs.get(sending)?.push(entry.ms);
  },
);
try {
  const api = async (method: string, route: string, body?: unknown, key: string | null = ADMIN) => {
    const response = await fetch(running.url + route, {
      method,
      headers: { ...(key ? { Authorization: `Token ${key}` } : {}), 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (response.status >= 300) throw new Error(`${method} ${route}: ${response.status} ${text}`);
    return text ? JSON.parse(text) : null;
  };
  const user = await api('POST', '/api/users/users/', { username: 'bench', password: 'bench-password' });
  const token = await api('POST', '/api/users/tokens/', {
    user: user.id,
    allowed_ips: ['127.0.0.0/8', '2001:db8::/32'],
  });
  await api('POST', '/api/users/permissions/', {
    name: 'bench',
    object_types: ['dcim.site'],
    actions: ['view'],
    users: [user.id],
    constraints: [{ status: 'active' }, { name__istartswith: 'dc-' }],
  });
  await api('POST', '/api/extras/tags/', { name: 'bench', slug: 'bench' });

  const auth = running.services.auth;
  const origin: RequestOrigin = { socketAddress: '::ffff:127.0.0.1', header: () => '' };
  const site = running.services.registry.get('dcim.site');
  let n = 0;
  const requestId = () => `00000000-0000-4000-8000-${String(n++ % 1e12).padStart(12, '0')}`;
  const authenticate = async (key: string) => {
    const result = await auth.authenticateToken(`Token ${key}`, origin, requestId());
    if (!('principal' in result) || !result.principal) throw new Error(JSON.stringify(result));
    return result.principal;
  };

  console.log(
    `auth cost per request, warm cache (${ITERATIONS.toLocaleString('en-US')} calls each, Node ${process.versions.node})`,
  );
  const superuser = await timeIt('token auth: superuser token', ITERATIONS, () => authenticate(ADMIN));
  const restricted = await timeIt('token auth: user token with allowed_ips (2 networks)', ITERATIONS, () =>
    authenticate(token.key),
  );
  const view = lookupView(running.services.store);
  const scoped = await timeIt('token auth + view scope (2 constraints, OR)', ITERATIONS, async () => {
    const principal = await authenticate(token.key);
    return principal.permissions.scope(site, 'view', view);
  });
  await timeIt('anonymous (no Authorization header)', ITERATIONS, () =>
    auth.authenticateToken(undefined, origin, requestId()),
  );

  // the uncached path: what every request would cost without the cache (a read-model query)
  const digest = running.services.commands.secrets.tokenDigest(token.key);
  const uncached = await timeIt(
    'uncached: digest + token find + user get + permissions find',
    Math.floor(ITERATIONS / 10),
    async () => {
      running.services.commands.secrets.tokenDigest(token.key);
      const [found] = await view.find('users.token', { key_digest: { $eq: digest } }, 1);
      const owner = await view.get('auth.user', found.user as number);
      return view.find('users.objectpermission', {
        enabled: { $eq: true },
        $or: [{ users: { $eq: owner!.id } }, { groups: { $in: [] } }],
      });
    },
  );

  const hash = hashPassword('bench-password');
  const attempts = 20;
  const t0 = performance.now();
  for (let i = 0; i < attempts; i++) await verifyPasswordAsync('bench-password', hash);
  const scrypt = (performance.now() - t0) / attempts;
  console.log(
    `${'password check (scrypt N=16384 r=8 p=1), per login attempt'.padEnd(62)} ${`${scrypt.toFixed(1)} ms`.padStart(12)}`,
  );

  // over HTTP: an exempt list, with and without a token, interleaved
  const withToken: number[] = [];
  const without: number[] = [];
  serverMs.set('token', withToken).set('anonymous', without);
  for (let i = 0; i < HTTP_REQUESTS; i++) {
    for (const [label, key] of [
      ['token', ADMIN],
      ['anonymous', null],
    ] as const) {
      sending = label;
      await api('GET', '/api/extras/tags/', undefined, key);
    }
  }
  sending = '';
  console.log(
    `HTTP GET /api/extras/tags/ (exempt), server-side median of ${HTTP_REQUESTS}: with token ${median(withToken).toFixed(2)} ms, ` +
      `anonymous ${median(without).toFixed(2)} ms (request log resolution 10 µs)`,
  );
  const worst = Math.max(superuser, restricted, scoped);
  console.log(
    `\nwarm-cache auth cost: ${us(worst)} per request at most (target < 100 µs): ${worst < 0.1 ? 'met' : 'NOT met'}; uncached ${us(uncached)}`,
  );
} finally {
  await running.stop();
  rmSync(dir, { recursive: true, force: true });
}
