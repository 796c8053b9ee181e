/**
 * Runs the benchmarks (every bench/*.bench.ts: api, eventLog, readStore first) one after the other, each in its own child process (a fresh
 * heap, no JIT or GC state carried over), and prints their output as it comes.
 *
 *   npm run bench                   # all of them
 *   npm run bench -- api readStore  # only those whose file name contains one of the words
 *
 * The environment is passed through (SITES, IPS, EVENTS, ... scale them down). The
 * headline figures the benchmarks report (bench/figures.ts) close the run as one table.
 * Exits non-zero if any benchmark failed; the others still run.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

import { figureTable } from './figures.js';

const here = path.dirname(fileURLToPath(import.meta.url));
/** These first, in this order; any other bench/*.bench.ts after them, by name. */
const FIRST = ['api.bench.ts', 'eventLog.bench.ts', 'readStore.bench.ts'];
const found = readdirSync(here).filter((f) => f.endsWith('.bench.ts'));
const BENCHES = [...FIRST.filter((f) => found.includes(f)), ...found.filter((f) => !FIRST.includes(f)).sort()];
const filters = process.argv.slice(2);
const selected = filters.length ? BENCHES.filter((b) => filters.some((f) => b.includes(f))) : BENCHES;
if (selected.length === 0) {
  console.error(`no benchmark matches ${filters.join(', ')}; known: ${BENCHES.join(', ')}`);
  process.exit(2);
}

function run(file: string): Promise<number> {
  return new Promise((resolve) => {
    // Same node, with tsx's loader, like `npx tsx <file>` without the npx round trip.
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(here, file)], {
      cwd: path.dirname(here),
      env: { ...process.env, BENCH_FIGURES: figuresFile },
      stdio: 'inherit',
    });
    child.on('error', (error) => {
      console.error(`${file}: ${error.message}`);
      resolve(1);
    });
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 128 + (os.constants.signals[signal] ?? 0) : 1)));
  });
}

const figuresDir = mkdtempSync(path.join(os.tmpdir(), 'netledger-bench-'));
const figuresFile = path.join(figuresDir, 'figures.jsonl');
console.log(
  `netledger benchmarks: ${selected.join(', ')} (node ${process.version}, ${os.cpus().length} CPUs, ${new Date().toISOString()})`,
);
const outcomes: string[] = [];
for (const file of selected) {
  console.log(`\n=== ${file} ${'='.repeat(Math.max(3, 70 - file.length))}`);
  const t0 = performance.now();
  const code = await run(file);
  const seconds = ((performance.now() - t0) / 1000).toFixed(1);
  outcomes.push(`${file}: ${code === 0 ? 'ok' : `FAILED (exit ${code})`} in ${seconds} s`);
}
console.log(`\n=== summary ${'='.repeat(62)}`);
for (const line of outcomes) console.log(line);
const table = figureTable(figuresFile);
if (table.length > 0) {
  console.log(`\n=== figures ${'='.repeat(62)}`);
  for (const line of table) console.log(line);
}
rmSync(figuresDir, { recursive: true, force: true });
process.exit(outcomes.some((o) => o.includes('FAILED')) ? 1 : 0);
