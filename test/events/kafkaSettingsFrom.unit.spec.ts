/**
 * The Kafka settings the environment gives every KafkaEventLog the service or a tool opens:
 * here the time limits of head look-ups and of reads of past events (seconds, like the
 * other durations of the configuration).
 */
import test from 'ava';

import { loadConfig } from '../../src/config.js';
import { kafkaSettingsFrom } from '../../src/events/kafka/kafkaSettingsFrom.js';

const env = { SECRET_KEY: 'k', KAFKA_BROKERS: 'b1:9092' };

test('KAFKA_HEAD_READ_TIMEOUT and KAFKA_READ_STALL_TIMEOUT default to 10 s each and reach the log options', (t) => {
  const config = loadConfig(env);
  t.is(config.kafkaHeadReadTimeoutMs, 10_000);
  t.is(config.kafkaReadStallTimeoutMs, 10_000);
  t.like(kafkaSettingsFrom(config), { brokers: ['b1:9092'], headReadTimeoutMs: 10_000, readStallTimeoutMs: 10_000 });
});

test('the time limits are seconds, fractions allowed; an empty value is the default', (t) => {
  const config = loadConfig({ ...env, KAFKA_HEAD_READ_TIMEOUT: '2.5', KAFKA_READ_STALL_TIMEOUT: '30' });
  t.like(kafkaSettingsFrom(config), { headReadTimeoutMs: 2_500, readStallTimeoutMs: 30_000 });
  t.is(loadConfig({ ...env, KAFKA_HEAD_READ_TIMEOUT: '' }).kafkaHeadReadTimeoutMs, 10_000);
});

test('a time limit that is not a number, negative or 0 (every read would fail at once) is refused at start, naming the setting', (t) => {
  t.throws(() => loadConfig({ ...env, KAFKA_HEAD_READ_TIMEOUT: 'ten' }), {
    message: /not a non-negative number of seconds: ten/,
  });
  t.throws(() => loadConfig({ ...env, KAFKA_READ_STALL_TIMEOUT: '-1' }), {
    message: /not a non-negative number of seconds: -1/,
  });
  t.throws(() => loadConfig({ ...env, KAFKA_HEAD_READ_TIMEOUT: '0' }), {
    message: /KAFKA_HEAD_READ_TIMEOUT must be more than 0 seconds/,
  });
  t.throws(() => loadConfig({ ...env, KAFKA_READ_STALL_TIMEOUT: '0.0001' }), {
    message: /KAFKA_READ_STALL_TIMEOUT must be more than 0 seconds/,
  });
});

test("KAFKA_TRANSACTIONAL_ID names the writer's transactional id (default netledger-writer): deployments sharing a cluster need their own", (t) => {
  t.like(kafkaSettingsFrom(loadConfig(env)), { transactionalId: 'netledger-writer' });
  t.like(kafkaSettingsFrom(loadConfig({ ...env, KAFKA_TRANSACTIONAL_ID: 'staging-writer' })), {
    transactionalId: 'staging-writer',
  });
  t.like(kafkaSettingsFrom(loadConfig({ ...env, KAFKA_TRANSACTIONAL_ID: '' })), {
    transactionalId: 'netledger-writer',
  });
});
