/**
 * `npm run rebuild`: drops the read models and rebuilds them from the event log, with
 * a progress bar on stderr and a summary (events, seconds, events/s) at the end.
 *
 *   npm run rebuild                 # MONGODB_URL set: rebuild the MongoDB read models
 *   npm run rebuild -- --dry-run    # replay into memory only (checks the log projects cleanly)
 *
 * The log is read read-only (openLogReader in src/ledger/openLedger.ts): the file log is never
 * truncated and a Kafka writer is never fenced. The embedded in-memory read models are
 * built at every start anyway (from a snapshot and the log after it); without MONGODB_URL
 * this command is a dry run. It reads the log alone, never a snapshot.
 * Stop the service before rebuilding MongoDB read models (its projector writes them too).
 */
import { pathToFileURL } from 'node:url';

import { loadConfig } from '../config.js';
import type { ChangeEvent } from '../events/ChangeEvent.js';
import { openLogReader, readStoreFor } from '../ledger/openLedger.js';
import { type ModelRegistry, registry as defaultRegistry } from '../models/registry.js';
import { evolve } from '../projections/evolve.js';
import { withProjectedColumns } from '../projections/projectedColumns.js';
import { readModelIndexes } from '../projections/readModelIndexes.js';
import type { DocumentChange, ReadStore } from '../projections/ReadStore.js';
import { formatCount, ProgressBar } from './progress.js';

export interface RebuildStats {
  events: number;
  /** Document changes written after compaction. */
  applied: number;
  batches: number;
  position: number;
  ms: number;
  eventsPerSecond: number;
}

export interface RebuildOptions {
  registry?: ModelRegistry;
  /**
   * Distinct objects per compaction window (default 200,000): within a window only
   * the last change of each object is applied (see compactWindow), so a registry of
   * fewer objects is rebuilt with one write per object, whatever the log's length.
   * Memory is bounded by it (about two events per object, without their prechange).
   * 1 applies every event.
   */
  windowObjects?: number;
  /** Called every 16,384 events and at the end, with the events read so far and the position reached. */
  onProgress?: (events: number, position: number) => void;
}

interface Slot {
  /** The object's first event with a document in the window. */
  firstPut: ChangeEvent | null;
  /** The last delete in the window. */
  lastDelete: ChangeEvent | null;
  /** The event whose document the object ends the window with (null if it ends deleted). */
  final: ChangeEvent | null;
  /** Where `final`'s document was first put after the last delete: its place in insertion order. */
  finalOrder: number;
}

/** evolve()'s rule: a delete, or an event without a post-change state, removes the document. */
function removes(event: ChangeEvent): boolean {
  return event.action === 'delete' || event.postchange === null;
}

/**
 * The changes of a window that leave the read models exactly as applying every event
 * would: per object its final document, put where it was (re)created so that
 * insertion order (a MemoryReadStore's natural order) is the same; its last delete
 * when it was deleted, preceded by its first document if it had one before (so the
 * highest id ever created per collection is the same too).
 */
function compactWindow(registry: ModelRegistry, slots: Map<string, Map<number, Slot>>): DocumentChange[] {
  const out: Array<{ order: number; event: ChangeEvent }> = [];
  for (const slot of [...slots.values()].flatMap((byId) => [...byId.values()])) {
    if (slot.lastDelete) {
      if (slot.firstPut && slot.firstPut.position < slot.lastDelete.position)
        out.push({ order: slot.firstPut.position, event: slot.firstPut });
      out.push({ order: slot.lastDelete.position, event: slot.lastDelete });
    }
    if (slot.final) out.push({ order: slot.finalOrder, event: slot.final });
  }
  out.sort((a, b) => a.order - b.order);
  // Only the surviving events are projected.
  return out.map((o) => evolve(registry, o.event));
}

/**
 * Drops `store` and replays every batch into it with the projector's `evolve`, so the
 * result equals what the live projector builds (documents, their `_pos`, insertion
 * order, highest ids). Superseded changes inside a window are skipped (compaction),
 * and each window is one apply() call (one bulk write for MongoDB). It takes
 * ownership of the events it is given (it drops their prechange to save memory).
 */
