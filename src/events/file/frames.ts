import { crc32 } from '../crc32.js';
import type { LogFileHandle } from './logFileSystem.js';

/**
 * The frame format of the embedded event log, and reading it:
 *
 *     [u32 LE payload length][u32 LE CRC-32 of payload][payload: UTF-8 JSON array of one batch's events]
 */

export const HEADER_BYTES = 8;
/** Largest payload accepted (V8's string limit is ~512 MiB; a request's batch is far smaller). */
export const MAX_PAYLOAD_BYTES = 256 * 1024 * 1024;
/** A group commit writes at most this many bytes per write+fdatasync (at least one frame). */
export const MAX_GROUP_BYTES = 64 * 1024 * 1024;
/**
 * The most a crash can tear off the end: one group commit's write, or a single larger
 * frame. Damage further from the end cannot be an interrupted write.
 */
export const MAX_TORN_BYTES = Math.max(MAX_GROUP_BYTES, HEADER_BYTES + MAX_PAYLOAD_BYTES);
/** Read chunk size for replay and recovery. */
const READ_CHUNK_BYTES = 1 << 20;

/** One frame as the log stores it: payload length and CRC-32 (little-endian), then the JSON of the batch. */
export function encodeFrame(json: string): Buffer {
  const length = Buffer.byteLength(json, 'utf8');
  const frame = Buffer.allocUnsafe(HEADER_BYTES + length);
  frame.write(json, HEADER_BYTES, 'utf8');
  frame.writeUInt32LE(length, 0);
  frame.writeUInt32LE(crc32(frame.subarray(HEADER_BYTES)), 4);
  return frame;
}

export interface Frame {
  readonly offset: number;
  /** Header + payload bytes. */
  readonly size: number;
  /** A view into the reader's buffer: valid until the next call to next(). */
  readonly payload: Buffer;
}

/** A frame that cannot be read whole: incomplete, impossible length, or CRC mismatch. */
export interface Torn {
  readonly offset: number;
  readonly torn: string;
}

/** Reads frames sequentially from `offset` up to `limit()` bytes, in large chunks. */
export class FrameReader {
  private buf: Buffer = Buffer.allocUnsafe(READ_CHUNK_BYTES);
  private start = 0;
  private end = 0;
  /** File offset of buf[end]. */
  private filePos: number;

  constructor(
    private readonly fh: LogFileHandle,
    offset: number,
    private readonly limit: () => number,
  ) {
    this.filePos = offset;
  }

  /** The next frame, a torn/corrupt frame (nothing after it is read), or null at a clean end. */
  async next(): Promise<Frame | Torn | null> {
    const offset = this.filePos - (this.end - this.start);
    if (!(await this.fill(HEADER_BYTES))) {
      return this.end === this.start ? null : { offset, torn: 'incomplete frame header' };
    }
    const length = this.buf.readUInt32LE(this.start);
    const crc = this.buf.readUInt32LE(this.start + 4);
    if (length === 0 || length > MAX_PAYLOAD_BYTES) return { offset, torn: `bad frame length ${length}` };
    if (offset + HEADER_BYTES + length > this.limit()) return { offset, torn: 'incomplete frame' };
    if (!(await this.fill(HEADER_BYTES + length))) return { offset, torn: 'incomplete frame' };
    const payload = this.buf.subarray(this.start + HEADER_BYTES, this.start + HEADER_BYTES + length);
    if (crc32(payload) !== crc) return { offset, torn: 'frame CRC mismatch' };
    this.start += HEADER_BYTES + length;
    return { offset, size: HEADER_BYTES + length, payload };
  }

