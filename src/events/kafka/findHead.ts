import type { KafkaMessage } from 'kafkajs';

import type { ChangeEvent } from '../ChangeEvent.js';
import { decode } from './messages.js';
import type { PartitionOffsets } from './topicAdmin.js';

/** How far back from the end the first look for the last event reaches (doubles until found). */
const HEAD_WINDOW = 64n;

/**
 * The last committed event (null for an empty log): reads the tail [high - window, high) and
 * widens the window while it holds only commit markers or aborted records (they occupy
 * offsets too, so the last offset says nothing about the last position).
 */
export async function findLastEvent(
  offsets: () => Promise<PartitionOffsets>,
  consumeRange: (start: bigint, end: bigint, onMessages: (messages: KafkaMessage[]) => Promise<void>) => Promise<void>,
  onFound?: (event: ChangeEvent, message: KafkaMessage) => void,
): Promise<ChangeEvent | null> {
  const { low, high } = await offsets();
  for (let window = HEAD_WINDOW; ; window *= 2n) {
    const start = high - window > low ? high - window : low;
    if (start >= high) return null;
    let last: ChangeEvent | null = null;
    let lastMessage: KafkaMessage | null = null;
    await consumeRange(start, high, async (messages) => {
      for (const message of messages) {
        if (BigInt(message.offset) >= high) continue;
        const event = decode(message);
        if (!last || event.position > last.position) [last, lastMessage] = [event, message];
      }
    });
    if (last) onFound?.(last, lastMessage!);
    if (last || start === low) return last;
  }
}
