import { constants as fsConstants } from 'node:fs';
import { stat } from 'node:fs/promises';
import * as path from 'node:path';

import type { ChangeEvent } from '../ChangeEvent.js';
import type { EventLog, EventLogStorageStats } from '../EventLog.js';
import { CheckpointIndex } from './CheckpointIndex.js';
import { type FileSubscription, subscribeTo } from './FileSubscription.js';
import { FramePositions } from './FramePositions.js';
import { HEADER_BYTES } from './frames.js';
import { type CommittedFrame, type FileEventLogStats, GroupCommitWriter } from './GroupCommitWriter.js';
import { type LogFileHandle, type LogFileSystem, nodeFileSystem, syncDir } from './logFileSystem.js';
import { findOpenPoint, writeOpenPoint } from './openPoint.js';
import { readCommitted } from './readCommitted.js';
import { scanOnOpen, type ScanStart } from './scanOnOpen.js';

export { FileSubscription } from './FileSubscription.js';
export type { FileEventLogStats } from './GroupCommitWriter.js';
export { EventLogCorruptError, EventLogFailedError, EventLogUnavailableError } from './logErrors.js';

/**
 * The embedded, durable default adapter of the EventLog port: one append-only file,
 * `<dir>/events.log`, written by a single process.
 *
 * File format: a sequence of frames, one per append call (one request's batch):
 *
 *     [u32 LE payload length][u32 LE CRC-32 of payload][payload: UTF-8 JSON array of the batch's events]
 *
 * A frame is all-or-nothing for readers: it is only ever read after it was fsynced.
 * On open, only a torn tail is cut (scanOnOpen tells it from damage; the cut bytes are
 * kept in a side file and the cut is logged). Damage to acknowledged data makes open()
 * refuse, truncating nothing (verify-log and repair-log in the manage CLI handle it).
 * Positions are dense (1, 2, 3 ...) across frames; a gap inside CRC-valid frames is
 * corruption and makes open()/read() throw.
 *
 * Appends go through the GroupCommitWriter (group commit, fsync before acknowledging,
 * appends refused on a full disk until recover()).
 *
 * open() parses every frame to check the positions, so it costs about as much as a
 * full replay (~130k events/s on a 2-core VM), unless a persisted open point matches
 * the file (see openPoint.ts): then only the frames after it are read, and the earlier
 * ones are checked when they are read. A sparse in-memory index (CheckpointIndex)
 * lets read(from) and subscribe(from) start near `from` instead of at the start;
 * a table of every frame's first position and offset (FramePositions) serves
 * readPositions().
 *
 * Live subscribers get each committed batch parsed back from its frame (once, shared
 * by all subscribers: do not mutate it), so live delivery equals what a replay yields.
 *
 * Only one process may have a directory's log open for writing at a time: the service
 * and the manage CLI hold the data directory's lock (DataDirLock) while they do.
 */

export interface FileEventLogOptions {
  /** Directory holding `events.log`; created if missing. */
  dir: string;
  /** The file system (tests inject failures here). Default: node:fs. */
  fs?: LogFileSystem;
  /** Where cuts of the log are reported (one JSON-able entry each). Default: a JSON line on stderr. */
  logger?: (entry: Record<string, unknown>) => void;
  /**
   * Persisted open points: the directory they are kept in, one written every
   * `everyEvents` events (0: never; a persisted one is still used), `keep` kept;
   * `verifyAll` scans the whole file at open anyway. None: every open scans the whole file.
   */
  openPoints?: { dir: string; everyEvents: number; keep: number; verifyAll?: boolean };
}

/** How the last open() verified the file: from which byte offset, and how many frames it read. */
export interface OpenStats {
  readonly fromOffset: number;
  readonly fromPosition: number;
  readonly framesScanned: number;
}

const stderrLogger = (entry: Record<string, unknown>) =>
  process.stderr.write(JSON.stringify({ time: new Date().toISOString(), ...entry }) + '\n');

const NO_STATS: FileEventLogStats = { appends: 0, syncs: 0, bytesWritten: 0, truncatedBytes: 0 };

type State = 'new' | 'opening' | 'open' | 'closing' | 'closed';

export class FileEventLog implements EventLog {
  /** Path of the log file. */
  readonly file: string;
  private readonly dir: string;
  private readonly fs: LogFileSystem;
  private readonly logger: (entry: Record<string, unknown>) => void;
  private state: State = 'new';
  /** Set by open(); kept after close() for its stats. */
  private writer: GroupCommitWriter | null = null;
  private closing: Promise<void> | null = null;

