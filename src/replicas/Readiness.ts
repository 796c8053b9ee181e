/**
 * Whether this process should get traffic, told apart from whether it lives:
 *
 * - catching-up: since start, until the read models (and audit indexes) have first
 *   reached the log's head as it was then. Not ready.
 * - ready: caught up once, and now at most `maxLagEvents` behind the log's head with
 *   no event waiting longer than `maxLagMs` to be applied. A write burst makes the
 *   read models fall a few events behind for a moment; that stays ready, so readiness
 *   does not flap under write load.
 * - lagging: more behind than that. Not ready until it is back within the bounds.
 *
 * How long an event has waited is measured without a timer: when the read models are
 * behind, the head seen then is noted with the time; the wait lasts until they reach
 * that head (then the next head seen is noted). Probes come often enough for that.
 */
export interface ReadinessBounds {
  maxLagEvents: number;
  maxLagMs: number;
}

export interface ReadinessReport {
  ready: boolean;
  phase: 'catching-up' | 'ready' | 'lagging';
  /** Last position applied to the read models. */
  position: number;
  /** The log's head as this process knows it. */
  head: number;
  lag: number;
  /** How long the oldest unapplied event seen has waited, in seconds (0 when caught up). */
  behindSeconds: number;
}

export class Readiness {
  private caughtUp = false;
  private waiting: { target: number; since: number } | null = null;

  constructor(
    private readonly positionOf: () => number,
    private readonly headOf: () => number,
    private readonly bounds: ReadinessBounds,
    private readonly now: () => number = Date.now,
  ) {}

  /** The first catch-up after start is done. */
  markCaughtUp(): void {
    this.caughtUp = true;
  }

  get isCaughtUp(): boolean {
    return this.caughtUp;
  }

  report(): ReadinessReport {
    const position = this.positionOf();
    const head = Math.max(this.headOf(), position);
    const lag = head - position;
    const behindMs = this.behind(position, head);
    const behindSeconds = Math.round(behindMs / 100) / 10;
    if (!this.caughtUp) return { ready: false, phase: 'catching-up', position, head, lag, behindSeconds };
    const ready = lag <= this.bounds.maxLagEvents && behindMs <= this.bounds.maxLagMs;
    return { ready, phase: ready ? 'ready' : 'lagging', position, head, lag, behindSeconds };
  }

  private behind(position: number, head: number): number {
    const now = this.now();
    if (position >= head) {
      this.waiting = null;
      return 0;
    }
    if (this.waiting === null || position >= this.waiting.target) this.waiting = { target: head, since: now };
    return now - this.waiting.since;
  }
}
