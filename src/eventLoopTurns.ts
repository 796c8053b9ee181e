/**
 * Long loops on the main thread (a bulk request's items, a batch's events) give the event
 * loop a turn now and then, so reads and health checks are not held for the whole loop:
 * 1,000 items decided in one go held every read for 100-500 ms.
 */
import { performance } from 'node:perf_hooks';

/** Longest stretch of work between two turns, in milliseconds. */
export const SLICE_MS = 8;

/** One turn of the event loop: pending I/O callbacks and timers run before the caller resumes. */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** Measures a loop's work in slices: `due()` once the current slice is used up, `pause()` gives the turn. */
export class TurnBudget {
  private sliceStart = performance.now();

  constructor(private readonly sliceMs = SLICE_MS) {}

  /** Whether the slice is used up (cheap: call it per item). */
  due(): boolean {
    return performance.now() - this.sliceStart >= this.sliceMs;
  }

  /** Gives the event loop a turn and starts a new slice. */
  async pause(): Promise<void> {
    await nextTurn();
    this.sliceStart = performance.now();
  }
}
