import type { ChangeEvent } from '../ChangeEvent.js';
import { Deferred } from '../Deferred.js';
import type { Subscription } from '../EventLog.js';

/** A subscriber buffers at most this many live batches; beyond that it catches up from disk. */
const MAX_LIVE_BUFFER = 1024;

/** What a subscription needs of the log it follows. */
export interface SubscriptionHost {
  head(): number;
  read(from: number): AsyncIterable<ChangeEvent[]>;
  remove(sub: FileSubscription): void;
}

/** What a log keeps for its subscribers: its head and reads, and the set they are delivered from. */
export interface SubscribedLog {
  head(): number;
  readFrom(from: number): AsyncIterable<ChangeEvent[]>;
  readonly subscriptions: Set<FileSubscription>;
}

/** A started subscription of `log` from `from` (at least 1), registered with it until it stops. */
export function subscribeTo(
  log: SubscribedLog,
  from: number,
  onBatch: (events: ChangeEvent[]) => Promise<void>,
): FileSubscription {
  const sub = new FileSubscription(
    { head: () => log.head(), read: (pos) => log.readFrom(pos), remove: (s) => log.subscriptions.delete(s) },
    Math.max(1, Math.floor(from)),
    log.head(),
    onBatch,
  );
  log.subscriptions.add(sub);
  sub.start();
  return sub;
}

/**
 * One subscriber of the file log. Existing batches come from disk, live ones from the
 * commit path (push()); positions are used to drop duplicates, and a gap in the live
 * buffer (or a buffer overflow for a slow subscriber) falls back to reading from disk,
 * so delivery is gap-free.
 */
export class FileSubscription implements Subscription {
  readonly caughtUp: Promise<void>;
  /** Settles when delivery has ended: resolves after stop(), rejects if onBatch or a read failed. */
  readonly done: Promise<void>;
  private readonly caughtUpSignal = new Deferred();
  private readonly doneSignal = new Deferred();
  private isCaughtUp = false;
  /** Last position handed to onBatch. */
  private delivered: number;
  private live: ChangeEvent[][] = [];
  private stopped = false;
  private wake: (() => void) | null = null;
  private inCallback = false;
  private loop: Promise<void> = Promise.resolve();

  constructor(
    private readonly host: SubscriptionHost,
    from: number,
    private readonly target: number,
    private readonly onBatch: (events: ChangeEvent[]) => Promise<void>,
  ) {
    this.delivered = from - 1;
    this.caughtUp = this.caughtUpSignal.promise;
    this.done = this.doneSignal.promise;
  }

  /** Starts the delivery loop (called once by the log after registering the subscription). */
  start(): void {
    this.loop = this.run().then(this.doneSignal.resolve, this.doneSignal.reject);
  }

  /** Called by the log for every committed batch (in commit order). */
  push(batch: ChangeEvent[]): void {
    if (this.stopped) return;
    if (this.live.length >= MAX_LIVE_BUFFER) this.live = []; // too slow: catch up from disk instead
    this.live.push(batch);
    this.signal();
  }

  /**
   * Ends delivery; resolves once the loop has ended (after a running onBatch returns).
   * Called from inside onBatch it resolves at once instead of waiting for itself.
   */
  async stop(): Promise<void> {
    if (!this.stopped) {
      this.stopped = true;
      this.live = [];
      this.host.remove(this);
      this.signal();
    }
    if (!this.inCallback) await this.loop.catch(() => undefined);
  }

  private signal(): void {
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }

  private checkCaughtUp(): void {
    if (!this.isCaughtUp && this.delivered >= this.target) {
      this.isCaughtUp = true;
      this.caughtUpSignal.resolve();
    }
  }

  private async run(): Promise<void> {
    try {
      this.checkCaughtUp();
      while (!this.stopped) {
        if (this.delivered >= this.host.head()) {
          await new Promise<void>((resolve) => {
            this.wake = resolve;
          });
          continue;
        }
        const batch = this.takeLive();
        if (batch) {
          await this.deliver(batch);
          continue;
        }
        // Behind, and the live buffer does not continue where we are: read from disk
        // until the live buffer can take over (or the disk has nothing more).
        for await (const b of this.host.read(this.delivered + 1)) {
          if (this.stopped) break;
          await this.deliver(b);
          this.pruneLive();
          if (this.live.length > 0 && this.live[0]![0]!.position <= this.delivered + 1) break;
        }
      }
      if (!this.isCaughtUp) {
        this.isCaughtUp = true;
        this.caughtUpSignal.reject(new Error('subscription stopped before it caught up'));
      }
    } catch (err) {
      this.stopped = true;
      this.host.remove(this);
      if (!this.isCaughtUp) {
        this.isCaughtUp = true;
        this.caughtUpSignal.reject(err as Error);
      }
      throw err;
    }
  }

  private async deliver(batch: ChangeEvent[]): Promise<void> {
    this.inCallback = true;
    try {
      await this.onBatch(batch);
    } finally {
      this.inCallback = false;
    }
    this.delivered = batch[batch.length - 1]!.position;
    this.checkCaughtUp();
  }

  /** Drops buffered batches that were already delivered (e.g. read from disk meanwhile). */
  private pruneLive(): void {
    let drop = 0;
    while (drop < this.live.length && this.live[drop]!.at(-1)!.position <= this.delivered) drop++;
    if (drop > 0) this.live.splice(0, drop);
  }

  /** The next buffered batch continuing `delivered` (its tail if it straddles), or null on a gap. */
  private takeLive(): ChangeEvent[] | null {
    this.pruneLive();
    const batch = this.live[0];
    if (batch === undefined) return null;
    const first = batch[0]!.position;
    if (first > this.delivered + 1) return null;
    this.live.shift();
    return first === this.delivered + 1 ? batch : batch.slice(this.delivered + 1 - first);
  }
}
