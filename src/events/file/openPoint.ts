/**
 * What the open scan of the embedded log learns, persisted as a snapshot (part
 * `event-log`) so that a later open verifies only the frames after it: the committed
 * length and head at one frame boundary, the last frame's offset and first position, the
 * id of the event at the head, and the table of every frame's first position and offset
 * (FramePositions, from which the CheckpointIndex is rebuilt).
 *
 * A persisted point is trusted only if it matches the file: the file is at least that
 * long, the frame at the recorded offset passes its CRC, ends exactly at the recorded
 * length, starts with the recorded position and ends with the recorded event. Frames
 * before the point are not read at open; each is still CRC-checked whenever it is read.
 */
import { endianness } from 'node:os';

import {
  listSnapshots,
  pruneSnapshots,
  readSnapshotBodyWhole,
  readSnapshotHeader,
  writeSnapshot,
} from '../../snapshots/SnapshotFile.js';
import type { ChangeEvent } from '../ChangeEvent.js';
import { crc32 } from '../crc32.js';
import { HEADER_BYTES, MAX_PAYLOAD_BYTES, readFully } from './frames.js';
import type { LogFileHandle } from './logFileSystem.js';

export const OPEN_POINT_PART = 'event-log';
const OPEN_POINT_FORMAT = 1;

export interface OpenPoint {
  /** Last position of the frames up to the point. */
  head: number;
  /** Where those frames end. */
  committedBytes: number;
  /** The id of the event at `head`. */
  eventId: string;
  /** Every frame's first position and byte offset, in file order (the last is the frame ending at `committedBytes`). */
  firsts: Float64Array<ArrayBuffer>;
  offsets: Float64Array<ArrayBuffer>;
}

interface Meta {
  endian: 'LE' | 'BE';
  head: number;
  committedBytes: number;
  frames: number;
}

/** Writes a point and removes all but the `keep` newest. */
export async function writeOpenPoint(dir: string, point: OpenPoint, keep: number): Promise<string> {
  const meta: Meta = {
    endian: endianness(),
    head: point.head,
    committedBytes: point.committedBytes,
    frames: point.firsts.length,
  };
  const json = Buffer.from(JSON.stringify(meta), 'utf8');
  const length = Buffer.alloc(4);
  length.writeUInt32LE(json.byteLength, 0);
  const view = (a: Float64Array) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);
  const file = await writeSnapshot(
    dir,
    { part: OPEN_POINT_PART, format: OPEN_POINT_FORMAT, position: point.head, eventId: point.eventId },
    [length, json, view(point.firsts), view(point.offsets)],
  );
  await pruneSnapshots(dir, OPEN_POINT_PART, keep);
  return file;
}

/**
 * The newest persisted point that matches the file, or null. Points that do not match
 * (another log, a shortened one, a damaged snapshot) are reported and skipped.
 */
export async function findOpenPoint(
  dir: string,
  fh: LogFileHandle,
  file: string,
  report: (message: string, snapshot: string) => void,
): Promise<OpenPoint | null> {
  const size = (await fh.stat()).size;
  for (const entry of await listSnapshots(dir, OPEN_POINT_PART)) {
    try {
      const point = await readOpenPoint(entry.file);
      const mismatch = await mismatchWithFile(point, fh, size);
      if (mismatch === null) return point;
      report(`${file}: persisted open point at position ${point.head} ignored: ${mismatch}`, entry.file);
    } catch (error) {
      report(`${file}: persisted open point ignored: ${(error as Error).message}`, entry.file);
    }
  }
  return null;
}

async function readOpenPoint(snapshot: string): Promise<OpenPoint> {
  const { header, bodyOffset } = await readSnapshotHeader(snapshot);
  if (header.part !== OPEN_POINT_PART || header.format !== OPEN_POINT_FORMAT)
    throw new Error(`format ${header.format} of part ${header.part} is not one this version reads`);
  const body = await readSnapshotBodyWhole(snapshot, header, bodyOffset);
  const metaBytes = body.readUInt32LE(0);
  const meta = JSON.parse(body.toString('utf8', 4, 4 + metaBytes)) as Meta;
  if (meta.endian !== endianness()) throw new Error(`written on a ${meta.endian} machine`);
  const columnBytes = meta.frames * 8;
  const at = 4 + metaBytes;
  if (body.byteLength !== at + 2 * columnBytes || meta.head !== header.position || meta.frames < 1)
    throw new Error('the body does not hang together');
  const firsts = new Float64Array(meta.frames);
  const offsets = new Float64Array(meta.frames);
  new Uint8Array(firsts.buffer).set(body.subarray(at, at + columnBytes));
  new Uint8Array(offsets.buffer).set(body.subarray(at + columnBytes, at + 2 * columnBytes));
  return { head: meta.head, committedBytes: meta.committedBytes, eventId: header.eventId, firsts, offsets };
}

/** Why the point does not describe this file (null when it does). */
async function mismatchWithFile(point: OpenPoint, fh: LogFileHandle, size: number): Promise<string | null> {
  if (size < point.committedBytes)
    return `the log is ${size} bytes, shorter than the ${point.committedBytes} bytes recorded (truncated or replaced)`;
  const last = point.firsts.length - 1;
  const offset = point.offsets[last]!;
  const first = point.firsts[last]!;
  const header = Buffer.alloc(HEADER_BYTES);
  if ((await readFully(fh, header, HEADER_BYTES, offset)) < HEADER_BYTES) return `no frame at byte offset ${offset}`;
  const length = header.readUInt32LE(0);
  if (length === 0 || length > MAX_PAYLOAD_BYTES || offset + HEADER_BYTES + length !== point.committedBytes) {
    return `the frame at byte offset ${offset} does not end at byte ${point.committedBytes}`;
  }
  const payload = Buffer.allocUnsafe(length);
  if ((await readFully(fh, payload, length, offset + HEADER_BYTES)) < length)
    return `the frame at byte offset ${offset} is incomplete`;
  if (crc32(payload) !== header.readUInt32LE(4)) return `the frame at byte offset ${offset} fails its CRC`;
  let batch: ChangeEvent[];
  try {
    batch = JSON.parse(payload.toString('utf8')) as ChangeEvent[];
  } catch {
    return `the frame at byte offset ${offset} is not a batch`;
  }
  if (!Array.isArray(batch) || batch[0]?.position !== first || batch.at(-1)?.position !== point.head) {
    return `the frame at byte offset ${offset} does not hold positions ${first}..${point.head}`;
  }
  if (batch.at(-1)!.eventId !== point.eventId)
    return `the event at position ${point.head} is not the one recorded (another log?)`;
  return null;
}
