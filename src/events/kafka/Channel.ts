/**
 * A one-slot hand-over between the consumer callback and an async iterator: put()
 * resolves only once the item is taken, so a slow reader slows the consumer down.
 */
export class Channel<T> {
  private readonly items: { value: T; taken: () => void }[] = [];
  private ended = false;
  private closed = false;
  private error: Error | undefined;
  private wake: (() => void) | undefined;

  /** Resolves once the item is taken (or the channel is closed): back-pressure on the consumer. */
  put(value: T): Promise<void> {
    if (this.closed) return Promise.resolve();
    return new Promise<void>((taken) => {
      this.items.push({ value, taken });
      this.notify();
    });
  }

  end(): void {
    this.ended = true;
    this.notify();
  }

  fail(error: Error): void {
    this.error ??= error;
    this.notify();
  }

  /** The next item, or undefined at the end. */
  async take(): Promise<T | undefined> {
    for (;;) {
      const item = this.items.shift();
      if (item) {
        item.taken();
        return item.value;
      }
      if (this.error) throw this.error;
      if (this.ended || this.closed) return undefined;
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }

  close(): void {
    this.closed = true;
    for (const item of this.items.splice(0)) item.taken();
    this.notify();
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }
}
