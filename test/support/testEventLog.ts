import { randomUUID } from 'node:crypto';
import path from 'node:path';

/**
 * Which event log the services tests start are on. `npm test` runs them on the embedded
 * file log; `npm run test:kafka` (TEST_EVENT_LOG=kafka with KAFKA_BROKERS) runs the
 * service-level suites again on a real Kafka broker, with the embedded read store.
 */
export const kafkaMode = process.env.TEST_EVENT_LOG === 'kafka';

if (kafkaMode && !process.env.KAFKA_BROKERS)
  throw new Error('TEST_EVENT_LOG=kafka needs KAFKA_BROKERS (scripts/kafka-local.sh start, then 127.0.0.1:9092)');

/**
 * One topic and transactional id per data directory: a service started again on the same
 * directory (a restart) finds its log, while services in parallel never share a topic (or
 * fence each other's writer). Kept for the test process's life: a directory is a temp dir
 * of one test file, and ava runs each file in a process of its own.
 */
const topics = new Map<string, { topic: string; transactionalId: string }>();

/**
 * The environment that puts a service on `dataDir` on the event log of this run: nothing
 * in file mode; in Kafka mode the brokers, the directory's own topic and transactional id,
 * and one copy (a single test broker). For startService and for tests that spawn
 * src/main.ts themselves (those pass on a copy of process.env, which in Kafka mode names
 * the brokers but no topic: without this they would all share the default one).
 */
export function eventLogEnv(dataDir: string, options: { takeover?: boolean } = {}): Record<string, string> {
  if (!kafkaMode) return {};
  const key = path.resolve(dataDir);
  let names = topics.get(key);
  if (!names) {
    const id = randomUUID();
    names = { topic: `netledger.test.${id}`, transactionalId: `netledger-test-${id}` };
    topics.set(key, names);
  }
  return {
    KAFKA_BROKERS: process.env.KAFKA_BROKERS!,
    KAFKA_TOPIC: names.topic,
    KAFKA_TRANSACTIONAL_ID: names.transactionalId,
    KAFKA_REPLICATION_FACTOR: '1',
    // A writer killed with -9 stays the lease's holder for 10 s: a test restarting at once takes over.
    ...(options.takeover ? { KAFKA_TAKEOVER: '1' } : {}),
  };
}
