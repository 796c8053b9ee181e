import type { IHeaders, Message } from 'kafkajs';

import type { ChangeEvent } from '../ChangeEvent.js';
import { assertValidEvents } from '../validateEvents.js';

/** The topic's only partition: one partition gives the log its total order. */
export const PARTITION = 0;

/**
 * One Kafka message per event: key `<objectType>:<objectId>`, value = the event as JSON,
 * headers for consumers that do not parse the value, and `batch-last-position` so that
 * readers rebuild the appended batches exactly.
 */
export function encode(event: ChangeEvent, batchLastPosition: number): Message {
  return {
    partition: PARTITION,
    key: `${event.objectType}:${event.objectId}`,
    value: Buffer.from(JSON.stringify(event)),
    headers: {
      'request-id': event.requestId,
      action: event.action,
      'object-type': event.objectType,
      position: String(event.position),
      'schema-version': String(event.v),
      'batch-last-position': String(batchLastPosition),
    },
  };
}

/** The part of a consumed message the reader needs (kafkajs' KafkaMessage fits it). */
export interface RawMessage {
  offset: string;
  value: Buffer | null;
  headers?: IHeaders;
}

/** The event a message holds, validated against the envelope schema. */
export function decode(message: RawMessage): ChangeEvent {
  if (!message.value) throw new Error(`KafkaEventLog: empty message at offset ${message.offset}`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(message.value.toString('utf8'));
  } catch {
    throw new Error(`KafkaEventLog: message at offset ${message.offset} is not JSON`);
  }
  const events = [parsed];
  assertValidEvents(events);
  return events[0]!;
}

export function header(headers: IHeaders | undefined, name: string): string | undefined {
  const value = headers?.[name];
  const first = Array.isArray(value) ? value[0] : value;
  return first === undefined ? undefined : first.toString();
}
