/** The Kafka follower's own default refresh interval (KafkaEventLogOptions.follower.headRefreshMs). */
const DEFAULT_MS = 5_000;
/** Each refresh asks the cluster for the partition's end: no more often than this. */
const FLOOR_MS = 250;

/**
 * How often a Kafka read replica looks its head up again, given READY_MAX_LAG_SECONDS. Readiness
 * counts a head unconfirmed for longer than that bound as log-unreachable, and a healthy follower's
 * head ages by up to one interval between refreshes (a look-up under way, which takes seconds while
 * its consumer joins, counts from the end's answer): twice per bound keeps a reachable cluster from
 * flipping readiness, and leaves the half-bound way back (hysteresis) reachable. The 5 s default
 * holds for the default 10 s bound and above.
 */
export function followerHeadRefreshMs(readyMaxLagMs: number): number {
  return Math.max(FLOOR_MS, Math.min(DEFAULT_MS, readyMaxLagMs / 2));
}
