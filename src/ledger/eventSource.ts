import { open as openFile } from 'node:fs/promises';
import path from 'node:path';

import type { Config } from '../config.js';
import type { ChangeEvent } from '../events/ChangeEvent.js';
import { crc32 } from '../events/crc32.js';
import { KafkaEventLog } from '../events/kafka/KafkaEventLog.js';
import { kafkaSettingsFrom } from '../events/kafka/kafkaSettingsFrom.js';
import { assertValidEvents } from '../events/validateEvents.js';

/**
 * Read-only access to the whole event log for offline tools (rebuild, export): it
 * never writes, truncates or fences anything, so it is safe next to a running service.
 *
 * - File log: reads `<DATA_DIR>/events.log` frame by frame ([u32 length][u32 CRC-32]
 *   [JSON array], see FileEventLog) and stops at the first incomplete or CRC-failing
 *   frame: that is either a write in progress or a torn tail the service cuts on its
 *   next open. Positions are checked to be dense.
 * - Kafka: a KafkaEventLog as a follower (it registers no transactional id, so it never
 *   fences the service's writer), read from the beginning of the partition.
 *
 * Every event is validated against the envelope schema, as any consumer should.
 */
export interface EventSource {
  readonly description: string;
  /**
   * Every committed event from position 1, in order, in chunks of whole batches (the
   * file reader joins small batches into chunks of a few thousand events: far fewer
   * async steps than one per request).
   */
  read(): AsyncIterable<ChangeEvent[]>;
  /** Progress of the current read, 0..1 (bytes for the file, positions for Kafka). */
  progress(): number;
  close(): Promise<void>;
}

const HEADER_BYTES = 8;
/** The file reader yields once it holds this many events (or at the end). */
const CHUNK_EVENTS = 4096;
const CHUNK_BYTES = 4 << 20;
const MAX_PAYLOAD_BYTES = 256 * 1024 * 1024;

export async function openEventSource(config: Config): Promise<EventSource> {
  if (config.kafkaBrokers) return openKafkaSource(config);
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
        let chunk: ChangeEvent[] = [];
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
          // A clean end, an incomplete frame (a write in progress) or a bad one: stop there.
          // (Checks what is buffered first: an await per frame would cost more than the parse.)
          const complete =
            (end - start >= HEADER_BYTES || (await fill(HEADER_BYTES))) &&
            frameLength(buffer, start) > 0 &&
            (end - start >= HEADER_BYTES + frameLength(buffer, start) ||
              (await fill(HEADER_BYTES + frameLength(buffer, start))));
          const length = complete ? frameLength(buffer, start) : 0;
          const payload = buffer.subarray(start + HEADER_BYTES, start + HEADER_BYTES + length);
          if (!complete || crc32(payload) !== buffer.readUInt32LE(start + 4)) {
            if (chunk.length > 0) yield chunk;
            return;
          }
          const batch = JSON.parse(payload.toString('utf8')) as unknown[];
          start += HEADER_BYTES + length;
          done += HEADER_BYTES + length;
          if (!Array.isArray(batch)) throw new Error(`${file}: a frame is not an array of events`);
          assertValidEvents(batch);
          for (const event of batch) {
            if (event.position !== next) throw new Error(`${file}: expected position ${next}, found ${event.position}`);
            next++;
            chunk.push(event);
          }
          if (chunk.length >= CHUNK_EVENTS) {
            yield chunk;
            chunk = [];
          }
        }
      } finally {
        await fh.close();
      }
    },
    async close() {},
  };
}

async function openKafkaSource(config: Config): Promise<EventSource> {
  const { brokers, topic } = { brokers: config.kafkaBrokers!, topic: config.kafkaTopic };
  const log = new KafkaEventLog({
    ...kafkaSettingsFrom(config),
    clientId: 'netledger-cli',
    // A follower registers no transactional id: opening never fences the service's writer.
    follower: {},
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

/** A frame's payload length at `start` (0 when implausible: a torn or corrupt frame). */
function frameLength(buffer: Buffer, start: number): number {
  const length = buffer.readUInt32LE(start);
  return length > MAX_PAYLOAD_BYTES ? 0 : length;
}
