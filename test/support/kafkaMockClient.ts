/**
 * The Kafka client the adapter builds (its `client` seam), pointed at a librdkafka mock
 * cluster (kafkaMockBroker.ts). Everything goes over the wire to the mock except the two
 * admin requests the mock does not implement (it answers them "unsupported version"):
 * - CreateTopics: the topic is created in the mock with the asked partitions and
 *   replication (its command), and the asked config entries are remembered;
 * - DescribeConfigs: a topic's remembered entries over the broker's defaults.
 * Log lines of the client are kept (not printed) so a test can wait for the client to
 * have met a fault, e.g. a refused connection, instead of waiting for time to pass.
 */
import {
  type ConfigResourceTypes,
  type DescribeConfigResponse,
  type ITopicConfig,
  Kafka,
  type KafkaConfig,
  type LogEntry,
  logLevel,
} from 'kafkajs';

import type { KafkaClient } from '../../src/events/kafka/KafkaEventLog.js';
import type { KafkaMock } from './kafkaMockBroker.js';

/** What a Kafka 3.x broker answers for a topic created without these settings. */
const BROKER_DEFAULTS: Record<string, string> = {
  'cleanup.policy': 'delete',
  'retention.ms': '604800000',
  'retention.bytes': '-1',
  'max.message.bytes': '1048588',
  'min.insync.replicas': '1',
};

/** The protocol's resource type of a topic. */
const TOPIC_RESOURCE = 2;

export interface MockClientLine {
  level: string;
  namespace: string;
  message: string;
  broker?: string;
  /** The line's other fields (nodeId, groupId...). */
  extra: Record<string, unknown>;
}

export class KafkaMockClient {
  readonly lines: MockClientLine[] = [];
  private readonly topicConfigs = new Map<string, Map<string, string>>();
  private readonly watchers = new Set<() => void>();

  /** `quiet`: keep no log lines (a benchmark, where debug logging would be measured too). */
  constructor(
    private readonly mock: KafkaMock,
    private readonly options: { quiet?: boolean } = {},
  ) {}

  /** The factory to hand KafkaEventLog as `client`. */
  readonly factory = (config: KafkaConfig): KafkaClient => {
    // Every line, debug included: a closed connection is only logged at debug level.
    const kafka = this.options.quiet
      ? new Kafka({ ...config, logLevel: logLevel.NOTHING })
      : new Kafka({ ...config, logLevel: logLevel.DEBUG, logCreator: () => (entry) => this.keep(entry) });
    return {
      producer: (options) => kafka.producer(options),
      consumer: (options) => kafka.consumer(options),
      admin: (options) => {
        const admin = kafka.admin(options);
        return {
          ...admin,
          createTopics: async ({ topics }: { topics: ITopicConfig[] }) => this.createTopics(topics),
          describeConfigs: async ({
            resources,
          }: {
            resources: Array<{ type: ConfigResourceTypes; name: string; configNames?: string[] }>;
          }) => this.describeConfigs(resources),
        };
      },
    };
  };

  /** Where the client's log stands now, for waitForLine. */
  mark(): number {
    return this.lines.length;
  }

  /** Resolves once the client logged a line matching `pattern` (its message and broker) after `since`. */
  async waitForLine(pattern: RegExp, since = 0, timeoutMs = 10_000): Promise<MockClientLine> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.lines.slice(since).find((l) => pattern.test(`${l.message} ${l.broker ?? ''}`));
      if (found) return found;
      if (Date.now() > deadline)
        throw new Error(`kafka mock client: no log line matching ${pattern} within ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, 50);
        function done() {
          clearTimeout(timer);
          resolve();
        }
        this.watchers.add(done);
      });
    }
  }

  private keep({ level, namespace, log }: LogEntry): void {
    const {
      message,
      broker,
      timestamp: _timestamp,
      ...extra
    } = log as { message: string; broker?: string; timestamp?: string };
    this.lines.push({ level: String(level), namespace, message, broker, extra });
    for (const wake of this.watchers) wake();
    this.watchers.clear();
  }

  private async createTopics(topics: ITopicConfig[]): Promise<boolean> {
    let created = false;
    for (const topic of topics) {
      if (this.topicConfigs.has(topic.topic)) continue;
      await this.mock.command(`topic ${topic.topic} ${topic.numPartitions ?? 1} ${topic.replicationFactor ?? 1}`);
      this.topicConfigs.set(topic.topic, new Map((topic.configEntries ?? []).map((e) => [e.name, e.value])));
      created = true;
    }
    return created;
  }

  private describeConfigs(
    resources: Array<{ type: ConfigResourceTypes; name: string; configNames?: string[] }>,
  ): DescribeConfigResponse {
    return {
      throttleTime: 0,
      resources: resources.map((resource) => {
        if (Number(resource.type) !== TOPIC_RESOURCE)
          throw new Error('kafka mock client: only topic configs are described');
        const set = this.topicConfigs.get(resource.name) ?? new Map<string, string>();
        const names = resource.configNames ?? Object.keys(BROKER_DEFAULTS);
        return {
          resourceType: resource.type,
          resourceName: resource.name,
          errorCode: 0,
          errorMessage: '',
          configEntries: names
            .filter((name) => set.has(name) || name in BROKER_DEFAULTS)
            .map((name) => ({
              configName: name,
              configValue: set.get(name) ?? BROKER_DEFAULTS[name]!,
              isDefault: !set.has(name),
              configSource: (set.has(name) ? 1 : 5) as never,
              isSensitive: false,
              readOnly: false,
              configSynonyms: [],
            })),
        };
      }),
    };
  }
}