  /** Makes at least `n` bytes available from `start`; false if the limit comes first. */
  private async fill(n: number): Promise<boolean> {
    if (this.end - this.start >= n) return true;
    if (this.buf.length - this.start < n) {
      const kept = this.end - this.start;
      if (n > this.buf.length) {
        const bigger = Buffer.allocUnsafe(Math.max(n, READ_CHUNK_BYTES));
        this.buf.copy(bigger, 0, this.start, this.end);
        this.buf = bigger;
      } else {
        this.buf.copy(this.buf, 0, this.start, this.end);
      }
      this.start = 0;
      this.end = kept;
    }
    while (this.end - this.start < n) {
      const want = Math.min(this.buf.length - this.end, this.limit() - this.filePos);
      if (want <= 0) return false;
      const { bytesRead } = await this.fh.read(this.buf, this.end, want, this.filePos);
      if (bytesRead === 0) return false;
      this.end += bytesRead;
      this.filePos += bytesRead;
    }
    return true;
  }
}

/** Every payload is a JSON array of event objects: it starts with these two bytes and ends with `]`. */
const PAYLOAD_START = Buffer.from('[{', 'latin1');
const PAYLOAD_END = 0x5d;
const SEARCH_CHUNK_BYTES = 4 << 20;

/**
 * The offset of the first CRC-valid frame that starts in [from, end), or null.
 *
 * This is what tells a torn tail from corruption: an interrupted write leaves nothing
 * intact after its first bad byte, while damage in the middle of the log is followed by
 * intact frames. Frame boundaries after a bad frame are unknown (its length field may
 * be the damaged part), so every offset is a candidate; candidates are found by the
 * payload's first bytes `[{` and must declare a length that fits, end in `]` and match
 * their CRC. Inside JSON text the 4 bytes of a would-be length field are printable
 * characters, which make lengths far above the limit, so CRCs are computed almost only
 * at real frames and a scan costs about one read of the file.
 */
export async function findIntactFrame(fh: LogFileHandle, from: number, end: number): Promise<number | null> {
  const need = HEADER_BYTES + PAYLOAD_START.length;
  const window = Buffer.allocUnsafe(SEARCH_CHUNK_BYTES);
  let windowStart = from;
  while (windowStart + need <= end) {
    const length = await readFully(fh, window, Math.min(window.length, end - windowStart), windowStart);
    const view = window.subarray(0, length);
    let at = HEADER_BYTES;
    for (;;) {
      const anchor = view.indexOf(PAYLOAD_START, at);
      if (anchor === -1) break;
      const offset = windowStart + anchor - HEADER_BYTES;
      if (await intactFrameAt(fh, view, anchor - HEADER_BYTES, offset, end)) return offset;
      at = anchor + 1;
    }
    if (length < window.length) break; // the window reached `end`
    // Overlap by one candidate's minimum so a frame start straddling the boundary is seen.
    windowStart += length - need + 1;
  }
  return null;
}

async function intactFrameAt(
  fh: LogFileHandle,
  view: Buffer,
  at: number,
  offset: number,
  end: number,
): Promise<boolean> {
  const length = view.readUInt32LE(at);
  if (length < 2 || length > MAX_PAYLOAD_BYTES || offset + HEADER_BYTES + length > end) return false;
  const crc = view.readUInt32LE(at + 4);
  const payloadAt = at + HEADER_BYTES;
  if (payloadAt + length <= view.length) {
    const payload = view.subarray(payloadAt, payloadAt + length);
    return payload[length - 1] === PAYLOAD_END && crc32(payload) === crc;
  }
  const last = Buffer.allocUnsafe(1);
  await readFully(fh, last, 1, offset + HEADER_BYTES + length - 1);
  if (last[0] !== PAYLOAD_END) return false;
  const payload = Buffer.allocUnsafe(length);
  await readFully(fh, payload, length, offset + HEADER_BYTES);
  return crc32(payload) === crc;
}

/** Reads `length` bytes at `position` (fewer only at the end of the file); returns how many. */
export async function readFully(fh: LogFileHandle, buffer: Buffer, length: number, position: number): Promise<number> {
  let done = 0;
  while (done < length) {
    const { bytesRead } = await fh.read(buffer, done, length - done, position + done);
    if (bytesRead === 0) break;
    done += bytesRead;
  }
  return done;
}
