/**
 * Snapshots of the audit indexes (AuditIndex and IdempotencyIndex) in the data
 * directory's `snapshots/`, so that start-up loads the newest one that matches the log
 * and indexes only the events after it, instead of re-reading the whole log.
 *
 * A snapshot is used only if its position is within the log and the log's event at that
 * position has the id the snapshot recorded (a replaced or shortened log is recognised);
 * otherwise an older one is tried, and without any the indexes are rebuilt from
 * position 1, with a warning. Snapshots are written in the background every
 * `everyEvents` events: the capture is taken synchronously at a batch boundary (views
 * of the columns' used part plus copies of the small tables), the writing yields to the
 * event loop between pieces.
 */
import type { EventLog, ResumePoint } from '../events/EventLog.js';
import type { ModelRegistry } from '../models/registry.js';
import {
  cursorAt,
  eventIdsOf,
  loadNewestMatching,
  pruneSnapshots,
  readSnapshotBodyWhole,
  writeSnapshot,
} from '../snapshots/SnapshotFile.js';
import { AuditIndex } from './AuditIndex.js';
import type { AuditLog } from './AuditLog.js';
import { IdempotencyIndex } from './IdempotencyIndex.js';
import {
  AUDIT_INDEX_FORMAT,
  AUDIT_INDEX_FORMATS_READ,
  type AuditState,
  decodeAuditState,
  encodeAuditState,
} from './indexSnapshot.js';

export const AUDIT_INDEX_PART = 'audit-index';

export type SnapshotLogger = (entry: Record<string, unknown>) => void;

export interface AuditSnapshotSettings {
  /** The snapshot directory (`<DATA_DIR>/snapshots`). */
  dir: string;
  /** Write one every this many events (0: never; loading still happens). */
  everyEvents: number;
  /** Snapshots kept (older ones are removed after each write). */
  keep: number;
  /** Whether this process writes snapshots (a read replica only loads the writer's). */
  write: boolean;
  logger?: SnapshotLogger;
}

export interface LoadedAuditIndexes {
  index: AuditIndex;
  idempotency: IdempotencyIndex;
  position: number;
  resume: ResumePoint | null;
  file: string;
}

/**
 * The newest usable snapshot, loaded into fresh indexes, or null (none, or none matches
 * the log). The log must be open. Unusable snapshots are reported and skipped.
 */
export async function loadAuditIndexes(
  dir: string,
  log: EventLog,
  registry: ModelRegistry,
  logger: SnapshotLogger = () => {},
): Promise<LoadedAuditIndexes | null> {
  let passedOver = false;
  const found = await loadNewestMatching(dir, AUDIT_INDEX_PART, {
    eventIdAt: eventIdsOf(log),
    skipped: ({ file, reason }) => {
      passedOver = true;
      logger({ level: 'warn', msg: `audit index snapshot skipped: ${reason}`, file });
    },
    load: async (file, header, bodyOffset) => {
      if (!AUDIT_INDEX_FORMATS_READ.includes(header.format))
        throw new Error(`format ${header.format} of part ${header.part} is not one this version reads`);
      // Read and checked whole before anything is built from it; the indexes are fresh ones.
      const state = decodeAuditState(await readSnapshotBodyWhole(file, header, bodyOffset), header.format);
      if (state.index.head !== header.position)
        throw new Error(`body at position ${state.index.head}, header at ${header.position}`);
      const index = new AuditIndex(registry);
      index.load(state.index);
      const idempotency = new IdempotencyIndex();
      idempotency.load(state.idempotency);
      return { index, idempotency, resume: state.resume ?? null };
    },
  });
  if (found) return { ...found.value, position: found.header.position, file: found.file };
  if (passedOver && log.head() > 0) {
    logger({
      level: 'warn',
      msg: `no audit index snapshot matches the event log: indexing the whole log from position 1 (${log.head()} events)`,
    });
  }
  return null;
}

/** Writes one snapshot of a captured state at its position; returns the file. */
export async function writeAuditSnapshot(dir: string, log: EventLog, state: AuditState): Promise<string> {
  const position = state.index.head;
  const near = cursorAt(position, state.resume);
  const eventId = await eventIdsOf(log)(position, near.cursor, true);
  if (eventId === null) throw new Error(`audit index snapshot: the log does not reach position ${position}`);
  return writeSnapshot(
    dir,
    { part: AUDIT_INDEX_PART, format: AUDIT_INDEX_FORMAT, position, eventId, ...near },
    encodeAuditState(state),
  );
}

/** The indexes' state at their current head, taken synchronously. */
export function captureAuditState(audit: AuditLog): AuditState {
  return { index: audit.index.capture(), idempotency: audit.idempotency.entries(), resume: audit.resumePoint };
}

/**
 * Writes a snapshot whenever the audit indexes have grown by `everyEvents` since the
 * last one (or the one loaded), one write at a time, in the background.
 */
export class AuditSnapshotWriter {
  private lastPosition: number;
  private writing: Promise<void> | null = null;
  private unsubscribe: (() => void) | null = null;
  private stopped = false;
  /** Snapshots written by this writer (for tests and the bench). */
  written = 0;

  constructor(
    private readonly audit: AuditLog,
    private readonly log: EventLog,
    private readonly settings: AuditSnapshotSettings,
    startPosition: number,
  ) {
    this.lastPosition = startPosition;
  }

  /** Follows the audit log's progress; may write one at once when the indexes are far enough ahead already. */
  start(): void {
    if (!this.settings.write || this.settings.everyEvents <= 0) return;
    this.unsubscribe = this.audit.onChange(() => this.consider());
    this.consider();
  }

  /** The write under way, if any (resolves when it is done, never rejects). */
  idle(): Promise<void> {
    return this.writing ?? Promise.resolve();
  }

  /** Stops writing new snapshots and waits for the one under way. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.unsubscribe?.();
    this.unsubscribe = null;
    await this.idle();
  }

  private consider(): void {
    if (this.stopped || this.writing || this.audit.isClosed || this.audit.error) return;
    if (this.audit.head - this.lastPosition < this.settings.everyEvents) return;
    const state = captureAuditState(this.audit);
    this.lastPosition = state.index.head;
    const started = Date.now();
    this.writing = writeAuditSnapshot(this.settings.dir, this.log, state)
      .then(async (file) => {
        this.written++;
        await pruneSnapshots(this.settings.dir, AUDIT_INDEX_PART, this.settings.keep);
        this.settings.logger?.({
          level: 'info',
          msg: `audit index snapshot written at position ${state.index.head} in ${Date.now() - started} ms`,
          file,
        });
      })
      .catch((error: unknown) => {
        this.settings.logger?.({
          level: 'warn',
          msg: `audit index snapshot not written: ${(error as Error)?.message ?? String(error)}`,
        });
      })
      .finally(() => {
        this.writing = null;
        // Batches indexed while writing may have made the next one due.
        this.consider();
      });
  }
}
