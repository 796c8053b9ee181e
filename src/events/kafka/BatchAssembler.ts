import type { ChangeEvent } from '../ChangeEvent.js';
import { decode, header, type RawMessage } from './messages.js';

/** One appended batch as rebuilt, and the offset after its last message (where a reader resumes). */
export interface AssembledBatch {
  events: ChangeEvent[];
  nextOffset: bigint;
}

/**
 * Rebuilds the appended batches from the committed messages in offset order.
 * A batch is complete at its `batch-last-position`; messages without that header
 * are grouped by request id within one fetch. Positions must be dense; positions
 * already handed over are skipped (the client may re-read after a restart).
 */
export class BatchAssembler {
  private done: number | undefined;
  private pending: ChangeEvent[] = [];
  private pendingEnd: number | undefined;
  private pendingNextOffset = 0n;

  constructor(
    private readonly from: number,
    private readonly onEvent?: (event: ChangeEvent, message: RawMessage) => void,
  ) {}

  push(messages: readonly RawMessage[]): AssembledBatch[] {
    const out: AssembledBatch[] = [];
    for (const message of messages) {
      const event = decode(message);
      this.onEvent?.(event, message);
      const p = event.position;
      if (this.done !== undefined && p <= this.done) continue;
      // Re-reading part of the pending batch (the consumer restarted): drop what comes again.
      while (this.pending.length > 0 && this.pending.at(-1)!.position >= p) this.pending.pop();
      const previous = this.pending.at(-1)?.position ?? this.done;
      if (previous !== undefined && p !== previous + 1) {
        throw new Error(
          `KafkaEventLog: position ${p} follows ${previous} (offset ${message.offset}); the log is not dense`,
        );
      }
      const first = this.pending[0];
      if (first && event.requestId !== first.requestId) {
        if (this.pendingEnd !== undefined) {
          throw new Error(
            `KafkaEventLog: batch ending at ${this.pendingEnd} is incomplete at offset ${message.offset}`,
          );
        }
        this.flush(out);
      }
      if (this.pending.length === 0) {
        const end = Number(header(message.headers, 'batch-last-position'));
        this.pendingEnd = Number.isInteger(end) && end >= p ? end : undefined;
      }
      this.pending.push(event);
      this.pendingNextOffset = BigInt(message.offset) + 1n;
      if (this.pendingEnd !== undefined && p >= this.pendingEnd) this.flush(out);
    }
    if (this.pendingEnd === undefined) this.flush(out);
    return out;
  }

  private flush(out: AssembledBatch[]): void {
    if (this.pending.length === 0) return;
    this.done = this.pending.at(-1)!.position;
    const events = this.pending.filter((e) => e.position >= this.from);
    this.pending = [];
    this.pendingEnd = undefined;
    if (events.length > 0) out.push({ events, nextOffset: this.pendingNextOffset });
  }
}
