import type { Admin, Consumer, Kafka } from 'kafkajs';

/** Another writer is live: this one refuses to start rather than fence it. */
export class WriterLeaseHeldError extends Error {}

/**
 * How long a writer that died without leaving stays the holder: the lease consumer's
 * session timeout (the broker's group.min.session.timeout.ms is 6 s by default).
 */
export const LEASE_SESSION_MS = 10_000;

export interface WriterLeaseOptions {
  readonly admin: Admin;
  readonly client: Pick<Kafka, 'consumer'>;
  /** One group per log: writers of the same topic and transactional id share it. */
  readonly groupId: string;
  /** A topic the lease consumer subscribes to (it never reads from it: the partition is paused). */
  readonly topic: string;
  /** Take over from a live writer anyway (it will be fenced). */
  readonly takeover: boolean;
}

/**
 * The writer lease: whoever holds the transactional id is a member of one consumer
 * group, and the broker keeps that membership alive by the consumer's heartbeats. A
 * writer about to register the transactional id first looks at the group: a member
 * means a live writer, and registering would fence it silently, so the newcomer refuses
 * to start unless told to take over. A writer that stops cleanly leaves the group at
 * once; one that dies stays a member for LEASE_SESSION_MS.
 *
 * The look and the join are not atomic: two writers starting at the same instant may
 * both pass. The transactional id's fencing still keeps the log consistent then; the
 * lease only turns the common mistake (a second instance started by hand) into a clear
 * refusal.
 */
export class WriterLease {
  private constructor(private readonly consumer: Consumer) {}

  static async acquire(options: WriterLeaseOptions): Promise<WriterLease> {
    const { groups } = await options.admin.describeGroups([options.groupId]);
    const live = groups.find((g) => g.groupId === options.groupId)?.members ?? [];
    if (live.length > 0 && !options.takeover) {
      const holders = live.map((m) => `${m.clientId} at ${m.clientHost}`).join(', ');
      throw new WriterLeaseHeldError(
        `KafkaEventLog: another writer is live (${holders}); starting would fence it. ` +
          `Stop it first (a writer that died is released after ${LEASE_SESSION_MS / 1000} s), or set KAFKA_TAKEOVER=1 to take over.`,
      );
    }
    const consumer = options.client.consumer({
      groupId: options.groupId,
      sessionTimeout: LEASE_SESSION_MS,
      heartbeatInterval: LEASE_SESSION_MS / 5,
      allowAutoTopicCreation: false,
    });
    try {
      await consumer.connect();
      await consumer.subscribe({ topics: [options.topic], fromBeginning: false });
      await consumer.run({ autoCommit: false, eachBatch: async () => {} });
      // Membership is all the lease needs: fetch nothing (the client keeps heartbeating).
      consumer.pause([{ topic: options.topic }]);
      return new WriterLease(consumer);
    } catch (error) {
      await consumer.disconnect().catch(() => undefined);
      throw error;
    }
  }

  /** Leaves the group, so the next writer may start at once. */
  async release(): Promise<void> {
    await this.consumer.disconnect().catch(() => undefined);
  }
}
