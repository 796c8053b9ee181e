import { type FileHandle, open as openFile } from 'node:fs/promises';

import type { ChangeEvent } from '../ChangeEvent.js';
import { crc32 } from '../crc32.js';

const HEADER_BYTES = 8;
/** Wanted frames closer than this are fetched with one read (the bytes between are read and skipped). */
const MERGE_GAP_BYTES = 64 * 1024;
/** One read covers at most this much (a single larger frame is read whole). */
const MAX_READ_BYTES = 4 << 20;
const INITIAL_FRAMES = 1024;

/** A frame read back does not hold what the table says it holds. */
export class FramePositionsError extends Error {}

/**
 * Random access by position to the frames of a FileEventLog's file, so that readers
 * (the audit side's object changes and histories) take event bodies from the log
 * itself instead of keeping a copy.
 *
 * The table holds one (first position, byte offset) pair per frame: 16 bytes per
 * frame, about 1.6 MB for 100k requests. The log notes a frame where it reads one at
 * open and where it commits one, so only durable frames are ever in the table. A read
 * sorts the wanted frames, fetches neighbouring ones with one positional read through a
 * read-only handle of its own (runs far apart are read concurrently), checks each
 * frame's length and CRC, and parses each wanted frame once.
 */
export class FramePositions {
  private firsts = new Float64Array(INITIAL_FRAMES);
  private offsets = new Float64Array(INITIAL_FRAMES);
  private count = 0;
  private handle: Promise<FileHandle> | null = null;
  private closed = false;

  constructor(private readonly file: string) {}

  /** Records a durable frame whose first event is `firstPosition` (frames are noted in log order). */
  note(firstPosition: number, offset: number): void {
    if (this.count > 0 && firstPosition <= this.firsts[this.count - 1]!) return; // already known
    if (this.count === this.firsts.length) {
      this.firsts = grow(this.firsts);
      this.offsets = grow(this.offsets);
    }
    this.firsts[this.count] = firstPosition;
    this.offsets[this.count] = offset;
    this.count++;
  }

  /** The table as it stands, without copying (frames are only ever appended, so the views stay valid). */
  image(): { firsts: Float64Array<ArrayBuffer>; offsets: Float64Array<ArrayBuffer> } {
    return {
      firsts: this.firsts.subarray(0, this.count) as Float64Array<ArrayBuffer>,
      offsets: this.offsets.subarray(0, this.count) as Float64Array<ArrayBuffer>,
    };
  }

  /** Starts an empty table from a persisted one (the log's open from a persisted point). */
  adopt(firsts: Float64Array, offsets: Float64Array): void {
    if (this.count > 0) throw new Error('FramePositions.adopt(): the table is not empty');
    if (firsts.length !== offsets.length) throw new RangeError('FramePositions.adopt(): the columns differ in length');
    const capacity = Math.max(INITIAL_FRAMES, firsts.length * 2);
    this.firsts = new Float64Array(capacity);
    this.offsets = new Float64Array(capacity);
    this.firsts.set(firsts);
    this.offsets.set(offsets);
    this.count = firsts.length;
  }

  /** Frames known. */
  get frames(): number {
    return this.count;
  }

  /** Bytes the table holds in memory. */
  get byteLength(): number {
    return this.firsts.byteLength + this.offsets.byteLength;
  }

