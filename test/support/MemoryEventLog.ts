import type { ChangeEvent } from '../../src/events/ChangeEvent.js';
import type { EventLog, Subscription } from '../../src/events/EventLog.js';
import { assertValidEvents } from '../../src/events/validateEvents.js';

/**
 * What a MemoryEventLog "persists": its committed batches. A second log opened on the
 * same storage plays a restarted process.
 */
export class MemoryEventStorage {
  readonly batches: ChangeEvent[][] = [];

  head(): number {
    return this.batches.at(-1)?.at(-1)?.position ?? 0;
  }
}

/**
 * The EventLog port kept in memory, for tests of the write side that need no disk.
 * It keeps the adapters' rules (schema-checked, dense positions, atomic batches,
 * ordered delivery) so a decision that a real log would refuse is refused here too.
 * Batches are stored as JSON copies: a caller mutating an event after appending it
 * changes nothing, as with a real log.
 */
export class MemoryEventLog implements EventLog {
  private state: 'new' | 'open' | 'closed' = 'new';
  private readonly subscriptions = new Set<MemorySubscription>();
  /** Successful append() calls made through this instance. */
  appends = 0;

  constructor(readonly storage: MemoryEventStorage = new MemoryEventStorage()) {}

  async open(): Promise<void> {
    if (this.state !== 'new') throw new Error(`MemoryEventLog.open(): log is ${this.state}`);
    this.state = 'open';
  }

  head(): number {
    return this.storage.head();
  }

  append(events: ChangeEvent[]): Promise<void> {
    try {
      if (this.state !== 'open') throw new Error(`MemoryEventLog.append(): log is ${this.state}`);
      if (!Array.isArray(events) || events.length === 0)
        throw new Error('MemoryEventLog.append(): a batch needs at least one event');
      assertValidEvents(events);
      const first = this.head() + 1;
      events.forEach((event, i) => {
        if (event.position !== first + i) {
          throw new Error(
            `MemoryEventLog.append(): positions must continue the log: expected ${first + i}, got ${event.position}`,
          );
        }
      });
      this.storage.batches.push(copyOf(events));
      this.appends++;
      for (const subscription of this.subscriptions) subscription.signal();
      return Promise.resolve();
    } catch (error) {
      return Promise.reject(error);
    }
  }

  async readPositions(positions: readonly number[]): Promise<ChangeEvent[]> {
    if (this.state !== 'open') throw new Error(`MemoryEventLog.readPositions(): log is ${this.state}`);
    const head = this.head();
    const byPosition = new Map<number, ChangeEvent>();
    for (const batch of this.storage.batches) for (const event of batch) byPosition.set(event.position, event);
    return positions.map((p) => {
      const event = Number.isInteger(p) && p >= 1 && p <= head ? byPosition.get(p) : undefined;
      if (!event) throw new RangeError(`no event at position ${p} (head ${head})`);
      return copyOf([event])[0]!;
    });
  }

  async *read(from: number): AsyncIterable<ChangeEvent[]> {
    for (const batch of [...this.storage.batches]) {
      const part = batch.filter((e) => e.position >= from);
      if (part.length > 0) yield copyOf(part);
    }
  }

  subscribe(from: number, onBatch: (events: ChangeEvent[]) => Promise<void>): Subscription {
    const subscription = new MemorySubscription(this.storage, from, onBatch, () =>
      this.subscriptions.delete(subscription),
    );
    this.subscriptions.add(subscription);
    subscription.start();
    return subscription;
  }

  async close(): Promise<void> {
    this.state = 'closed';
    await Promise.all([...this.subscriptions].map((s) => s.stop()));
  }
}

class MemorySubscription implements Subscription {
  readonly caughtUp: Promise<void>;
  private resolveCaughtUp!: () => void;
  private rejectCaughtUp!: (error: unknown) => void;
  private readonly target: number;
  private delivered: number;
  private stopped = false;
  private inCallback = false;
  private wake: (() => void) | null = null;
  private loop: Promise<void> = Promise.resolve();

  constructor(
    private readonly storage: MemoryEventStorage,
    from: number,
    private readonly onBatch: (events: ChangeEvent[]) => Promise<void>,
    private readonly forget: () => void,
  ) {
    this.delivered = Math.max(from, 1) - 1;
    this.target = storage.head();
    this.caughtUp = new Promise<void>((resolve, reject) => {
      this.resolveCaughtUp = resolve;
      this.rejectCaughtUp = reject;
    });
    this.caughtUp.catch(() => undefined); // nobody may be waiting for it
  }

  start(): void {
    this.loop = this.run().catch((error) => this.rejectCaughtUp(error));
  }

  signal(): void {
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }

  async stop(): Promise<void> {
    if (!this.stopped) {
      this.stopped = true;
      this.forget();
      this.signal();
    }
    if (!this.inCallback) await this.loop;
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      if (this.delivered >= this.target) this.resolveCaughtUp();
      const batch = this.storage.batches.find((b) => b.at(-1)!.position > this.delivered);
      if (!batch) {
        await new Promise<void>((resolve) => (this.wake = resolve));
        continue;
      }
      const part = copyOf(batch.filter((e) => e.position > this.delivered));
      this.inCallback = true;
      try {
        await this.onBatch(part);
      } finally {
        this.inCallback = false;
      }
      this.delivered = part.at(-1)!.position;
    }
  }
}

function copyOf(events: ChangeEvent[]): ChangeEvent[] {
  return JSON.parse(JSON.stringify(events)) as ChangeEvent[];
}
