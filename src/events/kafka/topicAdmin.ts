import type { Admin } from 'kafkajs';
import { PARTITION } from './messages.js';

/**
 * Creates the log's topic if missing: one partition (the log's total order), kept
 * forever (the log is the source of truth). Refuses a topic with more partitions.
 */
export async function ensureTopic(admin: Admin, topic: string, replicationFactor: number): Promise<void> {
  await admin.createTopics({
    waitForLeaders: true,
    topics: [
      {
        topic,
        numPartitions: 1,
        replicationFactor,
        configEntries: [
          { name: 'cleanup.policy', value: 'delete' },
          { name: 'retention.ms', value: '-1' },
          { name: 'retention.bytes', value: '-1' },
          { name: 'min.insync.replicas', value: String(Math.min(2, replicationFactor)) },
        ],
      },
    ],
  }); // resolves false when the topic already exists
  const { topics } = await admin.fetchTopicMetadata({ topics: [topic] });
  const partitions = topics.find((t) => t.name === topic)?.partitions.length ?? 0;
  if (partitions !== 1) {
    throw new Error(`KafkaEventLog: topic ${topic} has ${partitions} partitions; the log needs exactly 1`);
  }
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
