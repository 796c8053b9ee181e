import type { Message, Producer, RecordMetadata } from 'kafkajs';

import { AppendOutcomeUnknownError } from '../AppendOutcomeUnknownError.js';
import type { ChangeEvent } from '../ChangeEvent.js';
import { EventTooLargeError } from '../EventTooLargeError.js';
import { assertValidEvents } from '../validateEvents.js';
import { encode } from './messages.js';
import { transactionFailure } from './transactionFailure.js';

/** The writer lost its transactional id to a newer writer: final, only a restart takes over again. */
export class EventLogWriteError extends Error {}

/**
 * Appends refused for now while the log itself is consistent: a transaction failed and did
 * not commit (or its outcome could not be learnt yet). recover() re-establishes the writer.
 */
export class EventLogUnavailableError extends Error {}

/** Upper bound of one produce request inside a transaction (the broker's default limit is 1 MiB per record batch). */
const MAX_REQUEST_BYTES = 512 * 1024;
/** Upper bound of one group-committed transaction. */
const MAX_GROUP_EVENTS = 5_000;
/** A record batch of one record around the key, value and headers: batch header, record framing. */
const RECORD_OVERHEAD_BYTES = 128;
/** How long a failed transaction's appends wait for its outcome while the log cannot be read. */
const DEFAULT_OUTCOME_WAIT_MS = 30_000;
/** Pause between attempts to learn that outcome: doubles from the first up to the last. */
const OUTCOME_RETRY_FIRST_MS = 100;
const OUTCOME_RETRY_MAX_MS = 2_000;

interface PendingAppend {
  events: ChangeEvent[];
  resolve: () => void;
  reject: (error: unknown) => void;
}

export interface TransactionalWriterOptions {
  /**
   * A new producer, connected, with the transactional id registered (InitProducerId):
   * that fences older holders of the id and completes or aborts the id's open transaction,
   * so what the log holds afterwards is final.
   */
  readonly openProducer: () => Promise<Producer>;
  readonly topic: string;
  readonly transactionalId: string;
  /** The last committed event in the log (read_committed), or null for an empty log. */
  readonly findLast: () => Promise<ChangeEvent | null>;
  /**
   * The committed events at these positions, in the order asked, or null when the log ends
   * before the last of them; fails rather than waits without bound while the log cannot be read.
   */
  readonly readClaimed: (positions: number[]) => Promise<ChangeEvent[] | null>;
  /** The topic's max.message.bytes: a larger record is refused by the broker. */
  readonly maxMessageBytes: number;
  /** The producer's transaction timeout: a transaction open this long is aborted by the broker. */
  readonly transactionTimeoutMs: number;
  /**
   * How long the appends of a failed transaction wait for its outcome while the cluster
   * cannot be reached (default 30 s); then they are rejected as AppendOutcomeUnknownError.
   */
  readonly outcomeWaitMs?: number;
  /**
   * Whether a newer writer has taken over (the writer lease): asked before the id is
   * registered again after a failure, since registering would fence that writer. Rejects
   * when it cannot tell. Absent (no lease), the id is registered again unasked.
   */
  readonly supplanted?: () => Promise<boolean>;
  /**
   * Waits until a read_committed reader can see the committed record at `offset` (never
   * rejects; it gives up after a while). The broker answers a commit before its commit
   * markers are written, and until they are the partition's last stable offset leaves the
   * transaction out: an append resolved before then could not be read back at once.
   */
  readonly untilReadable?: (offset: bigint) => Promise<void>;
  readonly now?: () => number;
}

/**
 * The write side of the Kafka log: each append is one Kafka transaction, so a
 * read_committed reader sees all of its events or none. Appends queued while a
 * transaction is in flight are committed together in the next one (group commit, in
 * call order), each keeping its own batch boundary.
 *
 * A failed transaction never leaves the writer stuck: the producer is thrown away (the
 * client library leaves a producer whose commit failed unusable), a new one registers the
 * same transactional id, which settles the failed transaction on the broker, and the head
 * is read again from the log. The affected appends are then answered by what the log
 * holds: resolved if their last event is there, else rejected with
 * EventLogUnavailableError (and further appends are refused until recover(), because
 * the caller decided later writes on top of them). While the log cannot be read, they wait
 * for it (outcomeWaitMs), and are then rejected as AppendOutcomeUnknownError: never
 * answered as not committed when they may be. Only fencing by a newer writer is
 * final (EventLogWriteError), including a newer writer found in the lease before the id
 * would be registered again (refuseIfSupplanted()).
 */
