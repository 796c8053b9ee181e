import type { LogCursor } from '../EventLog.js';

/**
 * A Kafka cursor is the offset after a batch's last message. The prefix keeps a cursor
 * of another adapter (or a damaged one) from being taken for an offset.
 */
const PREFIX = 'kafka:';

export function cursorAt(nextOffset: bigint): LogCursor {
  return `${PREFIX}${nextOffset}`;
}

/** The offset a cursor names, or null when it is not a Kafka cursor. */
export function offsetOfCursor(cursor: LogCursor): bigint | null {
  if (!cursor.startsWith(PREFIX)) return null;
  const digits = cursor.slice(PREFIX.length);
  return /^\d{1,19}$/.test(digits) ? BigInt(digits) : null;
}
