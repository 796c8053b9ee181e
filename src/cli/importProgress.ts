/**
 * import-netbox's progress on stderr: on a terminal a bar per model with counts and an
 * ETA (from that model's own rate so far); otherwise one plain line per model and phase.
 */
import type { ImportProgress } from '../migration/importNetbox.js';
import { formatCount, ProgressBar } from './progress.js';

export function importProgress(out: NodeJS.WriteStream = process.stderr): ImportProgress {
  const tty = Boolean(out.isTTY);
  let bar: { key: string; bar: ProgressBar; started: number } | null = null;
  const draw = (verb: string, model: string, done: number, total: number) => {
    if (!tty) return;
    const key = `${verb} ${model}`;
    if (bar?.key !== key) bar = { key, bar: new ProgressBar(`${verb} ${model.padEnd(34)}`, out), started: Date.now() };
    const seconds = (Date.now() - bar.started) / 1000;
    const eta = done > 0 && done < total ? ` ETA ${Math.ceil(((total - done) * seconds) / done)} s` : '';
    bar.bar.update(total > 0 ? done / total : 1, `${formatCount(done)}/${formatCount(total)}${eta}`);
  };
  const finish = (verb: string, model: string, count: number) => {
    const seconds = bar?.key === `${verb} ${model}` ? (Date.now() - bar.started) / 1000 : 0;
    const summary = `${formatCount(count)} objects${seconds ? ` in ${seconds.toFixed(1)} s` : ''}`;
    if (tty && bar?.key === `${verb} ${model}`) {
      bar.bar.done(summary);
      bar = null;
    } else if (tty) {
      // Models are read several at once: another's bar may be on this line; it is redrawn at its next count.
      out.write(`\r${verb} ${model}: ${summary}\x1b[K\n`);
    } else {
      out.write(`${verb} ${model}: ${summary}\n`);
    }
  };
  return {
    reading: (model, read, total) => draw('read', model, read, total),
    read: (model, count) => finish('read', model, count),
    writing: (model, written, total) => draw('write', model, written, total),
    wrote: (model, count) => finish('write', model, count),
    phase: (text) => void out.write(`${text}\n`),
  };
}
