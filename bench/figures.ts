/**
 * A benchmark's headline figures, gathered by `npm run bench` (bench/run.ts) into one
 * closing table across every benchmark it ran. run.ts names a file in BENCH_FIGURES;
 * each figure is a JSON line appended to it. Run alone, a benchmark prints its own output
 * and reports nowhere.
 */
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

export interface Figure {
  /** What is measured, as the performance issue's table names it. */
  name: string;
  /** The measurement, with its unit ("2,673 req/s", "0.38 ms"). */
  value: string;
  /** The target it is held against, if any ("≥ 10,000 req/s"). */
  target?: string;
  /** Whether the target is met (left out when there is none or it cannot be judged). */
  met?: boolean;
}

interface Recorded extends Figure {
  bench: string;
}

export function reportFigure(figure: Figure): void {
  const file = process.env.BENCH_FIGURES;
  if (!file) return;
  const bench = path.basename(process.argv[1] ?? 'bench').replace(/\.bench\.ts$/, '');
  appendFileSync(file, `${JSON.stringify({ bench, ...figure } satisfies Recorded)}\n`);
}

/** The figures recorded in the file, as a table's lines (empty when none). */
export function figureTable(file: string): string[] {
  if (!existsSync(file)) return [];
  const figures = readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Recorded);
  if (figures.length === 0) return [];
  const rows = figures.map((f) => [
    f.name,
    f.value,
    f.target ?? '',
    f.met === undefined ? '' : f.met ? 'met' : 'NOT met',
    f.bench,
  ]);
  const header = ['figure', 'measured', 'target', '', 'bench'];
  const widths = header.map((h, c) => Math.max(h.length, ...rows.map((r) => r[c]!.length)));
  const line = (r: string[]) =>
    r
      .map((v, c) => v.padEnd(widths[c]!))
      .join('  ')
      .trimEnd();
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)];
}
