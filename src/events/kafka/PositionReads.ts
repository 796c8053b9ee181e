import type { KafkaMessage } from 'kafkajs';

import type { ChangeEvent } from '../ChangeEvent.js';
import type { ResumePoint } from '../EventLog.js';
import { EventBodyCache } from './EventBodyCache.js';
import { offsetOfCursor } from './kafkaCursor.js';
import { decode, header, type RawMessage } from './messages.js';
import { PositionOffsets } from './PositionOffsets.js';

/** Wanted offsets at most this far apart are fetched by one consumer. */
const RUN_GAP_OFFSETS = 256;
/** One consumer fetches at most this many offsets. */
const MAX_RUN_OFFSETS = 4096;

/** How PositionReads reaches the partition. */
export interface PositionSource {
  /** Consumes [start, end) once with a short-lived consumer seeked to `start`. */
  consumeRange(start: bigint, end: bigint, onMessages: (messages: KafkaMessage[]) => Promise<void>): Promise<void>;
  /** Every committed batch from position `from`, scanning from the partition's start. */
  read(from: number): AsyncIterable<ChangeEvent[]>;
  /** Resolves when a background read locating skipped events (if any) has ended: cheaper to wait for than a scan. */
  located(): Promise<void>;
}

/**
 * Random reads by position (readPositions, for the audit side). First a cache of
 * recently used event bodies, fed by every message the log's readers consume, so the
 * tail of the log is usually there. Otherwise the offsets of the wanted positions come
 * from a position → offset table learned from the same messages, and each run of nearby
 * offsets is fetched by one consumer seeked to the run's start. A position handed with
 * the cursor it ends at (a snapshot's, at start-up, before any reader has consumed it) is
 * read at that offset, checked. Positions no reader has consumed yet cost a scan from the
 * partition's start.
 */
export class PositionReads {
  private readonly offsetsByPosition = new PositionOffsets();
  private readonly bodies: EventBodyCache;

  constructor(
    bodyCacheBytes: number,
    private readonly source: PositionSource,
  ) {
    this.bodies = new EventBodyCache(bodyCacheBytes);
  }

  /** Every event the log consumes passes here: it teaches the reads where events are. */
  readonly seen = (event: ChangeEvent, message: RawMessage): void => {
    this.offsetsByPosition.record(event.position, Number(message.offset));
    if (message.value) this.bodies.put(event.position, message.value);
  };

  /** A message passed over without being decoded: its position header locates it. */
  located(message: RawMessage): void {
    const position = Number(header(message.headers, 'position'));
    if (Number.isSafeInteger(position)) this.offsetsByPosition.record(position, Number(message.offset));
  }

  /** The offset of `position`, if located. */
  offsetOf(position: number): bigint | undefined {
    return this.offsetsByPosition.has(position) ? BigInt(this.offsetsByPosition.get(position)) : undefined;
  }

  /** Every position up to this one is located. */
  get lastSeen(): number {
    return this.offsetsByPosition.last;
  }

  /** The highest position a reader consumed (committed: they read committed events only). */
  get highestSeen(): number {
    return this.offsetsByPosition.highest;
  }

  /** The events at `positions` (each 1..head), in the order asked; `near` says where one of them ends (a cursor). */
  async read(positions: readonly number[], head: number, near?: ResumePoint | null): Promise<ChangeEvent[]> {
    for (const p of positions) {
      if (!Number.isInteger(p) || p < 1 || p > head) throw new RangeError(`no event at position ${p} (head ${head})`);
    }
    const found = new Map<number, ChangeEvent>();
    const missing: number[] = [];
    for (const p of new Set(positions)) {
      const cached = this.bodies.get(p);
      if (cached) found.set(p, cached);
      else missing.push(p);
    }
    if (missing.length > 0) await this.fetch(missing, found, near);
    return positions.map((p) => {
      const event = found.get(p);
      if (!event) throw new Error(`KafkaEventLog: position ${p} was not found in the partition`);
      return event;
    });
  }

  private async fetch(missing: number[], found: Map<number, ChangeEvent>, near?: ResumePoint | null): Promise<void> {
    const wanted = new Set(missing);
    const keep = (event: ChangeEvent) => {
      if (wanted.has(event.position)) found.set(event.position, event);
    };
    if (near && wanted.has(near.position) && !this.offsetsByPosition.has(near.position)) await this.fetchAt(near, keep);
    await this.fetchLocated(
      missing.filter((p) => !found.has(p)),
      keep,
    );
    if (missing.every((p) => found.has(p))) return;
    // What a background read is locating comes by offset once it is done: cheaper than a scan of our own.
    await this.source.located();
    await this.fetchLocated(
      missing.filter((p) => !found.has(p)),
      keep,
    );
    const unlocated = missing.filter((p) => !found.has(p));
    if (unlocated.length === 0) return;
    // Not consumed by any reader yet: scan (read() starts at the partition's start).
    const last = Math.max(...unlocated);
    for await (const batch of this.source.read(Math.min(...unlocated))) {
      for (const event of batch) keep(event);
      if (batch[batch.length - 1]!.position >= last) break;
    }
  }

  /**
   * The message before a cursor: a batch's cursor is the offset after its last message, so
   * the event at the cursor's position is there if the cursor is of this topic. If not (a
   * foreign or stale cursor) the event is simply not found there, and is looked for as any other.
   */
  private async fetchAt(near: ResumePoint, keep: (event: ChangeEvent) => void): Promise<void> {
    const end = offsetOfCursor(near.cursor);
    if (end === null || end < 1n) return;
    await this.source.consumeRange(end - 1n, end, async (messages) => {
      for (const message of messages) {
        const event = decode(message);
        this.seen(event, message);
        keep(event);
      }
    });
  }

  /** The located ones among `positions`, each run of nearby offsets by one consumer. */
  private async fetchLocated(positions: number[], keep: (event: ChangeEvent) => void): Promise<void> {
    const located = positions.filter((p) => this.offsetsByPosition.has(p)).sort((a, b) => a - b);
    const offsetOf = (i: number) => this.offsetsByPosition.get(located[i]!);
    let i = 0;
    while (i < located.length) {
      let j = i;
      while (
        j + 1 < located.length &&
        offsetOf(j + 1) - offsetOf(j) <= RUN_GAP_OFFSETS &&
        offsetOf(j + 1) - offsetOf(i) < MAX_RUN_OFFSETS
      )
        j++;
      await this.source.consumeRange(BigInt(offsetOf(i)), BigInt(offsetOf(j)) + 1n, async (messages) => {
        for (const message of messages) {
          const event = decode(message);
          this.seen(event, message);
          keep(event);
        }
      });
      i = j + 1;
    }
  }
}
