import type { ChangeEvent } from '../ChangeEvent.js';
import type { Checkpoint } from './CheckpointIndex.js';
import { FrameReader } from './frames.js';
import { EventLogCorruptError } from './logErrors.js';
import type { LogFileSystem } from './logFileSystem.js';
import { parseBatch } from './parseBatch.js';

/**
 * Streams committed batches with position >= `from` from the log file, through a read
 * handle of its own, starting at `start` (a frame boundary at or before `from`). It
 * reads up to the committed length, asked again each time it runs out, so batches
 * committed during the iteration are included too. A frame that fails its CRC inside
 * the committed part is corruption, not a torn tail.
 */
export async function* readCommitted(
  fs: LogFileSystem,
  file: string,
  start: Checkpoint,
  from: number,
  committedBytes: () => number,
): AsyncGenerator<ChangeEvent[]> {
  const fh = await fs.open(file, 'r');
  try {
    const reader = new FrameReader(fh, start.offset, committedBytes);
    let next = start.position;
    for (;;) {
      const frame = await reader.next();
      if (frame === null) return;
      if ('torn' in frame) {
        throw new EventLogCorruptError(`${file}: ${frame.torn} at offset ${frame.offset} inside the committed log`);
      }
      const batch = parseBatch(frame.payload, next, frame.offset, file);
      next += batch.length;
      if (next <= from) continue;
      const first = batch[0]!.position;
      yield first >= from ? batch : batch.slice(from - first);
    }
  } finally {
    await fh.close();
  }
}
