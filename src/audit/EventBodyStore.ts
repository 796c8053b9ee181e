import { closeSync, mkdirSync, openSync, readSync, unlinkSync, writevSync } from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { ChangeEvent } from '../events/ChangeEvent.js';
import { Column } from './columns.js';

/** Pending bytes written to the file at once. */
const FLUSH_BYTES = 4 << 20;
/** A range read in one go is at most this large (a single bigger event is read whole). */
const READ_CHUNK_BYTES = 4 << 20;

/**
 * Random access to events by position, for the audit queries: every event as one
 * JSON line in a scratch file beside the data, with its byte range kept in memory
 * (8 bytes per event). The file is a cache rebuilt from the log on every open: it is
 * created anonymously (unlinked right after opening, so a crash leaves nothing behind
 * and two processes never share one) and never fsynced.
 *
 * Appends are buffered and written in 4 MiB steps; a read first writes what is pending.
 * I/O is synchronous: the file is hot in the page cache and reads are small, and large
 * range reads are chunked so that callers can yield between chunks.
 */
export class EventBodyStore {
  private fd: number | null;
  private readonly file: string;
  private unlinked = false;
  /** ends[p] = byte offset just past event p; ends[0] = 0. */
  private readonly ends = new Column(Float64Array);
  /** Pending bytes: filled buffers, then the one being filled (`tail`, `tailUsed` bytes). */
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private tail: Buffer = Buffer.allocUnsafe(FLUSH_BYTES);
  private tailUsed = 0;
  /** Bytes already in the file. */
  private flushed = 0;