  /**
   * The events at these positions (any order, repeats allowed), in the order asked.
   * `head` and `committedBytes` bound what may be read: the log's durable head and length.
   */
  async read(positions: readonly number[], head: number, committedBytes: number): Promise<ChangeEvent[]> {
    if (this.closed) throw new Error('FramePositions: closed');
    for (const p of positions) {
      if (!Number.isInteger(p) || p < 1 || p > head) throw new RangeError(`no event at position ${p} (head ${head})`);
    }
    if (positions.length === 0) return [];
    const frames = [...new Set(positions.map((p) => this.frameOf(p)))].sort((a, b) => a - b);
    // Runs of frames close together, each fetched with one positional read; the runs are read concurrently.
    const runs: Array<{ from: number; to: number }> = [];
    let i = 0;
    while (i < frames.length) {
      const start = this.offsets[frames[i]!]!;
      let j = i;
      while (
        j + 1 < frames.length &&
        this.offsets[frames[j + 1]!]! - this.endOf(frames[j]!, committedBytes) <= MERGE_GAP_BYTES &&
        this.endOf(frames[j + 1]!, committedBytes) - start <= MAX_READ_BYTES
      ) {
        j++;
      }
      runs.push({ from: i, to: j });
      i = j + 1;
    }
    const fh = await this.open();
    const parsed = new Map<number, ChangeEvent[]>();
    await Promise.all(
      runs.map(async ({ from, to }) => {
        const start = this.offsets[frames[from]!]!;
        const bytes = await readExactly(fh, start, this.endOf(frames[to]!, committedBytes) - start);
        for (let k = from; k <= to; k++) {
          const frame = frames[k]!;
          parsed.set(frame, this.parseFrame(bytes, this.offsets[frame]! - start, frame, committedBytes));
        }
      }),
    );
    return positions.map((p) => {
      const frame = this.frameOf(p);
      const event = parsed.get(frame)![p - this.firsts[frame]!];
      if (event?.position !== p)
        throw new FramePositionsError(
          `${this.file}: frame at offset ${this.offsets[frame]} does not hold position ${p}`,
        );
      return event;
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    const handle = this.handle;
    this.handle = null;
    if (handle) await (await handle.catch(() => null))?.close();
  }

  /** The frame holding `position`: the last whose first position is at or before it. */
  private frameOf(position: number): number {
    let lo = 0;
    let hi = this.count - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      if (this.firsts[mid]! <= position) {
        found = mid;
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    if (found < 0) throw new FramePositionsError(`${this.file}: no frame is known for position ${position}`);
    return found;
  }

  /** Where frame `i` ends: where the next begins, or the end of the durable log. */
  private endOf(i: number, committedBytes: number): number {
    return i + 1 < this.count ? this.offsets[i + 1]! : committedBytes;
  }

  private parseFrame(bytes: Buffer, at: number, frame: number, committedBytes: number): ChangeEvent[] {
    const size = this.endOf(frame, committedBytes) - this.offsets[frame]!;
    const length = bytes.readUInt32LE(at);
    const payload = bytes.subarray(at + HEADER_BYTES, at + HEADER_BYTES + length);
    if (HEADER_BYTES + length !== size || crc32(payload) !== bytes.readUInt32LE(at + 4)) {
      throw new FramePositionsError(
        `${this.file}: frame at offset ${this.offsets[frame]} does not match its header or CRC`,
      );
    }
    const batch = JSON.parse(payload.toString('utf8')) as ChangeEvent[];
    if (!Array.isArray(batch) || batch[0]?.position !== this.firsts[frame]) {
      throw new FramePositionsError(
        `${this.file}: frame at offset ${this.offsets[frame]} does not start at position ${this.firsts[frame]}`,
      );
    }
    return batch;
  }

  private open(): Promise<FileHandle> {
    this.handle ??= openFile(this.file, 'r').catch((error: unknown) => {
      this.handle = null;
      throw error;
    });
    return this.handle;
  }
}

function grow(array: Float64Array): Float64Array<ArrayBuffer> {
  const bigger = new Float64Array(array.length * 2);
  bigger.set(array);
  return bigger;
}

async function readExactly(fh: FileHandle, start: number, length: number): Promise<Buffer> {
  const buffer = Buffer.allocUnsafe(length);
  let done = 0;
  while (done < length) {
    const { bytesRead } = await fh.read(buffer, done, length - done, start + done);
    if (bytesRead <= 0) throw new FramePositionsError(`short read at offset ${start + done}`);
    done += bytesRead;
  }
  return buffer;
}
