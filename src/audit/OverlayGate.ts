import { performance } from 'node:perf_hooks';

import { PastStatesBusyError } from './PastStates.js';

export interface OverlayGateLimits {
  /** Past versions from which an overlay counts as large (one at a time). */
  largeVersions: number;
  /** Large overlays that may wait while one runs; more are refused as busy. */
  maxQueued: number;
}

const DEFAULT_LIMITS: OverlayGateLimits = { largeVersions: 20_000, maxQueued: 4 };

/**
 * Past views (PastView) overlay the past versions of what changed since their position at
 * their first read of a collection: in the middle of a long history that is hundreds of
 * thousands of versions read from the log, seconds of work. Large overlays take turns, one
 * at a time, a bounded number waiting; beyond that a request is refused as busy (503 with
 * Retry-After, as past states' replays are) rather than piling more work onto the service.
 * Small overlays (most reads near the head of the log) pass straight through.
 */
export class OverlayGate {
  private running = false;
  private readonly waiting: Array<() => void> = [];
  private lastMs = 0;

  constructor(private readonly limits: OverlayGateLimits = DEFAULT_LIMITS) {}

  async run<T>(versions: number, work: () => Promise<T>): Promise<T> {
    if (versions < this.limits.largeVersions) return work();
    if (this.running) {
      if (this.waiting.length >= this.limits.maxQueued) {
        const perOverlay = Math.max(1, Math.ceil(this.lastMs / 1000));
        throw new PastStatesBusyError(perOverlay * (this.waiting.length + 1));
      }
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
    this.running = true;
    const started = performance.now();
    try {
      return await work();
    } finally {
      this.lastMs = performance.now() - started;
      const next = this.waiting.shift();
      // The next waiter runs as the holder: `running` stays set for it.
      if (next) next();
      else this.running = false;
    }
  }
}
