/**
 * How long a bulk write holds the event loop, and so every read: bulk creates of 1,000 IP
 * addresses while a GET of one site is polled every ~5 ms. Per round it prints the bulk
 * request's wall time, the longest event-loop block during it (perf_hooks'
 * monitorEventLoopDelay, 1 ms resolution), the most CPU the process spent between two
 * ticks of a 1 ms timer (the same block in CPU time, all threads: on a shared machine the wall
 * figure also counts the time the process waited for a core) and the longest wait for a GET,
 * from when it was due; then the worst.
 *
 *   npx tsx bench/bulkStall.bench.ts        (or: npm run bench -- bulkStall)
 *
 * Env: ROUNDS (5 bulk creates), ITEMS (1000 addresses each). The service runs in this
 * process, so a block of the service is a block of the poller too: the GET's latency is
 * what a client's read waits for.
 */
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';

import { reportFigure } from './figures.js';
import { api, cpuMs, HEADERS, startBenchService } from './inProcessService.js';

const ROUNDS = Number(process.env.ROUNDS ?? 5);
const ITEMS = Number(process.env.ITEMS ?? 1000);

const service = await startBenchService('bulkStall');
const url = service.url;
try {
  const site = await api(url, 'POST', '/api/dcim/sites/', { name: 'polled', slug: 'polled' });
  // Warm up the write and read paths (schema compiles, JIT) before anything is timed.
  await api(
    url,
    'POST',
    '/api/ipam/ip-addresses/',
    Array.from({ length: 100 }, (_, i) => ({ address: `192.168.0.${i}/24` })),
  );
  for (let i = 0; i < 20; i++) await api(url, 'GET', `/api/dcim/sites/${site.id}/`);

  const worst = { block: 0, cpu: 0, get: 0 };
  console.log('round | bulk wall ms | max loop block ms | max CPU ms between ticks | max GET ms | GETs');
  for (let round = 0; round < ROUNDS; round++) {
    const body = Array.from({ length: ITEMS }, (_, i) => ({
      address: `10.${round}.${i >> 8}.${i & 255}/16`,
      status: 'active',
    }));
    const delay = monitorEventLoopDelay({ resolution: 1 });
    let polling = true;
    let maxGet = 0;
    let gets = 0;
    // A client that wants a read every 5 ms: its wait counts from when it meant to ask (a blocked
    // loop also delays the asking), to the answer.
    const poller = (async () => {
      let due = performance.now();
      while (polling) {
        const response = await fetch(`${url}/api/dcim/sites/${site.id}/`, { headers: HEADERS });
        await response.arrayBuffer();
        const answered = performance.now();
        maxGet = Math.max(maxGet, answered - due);
        gets++;
        due = Math.max(due + 5, answered);
        await sleep(Math.max(0, due - performance.now()));
      }
    })();
    await sleep(50); // the poller is under way before the write starts
    delay.enable();
    let maxCpu = 0;
    let lastCpu = cpuMs();
    const ticker = setInterval(() => {
      const now = cpuMs();
      maxCpu = Math.max(maxCpu, now - lastCpu);
      lastCpu = now;
    }, 1);
    const t0 = performance.now();
    await api(url, 'POST', '/api/ipam/ip-addresses/', body);
    const wall = performance.now() - t0;
    await sleep(50); // what follows the answer (projection, webhooks, audit) counts too
    clearInterval(ticker);
    delay.disable();
    polling = false;
    await poller;
    const block = delay.max / 1e6;
    worst.block = Math.max(worst.block, block);
    worst.cpu = Math.max(worst.cpu, maxCpu);
    worst.get = Math.max(worst.get, maxGet);
    console.log(
      `${round + 1} | ${wall.toFixed(0)} | ${block.toFixed(1)} | ${maxCpu.toFixed(1)} | ${maxGet.toFixed(1)} | ${gets}`,
    );
  }
  console.log(
    `worst of ${ROUNDS}: loop block ${worst.block.toFixed(1)} ms, CPU between ticks ${worst.cpu.toFixed(1)} ms, ` +
      `GET ${worst.get.toFixed(1)} ms (${ITEMS} items a request)`,
  );
  reportFigure({
    name: `longest event-loop block, bulk create of ${ITEMS} IPs`,
    value: `${worst.block.toFixed(0)} ms`,
    target: '≤ 50 ms',
    met: worst.block <= 50,
  });
} finally {
  await service.stop();
}
