/**
 * Whether this process should get traffic, told apart from whether it lives:
 *
 * - catching-up: since start, until the read models (and audit indexes) have first
 *   reached the log's head as it was then. Not ready.
 * - ready: caught up once, and now at most `maxLagEvents` behind the log's head with
 *   no event waiting longer than `maxLagMs` to be applied. A write burst makes the
 *   read models fall a few events behind for a moment; that stays ready, so readiness
 *   does not flap under write load.
 * - lagging: more behind than that. Ready again only once within half of each bound, so
 *   that a lag hovering at a bound does not flip readiness at every probe.
 * - log-unreachable: the log's head has not been confirmed with its source for longer than
 *   `maxLagMs` (a Kafka follower that cannot reach the cluster). The head it knows may be
 *   stale, so "no lag" means nothing: the writer may have moved on. Ready again once
 *   confirmed within half the bound, as for lagging.
 *
 * How long an event has waited is measured without a timer, at each report: the heads
 * seen at earlier reports are kept with the time each was first seen, until applied; the
 * oldest one not yet applied tells how long the read models have been behind it. (Keeping
 * only one, and starting afresh each time it was reached, read a steady lag longer than
 * the probe interval as no lag at every few probes.)
 */
export interface ReadinessBounds {
  maxLagEvents: number;
  maxLagMs: number;
}

export interface ReadinessReport {
  ready: boolean;
  phase: 'catching-up' | 'ready' | 'lagging' | 'log-unreachable';
  /** Last position applied to the read models. */
  position: number;
  /** The log's head as this process knows it. */
  head: number;
  lag: number;
  /** How long the oldest unapplied event seen has waited, in seconds (0 when caught up). */
  behindSeconds: number;
  /** How long ago the log last confirmed its head with its source, in seconds (0 for a writer). */
  headAgeSeconds: number;
}

function toSeconds(ms: number): number {
  return Math.round(ms / 100) / 10;
}

/** Heads kept at most: a long stall seen by frequent probes merges its newest into the last. */
const MAX_SAMPLES = 64;

export class Readiness {
  private caughtUp = false;
  private lagging = false;
  private unreachable = false;
  /** Heads seen and not yet applied, oldest first, each with when it was first seen. */
  private samples: Array<{ head: number; since: number }> = [];

  constructor(
    private readonly positionOf: () => number,
    private readonly headOf: () => number,
    private readonly bounds: ReadinessBounds,
    private readonly now: () => number = Date.now,
    /** The log's headConfirmedAgoMs() (ms); logs that always know their head leave it at 0. */
    private readonly headAgeOf: () => number = () => 0,
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
    const behindSeconds = toSeconds(behindMs);
    const headAgeMs = this.headAgeOf();
    const measured = { position, head, lag, behindSeconds, headAgeSeconds: toSeconds(headAgeMs) };
    if (!this.caughtUp) return { ready: false, phase: 'catching-up', ...measured };
    // Each state is left only once within half of its bounds.
    const share = this.lagging ? 0.5 : 1;
    this.lagging = lag > this.bounds.maxLagEvents * share || behindMs > this.bounds.maxLagMs * share;
    this.unreachable = headAgeMs > this.bounds.maxLagMs * (this.unreachable ? 0.5 : 1);
    // Unreachable first: with a stale head the lag measured says nothing.
    const phase = this.unreachable ? 'log-unreachable' : this.lagging ? 'lagging' : 'ready';
    return { ready: phase === 'ready', phase, ...measured };
  }

  private behind(position: number, head: number): number {
    const now = this.now();
    while (this.samples.length > 0 && this.samples[0]!.head <= position) this.samples.shift();
    if (position >= head) return 0;
    const last = this.samples.at(-1);
    if (last === undefined || last.head < head) {
      if (last !== undefined && this.samples.length >= MAX_SAMPLES) last.head = head;
      else this.samples.push({ head, since: now });
    }
    return now - this.samples[0]!.since;
  }
}