  private readonly index = new CheckpointIndex();
  /** Every durable frame's first position and offset: readPositions() reads events from the file by position. */
  private readonly frames: FramePositions;
  private readonly subscriptions = new Set<FileSubscription>();
  private readonly openPoints: FileEventLogOptions['openPoints'];
  /** The head of the last open point written or used. */
  private pointHead = 0;
  private pointWriting: Promise<void> | null = null;
  private opened: OpenStats | null = null;

  constructor(options: FileEventLogOptions) {
    this.openPoints = options.openPoints;
    this.dir = options.dir;
    this.file = path.join(options.dir, 'events.log');
    this.frames = new FramePositions(this.file);
    this.fs = options.fs ?? nodeFileSystem;
    this.logger = options.logger ?? stderrLogger;
  }

  /** How the last open() verified the file (null before). */
  get openStats(): OpenStats | null {
    return this.opened;
  }

  /** Counters for tests and monitoring (a snapshot). */
  async storageStats(): Promise<EventLogStorageStats> {
    const { appends, syncs } = this.stats;
    const sizeBytes = await stat(this.file).then(
      (info) => info.size,
      () => null,
    );
    return { sizeBytes, appends, syncs };
  }

  get stats(): FileEventLogStats {
    return this.writer?.stats ?? NO_STATS;
  }

  /**
   * The handle the writer appends through. Tests replace its datasync to hold a group
   * commit open or make it fail, which the file-system port cannot aim at one call.
   */
  private get fh(): LogFileHandle | null {
    return this.writer?.handle ?? null;
  }

  async open(): Promise<void> {
    if (this.state !== 'new') throw new Error(`FileEventLog.open(): log is ${this.state}`);
    this.state = 'opening';
    let fh: LogFileHandle | null = null;
    try {
      await this.fs.mkdir(this.dir); // owner only (0700): the log holds secrets (digests, sealed keys)
      try {
        fh = await this.fs.open(this.file, fsConstants.O_RDWR);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
        fh = await this.fs.open(this.file, fsConstants.O_RDWR | fsConstants.O_CREAT, 0o600);
        await syncDir(this.fs, this.dir); // make the new file's directory entry durable
      }
      const start = await this.persistedStart(fh);
      const scan = await scanOnOpen(fh, this.file, (first, offset) => this.noteFrame(first, offset), start);
      this.opened = { fromOffset: start.offset, fromPosition: start.head + 1, framesScanned: scan.framesScanned };
      const writer = new GroupCommitWriter({
        fs: this.fs,
        file: this.file,
        logger: this.logger,
        fh,
        head: scan.head,
        committedBytes: scan.committedBytes,
        tornTail: scan.tornTail,
        onCommitted: (frames) => this.committed(frames),
      });
      await writer.start();
      this.writer = writer;
      this.state = 'open';
      this.considerOpenPoint();
    } catch (err) {
      this.state = 'closed';
      await fh?.close().catch(() => undefined);
      throw err;
    }
  }

  /**
   * Where the open scan starts: after the newest persisted open point that matches the
   * file (its frame table adopted), else at the start of the file.
   */
  private async persistedStart(fh: LogFileHandle): Promise<ScanStart> {
    const points = this.openPoints;
    if (!points || points.verifyAll) return { offset: 0, head: 0 };
    const point = await findOpenPoint(points.dir, fh, this.file, (msg, snapshot) =>
      this.logger({ level: 'warn', msg, snapshot }),
    );
    if (point === null) return { offset: 0, head: 0 };
    this.frames.adopt(point.firsts, point.offsets);
    for (let i = 0; i < point.firsts.length; i++) this.index.note(point.firsts[i]!, point.offsets[i]!);
    this.pointHead = point.head;
    return { offset: point.committedBytes, head: point.head };
  }

  /**
   * Persists an open point in the background once the log has grown by `everyEvents`
   * since the last one: the frame table is taken as views (frames are only appended),
   * the event id at the head read back from the file.
   */
  private considerOpenPoint(force = false): void {
    const points = this.openPoints;
    const writer = this.writer;
    if (!points || (points.everyEvents <= 0 && !force) || this.pointWriting || this.state !== 'open' || writer === null)
      return;
    const head = writer.head;
    if (head === 0 || (!force && head - this.pointHead < points.everyEvents)) return;
    const committedBytes = writer.durableBytes;
    const { firsts, offsets } = this.frames.image();
    this.pointHead = head;
    this.pointWriting = (async () => {
      const [event] = await this.frames.read([head], head, committedBytes);
      await writeOpenPoint(points.dir, { head, committedBytes, eventId: event!.eventId, firsts, offsets }, points.keep);
    })()
      .catch((error: unknown) =>
        this.logger({
          level: 'warn',
          msg: `${this.file}: open point not persisted: ${(error as Error)?.message ?? String(error)}`,
        }),
      )
      .finally(() => {
        this.pointWriting = null;
      });
  }

