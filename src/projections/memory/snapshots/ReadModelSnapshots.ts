/**
 * Snapshots of the memory read models in `<DATA_DIR>/snapshots/`: written by the writer
 * every `every` applied events (and at a clean close when the position moved), loaded at
 * start-up (the newest one that matches the log) so that only the tail is replayed, and
 * offered to `?as_of=` as starting points.
 *
 * A snapshot is captured between two applies (the projector calls `applied` right after
 * each one, synchronously), then serialised and written in the background while writes
 * go on: the capture holds the frozen documents' references, which later applies replace
 * rather than change.
 *
 * A snapshot is used only when the event at its position is the one it was taken after
 * (same event id): a snapshot of another log, or beyond a log cut shorter, is refused.
 */
import { stat } from 'node:fs/promises';
import path from 'node:path';

import { type EventIdAt, loadNewestMatching, pruneSnapshots } from '../../../snapshots/SnapshotFile.js';
import type { MemoryReadStore, ReadModelCapture } from '../MemoryReadStore.js';
import { READ_MODELS_PART, readReadModelSnapshot, writeReadModelSnapshot } from './readModelSnapshot.js';

/** How long after a start the background index build waits (the first requests go first). */
const INDEX_BUILD_DELAY_MS = 1_000;

export type SnapshotLogger = (entry: Record<string, unknown>) => void;

export interface ReadModelSnapshotsOptions {
  /** The data directory; snapshots go in its `snapshots/` folder. */
  dataDir: string;
  /** Applied events between two snapshots (0: none written). */
  every: number;
  /** Snapshots kept (older ones are removed after each write). */
  keep: number;
  logger?: SnapshotLogger;
}

export { eventIdsOf, type LogPositions } from '../../../snapshots/SnapshotFile.js';

export class ReadModelSnapshots {
  readonly dir: string;
  /** Snapshots written by this process (for tests and monitoring). */
  written = 0;
  /** The position of the newest snapshot written or loaded. */
  private last = 0;
  private writing: Promise<void> | null = null;
  private closed = false;
  private readonly logger: SnapshotLogger;

  constructor(
    private readonly store: MemoryReadStore,
    private readonly eventIdAt: EventIdAt,
    private readonly options: ReadModelSnapshotsOptions,
  ) {
    this.dir = path.join(options.dataDir, 'snapshots');
    this.logger = options.logger ?? (() => {});
  }

  /**
   * Loads the newest usable snapshot at or before `head` into the store. Each refused or
   * damaged one is logged and the next older tried; with none, the store is left as it
   * is (the projector then replays the whole log). Returns the position loaded, or 0.
   */
  async loadNewest(head: number): Promise<number> {
    const found = await this.nearest(Infinity);
    if (!found) return 0;
    this.store.restore(found.capture);
    this.last = found.capture.position;
    this.logger({
      level: 'info',
      msg: `read models loaded from the snapshot at position ${found.capture.position} (${found.ms} ms); replaying the log after it (head ${head})`,
      position: found.capture.position,
      ms: found.ms,
    });
    return found.capture.position;
  }

  /**
   * Starts building, in the background, the indexes a load left to be built at their first
   * read (MemoryReadStore.buildIndexesInBackground). Called once the rest of the start-up is
   * done, so that it does not share the CPU with it; it waits `afterMs` more for the first
   * requests.
   */
  buildIndexesInBackground(afterMs = INDEX_BUILD_DELAY_MS): void {
    this.store.buildIndexesInBackground(afterMs);
  }

  /** The newest usable snapshot at or before `position`, parsed (null when none is). */
  async nearest(position: number): Promise<{ capture: ReadModelCapture; ms: number } | null> {
    const started = performance.now();
    const found = await loadNewestMatching(this.dir, READ_MODELS_PART, {
      eventIdAt: this.eventIdAt,
      atOrBefore: position,
      load: async (file) => (await readReadModelSnapshot(file)).capture,
      skipped: ({ file, kind, reason }) =>
        this.logger({
          level: 'warn',
          msg:
            kind === 'unreadable'
              ? `snapshot ${path.basename(file)} unusable, trying an older one: ${reason}`
              : `snapshot ${path.basename(file)} refused: ${reason}; trying an older one`,
        }),
    });
    return found && { capture: found.value, ms: Math.round(performance.now() - started) };
  }

  /** Called by the projector right after each apply (synchronously: the capture is never torn). */
  applied(position: number): void {
    if (this.closed || this.options.every <= 0 || this.writing || position - this.last < this.options.every) return;
    this.begin(this.store.capture());
  }

  /** No snapshot is taken any more, not even at close (projection failed: the store may be half-changed). */
  stopWriting(): void {
    this.closed = true;
  }

  /** Waits for a write under way, then snapshots the final position if it moved (a clean close). */
  async close(): Promise<void> {
    const final = !this.closed;
    this.closed = true;
    await this.settled();
    if (!final || this.options.every <= 0) return;
    const capture = this.store.capture();
    if (capture.position > this.last) {
      this.begin(capture);
      await this.writing;
    }
  }

  /** Resolves when no snapshot is being written (tests). */
  async settled(): Promise<void> {
    while (this.writing) await this.writing;
  }

  private begin(capture: ReadModelCapture): void {
    this.last = capture.position;
    this.writing = this.write(capture)
      .catch((error: unknown) => {
        // Nothing is lost: the log has it all; the next snapshot is tried after as many events again.
        this.logger({
          level: 'warn',
          msg: `read-model snapshot at position ${capture.position} not written: ${(error as Error).message}`,
        });
      })
      .finally(() => {
        this.writing = null;
      });
  }

  private async write(capture: ReadModelCapture): Promise<void> {
    const started = performance.now();
    const resume = capture.resume?.position === capture.position ? capture.resume.cursor : null;
    const eventId = (await this.eventIdAt(capture.position, resume, true)) ?? '';
    const file = await writeReadModelSnapshot(this.dir, capture, eventId);
    await pruneSnapshots(this.dir, READ_MODELS_PART, this.options.keep);
    this.written++;
    const { size: bytes } = await stat(file);
    const ms = Math.round(performance.now() - started);
    this.logger({
      level: 'info',
      msg: `read-model snapshot written at position ${capture.position}: ${bytes} bytes in ${ms} ms`,
      position: capture.position,
      bytes,
      ms,
    });
  }
}