export class TransactionalWriter {
  private lastPosition: number;
  private producer: Producer | null;
  private fenced: EventLogWriteError | undefined;
  private refused: EventLogUnavailableError | null = null;
  private readonly queue: PendingAppend[] = [];
  /** Cleared synchronously when the drain loop ends, so an append made right after never waits on a finished drain. */
  private draining = false;
  private writing: Promise<void> = Promise.resolve();
  private readonly now: () => number;
  /** close() was called: a failed transaction's outcome is not waited for any longer. */
  private closing = false;

  private constructor(
    private readonly options: TransactionalWriterOptions,
    producer: Producer,
    head: number,
  ) {
    this.producer = producer;
    this.lastPosition = head;
    this.now = options.now ?? Date.now;
  }

  /** Registers the transactional id (fencing older writers), then reads the head. */
  static async open(options: TransactionalWriterOptions): Promise<TransactionalWriter> {
    const producer = await options.openProducer();
    try {
      const last = await options.findLast();
      return new TransactionalWriter(options, producer, last?.position ?? 0);
    } catch (error) {
      await producer.disconnect().catch(() => undefined);
      throw error;
    }
  }

  /** The last position this writer committed or read from the log. */
  get head(): number {
    return this.lastPosition;
  }

  /** The largest event value (JSON bytes) an append takes, leaving room for the key and headers. */
  get maxEventBytes(): number {
    return this.options.maxMessageBytes - 1024;
  }

  /** Why appends are refused until recover(), or null (fencing is final, not reported here). */
  unavailable(): Error | null {
    return this.fenced ? null : this.refused;
  }

  /** Re-establishes the producer and the head if needed, then accepts appends again. */
  async recover(): Promise<void> {
    if (this.fenced) throw this.fenced;
    await this.settle();
    if (!this.producer) await this.reestablish();
    this.refused = null;
  }

