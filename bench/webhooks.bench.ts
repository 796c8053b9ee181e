/**
 * Webhook delivery beside the writer: the latency of sequential site creations with no
 * webhook, with one whose receiver never answers, and with one whose receiver answers at
 * once (then how long until every change is delivered, and the rate). WEBHOOK_WRITES
 * scales it (default 300 per case).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';

import { loadConfig } from '../src/config.js';
import { start } from '../src/main.js';
import { api, fixed, TOKEN } from './inProcessService.js';

const WRITES = Number(process.env.WEBHOOK_WRITES ?? 300);

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function receiver(answer: boolean): Promise<{ url: string; count(): number; close(): void }> {
  let received = 0;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received += 1;
      if (answer) res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    count: () => received,
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

async function run(label: string, hook: 'none' | 'hanging' | 'answering'): Promise<void> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'netledger-webhooks-bench-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    HOST: '127.0.0.1',
    PORT: '0',
    SUPERUSER_API_TOKEN: TOKEN,
    SECRET_KEY: 'bench-secret-key',
    WEBHOOK_TIMEOUT: '3600',
  });
  const running = await start(config, () => {});
  const target = hook === 'none' ? null : await receiver(hook === 'answering');
  try {
    if (target)
      await api(running.url, 'POST', '/api/extras/webhooks/', {
        name: 'bench',
        content_types: ['dcim.site'],
        type_create: true,
        payload_url: target.url,
        secret: 'bench',
      });
    const latencies: number[] = [];
    const t0 = performance.now();
    for (let i = 0; i < WRITES; i++) {
      const before = performance.now();
      await api(running.url, 'POST', '/api/dcim/sites/', { name: `site-${i}`, slug: `site-${i}` });
      latencies.push(performance.now() - before);
    }
    const written = performance.now() - t0;
    latencies.sort((a, b) => a - b);
    let delivered = '';
    if (hook === 'answering') {
      while (target!.count() < WRITES) await running.webhooks!.changed(); // a writer always has one
      const all = performance.now() - t0;
      delivered = `; all ${WRITES} delivered ${fixed(all - written)} ms after the last write (${fixed((WRITES / all) * 1000)} deliveries/s overall)`;
    }
    console.log(
      `${label}: ${WRITES} creates in ${fixed(written)} ms, p50 ${fixed(percentile(latencies, 50))} ms, p99 ${fixed(percentile(latencies, 99))} ms${delivered}`,
    );
  } finally {
    target?.close();
    await running.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await run('no webhook              ', 'none');
await run('receiver never answers  ', 'hanging');
await run('receiver answers at once', 'answering');
