/**
 * `?as_of=` at the start, middle and end of a long log, over HTTP: the overlaid past views
 * (PastView, the default) against the replayed past states (PastStates, from the nearest
 * read-model snapshot). Not a test: run with
 * `node --expose-gc --import tsx bench/asOfView.bench.ts` (EVENTS=1000000 by default).
 *
 * Writes EVENTS site events over OBJECTS sites (bench/siteHistory.ts), starts the service on
 * them (it replays the log into its read models and writes read-model snapshots on the way),
 * then for each position and each way of reading the past:
 *  - a page: `GET /api/dcim/sites/?limit=50&as_of=P` at a position not read before (cold),
 *    then the same again (warm: the view or the replayed state is kept);
 *  - the page ordered by `-last_updated`, a field every change moves, at P+2 (cold): a past view
 *    then overlays every object changed since P, with its past last_updated from the audit index;
 *  - a single object's past: `GET /api/dcim/sites/<id>/?as_of=P+1` (a position not read before);
 * and the process's heap and RSS after the overlaid reads (after GC), and its peak RSS.
 *
 * Env: EVENTS (1000000), OBJECTS (250000), REPLAY=0 skips the replayed reads (the "before"),
 * KEEP=1 keeps the temp dir.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';

import { loadConfig } from '../src/config.js';
import { start } from '../src/main.js';
import { reportFigure } from './figures.js';
import { writeSiteHistoryLog } from './siteHistory.js';

const EVENTS = Number(process.env.EVENTS ?? 1_000_000);
const OBJECTS = Number(process.env.OBJECTS ?? 250_000);
const TOKEN = '0123456789abcdef0123456789abcdef01234567';
const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);
const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MiB`;

async function timedGet(url: string): Promise<{ ms: number; status: number; bytes: number }> {
  const t0 = performance.now();
  const response = await fetch(url, { headers: { Authorization: `Token ${TOKEN}` } });
  const body = await response.arrayBuffer();
  return { ms: performance.now() - t0, status: response.status, bytes: body.byteLength };
}

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'netledger-asof-view-bench-'));
  try {
    let t0 = performance.now();
    await writeSiteHistoryLog(dir, { events: EVENTS, objects: OBJECTS, withId: true });
    console.log(
      `log      ${fmt(EVENTS)} site events over ${fmt(OBJECTS)} sites, written in ${fmt(performance.now() - t0)} ms`,
    );
    t0 = performance.now();
    const running = await start(
      loadConfig({ DATA_DIR: dir, PORT: '0', HOST: '127.0.0.1', SUPERUSER_API_TOKEN: TOKEN, SECRET_KEY: 'bench' }),
      () => {},
    );
    const audit = running.services.audit!;
    try {
      await timedGet(`${running.url}/api/dcim/sites/?limit=1`);
      await audit.log.sync();
      const head = audit.log.head;
      console.log(
        `start-up ${fmt(performance.now() - t0)} ms (replay of the log into the read models), head ${fmt(head)}`,
      );
      const points = [
        ['start', 1_000],
        ['middle', Math.floor(head / 2)],
        ['end', head - 1_000],
      ] as const;
      const modes = process.env.REPLAY === '0' ? (['overlay'] as const) : (['overlay', 'replay'] as const);
      const worst = { overlay: { page: 0, single: 0 }, replay: { page: 0, single: 0 } };
      let overlayPeakRss = 0;
      let movedWorst = 0;
      let searchedWorst = 0;
      for (const mode of modes) {
        audit.pastReads = mode;
        for (const [label, position] of points) {
          // An object that existed at the position and changed after it (the history revisits sites).
          const id = Math.max(1, Math.floor(Math.min(position, OBJECTS) / 2));
          const page = await timedGet(`${running.url}/api/dcim/sites/?limit=50&as_of=${position}`);
          const again = await timedGet(`${running.url}/api/dcim/sites/?limit=50&as_of=${position}`);
          const single = await timedGet(`${running.url}/api/dcim/sites/${id}/?as_of=${position + 1}`);
          // Ordered by a field every change moves, at a position not read before (cold): each object
          // changed since is overlaid, with its past last_updated from the audit index (PastView.restamp).
          const moved = await timedGet(
            `${running.url}/api/dcim/sites/?limit=50&ordering=-last_updated&as_of=${position + 2}`,
          );
          // Filtered by a field every change moves (each update rewrites the description), cold:
          // every object changed since is read from the log at its version then (the bound left).
          const searched = await timedGet(
            `${running.url}/api/dcim/sites/?limit=50&q=${encodeURIComponent('version 12')}&as_of=${position + 3}`,
          );
          if (mode === 'overlay') {
            movedWorst = Math.max(movedWorst, moved.ms);
            searchedWorst = Math.max(searchedWorst, searched.ms);
          }
          worst[mode].page = Math.max(worst[mode].page, page.ms);
          worst[mode].single = Math.max(worst[mode].single, single.ms);
          console.log(
            `${mode.padEnd(7)} ${label.padEnd(6)} as_of=${fmt(position).padStart(9)}: page of 50 ${fmt(page.ms)} ms (${page.status}), ` +
              `again ${fmt(again.ms)} ms; site ${id} ${fmt(single.ms)} ms (${single.status}); ` +
              `by -last_updated ${fmt(moved.ms)} ms (${moved.status}); ` +
              `?q= over the description ${fmt(searched.ms)} ms (${searched.status})`,
          );
        }
        gc();
        if (mode === 'overlay') overlayPeakRss = process.resourceUsage().maxRSS * 1024;
        const memory = process.memoryUsage();
        console.log(
          `${mode.padEnd(7)} after its reads: heap ${mib(memory.heapUsed)}, RSS ${mib(memory.rss)}, peak RSS so far ${mib(process.resourceUsage().maxRSS * 1024)}`,
        );
      }
      audit.pastReads = 'overlay';
      reportFigure({
        name: `?as_of= page of 50 at the start, middle and end of ${fmt(head)} events (slowest, cold)`,
        value: `${fmt(worst.overlay.page)} ms`,
        target: '≤ 1 s',
        met: worst.overlay.page <= 1000,
      });
      reportFigure({
        name: `?as_of= one object's past at the start, middle and end of ${fmt(head)} events (slowest, cold)`,
        value: `${fmt(worst.overlay.single)} ms`,
        target: '≤ 100 ms',
        met: worst.overlay.single <= 100,
      });
      reportFigure({
        name: `?as_of= page of 50 ordered by a field every change moves (last_updated), slowest of the three (cold)`,
        value: `${fmt(movedWorst)} ms`,
        target: '≤ 1 s',
        met: movedWorst <= 1000,
      });
      reportFigure({
        name: `?as_of= page of 50 filtered (?q=) by a field every change moves (description), slowest of the three (cold)`,
        value: `${fmt(searchedWorst)} ms`,
        target: '≤ 1 s',
        met: searchedWorst <= 1000,
      });
      reportFigure({
        name: `peak RSS of the service with ${fmt(OBJECTS)} objects up to the end of the overlaid as_of reads`,
        value: mib(overlayPeakRss),
        target: '≤ 2 GB',
        met: overlayPeakRss <= 2 * 1024 ** 3,
      });
    } finally {
      await running.stop();
    }
  } finally {
    if (process.env.KEEP === '1') console.log(`kept ${dir}`);
    else fs.rmSync(dir, { recursive: true, force: true });
  }
}

await main();
