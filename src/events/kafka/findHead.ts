import type { KafkaMessage } from 'kafkajs';
import { decode } from './messages.js';
import type { PartitionOffsets } from './topicAdmin.js';

/** How far back from the end the first look for the last event reaches (doubles until found). */
const HEAD_WINDOW = 64n;

/**
 * The position of the last committed event: reads the tail [high - window, high) and
 * widens the window while it holds only commit markers or aborted records (they occupy
 * offsets too, so the last offset says nothing about the last position).
 */
export async function findHead(
  offsets: () => Promise<PartitionOffsets>,
  consumeRange: (start: bigint, end: bigint, onMessages: (messages: KafkaMessage[]) => Promise<void>) => Promise<void>,
): Promise<number> {
  const { low, high } = await offsets();
  for (let window = HEAD_WINDOW; ; window *= 2n) {
    const start = high - window > low ? high - window : low;
    if (start >= high) return 0;
    let head = 0;
    await consumeRange(start, high, async (messages) => {
      for (const message of messages) {
        if (BigInt(message.offset) >= high) continue;
        head = Math.max(head, decode(message).position);
      }
    });
    if (head > 0 || start === low) return head;
  }
}
