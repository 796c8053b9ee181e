import { findIntactFrame, FrameReader, MAX_TORN_BYTES } from './frames.js';
import type { CutKind } from './keepAside.js';
import { EventLogCorruptError } from './logErrors.js';
import type { LogFileHandle } from './logFileSystem.js';
import { parseBatch } from './parseBatch.js';

/** Why the bytes after the committed frames are there, for the message of the cut that removes them. */
export interface TailCut {
  readonly kind: CutKind;
  readonly why: string;
}

export interface OpenScan {
  /** Last position of the intact frames. */
  readonly head: number;
  /** Where the intact frames end. */
  readonly committedBytes: number;
  /** Set when a torn tail follows them (cut later, kept aside). */
  readonly tornTail: TailCut | null;
  /** Intact frames read. */
  readonly framesScanned: number;
}

/** Where a scan starts: a frame boundary already verified (the start of the file, or a persisted open point) and the head there. */
export interface ScanStart {
  readonly offset: number;
  readonly head: number;
}

/**
 * Reads every frame of the log at open (or every frame after `from`), checking CRCs and that positions are dense,
 * and tells a torn tail from damage. A bad frame (incomplete or CRC-failing) with no
 * intact frame after it, within what one group write can span, is what a crash during
 * the last write leaves: it was never acknowledged and may be cut. A bad frame followed
 * by an intact one is damage to acknowledged data: this throws EventLogCorruptError,
 * naming the file, offset and position, and the caller must not cut anything.
 * `onFrame` is called for every intact frame in file order.
 */
export async function scanOnOpen(
  fh: LogFileHandle,
  file: string,
  onFrame: (firstPosition: number, offset: number) => void,
  from: ScanStart = { offset: 0, head: 0 },
): Promise<OpenScan> {
  const size = (await fh.stat()).size;
  const reader = new FrameReader(fh, from.offset, () => size);
  let head = from.head;
  let good = from.offset;
  let bad = '';
  let framesScanned = 0;
  for (;;) {
    const frame = await reader.next();
    if (frame === null) break;
    if ('torn' in frame) {
      bad = frame.torn;
      break;
    }
    let batchLength: number;
    try {
      batchLength = parseBatch(frame.payload, head + 1, frame.offset, file).length;
    } catch (err) {
      throw new EventLogCorruptError(`${(err as Error).message}. ${wayOut(frame.offset, head + 1, size)}`);
    }
    onFrame(head + 1, frame.offset);
    framesScanned++;
    head += batchLength;
    good = frame.offset + frame.size;
  }
  if (good === size) return { head, committedBytes: good, tornTail: null, framesScanned };

  const where = `${file}: bad frame at byte offset ${good}, where position ${head + 1} should start (${bad})`;
  if (size - good > MAX_TORN_BYTES) {
    throw new EventLogCorruptError(
      `${where}, ${size - good} bytes from the end: more than an interrupted write can leave (${MAX_TORN_BYTES}). ${wayOut(good, head + 1, size)}`,
    );
  }
  const next = await findIntactFrame(fh, good + 1, size);
  if (next !== null) {
    throw new EventLogCorruptError(
      `${where}, followed by an intact frame at byte offset ${next}: damage, not an interrupted write. ${wayOut(good, head + 1, size)}`,
    );
  }
  // The appends of a torn write were never acknowledged (we acknowledge only after
  // fdatasync), so cutting it off loses nothing a caller was told is durable.
  return {
    head,
    committedBytes: good,
    framesScanned,
    tornTail: {
      kind: 'torn',
      why: `torn tail (${bad}): an interrupted write, never acknowledged; position ${head + 1} would have started there`,
    },
  };
}

/** The end of the message that stops start-up on a damaged log: what to do about it. */
function wayOut(offset: number, position: number, size: number): string {
  return (
    `Nothing was cut and the log was not opened. See every damaged frame with 'npm run manage -- verify-log'. ` +
    `'npm run manage -- repair-log' moves bytes ${offset}..${size} (${size - offset} bytes) into a file beside the log ` +
    `and the service then starts with positions 1..${position - 1}; or restore the log from a backup.`
  );
}
