import { execFile } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { promisify } from 'node:util';

import test from 'ava';

import { ADMIN_TOKEN } from '../support/startService.js';

/**
 * The deployed topology as processes (scripts/topology-local.sh: the broker, one writer, two
 * read replicas, each its own `npm run start:prod`): a mixed workload through all three, the writer
 * killed (-9) mid-workload and another started; no acknowledged write lost, every process
 * converging to the same objects.
 *   KAFKA_PORT=9392 scripts/kafka-local.sh start
 *   KAFKA_BROKERS=127.0.0.1:9392 npx ava test/replicas/kafkaTopology.e2e.spec.ts
 */
const brokers = (process.env.KAFKA_BROKERS ?? '')
  .split(',')
  .map((b) => b.trim())
  .filter((b) => b.length > 0);

const script = new URL('../../scripts/topology-local.sh', import.meta.url).pathname;

if (brokers.length === 0) {
  test('Kafka topology as processes: skipped: KAFKA_BROKERS not set', (t) => {
    t.log('skipped: KAFKA_BROKERS not set (the topology runs on a local broker: scripts/kafka-local.sh)');
    t.pass();
  });
} else {
  const kafkaPort = brokers[0]!.split(':').pop()!;
  const writerPort = 8100 + Math.floor(Math.random() * 80) * 10;
  const env = {
    ...process.env,
    KAFKA_PORT: kafkaPort,
    TOPOLOGY_PORT: String(writerPort),
    KAFKA_TOPIC: `netledger.topology.${randomUUID()}`,
    SUPERUSER_API_TOKEN: ADMIN_TOKEN,
  };
  const topology = (command: string) => promisify(execFile)(script, [command], { env, maxBuffer: 1 << 24 });
  const urls = [0, 1, 2].map((i) => `http://127.0.0.1:${writerPort + i}`);

  interface Answer {
    status: number;
    position: number;
    body: any;
  }
  const call = async (
    base: string,
    method: string,
    route: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<Answer> => {
    try {
      const response = await fetch(base + route, {
        method,
        headers: { Authorization: `Token ${ADMIN_TOKEN}`, 'Content-Type': 'application/json', ...headers },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(60_000),
      });
      const text = await response.text();
      const position = Number(response.headers.get('x-netledger-position') ?? 0);
      return { status: response.status, position, body: text ? JSON.parse(text) : null };
    } catch {
      return { status: 0, position: 0, body: null }; // the process is down: not acknowledged
    }
  };

  /** Every model's list under /api/, from the API root's links. */
  const listRoutes = async (base: string) => {
    const routes: string[] = [];
    const root = await call(base, 'GET', '/api/');
    for (const appUrl of Object.values(root.body as Record<string, unknown>)) {
      if (typeof appUrl !== 'string' || !appUrl.startsWith('http')) continue;
      const app = await call(base, 'GET', new URL(appUrl).pathname);
      for (const url of Object.values(app.body as Record<string, unknown>)) {
        if (typeof url === 'string' && url.startsWith('http')) routes.push(new URL(url).pathname);
      }
    }
    // Lists only: a few links are views that need parameters (connected-device, ...).
    const lists = [];
    for (const route of routes.sort()) {
      if (Array.isArray((await call(base, 'GET', `${route}?limit=1`)).body?.results)) lists.push(route);
    }
    return lists;
  };

  /** A digest of every model's list, read once `position` is applied; links made relative (origins differ). */
  const digest = async (base: string, routes: string[], position: number) => {
    const hash = createHash('sha256');
    for (const route of routes) {
      const at = { 'X-Netledger-Position': String(position) };
      const page = await call(base, 'GET', `${route}?limit=0&ordering=id`, undefined, at);
      if (page.status !== 200) throw new Error(`${base}${route}: ${page.status}`);
      hash.update(route + JSON.stringify(page.body).replaceAll(base, ''));
    }
    return hash.digest('hex');
  };

  test.serial(
    'Kafka topology as processes: writes through any process, the writer killed and replaced, no acknowledged write lost, replicas converge',
    async (t) => {
      t.timeout(600_000);
      t.teardown(async () => {
        await topology('stop-services');
        const state = new URL(`../../.cache/topology-${writerPort}`, import.meta.url).pathname;
        rmSync(state, { recursive: true, force: true });
      });
      await topology('start');

      const acknowledged = new Map<number, string>(); // site id -> name and description as last acknowledged
      let writes = 0;
      let failures = 0;
      let stale = 0;
      let readsOwnWrite = 0;
      let readsRefused = 0;
      let stop = false;
      const client = async (n: number) => {
        for (let i = 0; !stop; i++) {
          const name = `c${n}-${i}-${randomUUID().slice(0, 8)}`;
          const via = urls[(n + i) % 3]!;
          const created = await call(via, 'POST', '/api/dcim/sites/', { name, slug: name });
          if (created.status !== 201) {
            failures++;
            await new Promise((resolve) => setTimeout(resolve, 200));
            continue;
          }
          acknowledged.set(created.body.id, `${name}|`);
          writes++;
          // Read-your-writes on another process, passing the write's position.
          const reader = urls[(n + i + 1) % 3]!;
          const route = `/api/dcim/sites/${created.body.id}/`;
          const read = await call(reader, 'GET', route, undefined, {
            'X-Netledger-Position': String(created.position),
          });
          if (read.status === 200) {
            t.is(read.body.name, name, `read its write on ${reader}`);
            readsOwnWrite++;
          } else if (read.status === 0 || read.status === 503)
            readsRefused++; // the process was down, or waited too long
          else stale++;
          if (i % 3 === 2) {
            const patched = await call(reader, 'PATCH', route, { description: `edited ${i}` });
            if (patched.status === 200) {
              acknowledged.set(created.body.id, `${name}|edited ${i}`);
              writes++;
            } else acknowledged.set(created.body.id, `${name}|*`); // refused, or of unknown outcome: either description
          }
        }
      };
      const clients = [0, 1, 2, 3].map(client);
      const waitFor = async (count: number) => {
        while (acknowledged.size < count) await new Promise((resolve) => setTimeout(resolve, 100));
      };
      await waitFor(30);
      await topology('kill-writer');
      const beforeKill = acknowledged.size;
      await topology('start-writer');
      await waitFor(beforeKill + 30);
      stop = true;
      await Promise.all(clients);
      t.is(stale, 0, 'a read passing its write position never missed the write');
      t.true(readsOwnWrite > 0);

      const convergeStart = Date.now();
      const head = (await call(urls[0]!, 'GET', '/api/dcim/sites/?limit=1')).position;
      const routes = await listRoutes(urls[0]!);
      const digests = await Promise.all(urls.map((base) => digest(base, routes, head)));
      const converged = (Date.now() - convergeStart) / 1000;
      t.log(
        `${writes} writes acknowledged (${acknowledged.size} sites, ${beforeKill} before the kill), ` +
          `${failures} creates refused during the outage; ${routes.length} lists compared; ` +
          `converged in ${converged.toFixed(1)} s; reads of a write on another process: ${readsOwnWrite} answered ` +
          `with it, ${readsRefused} refused (503 or the process down)`,
      );
      t.is(new Set(digests).size, 1, `every process has the same objects: ${digests.join(' ')}`);

      const at = { 'X-Netledger-Position': String(head) };
      const sites = await call(urls[1]!, 'GET', '/api/dcim/sites/?limit=0', undefined, at);
      type Site = { id: number; name: string; description: string };
      const present = new Map<number, string>(
        sites.body.results.map((s: Site) => [s.id, `${s.name}|${s.description}`]),
      );
      const lost = [...acknowledged].filter(([id, expected]) =>
        expected.endsWith('|*') ? !present.get(id)?.startsWith(expected.slice(0, -1)) : present.get(id) !== expected,
      );
      t.deepEqual(lost, [], 'no acknowledged write lost');
    },
  );
}
