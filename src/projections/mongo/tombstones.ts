/**
 * Tombstones, and how long they are kept. A deleted object leaves `{ _id:
 * '<collection>#<id>', _pos, _at }` in `netledger_tombstones`: `_pos` the deletion's log
 * position, `_at` when the tombstone was written (a BSON date, from this process's clock).
 * A TTL index on `_at` lets the server remove it once the retention
 * (MONGODB_TOMBSTONE_RETENTION, 7 days by default) has passed; without it there would be
 * one tombstone per deletion ever made.
 *
 * Why removing them is safe. A tombstone guards against one thing: a projector applying an
 * event of the object older than its deletion after the deletion was applied, which would
 * otherwise bring the object back. Only a process that was already running, behind the
 * newest one, does that: the old process of a rolling deploy finishing its batches, or a
 * second writer before it is fenced. Such a process lags by seconds, at most minutes. A
 * process that starts reads its position from `netledger_meta`, which is already past
 * every applied deletion, so it never goes back to events older than them; a replay after
 * a crash starts there too and includes the deletion itself. The retention only has to
 * outlast the longest lag of a running projector (plus the clock difference between the
 * processes and the server, whose TTL monitor compares `_at` with its own clock and runs
 * about once a minute), and days are far beyond it.
 *
 * What if one lagged longer: a process frozen in the middle of a batch (a paused VM, a
 * stopped container) for more than the retention and then resumed would find neither the
 * object nor its tombstone, and its older version would be written back: the deleted
 * object would reappear in the read models (never in the log) until the next rebuild
 * (`npm run rebuild`). Keep the retention above the longest such pause that can happen.
 */
import type { TimeLimitedCollection } from './TimeLimitedCollection.js';

export const TOMBSTONES = 'netledger_tombstones';

export interface Tombstone {
  _id: string;
  /** The deletion's log position: older changes of the object are not applied. */
  _pos: number;
  /** When the tombstone was written; the TTL index removes it `retention` later. Missing only on tombstones of an older version. */
  _at?: Date;
}

export const DEFAULT_TOMBSTONE_RETENTION_MS = 7 * 24 * 3600 * 1000;

/** The server's largest expireAfterSeconds (a 32-bit integer). */
export const MAX_TOMBSTONE_RETENTION_SECONDS = 2_147_483_647;

const INDEX_OPTIONS_CONFLICT = 85;
const NAMESPACE_NOT_FOUND = 26;
const INDEX_NOT_FOUND = 27;
const EXPIRY_INDEX = { key: { _at: 1 }, name: '_at_1' } as const;

/** The retention as the TTL index takes it: whole seconds (rounded up), at least one. */
export function expireAfterSeconds(retentionMs: number): number {
  const seconds = Math.ceil(retentionMs / 1000);
  if (!Number.isFinite(seconds) || seconds < 1 || seconds > MAX_TOMBSTONE_RETENTION_SECONDS) {
    throw new RangeError(
      `the tombstone retention must be between 1 and ${MAX_TOMBSTONE_RETENTION_SECONDS} seconds, not ${retentionMs / 1000}`,
    );
  }
  return seconds;
}

/**
 * At open (and after a drop): the TTL index with the configured retention, and a time for
 * the tombstones that have none.
 *
 * The index is created if missing. If it exists with another retention (the setting
 * changed) the server refuses the creation with IndexOptionsConflict; it is then dropped and
 * created again rather than changed with collMod, which the readWrite role the store
 * otherwise needs does not grant (SERVER-20772). Until it is back nothing expires, which is
 * the safe side. Two processes doing this at once (a deploy changing the setting) may find
 * the index already dropped by the other, which is fine.
 *
 * Tombstones written before `_at` existed would never expire (the TTL monitor skips a
 * missing field): they are given `now`, kept a full retention from here. Those an older
 * version still running during the deploy writes after this open get theirs at the next
 * open (or drop), so they may outlive the retention until then. That is an in-place update of the tombstones alone; a
 * layout bump would drop every read model and replay the whole log for it.
 */
export async function ensureTombstoneExpiry(
  tombstones: TimeLimitedCollection<Tombstone>,
  retentionSeconds: number,
  now: Date,
): Promise<void> {
  const index = { ...EXPIRY_INDEX, expireAfterSeconds: retentionSeconds };
  try {
    await tombstones.createIndexes([index]);
  } catch (error) {
    if (codeOf(error) !== INDEX_OPTIONS_CONFLICT) throw error;
    await tombstones.dropIndex(EXPIRY_INDEX.name).catch((dropped: unknown) => {
      if (codeOf(dropped) !== INDEX_NOT_FOUND && codeOf(dropped) !== NAMESPACE_NOT_FOUND) throw dropped;
    });
    await tombstones.createIndexes([index]);
  }
  await tombstones.updateMany({ _at: { $exists: false } }, { $set: { _at: now } });
}

function codeOf(error: unknown): unknown {
  return (error as { code?: unknown } | null)?.code;
}
