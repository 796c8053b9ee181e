import { randomUUID } from 'node:crypto';

import type { Admin, Consumer, Kafka } from 'kafkajs';

/** Another writer is live: this one refuses to start rather than fence it. */
export class WriterLeaseHeldError extends Error {}

/**
 * How long a writer that died without leaving stays the holder: the lease consumer's
 * session timeout (the broker's group.min.session.timeout.ms is 6 s by default).
 */
export const LEASE_SESSION_MS = 10_000;

/**
 * The lease consumer's fetch wait. Its partition is paused, so the client fetches nothing and
 * sleeps this long per turn of its loop instead (no request is sent); disconnecting waits for
 * that sleep to end. The client's default (5 s) made every writer's close wait 2.5 s on average.
 */
const LEASE_IDLE_TURN_MS = 100;

export interface WriterLeaseOptions {
  readonly admin: Admin;
  /**
   * A client whose connections carry `clientId`: the lease consumer's. Each writer's is
   * unique (see WriterLease.supplanted), so the consumer needs a client of its own.
   */
  readonly client: (clientId: string) => Pick<Kafka, 'consumer'>;
  /** The application's client id; the lease consumer's is made unique from it. */
  readonly clientId: string;
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
  private constructor(
    private readonly consumer: Consumer,
    /** Released: the consumer is not to come back (see acquire()). */
    private readonly state: { released: boolean },
    private readonly admin: Admin,
    private readonly groupId: string,
    /** The lease consumer's client id: this writer's member, whatever member id it has now. */
    private readonly ownClientId: string,
    /** Client ids of the writers live when this one took over: older, fenced by this one. */
    private readonly predecessors: ReadonlySet<string>,
  ) {}

  static async acquire(options: WriterLeaseOptions): Promise<WriterLease> {
    const live = await members(options.admin, options.groupId);
    if (live.length > 0 && !options.takeover) {
      const holders = live.map((m) => `${m.clientId} at ${m.clientHost}`).join(', ');
      throw new WriterLeaseHeldError(
        `KafkaEventLog: another writer is live (${holders}); starting would fence it. ` +
          `Stop it first (a writer that died is released after ${LEASE_SESSION_MS / 1000} s), or set KAFKA_TAKEOVER=1 to take over.`,
      );
    }
    // Unique, unlike the member id: the broker hands out a new member id when a membership
    // lapsed (an outage longer than the session) and the consumer joins again, and
    // DescribeGroups may list the new one before the client has learnt it.
    const clientId = `${options.clientId}.writer.${randomUUID()}`;
    const state = { released: false };
    const consumer = options.client(clientId).consumer({
      groupId: options.groupId,
      sessionTimeout: LEASE_SESSION_MS,
      heartbeatInterval: LEASE_SESSION_MS / 5,
      maxWaitTimeInMs: LEASE_IDLE_TURN_MS,
      allowAutoTopicCreation: false,
      // The client restarts a consumer that crashed (the broker went away) after a delay; a
      // restart after the lease was released would join the group again and keep the process
      // alive, holding the lease nobody holds any more: none then, and one already under way leaves.
      retry: { retries: 5, restartOnFailure: async () => !state.released },
    });
    consumer.on(consumer.events.GROUP_JOIN, () => {
      if (state.released) void consumer.disconnect().catch(() => undefined);
    });
    try {
      await consumer.connect();
      await consumer.subscribe({ topics: [options.topic], fromBeginning: false });
      await consumer.run({ autoCommit: false, eachBatch: async () => {} });
      // Membership is all the lease needs: fetch nothing (the client keeps heartbeating).
      consumer.pause([{ topic: options.topic }]);
      const predecessors = new Set(live.map((m) => m.clientId));
      return new WriterLease(consumer, state, options.admin, options.groupId, clientId, predecessors);
    } catch (error) {
      await consumer.disconnect().catch(() => undefined);
      throw error;
    }
  }

  /**
   * Whether a writer started after this one holds the lease: a member that is neither this
   * writer's nor one this writer took over from. Such a writer joined after this one
   * registered the transactional id, and registers it once joined, so it is in charge and
   * this one is fenced. The writers this one took over from may linger in the group until
   * they notice they are fenced: they do not count. Rejects when the group cannot be
   * described. (Two writers that passed acquire() at the same instant each count the other;
   * the fencing decides between them anyway.)
   *
   * A member whose client id an older release shared with every writer ('netledger') is
   * not told apart from a predecessor with that id: such a newcomer goes unnoticed, as
   * before this check existed.
   */
  async supplanted(): Promise<boolean> {
    const live = await members(this.admin, this.groupId);
    return live.some((m) => m.clientId !== this.ownClientId && !this.predecessors.has(m.clientId));
  }

  /** Leaves the group, so the next writer may start at once. */
  async release(): Promise<void> {
    this.state.released = true;
    await this.consumer.disconnect().catch(() => undefined);
  }
}

async function members(admin: Admin, groupId: string) {
  const { groups } = await admin.describeGroups([groupId]);
  return groups.find((g) => g.groupId === groupId)?.members ?? [];
}
