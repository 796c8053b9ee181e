import type { Config } from '../../config.js';
import type { KafkaEventLogOptions } from './KafkaEventLog.js';

/** The connection, topic and time-limit settings of the configuration, for every KafkaEventLog the service or a tool opens. */
export function kafkaSettingsFrom(
  config: Config,
): Pick<
  KafkaEventLogOptions,
  | 'brokers'
  | 'topic'
  | 'transactionalId'
  | 'replicationFactor'
  | 'minInsyncReplicas'
  | 'security'
  | 'headReadTimeoutMs'
  | 'readStallTimeoutMs'
> {
  return {
    brokers: config.kafkaBrokers ?? [],
    topic: config.kafkaTopic,
    transactionalId: config.kafkaTransactionalId,
    replicationFactor: config.kafkaReplicationFactor,
    minInsyncReplicas: config.kafkaMinInsyncReplicas,
    security: { ssl: config.kafkaSsl, ...(config.kafkaSasl ? { sasl: config.kafkaSasl } : {}) },
    headReadTimeoutMs: config.kafkaHeadReadTimeoutMs,
    readStallTimeoutMs: config.kafkaReadStallTimeoutMs,
  };
}
