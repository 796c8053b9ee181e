import path from 'node:path';

import { readFully } from './frames.js';
import { type LogFileHandle, type LogFileSystem, syncDir } from './logFileSystem.js';

/** Why bytes were cut off the end of the log; part of the side file's name. */
export type CutKind = 'torn' | 'failed-append' | 'damaged';

export interface KeptAside {
  /** The side file holding the cut bytes, exactly as they were in the log. */
  readonly file: string;
  /** Where they were cut: the log now ends here. */
  readonly offset: number;
  readonly bytes: number;
}

const COPY_CHUNK_BYTES = 4 << 20;

/**
 * Cuts the log back to `offset`, first copying the bytes from there to the end into a
 * side file beside it (`events.log.<kind>-<UTC time>-at-<offset>`), made durable before
 * the log is truncated: the log never loses bytes that are not kept elsewhere. Putting
 * them back is `truncate -s <offset> events.log && cat <side file> >> events.log`.
 *
 * Returns null when there is nothing after `offset`. Throws (and truncates nothing)
 * when the copy cannot be written, e.g. on a full disk.
 */
export async function keepTailAside(
  fs: LogFileSystem,
  log: LogFileHandle,
  logFile: string,
  offset: number,
  kind: CutKind,
  now: Date = new Date(),
): Promise<KeptAside | null> {
  const size = (await log.stat()).size;
  if (size <= offset) return null;
  const bytes = size - offset;
  const stamp = now.toISOString().replace(/[-:]/g, '').replace('.', '');
  let sideFile = `${logFile}.${kind}-${stamp}-at-${offset}`;
  let side: LogFileHandle | null = null;
  for (let n = 2; side === null; n++) {
    try {
      side = await fs.open(sideFile, 'wx', 0o600);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || n > 100) throw error;
      sideFile = `${logFile}.${kind}-${stamp}-at-${offset}.${n}`;
    }
  }
  try {
    const buffer = Buffer.allocUnsafe(Math.min(COPY_CHUNK_BYTES, bytes));
    for (let done = 0; done < bytes;) {
      const length = await readFully(log, buffer, Math.min(buffer.length, bytes - done), offset + done);
      if (length === 0) throw new Error(`${logFile}: ended at ${offset + done} while copying its tail aside`);
      for (let written = 0; written < length;) {
        const { bytesWritten } = await side.write(buffer, written, length - written, done + written);
        if (bytesWritten <= 0) throw new Error(`${sideFile}: write made no progress`);
        written += bytesWritten;
      }
      done += length;
    }
    await side.sync();
  } catch (error) {
    await side.close().catch(() => undefined);
    await fs.unlink(sideFile).catch(() => undefined); // an incomplete copy is worth nothing; the log is untouched
    throw error;
  }
  await side.close();
  await syncDir(fs, path.dirname(logFile));
  await log.truncate(offset);
  await log.sync();
  return { file: sideFile, offset, bytes };
}
