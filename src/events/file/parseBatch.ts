import type { ChangeEvent } from '../ChangeEvent.js';
import { EventLogCorruptError } from './logErrors.js';

/** Parses a CRC-valid payload and checks that its positions continue at `expected`. */
export function parseBatch(payload: Buffer, expected: number, offset: number, file: string): ChangeEvent[] {
  let batch: unknown;
  try {
    batch = JSON.parse(payload.toString('utf8'));
  } catch (err) {
    throw new EventLogCorruptError(`${file}: frame at offset ${offset} is not valid JSON: ${(err as Error).message}`);
  }
  if (!Array.isArray(batch) || batch.length === 0) {
    throw new EventLogCorruptError(`${file}: frame at offset ${offset} is not a non-empty array of events`);
  }
  for (let i = 0; i < batch.length; i++) {
    const event = batch[i] as { position?: unknown } | null;
    if (event === null || typeof event !== 'object' || event.position !== expected + i) {
      throw new EventLogCorruptError(
        `${file}: frame at offset ${offset}: expected position ${expected + i}, found ${String(event?.position)} (positions must be dense)`,
      );
    }
  }
  return batch as ChangeEvent[];
}
