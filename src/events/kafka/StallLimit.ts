/**
 * A time limit on a read that counts only while the read waits for the broker: a read of
 * much history may take long while messages keep coming, but one whose partition leader is
 * unreachable receives nothing and, without a limit, would wait until the broker is back.
 * Time the reader's caller spends with what came (a slow replay) does not count.
 */
export class StallLimit {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly ms: number,
    private readonly onStalled: () => void,
  ) {}

  /** Waiting for the broker from now on: counts from zero. */
  wait(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.onStalled();
    }, this.ms);
  }

  /** Something came from the broker: counts from zero again, if counting. */
  progress(): void {
    if (this.timer !== undefined) this.wait();
  }

  /** Not waiting for the broker (the caller holds what came, or the read is over). */
  pause(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}