  /** Validates the batch and queues it for the next transaction; resolves once committed. */
  append(events: ChangeEvent[]): Promise<void> {
    try {
      if (events.length === 0) throw new Error('KafkaEventLog: an append needs at least one event');
      assertValidEvents(events);
      for (let i = 1; i < events.length; i++) {
        if (events[i]!.position !== events[0]!.position + i) {
          throw new Error(
            `KafkaEventLog: positions in a batch must be dense (${events[i - 1]!.position} then ${events[i]!.position})`,
          );
        }
      }
      this.checkSizes(events);
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

  /** One record over the topic's limit would fail its whole transaction: refuse the append before anything is sent. */
  private checkSizes(events: ChangeEvent[]): void {
    const last = events.at(-1)!.position;
    for (const event of events) {
      const bytes = messageBytes(encode(event, last));
      if (bytes > this.options.maxMessageBytes) {
        throw new EventTooLargeError(bytes, this.options.maxMessageBytes, `${event.objectType} ${event.objectId}`);
      }
    }
  }

  /** Commit queued appends, several per transaction when they queued up meanwhile, in call order. */
  private async drain(): Promise<void> {
    // The flag must be cleared in the same synchronous step as the loop's last check:
    // a caller resuming from its resolved append may append again right away.
    try {
      while (this.queue.length > 0) {
        const taken: PendingAppend[] = [];
        let count = 0;
        while (
          this.queue.length > 0 &&
          (taken.length === 0 || count + this.queue[0]!.events.length <= MAX_GROUP_EVENTS)
        ) {
          const next = this.queue.shift()!;
          taken.push(next);
          count += next.events.length;
        }

        const refusal = this.fenced ?? this.refused;
        if (refusal) {
          for (const p of taken) p.reject(refusal);
          continue;
        }

        // Each append must continue the log exactly; a rejected one does not stop the others.
        const accepted: PendingAppend[] = [];
        let expected = this.lastPosition + 1;
        for (const p of taken) {
          const first = p.events[0]?.position ?? expected;
          if (first !== expected) {
            p.reject(
              new Error(
                `KafkaEventLog: batch starts at position ${first}, expected ${expected} (head ${expected - 1})`,
              ),
            );
            continue;
          }
          accepted.push(p);
          expected += p.events.length;
        }
        if (accepted.length === 0) continue;

        const started = this.now();
        try {
          const lastOffset = await this.commit(
            this.producer!,
            accepted.map((p) => p.events),
          );
          if (lastOffset !== null) await this.options.untilReadable?.(lastOffset);
          this.lastPosition = expected - 1;
          for (const p of accepted) p.resolve();
        } catch (error) {
          await this.settleFailed(accepted, error, this.now() - started);
        }
      }
    } finally {
      this.draining = false;
    }
  }

  /** Answers the appends of a failed transaction by what the log holds once the transaction is settled. */
  private async settleFailed(accepted: PendingAppend[], error: unknown, elapsedMs: number): Promise<void> {
    const failure = transactionFailure(error, elapsedMs, this.options.transactionTimeoutMs);
    const ours = accepted.at(-1)!.events.at(-1)!;
    if (failure === 'fenced') {
      this.fence(
        `KafkaEventLog: this writer was fenced by another one using transactional id '${this.options.transactionalId}'`,
      );
      await this.discardProducer();
      await this.answerFenced(accepted);
      return;
    }
    const before = this.lastPosition;
    let last: ChangeEvent | null;
    try {
      last = await this.reestablishWithin(this.options.outcomeWaitMs ?? DEFAULT_OUTCOME_WAIT_MS);
    } catch (reason) {
      if (reason === this.fenced) {
        // A newer writer took over while the transaction was failing (reestablish()). Its
        // registration may not have finished: our commit may have reached the coordinator
        // and be waiting for its markers, which that registration waits for in turn. A log
        // ending before our positions then does not mean "not committed".
        await this.answerFenced(accepted, { mayBeCompleting: true });
        return;
      }
      const message = `KafkaEventLog: a transaction failed (${describe(error)}) and the log could not be read again (${describe(reason)}); whether it committed is not known`;
      this.refused = new EventLogUnavailableError(message);
      for (const p of accepted) p.reject(new AppendOutcomeUnknownError(message, { cause: reason }));
      return;
    }
    if (isEvent(last, ours)) {
      // The commit went through although its answer was lost.
      this.lastPosition = last!.position;
      for (const p of accepted) p.resolve();
      return;
    }
    if ((last?.position ?? 0) !== before) {
      this.fence(
        `KafkaEventLog: the log was written by another writer (head ${last?.position ?? 0}, expected ${before}); stopping`,
      );
      // That writer's registration of the id may have completed our commit before it appended
      // on top, so the head says nothing about ours: the positions it claimed are read.
      await this.answerFenced(accepted);
      return;
    }
    this.refused = new EventLogUnavailableError(
      `KafkaEventLog: a transaction failed and did not commit: ${describe(error)}`,
    );
    for (const p of accepted) p.reject(this.refused);
  }

  /**
   * A commit whose answer was lost, retried after a newer writer bumped the epoch, is refused
   * as fencing although it went through (the newer writer completed it on start-up, and may
   * have appended on top since, so the last event says nothing). The positions the appends
   * claimed are read instead: the transaction committed whole or not at all, so it went through
   * if each append's last event is there. A check that cannot be made leaves the outcome
   * unknown, never "not committed".
   * With `mayBeCompleting` (fenced by a newer writer found in the lease, whose registration
   * may not have finished), a log that ends before the transaction's first position is no
   * answer either: the commit may have reached the coordinator, its markers not written yet.
   * The outcome is then unknown. Another writer's event at that position still means "not
   * committed" (its registration finished, which completed or aborted ours first).
   */
  private async answerFenced(accepted: PendingAppend[], { mayBeCompleting = false } = {}): Promise<void> {
    const claimed = accepted.map((p) => p.events.at(-1)!);
    const first = accepted[0]!.events[0]!;
    let found: ChangeEvent[] | null;
    let logEndsBefore = false;
    try {
      found = await this.options.readClaimed(claimed.map((e) => e.position));
      if (found === null && mayBeCompleting) {
        const start = await this.options.readClaimed([first.position]);
        if (start === null) logEndsBefore = true;
        // The markers landed between the two reads: the claimed positions are read again.
        else if (isEvent(start[0] ?? null, first))
          found = await this.options.readClaimed(claimed.map((e) => e.position));
      }
    } catch (reason) {
      const unknown = new AppendOutcomeUnknownError(
        `${this.fenced!.message}; whether its last transaction committed is not known (the log could not be read: ${describe(reason)})`,
        { cause: reason },
      );
      for (const p of accepted) p.reject(unknown);
      return;
    }
    if (logEndsBefore) {
      const unknown = new AppendOutcomeUnknownError(
        `${this.fenced!.message}; whether its last transaction committed is not known (the log ends before the positions it claimed, and the newer writer's registration may still be completing it)`,
      );
      for (const p of accepted) p.reject(unknown);
      return;
    }
    const committed = found !== null && claimed.every((event, i) => isEvent(found[i] ?? null, event));
    if (committed) this.lastPosition = claimed.at(-1)!.position;
    for (const p of accepted) {
      if (committed) p.resolve();
      else p.reject(this.fenced);
    }
  }

  /** reestablish(), tried again while it fails, for up to `waitMs` (or until close()). */
  private async reestablishWithin(waitMs: number): Promise<ChangeEvent | null> {
    const deadline = this.now() + waitMs;
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.reestablish();
      } catch (error) {
        if (this.fenced || this.closing || this.now() >= deadline) throw error;
        await new Promise((resolve) =>
          setTimeout(resolve, Math.min(OUTCOME_RETRY_FIRST_MS * 2 ** attempt, OUTCOME_RETRY_MAX_MS)),
        );
      }
    }
  }

