interface Waiter {
  position: number;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * Promises that a follower of the log (the projector, the audit index) has reached a
 * position, settled as it advances or when it fails. A wait whose signal aborts is
 * dropped at once: a read that gave up waiting (its bound ran out, for a position that
 * may never come) must not leave a waiter behind for every such request.
 */
export class PositionWaiters {
  private waiting: Waiter[] = [];

  /** Resolves once `reached` is called with `position` or later; rejects with `failAll`'s error, or with the signal's reason when it aborts. */
  wait(position: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise<void>((resolve, reject) => {
      const giveUp = () => {
        this.waiting = this.waiting.filter((w) => w !== waiter);
        reject(signal!.reason);
      };
      const waiter: Waiter = {
        position,
        resolve: () => (signal?.removeEventListener('abort', giveUp), resolve()),
        reject: (error) => (signal?.removeEventListener('abort', giveUp), reject(error)),
      };
      signal?.addEventListener('abort', giveUp, { once: true });
      this.waiting.push(waiter);
    });
  }

  /** Settles every wait for `position` or earlier. */
  reached(position: number): void {
    if (this.waiting.length === 0) return;
    const ready = this.waiting.filter((w) => w.position <= position);
    this.waiting = this.waiting.filter((w) => w.position > position);
    for (const w of ready) w.resolve();
  }

  /** Rejects every wait: the follower stopped. */
  failAll(error: unknown): void {
    for (const w of this.waiting.splice(0)) w.reject(error);
  }

  /** Waits not yet settled. */
  get size(): number {
    return this.waiting.length;
  }
}
