import { exec } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';

import test from 'ava';
import { Kafka, logLevel } from 'kafkajs';

import { startService, type TestService } from '../support/startService.js';

/**
 * The service on a real broker, under faults the adapter's own suite (kafkaEventLog.int.spec.ts)
 * does not reach: a broker killed, or stopped gracefully (the transaction coordinator restarted),
 * during a bulk write through HTTP, a second service fencing the first, an event over the
 * topic's message.max.bytes, a compacted topic at start.
 *   KAFKA_PORT=9392 scripts/kafka-local.sh start
 *   KAFKA_BROKERS=127.0.0.1:9392 KAFKA_KILL_COMMAND='KAFKA_PORT=9392 scripts/kafka-local.sh kill' \
 *     KAFKA_DOWN_COMMAND='KAFKA_PORT=9392 scripts/kafka-local.sh stop' \
 *     KAFKA_UP_COMMAND='KAFKA_PORT=9392 scripts/kafka-local.sh start' npx ava test/events/kafkaRealFaults.int.spec.ts
 * Each service gets a topic and a transactional id of its own. Serial: one test kills the broker.
 */
const brokers = (process.env.KAFKA_BROKERS ?? '')
  .split(',')
  .map((b) => b.trim())
  .filter((b) => b.length > 0);

const run = (command: string) => promisify(exec)(command).then(() => undefined);

/** The env of a writer on a topic of its own (one broker: one copy). */
const kafkaEnv = (topic = `netledger.test.${randomUUID()}`, transactionalId = `netledger-test-${randomUUID()}`) => ({
  KAFKA_BROKERS: brokers.join(','),
  KAFKA_TOPIC: topic,
  KAFKA_TRANSACTIONAL_ID: transactionalId,
  KAFKA_REPLICATION_FACTOR: '1',
});

/** A topic made by an operator, kept forever (the service refuses any other) unless `configEntries` say otherwise. */
const createTopic = async (topic: string, overrides: { name: string; value: string }[]) => {
  const kept = [
    { name: 'retention.ms', value: '-1' },
    { name: 'retention.bytes', value: '-1' },
  ];
  const configEntries = [...kept.filter((k) => !overrides.some((o) => o.name === k.name)), ...overrides];
  const admin = new Kafka({ clientId: 'netledger-test', brokers, logLevel: logLevel.NOTHING }).admin();
  await admin.connect();
  try {
    await admin
      .createTopics({
        waitForLeaders: true,
        topics: [{ topic, numPartitions: 1, replicationFactor: 1, configEntries }],
      })
      // Created, but not yet known to a busy broker when the library first asks (the service waits for it).
      .catch((error: { type?: string }) => {
        if (error.type !== 'UNKNOWN_TOPIC_OR_PARTITION') throw error;
      });
  } finally {
    await admin.disconnect();
  }
};

/** Members of a writer lease's consumer group (KafkaEventLog names it `<transactional id>.lease.<topic>`). */
const leaseMembers = async (env: ReturnType<typeof kafkaEnv>) => {
  const admin = new Kafka({ clientId: 'netledger-test', brokers, logLevel: logLevel.NOTHING }).admin();
  await admin.connect();
  try {
    const groupId = `${env.KAFKA_TRANSACTIONAL_ID}.lease.${env.KAFKA_TOPIC}`;
    const { groups } = await admin.describeGroups([groupId]);
    return groups.find((g) => g.groupId === groupId)?.members.length ?? 0;
  } finally {
    await admin.disconnect();
  }
};

/** Resolves `seen` when a record holding `marker` reaches the topic, committed or not. */
const watchUncommitted = async (topic: string, marker: string) => {
  const kafka = new Kafka({ clientId: 'netledger-test', brokers, logLevel: logLevel.NOTHING });
  // It dies with the broker and stays dead: a consumer retrying across the restart would outlive the test.
  const consumer = kafka.consumer({
    groupId: `netledger-test-${randomUUID()}`,
    readUncommitted: true,
    maxWaitTimeInMs: 50,
    retry: { retries: 0, restartOnFailure: async () => false },
  });
  let found: () => void = () => {};
  const seen = new Promise<true>((resolve) => (found = () => resolve(true)));
  await consumer.connect();
  await consumer.subscribe({ topic, fromBeginning: false });
  const joined = new Promise<void>((resolve) => consumer.on(consumer.events.GROUP_JOIN, () => resolve()));
  await consumer.run({
    eachMessage: async ({ message }) => {
      if (message.value?.includes(marker)) found();
    },
  });
  await joined;
  return { seen, stop: () => consumer.disconnect().catch(() => {}) };
};

