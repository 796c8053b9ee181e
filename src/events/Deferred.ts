/**
 * A promise settled from outside, for a subscription's `caughtUp` and `done`. A
 * rejection nobody awaits is handled (callers need not await either promise), so it
 * never crashes the process; whoever awaits `promise` still sees it.
 */
export class Deferred<T = void> {
  readonly promise: Promise<T>;
  private settle!: { resolve: (value: T) => void; reject: (error: Error) => void };

  constructor() {
    this.promise = new Promise<T>((resolve, reject) => (this.settle = { resolve, reject }));
    this.promise.catch(() => undefined);
  }

  readonly resolve = (value: T): void => this.settle.resolve(value);
  readonly reject = (error: Error): void => this.settle.reject(error);
}
