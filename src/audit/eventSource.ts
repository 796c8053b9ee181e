import { randomUUID } from 'node:crypto';
import { open as openFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../config.js';
import type { ChangeEvent } from '../events/ChangeEvent.js';
import { crc32 } from '../events/crc32.js';
import { KafkaEventLog } from '../events/KafkaEventLog.js';
import { assertValidEvents } from '../events/validateEvents.js';

/**
 * Read-only access to the whole event log for offline tools (rebuild, export): it
 * never writes, truncates or fences anything, so it is safe next to a running service.
 *
 * - File log: reads `<DATA_DIR>/events.log` frame by frame ([u32 length][u32 CRC-32]
 *   [JSON array], see FileEventLog) and stops at the first incomplete or CRC-failing
 *   frame: that is either a write in progress or a torn tail the service cuts on its
 *   next open. Positions are checked to be dense.
 * - Kafka: a KafkaEventLog with a transactional id of its own (so it never fences the
 *   service's writer), read from the beginning of the partition.
 *
 * Every event is validated against the envelope schema, as any consumer should.
 */
export interface EventSource {
  readonly description: string;
  /** Committed batches from position 1, in order. */
  read(): AsyncIterable<ChangeEvent[]>;
  /** Progress of the current read, 0..1 (bytes for the file, positions for Kafka). */
  progress(): number;
  close(): Promise<void>;
}

const HEADER_BYTES = 8;
const CHUNK_BYTES = 4 << 20;
const MAX_PAYLOAD_BYTES = 256 * 1024 * 1024;

export async function openEventSource(config: Config): Promise<EventSource> {
  if (config.kafkaBrokers) return openKafkaSource(config.kafkaBrokers, config.kafkaTopic);
  return fileEventSource(path.join(config.dataDir, 'events.log'));
}

export function fileEventSource(file: string): EventSource {
  let size = 0;
  let done = 0;
  return {
    description: file,
    progress: () => (size === 0 ? 1 : Math.min(1, done / size)),
    async *read() {
      let fh;
      try {
        fh = await openFile(file, 'r');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return; // no log yet: nothing was ever written
        throw error;
      }
      try {
        size = (await fh.stat()).size;
        let buffer = Buffer.allocUnsafe(CHUNK_BYTES);
        let start = 0; // unread data is buffer[start, end)
        let end = 0;
        let offset = 0; // file offset of buffer[end]
        let next = 1;
        const fill = async (n: number): Promise<boolean> => {
          if (end - start >= n) return true;
          if (buffer.length - start < n) {
            if (n > buffer.length) {
              const bigger = Buffer.allocUnsafe(n);
              buffer.copy(bigger, 0, start, end);
              buffer = bigger;
            } else {
              buffer.copyWithin(0, start, end);
            }
            end -= start;
            start = 0;
          }
          while (end - start < n) {
            const { bytesRead } = await fh!.read(buffer, end, buffer.length - end, offset);
            if (bytesRead === 0) return false;
            end += bytesRead;
            offset += bytesRead;
          }
          return true;
        };
        for (;;) {
          if (!(await fill(HEADER_BYTES))) return;
          const length = buffer.readUInt32LE(start);
          const crc = buffer.readUInt32LE(start + 4);
          if (length === 0 || length > MAX_PAYLOAD_BYTES) return;
          if (!(await fill(HEADER_BYTES + length))) return;
          const payload = buffer.subarray(start + HEADER_BYTES, start + HEADER_BYTES + length);
          if (crc32(payload) !== crc) return;
          const batch = JSON.parse(payload.toString('utf8')) as unknown[];
          start += HEADER_BYTES + length;
          done += HEADER_BYTES + length;
          if (!Array.isArray(batch)) throw new Error(`${file}: a frame is not an array of events`);
          assertValidEvents(batch);
          for (const event of batch) {
            if (event.position !== next) throw new Error(`${file}: expected position ${next}, found ${event.position}`);
            next++;
          }
          yield batch;
        }
      } finally {
        await fh.close();
      }
    },
    async close() {},
  };
}

async function openKafkaSource(brokers: string[], topic: string): Promise<EventSource> {
  const log = new KafkaEventLog({
    brokers,
    topic,
    clientId: 'netledger-cli',
    // A transactional id of its own: opening must never fence the service's writer.
    transactionalId: `netledger-cli-${randomUUID()}`,
    logLevel: 'error',
  });
  await log.open();
  const head = log.head();
  let last = 0;
  return {
    description: `kafka topic ${topic} (${brokers.join(',')})`,
    progress: () => (head === 0 ? 1 : Math.min(1, last / head)),
    async *read() {
      if (head === 0) return;
      for await (const batch of log.read(1)) {
        // Stop at the head known at open (later batches belong to the next run).
        const inRange = batch.filter((e) => e.position <= head);
        if (inRange.length > 0) {
          last = inRange[inRange.length - 1]!.position;
          yield inRange;
        }
        if (last >= head) return;
      }
    },
    close: () => log.close(),
  };
}

/** Size of the file log in bytes (0 when absent). */
export async function fileLogSize(file: string): Promise<number> {
  try {
    return (await stat(file)).size;
  } catch {
    return 0;
  }
}