  /** A new producer for the same transactional id, then the last committed event. */
  private async reestablish(): Promise<ChangeEvent | null> {
    await this.discardProducer();
    await this.refuseIfSupplanted();
    const producer = await this.options.openProducer();
    let last: ChangeEvent | null;
    try {
      last = await this.options.findLast();
    } catch (error) {
      await producer.disconnect().catch(() => undefined);
      throw error;
    }
    this.producer = producer;
    this.lastPosition = Math.max(this.lastPosition, last?.position ?? 0);
    return last;
  }

  /**
   * Registering the id again fences whoever holds it now. After a failure that may be a
   * writer an operator put in charge meanwhile: one started with KAFKA_TAKEOVER=1 while
   * this one's transaction hung, or after this one's lease lapsed in an outage. Its
   * fencing of this writer can even look like a transaction the broker timed out
   * (INVALID_PRODUCER_EPOCH after the timeout, see transactionFailure.ts). So the lease
   * is asked first, and a newer writer there fences this one (final), throwing
   * `this.fenced`. A lease that cannot be asked (the cluster still unreachable) fails this
   * attempt like the unreachable cluster it is: it is tried again within the outcome wait,
   * then the appends are of unknown outcome and recover() asks again. Never a blind
   * registration: a wrong "fenced" would be final, a wrong registration would silently
   * undo a takeover, and waiting costs only the time the cluster is away anyway.
   * The question and the registration are not atomic (as in WriterLease.acquire()): the
   * id's fencing still keeps the log consistent if a takeover falls between them.
   */
  private async refuseIfSupplanted(): Promise<void> {
    if (!this.options.supplanted || !(await this.options.supplanted())) return;
    this.fence(
      `KafkaEventLog: another writer took over transactional id '${this.options.transactionalId}' (it holds the writer lease); this one stops`,
    );
    throw this.fenced;
  }

  private async discardProducer(): Promise<void> {
    const producer = this.producer;
    this.producer = null;
    await producer?.disconnect().catch(() => undefined);
  }

  private fence(message: string): void {
    this.fenced ??= new EventLogWriteError(message);
  }

  /** Resolves once every queued append is committed or rejected. */
  async settle(): Promise<void> {
    while (this.draining) await this.writing;
  }

  /** Waits for queued appends, then disconnects the producer. */
  async close(): Promise<void> {
    this.closing = true;
    await this.settle();
    await this.discardProducer();
  }

  /** One Kafka transaction holding every given batch; returns the offset of its last record, if the broker said. */
  private async commit(producer: Producer, batches: ChangeEvent[][]): Promise<bigint | null> {
    const messages: Message[] = [];
    for (const batch of batches) {
      const last = batch.at(-1)?.position;
      for (const event of batch) messages.push(encode(event, last!));
    }
    if (messages.length === 0) return null;

    // The client sends one request's messages as ONE record batch, and the topic's
    // max.message.bytes bounds the batch, not each record: a smaller limit splits sooner.
    const requestBytes = Math.min(MAX_REQUEST_BYTES, this.options.maxMessageBytes);
    const tx = await producer.transaction();
    try {
      let chunk: Message[] = [];
      let bytes = 0;
      for (const message of messages) {
        const size = messageBytes(message);
        if (chunk.length > 0 && bytes + size > requestBytes) {
          await tx.send({ topic: this.options.topic, acks: -1, messages: chunk });
          chunk = [];
          bytes = 0;
        }
        chunk.push(message);
        bytes += size;
      }
      const sent = await tx.send({ topic: this.options.topic, acks: -1, messages: chunk });
      await tx.commit();
      return lastOffsetOf(sent, chunk.length);
    } catch (error) {
      if (tx.isActive()) await tx.abort().catch(() => undefined);
      throw error;
    }
  }
}

/** The offset of the last of `count` records sent in one request, from its answer (null if it gave none). */
function lastOffsetOf(sent: RecordMetadata[] | undefined, count: number): bigint | null {
  const base = sent?.[0]?.baseOffset;
  if (base === undefined || !/^\d+$/.test(base)) return null;
  return BigInt(base) + BigInt(count - 1);
}

/** Bytes of one message as a record batch of its own. */
function messageBytes(message: Message): number {
  let bytes = RECORD_OVERHEAD_BYTES + (message.value as Buffer).length + Buffer.byteLength(String(message.key ?? ''));
  for (const [name, value] of Object.entries(message.headers ?? {}))
    bytes += Buffer.byteLength(name) + Buffer.byteLength(String(value));
  return bytes;
}

/** `found` (an event read from the log) is `ours`. */
function isEvent(found: ChangeEvent | null, ours: ChangeEvent): boolean {
  return (
    found !== null &&
    found.position === ours.position &&
    found.eventId === ours.eventId &&
    found.requestId === ours.requestId
  );
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
