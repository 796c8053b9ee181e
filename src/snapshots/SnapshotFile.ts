/**
 * A snapshot file: one part of the derived state (the read models, the audit indexes ...)
 * as it stood at one log position, so that start-up loads it and replays only the tail.
 * A snapshot is never the only copy of anything (the log is), so a damaged, foreign or
 * unreadable one is skipped and an older one, or the whole log, is used instead.
 *
 * Layout: one line of JSON (the header, padded to a fixed slot), then the body. The header names the part, the
 * body's format, the position, the id of the event at that position (so a snapshot of a
 * different log, or of one cut shorter since, is recognised) and the SHA-256 of the body.
 * Files are written beside the final name, synced, then renamed, so a crash leaves either
 * the whole snapshot or none.
 */
import { createHash } from 'node:crypto';
import { mkdir, open, readdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';

import { digestOnWorker } from './digestOnWorker.js';

export interface SnapshotHeader {
  /** Which state this is ('read-models', 'audit-index' ...). */
  part: string;
  /** The body's layout version; a reader skips formats it does not know. */
  format: number;
  /** The last log position the state includes. */
  position: number;
  /** The event id at `position` ('' at position 0). */
  eventId: string;
  /**
   * Where the event at `position` ends in the log's own storage (a Kafka cursor), when the
   * state was handed one there: the check of `eventId` reads the event there instead of
   * scanning the log for it. Added without a format change: older snapshots lack it.
   */
  cursor?: string;
  /** When the snapshot was written (ISO 8601). */
  createdAt: string;
  bytes: number;
  sha256: string;
}

export interface SnapshotEntry {
  part: string;
  position: number;
  file: string;
}

/** The body did not match its checksum or length, or the file is not a snapshot. */
export class SnapshotDamagedError extends Error {}

const SUFFIX = '.snap';
/** Bytes reserved for the header line at the start of the file. */
const HEADER_SLOT = 1024;
/** Bytes read at a time from a body that is streamed (readSnapshotBody). */
const BODY_CHUNK = 1 << 20;

function fileName(part: string, position: number): string {
  return `${part}.${String(position).padStart(12, '0')}${SUFFIX}`;
}

/**
 * Writes a snapshot from the body's chunks (consumed once, in order), atomically.
 * Returns the final path. The directory is created when missing.
 */
export async function writeSnapshot(
  dir: string,
  header: Omit<SnapshotHeader, 'bytes' | 'sha256' | 'createdAt'>,
  body: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
): Promise<string> {
  // Owner only, like everything in the data directory: a snapshot holds what the read models hold.
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const target = path.join(dir, fileName(header.part, header.position));
  const temporary = `${target}.${process.pid}.tmp`;
  const out = await open(temporary, 'w', 0o600);
  const hash = createHash('sha256');
  let bytes = 0;
  try {
    // The header goes first but is known last: its slot is reserved, then filled in.
    let offset = HEADER_SLOT;
    for await (const chunk of body) {
      hash.update(chunk);
      bytes += chunk.byteLength;
      await out.write(chunk, 0, chunk.byteLength, offset);
      offset += chunk.byteLength;
    }
    const full: SnapshotHeader = { ...header, createdAt: new Date().toISOString(), bytes, sha256: hash.digest('hex') };
    const line = JSON.stringify(full);
    if (Buffer.byteLength(line) >= HEADER_SLOT) throw new Error(`snapshot header longer than ${HEADER_SLOT - 1} bytes`);
    await out.write(`${line.padEnd(HEADER_SLOT - 1, ' ')}\n`, 0, 'utf8');
    await out.sync();
    await out.close();
    await rename(temporary, target);
    await syncDirectory(dir);
    return target;
  } finally {
    await out.close().catch(() => undefined);
    await rm(temporary, { force: true });
  }
}

/** The snapshots of a part in the directory, newest position first. */
export async function listSnapshots(dir: string, part: string): Promise<SnapshotEntry[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const pattern = new RegExp(`^${part.replace(/[^a-z0-9-]/gi, '')}\\.(\\d{12})\\${SUFFIX}$`);
  const found: SnapshotEntry[] = [];
  for (const name of names) {
    const match = pattern.exec(name);
    if (match) found.push({ part, position: Number(match[1]), file: path.join(dir, name) });
  }
  return found.sort((a, b) => b.position - a.position);
}

/** Reads a snapshot's header line. A SnapshotDamagedError when there is none. */
export async function readSnapshotHeader(file: string): Promise<{ header: SnapshotHeader; bodyOffset: number }> {
  const handle = await open(file, 'r');
  try {
    const buffer = Buffer.alloc(HEADER_SLOT);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    const end = buffer.subarray(0, bytesRead).indexOf(0x0a);
    if (end < 0) throw new SnapshotDamagedError(`${file}: no snapshot header`);
    let header: SnapshotHeader;
    try {
      header = JSON.parse(buffer.subarray(0, end).toString('utf8')) as SnapshotHeader;
    } catch {
      throw new SnapshotDamagedError(`${file}: the snapshot header is not JSON`);
    }
    if (typeof header?.position !== 'number' || typeof header.sha256 !== 'string' || typeof header.bytes !== 'number') {
      throw new SnapshotDamagedError(`${file}: the snapshot header is incomplete`);
    }
    return { header, bodyOffset: end + 1 };
  } finally {
    await handle.close();
  }
}

/**
 * The body's chunks, checked: the iteration throws a SnapshotDamagedError at its end
 * when the length or the checksum does not match, so a loader builds into fresh state
 * and adopts it only once the iteration completed. The checksum is computed on a worker
 * thread while the chunks are read and decoded here (digestOnWorker).
 */
export async function* readSnapshotBody(
  file: string,
  header: SnapshotHeader,
  bodyOffset: number,
): AsyncGenerator<Buffer> {
  const handle = await open(file, 'r');
  const hashing = digestOnWorker(handle.fd, bodyOffset, header.bytes);
  try {
    let bytes = 0;
    for (;;) {
      const buffer = Buffer.allocUnsafe(BODY_CHUNK);
      const { bytesRead } = await handle.read(buffer, 0, BODY_CHUNK, bodyOffset + bytes);
      if (bytesRead <= 0) break;
      bytes += bytesRead;
      yield bytesRead === BODY_CHUNK ? buffer : buffer.subarray(0, bytesRead);
    }
    if (bytes !== header.bytes)
      throw new SnapshotDamagedError(`${file}: body is ${bytes} bytes, the header says ${header.bytes}`);
    const digest = await hashing.digest;
    if (digest.bytes !== bytes || digest.sha256 !== header.sha256)
      throw new SnapshotDamagedError(`${file}: body does not match its checksum`);
  } finally {
    await hashing.stop();
    await handle.close();
  }
}

/**
 * The whole body in one buffer of its own (its ArrayBuffer starts at the body, so a
 * loader can lay typed arrays over aligned parts of it without copying), read straight
 * into it and checked: a SnapshotDamagedError when the length or the checksum does not match.
 */
export async function readSnapshotBodyWhole(file: string, header: SnapshotHeader, bodyOffset: number): Promise<Buffer> {
  const handle = await open(file, 'r');
  try {
    const size = (await handle.stat()).size - bodyOffset;
    if (size !== header.bytes)
      throw new SnapshotDamagedError(`${file}: body is ${size} bytes, the header says ${header.bytes}`);
    const body = Buffer.allocUnsafeSlow(size);
    // Hashed on a worker while it is read here: the reading's time is hidden behind the hashing's.
    const hashing = digestOnWorker(handle.fd, bodyOffset, size);
    try {
      let done = 0;
      while (done < size) {
        const { bytesRead } = await handle.read(body, done, Math.min(size - done, 8 << 20), bodyOffset + done);
        if (bytesRead <= 0)
          throw new SnapshotDamagedError(`${file}: body ends after ${done} bytes, the header says ${header.bytes}`);
        done += bytesRead;
      }
      const digest = await hashing.digest;
      if (digest.bytes !== size || digest.sha256 !== header.sha256)
        throw new SnapshotDamagedError(`${file}: body does not match its checksum`);
      return body;
    } finally {
      await hashing.stop();
    }
  } finally {
    await handle.close();
  }
}

/**
 * What a snapshot needs of the event log, said here rather than imported: snapshot files
 * sit beneath every part that keeps them, the logs included.
 */
export interface LogPositions {
  head(): number;
  readPositions(
    positions: readonly number[],
    near?: { position: number; cursor: string } | null,
  ): Promise<ReadonlyArray<{ eventId: string }>>;
}

/**
 * The id of the log's event at a position ('' at 0), or null where the log does not reach.
 * `cursor`, when known, says where that event ends in the log's storage (see SnapshotHeader).
 * `applied`: the caller's state was built from that event (a snapshot being written), so it is
 * committed even if head() has not caught up with it: a Kafka writer's subscribers see a
 * commit before the append's answer moves its head.
 */
export type EventIdAt = (position: number, cursor?: string | null, applied?: boolean) => Promise<string | null>;

export function eventIdsOf(log: LogPositions): EventIdAt {
  return async (position, cursor, applied = false) => {
    if (position === 0) return '';
    if (position > log.head() && !applied) return null;
    const [event] = await log.readPositions([position], cursor ? { position, cursor } : null);
    return event?.eventId ?? null;
  };
}

/** The cursor a snapshot at `position` records: the state's resume point's, when it is at that position. */
export function cursorAt(position: number, resume: { position: number; cursor: string } | null | undefined) {
  return resume?.position === position ? { cursor: resume.cursor } : {};
}

/** Why a snapshot of a part is passed over: it does not follow the log, or it cannot be read. */
export type SnapshotSkip = { file: string; reason: string; kind: 'not of this log' | 'unreadable' };

/**
 * The newest snapshot of a part, at or before `atOrBefore`, that was taken of this log
 * (the log's event at its position has the id it recorded) and that `load` accepts. Each
 * one passed over is reported and the next older tried; null when none is left.
 *
 * A failure to read the log's event at the snapshot's position (Kafka's partition leader
 * unreachable, or the client's own error before a read could start) is thrown: it says
 * nothing about the snapshot (`load` reads only the file), and passing over every
 * snapshot for it would turn a short outage into a replay of the whole log. The caller
 * fails (a start-up stops and is restarted) and the snapshots are left as they are.
 */
export async function loadNewestMatching<T>(
  dir: string,
  part: string,
  {
    eventIdAt,
    atOrBefore = Infinity,
    load,
    skipped,
  }: {
    eventIdAt: EventIdAt;
    atOrBefore?: number;
    load: (file: string, header: SnapshotHeader, bodyOffset: number) => Promise<T>;
    skipped: (skip: SnapshotSkip) => void;
  },
): Promise<{ value: T; header: SnapshotHeader; file: string } | null> {
  for (const entry of await listSnapshots(dir, part)) {
    if (entry.position > atOrBefore) continue;
    let opened: { header: SnapshotHeader; bodyOffset: number };
    try {
      opened = await readSnapshotHeader(entry.file);
    } catch (error) {
      skipped({ file: entry.file, kind: 'unreadable', reason: (error as Error).message });
      continue;
    }
    const { header, bodyOffset } = opened;
    // Outside the snapshot's own failures: whatever the log throws here (unreachable, or a
    // client error before a read could start) says nothing about the snapshot.
    const eventId = header.position === entry.position ? await eventIdAt(header.position, header.cursor) : null;
    if (eventId === null) {
      skipped({
        file: entry.file,
        kind: 'not of this log',
        reason: `it is at position ${header.position}, beyond the log's head (the log was cut shorter or replaced)`,
      });
      continue;
    }
    if (eventId !== header.eventId) {
      skipped({
        file: entry.file,
        kind: 'not of this log',
        reason: `it was not taken of this log: the log's event at position ${header.position} is not the one it was taken at`,
      });
      continue;
    }
    try {
      return { value: await load(entry.file, header, bodyOffset), header, file: entry.file };
    } catch (error) {
      skipped({ file: entry.file, kind: 'unreadable', reason: (error as Error).message });
    }
  }
  return null;
}

/** Removes all but the `keep` newest snapshots of a part (and leftovers of interrupted writes). */
export async function pruneSnapshots(dir: string, part: string, keep: number): Promise<void> {
  const entries = await listSnapshots(dir, part);
  for (const entry of entries.slice(keep)) await rm(entry.file, { force: true });
  let names: string[] = [];
  try {
    names = await readdir(dir);
  } catch {
    return;
  }
  for (const name of names) {
    if (name.startsWith(`${part}.`) && name.includes(`${SUFFIX}.`) && name.endsWith('.tmp')) {
      const pid = Number(name.split('.').at(-2));
      if (pid !== process.pid) await rm(path.join(dir, name), { force: true });
    }
  }
}

async function syncDirectory(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } catch {
    // Some file systems refuse to sync a directory; the rename is then as durable as they make it.
  } finally {
    await handle.close();
  }
}
