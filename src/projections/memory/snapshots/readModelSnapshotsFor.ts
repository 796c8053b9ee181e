import type { Config } from '../../../config.js';
import type { ReadStore } from '../../ReadStore.js';
import { MemoryReadStore } from '../MemoryReadStore.js';
import { eventIdsOf, type LogPositions, ReadModelSnapshots, type SnapshotLogger } from './ReadModelSnapshots.js';

/**
 * The read-model snapshots the configuration asks for: none for MongoDB read models
 * (MongoDB keeps them itself) or with SNAPSHOT_EVERY_EVENTS=0; loaded, and written only
 * when `write` (the writer; a replica reads the writer's).
 */
export function readModelSnapshotsFor(
  config: Config,
  store: ReadStore,
  log: LogPositions,
  options: { write: boolean; logger?: SnapshotLogger },
): ReadModelSnapshots | null {
  if (!(store instanceof MemoryReadStore) || config.snapshotEveryEvents <= 0) return null;
  return new ReadModelSnapshots(store, eventIdsOf(log), {
    dataDir: config.dataDir,
    every: options.write ? config.snapshotEveryEvents : 0,
    keep: config.snapshotKeep,
    logger: options.logger,
  });
}
