/**
 * A progress bar on stderr: redrawn in place on a terminal (at most 10 times a
 * second), one line per 10% otherwise (CI logs, pipes).
 */
export class ProgressBar {
  private lastDraw = 0;
  private lastStep = -1;
  private readonly tty: boolean;

  constructor(
    private readonly label: string,
    private readonly out: NodeJS.WriteStream = process.stderr,
    private readonly width = 30,
  ) {
    this.tty = Boolean(out.isTTY);
  }

  update(fraction: number, detail = ''): void {
    const f = Math.max(0, Math.min(1, Number.isFinite(fraction) ? fraction : 0));
    const now = Date.now();
    if (this.tty) {
      if (now - this.lastDraw < 100 && f < 1) return;
      this.lastDraw = now;
      const filled = Math.round(f * this.width);
      const bar = '#'.repeat(filled) + '-'.repeat(this.width - filled);
      this.out.write(`\r${this.label} [${bar}] ${(f * 100).toFixed(1).padStart(5)}% ${detail}\x1b[K`);
    } else {
      const step = Math.floor(f * 10);
      if (step === this.lastStep) return;
      this.lastStep = step;
      this.out.write(`${this.label} ${step * 10}% ${detail}\n`);
    }
  }

  done(summary: string): void {
    if (this.tty) this.out.write(`\r${this.label} [${'#'.repeat(this.width)}] 100.0% ${summary}\x1b[K\n`);
    else this.out.write(`${this.label} done: ${summary}\n`);
  }
}

export const formatCount = (n: number) => Math.round(n).toLocaleString('en-US');