  /** Persists an open point at the current head now (unless one is being written), and waits for it; a no-op without open points. */
  async persistOpenPoint(): Promise<void> {
    await this.pointWriting;
    this.considerOpenPoint(true);
    await this.pointWriting;
  }

  /** Why appends are refused for now (full disk, I/O error), or null. recover() may end it. */
  unavailable(): Error | null {
    return this.writer?.unavailable() ?? null;
  }

  /**
   * After a storage failure: moves whatever a failed append left after the committed
   * frames into a side file and probes the storage (see GroupCommitWriter.recover).
   * Call it only when no append is pending (the writer does).
   */
  async recover(): Promise<void> {
    const failed = this.writer?.failedError();
    if (failed) throw failed;
    if (this.state !== 'open') throw new Error(`FileEventLog.recover(): log is ${this.state}`);
    await this.writer!.recover();
  }

  head(): number {
    return this.writer?.head ?? 0;
  }

  /**
   * Validates and queues the batch synchronously (so call order = log order), then
   * commits it with the group commit. The log takes ownership of `events`: do not
   * mutate them afterwards.
   */
  append(events: ChangeEvent[]): Promise<void> {
    const refusal = this.writer?.refusal();
    if (refusal) return Promise.reject(refusal);
    if (this.state !== 'open') return Promise.reject(new Error(`FileEventLog.append(): log is ${this.state}`));
    return this.writer!.append(events);
  }

  /** Notes committed frames and hands their batches to live subscribers, parsed back from the frame so they equal what a replay yields. */
  private committed(frames: readonly CommittedFrame[]): void {
    for (const f of frames) this.noteFrame(f.firstPosition, f.offset);
    this.considerOpenPoint();
    if (this.subscriptions.size === 0) return;
    for (const f of frames) {
      const batch = JSON.parse(f.frame.toString('utf8', HEADER_BYTES)) as ChangeEvent[];
      for (const sub of this.subscriptions) sub.push(batch);
    }
  }

  private noteFrame(firstPosition: number, offset: number): void {
    this.frames.note(firstPosition, offset);
    this.index.note(firstPosition, offset);
  }

  /**
   * Committed events by position, read from the file: one positional read per run of
   * nearby frames plus a parse of each frame holding a wanted event (see FramePositions).
   */
  readPositions(positions: readonly number[]): Promise<ChangeEvent[]> {
    if (this.state !== 'open') return Promise.reject(new Error(`FileEventLog.readPositions(): log is ${this.state}`));
    return this.frames.read(positions, this.writer!.head, this.writer!.durableBytes);
  }

  read(from: number): AsyncIterable<ChangeEvent[]> {
    return this.readFrom(Math.max(1, Math.floor(from)));
  }

  /** Streams committed frames from disk, including batches committed during the iteration. */
  private async *readFrom(from: number): AsyncGenerator<ChangeEvent[]> {
    if (this.state === 'new' || this.state === 'opening') throw new Error('FileEventLog.read(): log is not open');
    const writer = this.writer;
    if (writer === null || from > writer.head) return;
    yield* readCommitted(this.fs, this.file, this.index.seek(from), from, () => writer.durableBytes);
  }

  /**
   * Existing batches come from disk, live ones from the commit path (see FileSubscription).
   *
   * If `onBatch` throws, delivery ends: `caughtUp` rejects (if still pending) and the
   * returned subscription's `done` rejects with the error.
   */
  subscribe(from: number, onBatch: (events: ChangeEvent[]) => Promise<void>): FileSubscription {
    if (this.state !== 'open') throw new Error(`FileEventLog.subscribe(): log is ${this.state}`);
    return subscribeTo(
      { head: () => this.head(), readFrom: (pos) => this.readFrom(pos), subscriptions: this.subscriptions },
      from,
      onBatch,
    );
  }

  /** Waits for queued and in-flight appends, stops subscriptions, closes the file. */
  close(): Promise<void> {
    this.closing ??= this.doClose();
    return this.closing;
  }

  private async doClose(): Promise<void> {
    if (this.state !== 'open') {
      this.state = 'closed'; // never opened, or open() failed (it closed its handle)
      return;
    }
    this.state = 'closing';
    await this.writer!.settle();
    await Promise.all([...this.subscriptions].map((s) => s.stop()));
    await this.pointWriting;
    await this.frames.close();
    await this.writer!.closeFile();
    this.state = 'closed';
  }
}
