import type { Config } from '../../config.js';
import type { KafkaEventLogOptions } from './KafkaEventLog.js';

/** The connection and topic settings of the configuration, for every KafkaEventLog the service or a tool opens. */
export function kafkaSettingsFrom(config: Config): Pick<KafkaEventLogOptions, 'brokers' | 'topic' | 'replicationFactor' | 'minInsyncReplicas' | 'security'> {
  return {
    brokers: config.kafkaBrokers ?? [],
    topic: config.kafkaTopic,
    replicationFactor: config.kafkaReplicationFactor,
    minInsyncReplicas: config.kafkaMinInsyncReplicas,
    security: { ssl: config.kafkaSsl, ...(config.kafkaSasl ? { sasl: config.kafkaSasl } : {}) },
  };
}