const count = async (service: TestService, route: string) => {
  const response = await service.api('GET', `${route}${route.includes('?') ? '&' : '?'}limit=1`);
  if (response.status !== 200) throw new Error(`GET ${route}: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body.count as number;
};

/** Retries `attempt` until it answers `status`, for at most `ms` (the service resuming after an outage). */
const until = async <T extends { status: number }>(ms: number, attempt: () => Promise<T>, status: number) => {
  const deadline = Date.now() + ms;
  for (;;) {
    const response = await attempt();
    if (response.status === status || Date.now() > deadline) return response;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
};

if (brokers.length === 0) {
  test('Kafka faults through the service: skipped: KAFKA_BROKERS not set', (t) => {
    t.log('skipped: KAFKA_BROKERS not set');
    t.pass();
  });
} else {
  const upCommand = process.env.KAFKA_UP_COMMAND;
  // The broker killed (a crash), and stopped gracefully: on one node it is the transaction
  // coordinator too, so the stop is the coordinator restarted mid-transaction (its clean
  // shutdown, then its recovery of the open transaction from its log).
  const outages = [
    { how: 'killed (-9)', variable: 'KAFKA_KILL_COMMAND', command: process.env.KAFKA_KILL_COMMAND },
    {
      how: 'stopped gracefully (the transaction coordinator restarted)',
      variable: 'KAFKA_DOWN_COMMAND',
      command: process.env.KAFKA_DOWN_COMMAND,
    },
  ];
  for (const { how, variable, command: downCommand } of outages) {
    if (!downCommand || !upCommand) {
      test(`Kafka faults: the broker ${how} during a bulk write: skipped: ${variable} / KAFKA_UP_COMMAND not set`, (t) => {
        t.log(`skipped: ${variable} / KAFKA_UP_COMMAND not set (they take the broker down and start it)`);
        t.pass();
      });
      continue;
    }
    test.serial(
      `Kafka faults: the broker ${how} during a bulk write: wholly committed and answered, or 503 and absent; writes resume`,
      async (t) => {
        t.timeout(240_000);
        const env = kafkaEnv();
        const service = await startService(env);
        t.teardown(() => service.close());
        const size = 1000;
        const marker = `bulk-${randomUUID()}`;
        const body = Array.from({ length: size }, (_, i) => ({
          address: `10.${(i >> 8) & 255}.${i & 255}.1/32`,
          description: marker,
        }));
        const before = await count(service, '/api/extras/object-changes/');
        // The outage lands inside the transaction: a read_uncommitted consumer sees its first
        // records before the commit, and the broker is taken down then.
        const inTransaction = await watchUncommitted(env.KAFKA_TOPIC, marker);
        const write = service.api('POST', '/api/ipam/ip-addresses/', body);
        const seen = await Promise.race([inTransaction.seen, write.then(() => false)]);
        await run(downCommand);
        const downAt = Date.now();
        t.log(
          seen ? 'taken down with the transaction open (its records seen uncommitted)' : 'taken down after the answer',
        );
        await run(upCommand);
        await inTransaction.stop();
        t.log(`broker restarted ${Math.round((Date.now() - downAt) / 1000)} s after it went down`);
        const answer = await write;
        t.log(
          `the bulk write was answered ${answer.status} ${answer.status === 201 ? '' : JSON.stringify(answer.body)}`,
        );
        t.true([201, 503].includes(answer.status), `answered ${answer.status}: ${JSON.stringify(answer.body)}`);

        // Writes resume once the broker is back (a 503 before that is the outage still being settled).
        const site = { name: marker, slug: marker };
        const next = await until(120_000, () => service.api('POST', '/api/dcim/sites/', site), 201);
        t.is(next.status, 201, JSON.stringify(next.body));
        const written = await count(service, `/api/ipam/ip-addresses/?description=${marker}`);
        const changes = (await count(service, '/api/extras/object-changes/')) - before - 1;
        if (answer.status === 201) {
          t.is(written, size, 'an acknowledged write is wholly there');
          t.is(answer.body.length, size);
        } else {
          // 503: refused (absent) or of unknown outcome (all or nothing, never half).
          t.true(written === 0 || written === size, `${written} of ${size} written: never half`);
          if (!/may or may not|unknown/i.test(JSON.stringify(answer.body)))
            t.is(written, 0, 'a refused write is absent');
        }
        t.is(changes, written, 'object changes match the objects: nothing half-recorded');
      },
    );
  }

  test.serial(
    'Kafka faults: a second writer on the same topic fences the first, which then refuses writes with 503',
    async (t) => {
      t.timeout(120_000);
      const env = kafkaEnv();
      const first = await startService(env);
      t.teardown(() => first.close());
      t.is((await first.api('POST', '/api/dcim/sites/', { name: 'one', slug: 'one' })).status, 201);

      // Without KAFKA_TAKEOVER, a second writer refuses to start while the first is live.
      await t.throwsAsync(startService(env), { message: /live|another writer|KAFKA_TAKEOVER/i });

      const second = await startService({ ...env, KAFKA_TAKEOVER: '1' });
      t.teardown(() => second.close());
      const refused = await first.api('POST', '/api/dcim/sites/', { name: 'two', slug: 'two' });
      t.is(refused.status, 503, JSON.stringify(refused.body));
      t.truthy(refused.body.detail);
      const fatal = await first.fatal;
      t.regex(`${fatal.reason}: ${fatal.error.message}`, /fenc|writer/i);
      t.is(
        (await first.api('POST', '/api/dcim/sites/', { name: 'three', slug: 'three' })).status,
        503,
        'stays refused',
      );

      t.is((await second.api('POST', '/api/dcim/sites/', { name: 'four', slug: 'four' })).status, 201);
      const sites = (await second.api('GET', '/api/dcim/sites/?ordering=name')).body.results;
      const names = sites.map((s: { name: string }) => s.name);
      t.deepEqual(names, ['four', 'one'], 'the fenced writer wrote nothing after the fence');
      // Both stopped: the lease is left (the fenced writer's consumer, which released it when
      // fenced, once came back with the client's crash restart and kept the process alive).
      await first.close();
      await second.close();
      t.is(await leaseMembers(env), 0, 'no writer holds the lease after both stopped');
    },
  );

  test.serial(
    "Kafka faults: an event over the topic's max.message.bytes is refused with 413 and nothing is written",
    async (t) => {
      t.timeout(120_000);
      const topic = `netledger.test.${randomUUID()}`;
      await createTopic(topic, [{ name: 'max.message.bytes', value: String(64 * 1024) }]);
      const service = await startService(kafkaEnv(topic));
      t.teardown(() => service.close());
      const changes = await count(service, '/api/extras/object-changes/');
      const big = 'x'.repeat(100 * 1024);
      const single = await service.api('POST', '/api/dcim/sites/', { name: 'big', slug: 'big', comments: big });
      t.is(single.status, 413, JSON.stringify(single.body));
      const bulk = await service.api('POST', '/api/dcim/sites/', [
        { name: 'small', slug: 'small' },
        { name: 'big', slug: 'big', comments: big },
      ]);
      t.is(bulk.status, 413, 'one event too large refuses the whole request');
      t.is(await count(service, '/api/dcim/sites/'), 0);
      t.is(await count(service, '/api/extras/object-changes/'), changes);
      // Under the limit, the same topic takes writes.
      const fitting = { name: 'fits', slug: 'fits', comments: 'x'.repeat(30 * 1024) };
      const fits = await service.api('POST', '/api/dcim/sites/', fitting);
      t.is(fits.status, 201, JSON.stringify(fits.body));
    },
  );

  test.serial('Kafka faults: the service refuses to start on a compacted topic, naming the setting', async (t) => {
    t.timeout(120_000);
    const topic = `netledger.test.${randomUUID()}`;
    await createTopic(topic, [{ name: 'cleanup.policy', value: 'compact' }]);
    await t.throwsAsync(startService(kafkaEnv(topic)), { message: /cleanup\.policy is compact/ });
  });
}
