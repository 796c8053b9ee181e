import type { TestService } from './startService.js';

/**
 * Every event of a service's log as read back through the log's port, as JSON bytes: what a
 * test may search for things that must never be logged, on the file log (events.log) and on
 * Kafka (the topic's messages) alike.
 */
export async function loggedBytes(service: TestService): Promise<Buffer> {
  const batches: string[] = [];
  for await (const batch of service.services.log.read(1)) batches.push(JSON.stringify(batch));
  return Buffer.from(batches.join('\n'), 'utf8');
}