export async function rebuildReadModels(
  batches: AsyncIterable<readonly ChangeEvent[]> | Iterable<readonly ChangeEvent[]>,
  store: ReadStore,
  options: RebuildOptions = {},
): Promise<RebuildStats> {
  const registry = options.registry ?? defaultRegistry;
  const windowObjects = Math.max(1, options.windowObjects ?? 200_000);
  const started = performance.now();
  await store.drop();
  for (const [collection, fields] of readModelIndexes(registry)) await store.ensureIndexes(collection, fields);
  // Per object type, per id (no string key per event).
  let slots = new Map<string, Map<number, Slot>>();
  let slotCount = 0;
  let inWindow = 0;
  let events = 0;
  let applied = 0;
  let count = 0;
  let position = 0;
  const flush = async () => {
    if (inWindow === 0) return;
    const changes = compactWindow(registry, slots);
    applied += changes.length;
    await store.apply(await withProjectedColumns(registry, store, changes), position);
    inWindow = 0;
    slotCount = 0;
    slots = new Map();
  };
  for await (const batch of batches) {
    count++;
    for (const event of batch) {
      if (event.position !== position + 1)
        throw new Error(`rebuild: expected position ${position + 1}, found ${event.position}`);
      position = event.position;
      let byId = slots.get(event.objectType);
      if (!byId) slots.set(event.objectType, (byId = new Map()));
      let slot = byId.get(event.objectId);
      if (!slot) {
        byId.set(event.objectId, (slot = { firstPut: null, lastDelete: null, final: null, finalOrder: 0 }));
        slotCount++;
      }
      // evolve() does not read the prechange: drop it from the events kept (memory).
      (event as { prechange: unknown }).prechange = null;
      if (removes(event)) {
        slot.lastDelete = event;
        slot.final = null;
      } else {
        if (slot.final === null) slot.finalOrder = event.position;
        slot.final = event;
        slot.firstPut ??= event;
      }
      inWindow++;
      events++;
      if (slotCount >= windowObjects) await flush();
      if ((events & 16383) === 0) options.onProgress?.(events, position);
    }
  }
  await flush();
  options.onProgress?.(events, position);
  const ms = performance.now() - started;
  return { events, applied, batches: count, position, ms, eventsPerSecond: events / Math.max(ms / 1000, 1e-9) };
}

async function main(argv: string[]): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(
      'usage: npm run rebuild [-- --dry-run]\n  Drops the read models and rebuilds them from the event log (DATA_DIR, KAFKA_BROKERS, MONGODB_URL as for the service).\n',
    );
    return 0;
  }
  const unknown = argv.filter((a) => a !== '--dry-run');
  if (unknown.length > 0) {
    process.stderr.write(`rebuild: unknown argument ${unknown[0]} (try --help)\n`);
    return 2;
  }
  const config = loadConfig();
  const dryRun = argv.includes('--dry-run') || !config.mongodbUrl;
  const store = readStoreFor(config, { memory: dryRun });
  const source = await openLogReader(config); // read-only: no lock, so it runs next to the service
  process.stderr.write(
    dryRun
      ? `rebuild: replaying ${source.description} into memory, snapshots not read (dry run${config.mongodbUrl ? '' : ': the service builds its embedded read models at start, from its newest snapshot and the log after it'})\n`
      : `rebuild: dropping and rebuilding the MongoDB read models from ${source.description}\n`,
  );
  const bar = new ProgressBar('rebuild');
  const started = performance.now();
  try {
    await store.open();
    const stats = await rebuildReadModels(source.read(), store, {
      onProgress: (events, position) => {
        const seconds = (performance.now() - started) / 1000;
        bar.update(
          source.progress(),
          `${formatCount(events)} events (position ${formatCount(position)}), ${formatCount(events / Math.max(seconds, 0.001))} events/s`,
        );
      },
    });
    bar.done(
      `${formatCount(stats.events)} events in ${(stats.ms / 1000).toFixed(2)} s: ${formatCount(stats.eventsPerSecond)} events/s, ` +
        `read models at position ${stats.position} (${formatCount(stats.applied)} document writes)`,
    );
    return 0;
  } finally {
    await source.close();
    await store.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(`rebuild failed: ${(error as Error)?.message ?? String(error)}\n`);
      process.exitCode = 1;
    },
  );
}
