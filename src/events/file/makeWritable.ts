import { keepTailAside } from './keepAside.js';
import { EventLogCorruptError } from './logErrors.js';
import type { LogFileHandle, LogFileSystem } from './logFileSystem.js';
import type { TailCut } from './scanOnOpen.js';

/** Bytes written and fsynced by the writability probe. */
const PROBE_BYTES = 4096;

export const FAILED_APPEND: TailCut = {
  kind: 'failed-append',
  why: 'the partial write of an append that failed and was answered as failed',
};

export interface WritableTarget {
  readonly fs: LogFileSystem;
  readonly fh: LogFileHandle;
  readonly file: string;
  /** Where the committed frames end: the file must end there before anything is appended. */
  readonly committedBytes: number;
  /** The position the first cut byte would have started (for the log line). */
  readonly nextPosition: number;
  readonly logger: (entry: Record<string, unknown>) => void;
}

/**
 * Makes the file end where the committed frames end, moving anything after them (a torn
 * tail found at open, a failed append's partial bytes) into a side file first and
 * logging the cut, then checks that the storage takes a write. `cutDone` hears how many
 * bytes were cut (0: none) once the file ends at the committed frames, before the probe:
 * a cut that happened stays counted even when the probe then fails. Throws a storage
 * error if the storage refuses.
 */
export async function makeWritable(
  target: WritableTarget,
  cut: TailCut,
  cutDone: (bytes: number) => void,
): Promise<void> {
  const { fs, fh, file, committedBytes } = target;
  const size = (await fh.stat()).size;
  if (size < committedBytes) {
    throw new EventLogCorruptError(
      `${file} is ${size} bytes, shorter than the ${committedBytes} bytes already committed: something else truncated it`,
    );
  }
  let cutBytes = 0;
  if (size > committedBytes) {
    const kept = await keepTailAside(fs, fh, file, committedBytes, cut.kind);
    if (kept) {
      cutBytes = kept.bytes;
      target.logger({
        level: 'warn',
        msg: `event log: cut ${kept.bytes} bytes at byte offset ${kept.offset} (${cut.why}); they are kept in ${kept.file}`,
        file,
        offset: kept.offset,
        bytes: kept.bytes,
        position: target.nextPosition,
        keptIn: kept.file,
      });
    }
  }
  cutDone(cutBytes);
  await probe(fs, file);
}

/** Writes and fsyncs a small file beside the log: does the storage take data right now? */
async function probe(fs: LogFileSystem, logFile: string): Promise<void> {
  const file = `${logFile}.write-probe`;
  const handle = await fs.open(file, 'w', 0o600);
  try {
    await writeFully(handle, Buffer.alloc(PROBE_BYTES), 0);
    await handle.datasync();
  } finally {
    await handle.close().catch(() => undefined);
    await fs.unlink(file).catch(() => undefined);
  }
}

/** Writes all of `buf` at `position`, however many write calls that takes. */
export async function writeFully(fh: LogFileHandle, buf: Buffer, position: number): Promise<void> {
  let done = 0;
  while (done < buf.length) {
    const { bytesWritten } = await fh.write(buf, done, buf.length - done, position + done);
    if (bytesWritten <= 0) throw new Error('event log write made no progress');
    done += bytesWritten;
  }
}
