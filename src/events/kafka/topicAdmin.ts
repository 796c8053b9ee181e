import type { Admin, ConfigResourceTypes } from 'kafkajs';

import { PARTITION } from './messages.js';

/** What the adapter needs to know of the topic once it is safe to use. */
export interface TopicFacts {
  /** The largest record batch the topic accepts (max.message.bytes). */
  readonly maxMessageBytes: number;
}

export interface TopicSettings {
  /** Replication factor when the topic is created. */
  readonly replicationFactor: number;
  /** min.insync.replicas when the topic is created: a commit needs this many copies. */
  readonly minInsyncReplicas: number;
  /**
   * False for a process that only reads (a replica, the CLI's reader): a missing topic is
   * refused instead of created, since a mistyped KAFKA_TOPIC would otherwise make an empty
   * log that the replica then serves as the registry.
   */
  readonly create?: boolean;
}

/**
 * Creates the log's topic if missing: one partition (the log's total order), kept
 * forever (the log is the source of truth). Then checks the topic as it is, whoever
 * made it: a topic with more partitions, compaction, or a time or size limit would
 * lose order or delete history, so it is refused with a message saying what to change.
 */
export async function ensureTopic(admin: Admin, topic: string, settings: TopicSettings): Promise<TopicFacts> {
  if (settings.create === false) {
    if (!(await admin.listTopics()).includes(topic)) {
      throw new Error(
        `KafkaEventLog: topic ${topic} does not exist, and a reader does not create it: start the writer first, or check KAFKA_TOPIC`,
      );
    }
  } else
    await admin
      .createTopics({
        waitForLeaders: true,
        topics: [
          {
            topic,
            numPartitions: 1,
            replicationFactor: settings.replicationFactor,
            configEntries: [
              { name: 'cleanup.policy', value: 'delete' },
              { name: 'retention.ms', value: '-1' },
              { name: 'retention.bytes', value: '-1' },
              { name: 'min.insync.replicas', value: String(settings.minInsyncReplicas) },
            ],
          },
        ],
      })
      .catch((error: unknown) => {
        // The library asks for the new topic's leaders 100 ms after creating it and gives up at the
        // first UNKNOWN_TOPIC_OR_PARTITION; under KRaft a broker learns of a new topic from the
        // metadata log and, busy, may not know it yet. The topic was created: it is waited for below.
        if (!isError(error, 'UNKNOWN_TOPIC_OR_PARTITION')) throw error;
      }); // resolves false when the topic already exists
  const partitions = await partitionCount(admin, topic);
  if (partitions !== 1) {
    throw new Error(`KafkaEventLog: topic ${topic} has ${partitions} partitions; the log needs exactly 1`);
  }
  const config = await topicConfig(admin, topic);
  const problems = unsafeSettings(config);
  if (problems.length > 0) {
    throw new Error(
      `KafkaEventLog: refusing to use topic ${topic}: ${problems.join('; ')}. The topic is the only copy of the history: ` +
        'it needs cleanup.policy=delete, retention.ms=-1 and retention.bytes=-1 (kafka-configs --alter --entity-type topics).',
    );
  }
  const maxMessageBytes = Number(config.get('max.message.bytes'));
  return {
    maxMessageBytes:
      Number.isFinite(maxMessageBytes) && maxMessageBytes > 0 ? maxMessageBytes : DEFAULT_MAX_MESSAGE_BYTES,
  };
}

/** How long a topic created moments ago may stay unknown to the broker, or without a leader. */
const NEW_TOPIC_WAIT_MS = 10_000;
const NEW_TOPIC_POLL_MS = 100;

/** The topic's partition count once the broker knows it and every partition has a leader. */
async function partitionCount(admin: Admin, topic: string): Promise<number> {
  const deadline = Date.now() + NEW_TOPIC_WAIT_MS;
  for (;;) {
    try {
      const { topics } = await admin.fetchTopicMetadata({ topics: [topic] });
      const partitions = topics.find((t) => t.name === topic)?.partitions ?? [];
      if (partitions.every((p) => p.leader >= 0) || Date.now() >= deadline) return partitions.length;
    } catch (error) {
      if (!isError(error, 'UNKNOWN_TOPIC_OR_PARTITION', 'LEADER_NOT_AVAILABLE') || Date.now() >= deadline) throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, NEW_TOPIC_POLL_MS));
  }
}

/** The library's protocol error of one of these types, or its retries of one used up. */
function isError(error: unknown, ...types: string[]): boolean {
  for (let e = error as { type?: unknown; cause?: unknown } | undefined; e; e = e.cause as typeof e) {
    if (typeof e.type === 'string' && types.includes(e.type)) return true;
  }
  return false;
}

/** The broker's default max.message.bytes (1 MiB plus the batch overhead). */
const DEFAULT_MAX_MESSAGE_BYTES = 1_048_588;

/** The protocol's resource type of a topic (the library's ConfigResourceTypes.TOPIC). */
const TOPIC_RESOURCE = 2 as ConfigResourceTypes;

const CHECKED = ['cleanup.policy', 'retention.ms', 'retention.bytes', 'max.message.bytes'];

async function topicConfig(admin: Admin, topic: string): Promise<Map<string, string>> {
  const { resources } = await admin.describeConfigs({
    includeSynonyms: false,
    resources: [{ type: TOPIC_RESOURCE, name: topic, configNames: CHECKED }],
  });
  const config = new Map<string, string>();
  for (const entry of resources[0]?.configEntries ?? []) config.set(entry.configName, entry.configValue);
  return config;
}

/** Why the topic's settings would delete history (empty when they would not). */
export function unsafeSettings(config: ReadonlyMap<string, string>): string[] {
  const problems: string[] = [];
  const policy = config.get('cleanup.policy');
  if (policy !== 'delete')
    problems.push(`cleanup.policy is ${policy ?? 'unknown'} (compaction keeps only the last event per key)`);
  for (const name of ['retention.ms', 'retention.bytes']) {
    const value = config.get(name);
    if (value !== '-1') problems.push(`${name} is ${value ?? 'unknown'} (old events would be deleted)`);
  }
  return problems;
}

/** Offsets [low, high) of the partition; high is the last stable offset (read_committed). */
export interface PartitionOffsets {
  readonly low: bigint;
  readonly high: bigint;
}

export async function partitionOffsets(admin: Admin, topic: string): Promise<PartitionOffsets> {
  const partitions = await admin.fetchTopicOffsets(topic);
  const p = partitions.find((x) => x.partition === PARTITION);
  if (!p) throw new Error(`KafkaEventLog: topic ${topic} has no partition ${PARTITION}`);
  return { low: BigInt(p.low), high: BigInt(p.high) };
}
