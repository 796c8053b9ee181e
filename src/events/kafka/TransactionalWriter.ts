import type { Message, Producer } from 'kafkajs';
import type { ChangeEvent } from '../ChangeEvent.js';
import { assertValidEvents } from '../validateEvents.js';
import { encode } from './messages.js';

/** The writer lost its transactional id to a newer writer (or the head could not be re-established). */
export class EventLogWriteError extends Error {}

/** Upper bound of one produce request inside a transaction (the broker's default limit is 1 MiB per record batch). */
const MAX_REQUEST_BYTES = 512 * 1024;
/** Upper bound of one group-committed transaction. */
const MAX_GROUP_EVENTS = 5_000;

interface PendingAppend {
  events: ChangeEvent[];
  resolve: () => void;
  reject: (error: unknown) => void;
}

export interface TransactionalWriterOptions {
  /** Connected, with its transactional id registered (older writers fenced). */
  readonly producer: Producer;
  readonly topic: string;
  readonly transactionalId: string;
  /** The last committed position read from the log, after the fencing. */
  readonly head: number;
  /** Reads the head from the log again (after a transaction whose outcome is unknown). */
  readonly findHead: () => Promise<number>;
}

/**
 * The write side of the Kafka log: each append is one Kafka transaction, so a
 * read_committed reader sees all of its events or none. Appends queued while a
 * transaction is in flight are committed together in the next one (group commit, in
 * call order), each keeping its own batch boundary. Once fenced by a newer writer with
 * the same transactional id, every append is refused for good.
 */
export class TransactionalWriter {
  private lastPosition: number;
  /** Set when a transaction failed ambiguously: re-read the head from the log before the next append. */
  private headUnknown = false;
  private fenced: Error | undefined;
  private readonly queue: PendingAppend[] = [];
  /** Cleared synchronously when the drain loop ends, so an append made right after never waits on a finished drain. */
  private draining = false;
  private writing: Promise<void> = Promise.resolve();

  constructor(private readonly options: TransactionalWriterOptions) {
    this.lastPosition = options.head;
  }

  /** The last position this writer committed or read from the log. */
  get head(): number {
    return this.lastPosition;
  }

  /** Validates the batch and queues it for the next transaction; resolves once committed. */
  append(events: ChangeEvent[]): Promise<void> {
    try {
      if (events.length === 0) throw new Error('KafkaEventLog: an append needs at least one event');
      assertValidEvents(events);
      for (let i = 1; i < events.length; i++) {
        if (events[i]!.position !== events[0]!.position + i) {
          throw new Error(`KafkaEventLog: positions in a batch must be dense (${events[i - 1]!.position} then ${events[i]!.position})`);
        }
      }
    } catch (error) {
      return Promise.reject(error);
    }
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ events: [...events], resolve, reject });
      if (!this.draining) {
        this.draining = true;
        this.writing = this.drain();
      }
    });
  }

  /** Commit queued appends, several per transaction when they queued up meanwhile, in call order. */
  private async drain(): Promise<void> {
    // The flag must be cleared in the same synchronous step as the loop's last check:
    // a caller resuming from its resolved append may append again right away.
    try {
      while (this.queue.length > 0) {
        const taken: PendingAppend[] = [];
        let count = 0;
        while (this.queue.length > 0 && (taken.length === 0 || count + this.queue[0]!.events.length <= MAX_GROUP_EVENTS)) {
          const next = this.queue.shift()!;
          taken.push(next);
          count += next.events.length;
        }

        if (this.fenced) {
          for (const p of taken) p.reject(this.fenced);
          continue;
        }
        if (this.headUnknown) {
          try {
            this.lastPosition = await this.options.findHead();
            this.headUnknown = false;
          } catch (error) {
            for (const p of taken) p.reject(error);
            continue;
          }
        }

        // Each append must continue the log exactly; a rejected one does not stop the others.
        const accepted: PendingAppend[] = [];
        let expected = this.lastPosition + 1;
        for (const p of taken) {
          const first = p.events[0]?.position ?? expected;
          if (first !== expected) {
            p.reject(new Error(`KafkaEventLog: batch starts at position ${first}, expected ${expected} (head ${expected - 1})`));
            continue;
          }
          accepted.push(p);
          expected += p.events.length;
        }
        if (accepted.length === 0) continue;

        try {
          await this.commit(accepted.map((p) => p.events));
          this.lastPosition = expected - 1;
          for (const p of accepted) p.resolve();
        } catch (error) {
          // A failed commit may still have been applied (e.g. a lost EndTxn response).
          this.headUnknown = true;
          if (isFencing(error)) {
            this.fenced = new EventLogWriteError(
              `KafkaEventLog: this writer was fenced by another one using transactional id '${this.options.transactionalId}'`,
            );
          }
          for (const p of accepted) p.reject(this.fenced ?? error);
        }
      }
    } finally {
      this.draining = false;
    }
  }

  /** Resolves once every queued append is committed or rejected. */
  async settle(): Promise<void> {
    while (this.draining) await this.writing;
  }

  /** One Kafka transaction holding every given batch. */
  private async commit(batches: ChangeEvent[][]): Promise<void> {
    const messages: Message[] = [];
    for (const batch of batches) {
      const last = batch.at(-1)?.position;
      for (const event of batch) messages.push(encode(event, last!));
    }
    if (messages.length === 0) return;

    const tx = await this.options.producer.transaction();
    try {
      let chunk: Message[] = [];
      let bytes = 0;
      for (const message of messages) {
        const size = (message.value as Buffer).length + 256;
        if (chunk.length > 0 && bytes + size > MAX_REQUEST_BYTES) {
          await tx.send({ topic: this.options.topic, acks: -1, messages: chunk });
          chunk = [];
          bytes = 0;
        }
        chunk.push(message);
        bytes += size;
      }
      await tx.send({ topic: this.options.topic, acks: -1, messages: chunk });
      await tx.commit();
    } catch (error) {
      if (tx.isActive()) await tx.abort().catch(() => undefined);
      throw error;
    }
  }
}

function isFencing(error: unknown): boolean {
  for (let e: unknown = error; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    // INVALID_PRODUCER_EPOCH (47) is what brokers answer the old request versions kafkajs
    // speaks; PRODUCER_FENCED (90) the newer ones. (47 also follows a transaction the broker
    // timed out; this writer then stops as well, and a restart takes over.)
    const { type, code } = e as { type?: unknown; code?: unknown };
    if (type === 'INVALID_PRODUCER_EPOCH' || type === 'PRODUCER_FENCED' || code === 47 || code === 90) return true;
  }
  return false;
}