  constructor(dir: string) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    this.file = path.join(dir, `audit-${process.pid}-${randomUUID()}.jsonl`);
    this.fd = openSync(this.file, 'w+', 0o600);
    try {
      unlinkSync(this.file);
      this.unlinked = true;
    } catch {
      // Platforms that cannot unlink an open file: removed on close instead.
    }
    this.ends.push(0);
  }

  /** The last position stored. */
  get head(): number {
    return this.ends.length - 1;
  }

  get byteLength(): number {
    return this.flushed + this.pendingBytes + this.tailUsed;
  }

  /** Stores events continuing the head (positions are checked by the index before). */
  append(events: readonly ChangeEvent[]): void {
    let end = this.ends.get(this.ends.length - 1);
    for (const event of events) {
      if (event.position !== this.ends.length) continue; // already stored
      const line = JSON.stringify(event) + '\n';
      let bytes: number;
      if (line.length * 3 <= this.tail.length - this.tailUsed) {
        // Encoded straight into the pending buffer (no intermediate Buffer per event).
        bytes = this.tail.write(line, this.tailUsed, 'utf8');
        this.tailUsed += bytes;
      } else {
        const encoded = Buffer.from(line, 'utf8');
        bytes = encoded.length;
        if (bytes <= this.tail.length - this.tailUsed) {
          encoded.copy(this.tail, this.tailUsed);
          this.tailUsed += bytes;
        } else {
          this.sealTail();
          this.pending.push(encoded);
          this.pendingBytes += bytes;
        }
      }
      end += bytes;
      this.ends.push(end);
      if (this.pendingBytes >= FLUSH_BYTES) this.flush();
    }
  }

  /** Moves the bytes of the buffer being filled to the pending list and starts a new one. */
  private sealTail(): void {
    if (this.tailUsed === 0) return;
    this.pending.push(this.tail.subarray(0, this.tailUsed));
    this.pendingBytes += this.tailUsed;
    this.tail = Buffer.allocUnsafe(FLUSH_BYTES);
    this.tailUsed = 0;
  }

  /** Writes pending bytes to the file. */
  flush(): void {
    if (this.tailUsed > 0) {
      // A view of the buffer being filled: written synchronously below, then the buffer is reused.
      this.pending.push(this.tail.subarray(0, this.tailUsed));
      this.pendingBytes += this.tailUsed;
      this.tailUsed = 0;
    }
    if (this.pendingBytes === 0) return;
    const fd = this.openFd();
    let offset = this.flushed;
    let buffers = this.pending;
    while (buffers.length > 0) {
      // writev takes at most IOV_MAX (1024) buffers at a time.
      const slice = buffers.slice(0, 1024);
      let total = 0;
      for (const b of slice) total += b.length;
      let written = writevSync(fd, slice, offset);
      if (written < total) {
        // Short write: finish this slice buffer by buffer.
        const whole = Buffer.concat(slice, total);
        while (written < total) {
          const n = writevSync(fd, [whole.subarray(written)], offset + written);
          if (n <= 0) throw new Error('EventBodyStore: write made no progress');
          written += n;
        }
      }
      offset += total;
      buffers = buffers.slice(slice.length);
    }
    this.flushed = offset;
    this.pending = [];
    this.pendingBytes = 0;
  }

  /** The events at these positions (any order; duplicates allowed), in the order asked. */
  get(positions: readonly number[]): ChangeEvent[] {
    if (positions.length === 0) return [];
    for (const p of positions) {
      if (!Number.isInteger(p) || p < 1 || p > this.head) throw new RangeError(`EventBodyStore: no event at position ${p}`);
    }
    this.flush();
    const sorted = [...new Set(positions)].sort((a, b) => a - b);
    const found = new Map<number, ChangeEvent>();
    let i = 0;
    while (i < sorted.length) {
      // A run of positions close together is read with one pread.
      let j = i;
      const start = this.ends.get(sorted[i]! - 1);
      while (j + 1 < sorted.length && this.ends.get(sorted[j + 1]!) - start <= READ_CHUNK_BYTES && sorted[j + 1]! - sorted[j]! <= 64) j++;
      const bytes = this.readBytes(start, this.ends.get(sorted[j]!));
      for (let k = i; k <= j; k++) {
        const p = sorted[k]!;
        found.set(p, JSON.parse(bytes.toString('utf8', this.ends.get(p - 1) - start, this.ends.get(p) - start)) as ChangeEvent);
      }
      i = j + 1;
    }
    return positions.map((p) => found.get(p)!);
  }

  /** Events from..to (inclusive, clamped to the head), in chunks of up to about 4 MiB. */
  *range(from: number, to: number): Generator<ChangeEvent[]> {
    const last = Math.min(to, this.head);
    let p = Math.max(1, from);
    while (p <= last) {
      this.flush();
      const start = this.ends.get(p - 1);
      let q = p;
      while (q < last && this.ends.get(q + 1) - start <= READ_CHUNK_BYTES) q++;
      const bytes = this.readBytes(start, this.ends.get(q));
      const chunk: ChangeEvent[] = [];
      for (let k = p; k <= q; k++) {
        chunk.push(JSON.parse(bytes.toString('utf8', this.ends.get(k - 1) - start, this.ends.get(k) - start)) as ChangeEvent);
      }
      yield chunk;
      p = q + 1;
    }
  }

  close(): void {
    if (this.fd === null) return;
    closeSync(this.fd);
    this.fd = null;
    this.pending = [];
    this.pendingBytes = 0;
    this.tailUsed = 0;
    if (!this.unlinked) {
      try {
        unlinkSync(this.file);
      } catch {
        // already gone
      }
    }
  }

  private openFd(): number {
    if (this.fd === null) throw new Error('EventBodyStore is closed');
    return this.fd;
  }

  private readBytes(start: number, end: number): Buffer {
    const fd = this.openFd();
    const length = end - start;
    const buffer = Buffer.allocUnsafe(length);
    let done = 0;
    while (done < length) {
      const n = readSync(fd, buffer, done, length - done, start + done);
      if (n <= 0) throw new Error(`EventBodyStore: short read at ${start + done}`);
      done += n;
    }
    return buffer;
  }
}
