import type { ChangeEvent } from '../ChangeEvent.js';
import { FrameReader, HEADER_BYTES, readFully } from './frames.js';
import { type LogFileHandle, type LogFileSystem, nodeFileSystem } from './logFileSystem.js';
import { parseBatch } from './parseBatch.js';

/** A complete, CRC-valid frame found at the end of a log another process writes. */
export interface TailedBatch {
  readonly firstPosition: number;
  readonly offset: number;
  readonly events: ChangeEvent[];
}

/**
 * The file under a follower changed below what it has already taken in: the writer cut
 * frames it had not made durable (a failed append on a full disk) or the log was
 * repaired or replaced. What the follower applied no longer matches the log.
 */
export class LogDivergedError extends Error {}

/**
 * Reads the frames another process appends to an embedded event log, without ever
 * writing to it: each poll() yields the complete, checksummed frames added since the
 * last one, one at a time (a replica's first poll reads the whole log: it must not hold
 * every event of it at once). A frame that is incomplete or fails its CRC at the end of the file is a
 * write still under way (or a torn tail the writer cuts at its next start): it is not
 * an error, the next poll reads it again from its first byte.
 *
 * Each poll opens the file by its path, so a log the writer re-opened or replaced is
 * read from its current file; it first checks that the last frame taken in is still
 * there, with the same header, and throws LogDivergedError if not.
 */
export class FrameTail {
  /** Last position taken in (0 before any frame). */
  head = 0;
  /** Where the frames taken in end: the next frame starts here. */
  endOffset = 0;
  /** Bytes found after the complete frames at the last poll (a write under way, or a torn tail). */
  pendingBytes = 0;
  private last: { offset: number; header: Buffer } | null = null;

  constructor(
    readonly file: string,
    private readonly fs: LogFileSystem = nodeFileSystem,
  ) {}

  async *poll(): AsyncGenerator<TailedBatch> {
    let fh: LogFileHandle;
    try {
      fh = await this.fs.open(this.file, 'r');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      if (this.endOffset > 0)
        throw new LogDivergedError(`${this.file} is gone, after this follower took in positions 1..${this.head}`);
      return; // the writer has not created the log yet
    }
    try {
      const size = (await fh.stat()).size;
      await this.checkLastFrame(fh, size);
      const reader = new FrameReader(fh, this.endOffset, () => size);
      for (;;) {
        const frame = await reader.next();
        if (frame === null || 'torn' in frame) break;
        const events = parseBatch(frame.payload, this.head + 1, frame.offset, this.file);
        const batch = { firstPosition: this.head + 1, offset: frame.offset, events };
        // A copy of the frame's header: the reader's buffer is reused by the next frame.
        const header = Buffer.from(frame.payload.buffer, frame.payload.byteOffset - HEADER_BYTES, HEADER_BYTES);
        this.last = { offset: frame.offset, header: Buffer.from(header) };
        this.head += events.length;
        this.endOffset = frame.offset + frame.size;
        yield batch;
      }
      this.pendingBytes = size - this.endOffset;
    } finally {
      await fh.close().catch(() => undefined);
    }
  }

  /** The file must still hold what was taken in: at least as long, and the last frame's length and CRC unchanged. */
  private async checkLastFrame(fh: LogFileHandle, size: number): Promise<void> {
    if (size < this.endOffset) {
      throw new LogDivergedError(
        `${this.file} was cut to ${size} bytes, below the ${this.endOffset} bytes (positions 1..${this.head}) this follower took in`,
      );
    }
    if (!this.last) return;
    const header = Buffer.alloc(HEADER_BYTES);
    const read = await readFully(fh, header, HEADER_BYTES, this.last.offset);
    if (read !== HEADER_BYTES || !header.equals(this.last.header)) {
      throw new LogDivergedError(
        `${this.file}: the frame at byte ${this.last.offset} (ending at position ${this.head}) was replaced after this follower took it in`,
      );
    }
  }
}
