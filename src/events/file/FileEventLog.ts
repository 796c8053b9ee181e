import { constants as fsConstants } from 'node:fs';
import * as path from 'node:path';
import type { ChangeEvent } from '../ChangeEvent.js';
import type { EventLog, Subscription } from '../EventLog.js';
import { FramePositions } from './FramePositions.js';
import { encodeFrame, findIntactFrame, FrameReader, HEADER_BYTES, MAX_GROUP_BYTES, MAX_PAYLOAD_BYTES, MAX_TORN_BYTES } from './frames.js';
import { keepTailAside, type CutKind } from './keepAside.js';
import { isStorageFailure, nodeFileSystem, syncDir, type LogFileHandle, type LogFileSystem } from './logFileSystem.js';
import { assertValidEvents } from '../validateEvents.js';
import { Deferred } from '../Deferred.js';

/**
 * The embedded, durable default adapter of the EventLog port: one append-only file,
 * `<dir>/events.log`, written by a single process.
 *
 * File format: a sequence of frames, one per append call (one request's batch):
 *
 *     [u32 LE payload length][u32 LE CRC-32 of payload][payload: UTF-8 JSON array of the batch's events]
 *
 * A frame is all-or-nothing for readers: it is only ever read after it was fsynced.
 * On open, only a torn tail is cut: a bad frame (incomplete or CRC-failing) with no
 * intact frame anywhere after it, within what one group write can span. That is what a
 * crash during the last write leaves, and it was never acknowledged. The cut bytes are
 * kept in a side file and the cut is logged. A bad frame followed by an intact one is
 * damage to acknowledged data: open() refuses, truncates nothing, and names the file,
 * offset and position (verify-log and repair-log in the manage CLI handle it).
 * Positions are dense (1, 2, 3 ...) across frames; a gap inside CRC-valid frames is
 * corruption and makes open()/read() throw.
 *
 * A full disk (ENOSPC, EDQUOT) or an I/O error while appending does not stop the log
 * for good: appends are refused (EventLogUnavailableError) until recover() has moved the
 * failed append's partial bytes aside and a probe write succeeds. Other write errors
 * are fail-stop. open() probes writability too, so a log on a full disk opens for
 * reading with appends refused.
 *
 * open() parses every frame to check the positions, so it costs about as much as a
 * full replay (~130k events/s on a 2-core VM). A sparse in-memory index (one entry per
 * MiB) lets read(from) and subscribe(from) start near `from` instead of at the start;
 * a table of every frame's first position and offset (FramePositions) serves
 * readPositions().
 *
 * Live subscribers get each committed batch parsed back from its frame (once, shared
 * by all subscribers: do not mutate it), so live delivery equals what a replay yields.
 *
 * Only one process may have a directory's log open for writing at a time: the service
 * and the manage CLI hold the data directory's lock (DataDirLock) while they do.
 */

/** Bytes written and fsynced by the writability probe. */
const PROBE_BYTES = 4096;
/** Sparse index: one (first position, file offset) checkpoint per this many bytes of log. */
const INDEX_EVERY_BYTES = 1 << 20;
/** A subscriber buffers at most this many live batches; beyond that it catches up from disk. */
const MAX_LIVE_BUFFER = 1024;

export interface FileEventLogOptions {
  /** Directory holding `events.log`; created if missing. */
  dir: string;
  /** The file system (tests inject failures here). Default: node:fs. */
  fs?: LogFileSystem;
  /** Where cuts of the log are reported (one JSON-able entry each). Default: a JSON line on stderr. */
  logger?: (entry: Record<string, unknown>) => void;
}

export interface FileEventLogStats {
  /** Successful append() calls. */
  readonly appends: number;
  /** write+fdatasync rounds of the group commit (each commits one or more appends). */
  readonly syncs: number;
  /** Bytes appended to the file by this instance. */
  readonly bytesWritten: number;
  /** Bytes cut off the tail (and kept aside): a torn tail at open, failed appends after recover(). */
  readonly truncatedBytes: number;
}

/** The log is damaged (not just a torn tail): nothing was cut; open() refuses to continue. */
export class EventLogCorruptError extends Error {}

/** The log refused an append because an earlier write or fsync failed with a logic error (fail-stop). */
export class EventLogFailedError extends Error {}

/** The storage cannot take appends for now (disk full, I/O error); recover() may end it. */
export class EventLogUnavailableError extends Error {}

const stderrLogger = (entry: Record<string, unknown>) => process.stderr.write(JSON.stringify({ time: new Date().toISOString(), ...entry }) + '\n');

interface PendingAppend {
  readonly events: ChangeEvent[];
  readonly frame: Buffer;
  readonly resolve: () => void;
  readonly reject: (err: Error) => void;
}

interface IndexEntry {
  readonly position: number;
  readonly offset: number;
}

type State = 'new' | 'opening' | 'open' | 'closing' | 'closed';

const FAILED_APPEND = { kind: 'failed-append', why: 'the partial write of an append that failed and was answered as failed' } as const;

export class FileEventLog implements EventLog {
  /** Path of the log file. */
  readonly file: string;
  private readonly dir: string;
  private readonly fs: LogFileSystem;
  private readonly logger: (entry: Record<string, unknown>) => void;
  private fh: LogFileHandle | null = null;
  private state: State = 'new';
  /** Set when a write or fsync failed with a logic error: every later append is refused. */
  private failure: Error | null = null;
  /** Set while the storage refuses writes (full disk, I/O error): appends are refused until recover(). */
  private storageFailure: NodeJS.ErrnoException | null = null;
  /** How bytes found after the committed end are described when recover() cuts them. */
  private pendingCut: { kind: CutKind; why: string } = FAILED_APPEND;

  /** Last durable (fsynced) position: head(). */
  private committedHead = 0;
  /** Last position accepted by append(), including batches still queued or in flight. */
  private acceptedHead = 0;
  /** File length covered by durable frames; readers never read past it. */
  private committedBytes = 0;

  private queue: PendingAppend[] = [];
  private flushing: Promise<void> | null = null;
  private closing: Promise<void> | null = null;

  private readonly index: IndexEntry[] = [];
  /** Every durable frame's first position and offset: readPositions() reads events from the file by position. */
  private readonly frames: FramePositions;
  private readonly subscriptions = new Set<FileSubscription>();
  private readonly counters = { appends: 0, syncs: 0, bytesWritten: 0, truncatedBytes: 0 };

  constructor(options: FileEventLogOptions) {
    this.dir = options.dir;
    this.file = path.join(options.dir, 'events.log');
    this.frames = new FramePositions(this.file);
    this.fs = options.fs ?? nodeFileSystem;
    this.logger = options.logger ?? stderrLogger;
  }

  /** Counters for tests and monitoring (a snapshot). */
  get stats(): FileEventLogStats {
    return { ...this.counters };
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

      const size = (await fh.stat()).size;
      const reader = new FrameReader(fh, 0, () => size);
      let head = 0;
      let good = 0;
      let bad = '';
      for (;;) {
        const frame = await reader.next();
        if (frame === null) break;
        if ('torn' in frame) {
          bad = frame.torn;
          break;
        }
        let batch: ChangeEvent[];
        try {
          batch = parseBatch(frame.payload, head + 1, frame.offset, this.file);
        } catch (err) {
          throw new EventLogCorruptError(`${(err as Error).message}. ${this.wayOut(frame.offset, head + 1, size)}`);
        }
        this.noteFrame(head + 1, frame.offset);
        head += batch.length;
        good = frame.offset + frame.size;
      }
      if (good < size) {
        const where = `${this.file}: bad frame at byte offset ${good}, where position ${head + 1} should start (${bad})`;
        if (size - good > MAX_TORN_BYTES) {
          throw new EventLogCorruptError(
            `${where}, ${size - good} bytes from the end: more than an interrupted write can leave (${MAX_TORN_BYTES}). ${this.wayOut(good, head + 1, size)}`,
          );
        }
        const next = await findIntactFrame(fh, good + 1, size);
        if (next !== null) {
          throw new EventLogCorruptError(`${where}, followed by an intact frame at byte offset ${next}: damage, not an interrupted write. ${this.wayOut(good, head + 1, size)}`);
        }
        // Torn tail: the last write of a crashed process did not fully reach the disk.
        // Its appends were never acknowledged (we acknowledge only after fdatasync), so
        // cutting it off loses nothing a caller was told is durable; the bytes are kept anyway.
        this.pendingCut = { kind: 'torn', why: `torn tail (${bad}): an interrupted write, never acknowledged; position ${head + 1} would have started there` };
      }
      this.fh = fh;
      this.committedHead = this.acceptedHead = head;
      this.committedBytes = good;
      try {
        await this.makeWritable();
      } catch (err) {
        // A full disk must not keep the log from being read: it opens with appends refused.
        if (!isStorageFailure(err)) throw err;
        this.storageFailure = err;
      }
      this.state = 'open';
    } catch (err) {
      this.state = 'closed';
      this.fh = null;
      await fh?.close().catch(() => undefined);
      throw err;
    }
  }

  /** The end of the message that stops start-up on a damaged log: what to do about it. */
  private wayOut(offset: number, position: number, size: number): string {
    return (
      `Nothing was cut and the log was not opened. See every damaged frame with 'npm run manage -- verify-log'. ` +
      `'npm run manage -- repair-log' moves bytes ${offset}..${size} (${size - offset} bytes) into a file beside the log ` +
      `and the service then starts with positions 1..${position - 1}; or restore the log from a backup.`
    );
  }

  /**
   * Makes the file end where the committed frames end, moving anything after them (a torn
   * tail found by open(), a failed append's partial bytes) into a side file first, then
   * checks that the storage takes a write. Throws a storage error if it does not.
   */
  private async makeWritable(): Promise<void> {
    const size = (await this.fh!.stat()).size;
    if (size < this.committedBytes) {
      throw new EventLogCorruptError(`${this.file} is ${size} bytes, shorter than the ${this.committedBytes} bytes already committed: something else truncated it`);
    }
    if (size > this.committedBytes) {
      const kept = await keepTailAside(this.fs, this.fh!, this.file, this.committedBytes, this.pendingCut.kind);
      if (kept) {
        this.counters.truncatedBytes += kept.bytes;
        this.logger({
          level: 'warn',
          msg: `event log: cut ${kept.bytes} bytes at byte offset ${kept.offset} (${this.pendingCut.why}); they are kept in ${kept.file}`,
          file: this.file,
          offset: kept.offset,
          bytes: kept.bytes,
          position: this.committedHead + 1,
          keptIn: kept.file,
        });
      }
    }
    this.pendingCut = FAILED_APPEND;
    await this.probe();
  }

  /** Writes and fsyncs a small file beside the log: does the storage take data right now? */
  private async probe(): Promise<void> {
    const file = `${this.file}.write-probe`;
    const handle = await this.fs.open(file, 'w', 0o600);
    try {
      await writeFully(handle, Buffer.alloc(PROBE_BYTES), 0);
      await handle.datasync();
    } finally {
      await handle.close().catch(() => undefined);
      await this.fs.unlink(file).catch(() => undefined);
    }
  }

  /** Why appends are refused for now (full disk, I/O error), or null. recover() may end it. */
  unavailable(): Error | null {
    return this.storageFailure ? this.unavailableError() : null;
  }

  /**
   * After a storage failure: re-opens the file, moves whatever a failed append left after
   * the committed frames into a side file, and probes the storage. On success appends are
   * accepted again; if the storage still refuses, throws EventLogUnavailableError and the
   * log stays as it was. Call it only when no append is pending (the writer does).
   */
  async recover(): Promise<void> {
    if (this.failure) throw new EventLogFailedError(`event log refuses appends after a failed write (restart the process): ${this.failure.message}`, { cause: this.failure });
    if (this.state !== 'open') throw new Error(`FileEventLog.recover(): log is ${this.state}`);
    if (!this.storageFailure) return;
    while (this.flushing) await this.flushing;
    try {
      // A fresh descriptor: the old one may keep reporting the error that stopped us.
      const fh = await this.fs.open(this.file, fsConstants.O_RDWR);
      const old = this.fh;
      this.fh = fh;
      await old?.close().catch(() => undefined);
      await this.makeWritable();
      this.storageFailure = null;
    } catch (err) {
      if (isStorageFailure(err)) {
        this.storageFailure = err;
        throw this.unavailableError();
      }
      this.failure = err as Error;
      throw err;
    }
  }

  private unavailableError(): EventLogUnavailableError {
    const cause = this.storageFailure!;
    return new EventLogUnavailableError(`event log ${this.file} cannot be written (${cause.message}); appends are refused until it can`, { cause });
  }

  head(): number {
    return this.committedHead;
  }

  /**
   * Validates and queues the batch synchronously (so call order = log order), then
   * commits it with the group commit. The log takes ownership of `events`: do not
   * mutate them afterwards.
   */
  append(events: ChangeEvent[]): Promise<void> {
    try {
      if (this.failure) throw new EventLogFailedError(`event log refuses appends after a failed write (restart the process): ${this.failure.message}`, { cause: this.failure });
      if (this.storageFailure) throw this.unavailableError();
      if (this.state !== 'open') throw new Error(`FileEventLog.append(): log is ${this.state}`);
      if (!Array.isArray(events) || events.length === 0) throw new Error('FileEventLog.append(): a batch needs at least one event');
      assertValidEvents(events);
      const first = this.acceptedHead + 1;
      for (let i = 0; i < events.length; i++) {
        if (events[i]!.position !== first + i) {
          throw new Error(`FileEventLog.append(): positions must continue the log: expected ${first + i}, got ${events[i]!.position}`);
        }
      }
      const json = JSON.stringify(events);
      const length = Buffer.byteLength(json, 'utf8');
      if (length > MAX_PAYLOAD_BYTES) throw new Error(`FileEventLog.append(): batch too large (${length} bytes)`);
      const frame = encodeFrame(json);

      return new Promise<void>((resolve, reject) => {
        this.queue.push({ events, frame, resolve, reject });
        this.acceptedHead = first + events.length - 1;
        this.flushing ??= this.flushLoop();
      });
    } catch (err) {
      return Promise.reject(err);
    }
  }

  /**
   * The group commit. Started by the first append after an idle period; it yields one
   * microtask first so appends made in the same tick share the write. While a
   * write+fdatasync is in flight new appends queue up; the next round writes all of them
   * with one write and one fdatasync, then resolves them in call order.
   */
  private async flushLoop(): Promise<void> {
    await null;
    try {
      while (this.queue.length > 0 && !this.failure && !this.storageFailure) {
        let take = 0;
        let bytes = 0;
        while (take < this.queue.length && (take === 0 || bytes + this.queue[take]!.frame.length <= MAX_GROUP_BYTES)) {
          bytes += this.queue[take]!.frame.length;
          take++;
        }
        const group = this.queue.splice(0, take);
        const buf = group.length === 1 ? group[0]!.frame : Buffer.concat(group.map((p) => p.frame), bytes);
        const offset = this.committedBytes;
        try {
          await writeFully(this.fh!, buf, offset);
          await this.fh!.datasync();
        } catch (err) {
          // After a failed write or fsync we cannot know what reached the disk (and after a
          // failed fsync the kernel may have dropped the dirty pages). The committed frames
          // were fsynced before, so the file is trusted up to committedBytes only. A full
          // disk or an I/O error suspends appends until recover() has cut the rest (kept
          // aside) and the storage takes writes again; the rejected appends are then not in
          // the log. Any other error is a bug: fail-stop, and the process must restart.
          if (isStorageFailure(err)) this.suspend(err, group);
          else this.fail(err as Error, group);
          return;
        }
        let frameOffset = offset;
        for (const p of group) {
          this.noteFrame(p.events[0]!.position, frameOffset);
          frameOffset += p.frame.length;
        }
        this.committedBytes += buf.length;
        this.committedHead = group[group.length - 1]!.events.at(-1)!.position;
        this.counters.syncs++;
        this.counters.appends += group.length;
        this.counters.bytesWritten += buf.length;
        for (const p of group) p.resolve();
        this.publish(group);
      }
    } finally {
      this.flushing = null;
    }
  }

  private suspend(cause: NodeJS.ErrnoException, group: PendingAppend[]): void {
    this.storageFailure = cause;
    const pending = [...group, ...this.queue.splice(0)];
    this.acceptedHead = this.committedHead;
    const error = this.unavailableError();
    for (const p of pending) p.reject(error);
  }

  private fail(cause: Error, group: PendingAppend[]): void {
    this.failure = cause;
    const pending = [...group, ...this.queue.splice(0)];
    this.acceptedHead = this.committedHead;
    for (const p of pending) {
      p.reject(new EventLogFailedError(`event log write failed; the log refuses further appends (restart the process): ${cause.message}`, { cause }));
    }
  }

  /** Hands committed batches to live subscribers, parsed back from the frame so they equal what a replay yields. */
  private publish(group: PendingAppend[]): void {
    if (this.subscriptions.size === 0) return;
    for (const p of group) {
      const batch = JSON.parse(p.frame.toString('utf8', HEADER_BYTES)) as ChangeEvent[];
      for (const sub of this.subscriptions) sub.push(batch);
    }
  }

  private noteFrame(firstPosition: number, offset: number): void {
    this.frames.note(firstPosition, offset);
    const last = this.index[this.index.length - 1];
    if (last === undefined || offset - last.offset >= INDEX_EVERY_BYTES) {
      this.index.push({ position: firstPosition, offset });
    }
  }

  /** The last index checkpoint whose frame starts at or before `position`. */
  private seek(position: number): IndexEntry {
    let lo = 0;
    let hi = this.index.length - 1;
    let found: IndexEntry = { position: 1, offset: 0 };
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const entry = this.index[mid]!;
      if (entry.position <= position) {
        found = entry;
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    return found;
  }

  /**
   * Committed events by position, read from the file: one positional read per run of
   * nearby frames plus a parse of each frame holding a wanted event (see FramePositions).
   */
  readPositions(positions: readonly number[]): Promise<ChangeEvent[]> {
    if (this.state !== 'open') return Promise.reject(new Error(`FileEventLog.readPositions(): log is ${this.state}`));
    return this.frames.read(positions, this.committedHead, this.committedBytes);
  }

  read(from: number): AsyncIterable<ChangeEvent[]> {
    return this.readFrom(Math.max(1, Math.floor(from)));
  }

  /**
   * Streams committed frames from disk with its own read handle, in 1 MiB chunks. It
   * reads up to the committed length, re-checked each time it runs out, so batches
   * committed during the iteration are included too.
   */
  private async *readFrom(from: number): AsyncGenerator<ChangeEvent[]> {
    if (this.state === 'new' || this.state === 'opening') throw new Error('FileEventLog.read(): log is not open');
    if (from > this.committedHead) return;
    const start = this.seek(from);
    const fh = await this.fs.open(this.file, 'r');
    try {
      const reader = new FrameReader(fh, start.offset, () => this.committedBytes);
      let next = start.position;
      for (;;) {
        const frame = await reader.next();
        if (frame === null) return;
        if ('torn' in frame) {
          throw new EventLogCorruptError(`${this.file}: ${frame.torn} at offset ${frame.offset} inside the committed log`);
        }
        const batch = parseBatch(frame.payload, next, frame.offset, this.file);
        next += batch.length;
        if (next <= from) continue;
        const first = batch[0]!.position;
        yield first >= from ? batch : batch.slice(from - first);
      }
    } finally {
      await fh.close();
    }
  }

  /**
   * Existing batches come from disk, live ones from the commit path; positions are
   * used to drop duplicates, and a gap in the live buffer (or a buffer overflow for a
   * slow subscriber) falls back to reading from disk, so delivery is gap-free.
   *
   * If `onBatch` throws, delivery ends: `caughtUp` rejects (if still pending) and the
   * returned subscription's `done` rejects with the error.
   */
  subscribe(from: number, onBatch: (events: ChangeEvent[]) => Promise<void>): FileSubscription {
    if (this.state !== 'open') throw new Error(`FileEventLog.subscribe(): log is ${this.state}`);
    const sub = new FileSubscription(
      {
        head: () => this.committedHead,
        read: (pos) => this.readFrom(pos),
        remove: (s) => this.subscriptions.delete(s),
      },
      Math.max(1, Math.floor(from)),
      this.committedHead,
      onBatch,
    );
    this.subscriptions.add(sub);
    sub.start();
    return sub;
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
    while (this.flushing) await this.flushing;
    await Promise.all([...this.subscriptions].map((s) => s.stop()));
    await this.frames.close();
    await this.fh?.close();
    this.fh = null;
    this.state = 'closed';
  }
}

interface SubscriptionHost {
  head(): number;
  read(from: number): AsyncIterable<ChangeEvent[]>;
  remove(sub: FileSubscription): void;
}

export class FileSubscription implements Subscription {
  readonly caughtUp: Promise<void>;
  /** Settles when delivery has ended: resolves after stop(), rejects if onBatch or a read failed. */
  readonly done: Promise<void>;
  private readonly caughtUpSignal = new Deferred();
  private readonly doneSignal = new Deferred();
  private isCaughtUp = false;
  /** Last position handed to onBatch. */
  private delivered: number;
  private live: ChangeEvent[][] = [];
  private stopped = false;
  private wake: (() => void) | null = null;
  private inCallback = false;
  private loop: Promise<void> = Promise.resolve();

  constructor(
    private readonly host: SubscriptionHost,
    from: number,
    private readonly target: number,
    private readonly onBatch: (events: ChangeEvent[]) => Promise<void>,
  ) {
    this.delivered = from - 1;
    this.caughtUp = this.caughtUpSignal.promise;
    this.done = this.doneSignal.promise;
  }

  /** Starts the delivery loop (called once by the log after registering the subscription). */
  start(): void {
    this.loop = this.run().then(this.doneSignal.resolve, this.doneSignal.reject);
  }

  /** Called by the log for every committed batch (in commit order). */
  push(batch: ChangeEvent[]): void {
    if (this.stopped) return;
    if (this.live.length >= MAX_LIVE_BUFFER) this.live = []; // too slow: catch up from disk instead
    this.live.push(batch);
    this.signal();
  }

  /**
   * Ends delivery; resolves once the loop has ended (after a running onBatch returns).
   * Called from inside onBatch it resolves at once instead of waiting for itself.
   */
  async stop(): Promise<void> {
    if (!this.stopped) {
      this.stopped = true;
      this.live = [];
      this.host.remove(this);
      this.signal();
    }
    if (!this.inCallback) await this.loop.catch(() => undefined);
  }

  private signal(): void {
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }

  private checkCaughtUp(): void {
    if (!this.isCaughtUp && this.delivered >= this.target) {
      this.isCaughtUp = true;
      this.caughtUpSignal.resolve();
    }
  }

  private async run(): Promise<void> {
    try {
      this.checkCaughtUp();
      while (!this.stopped) {
        if (this.delivered >= this.host.head()) {
          await new Promise<void>((resolve) => {
            this.wake = resolve;
          });
          continue;
        }
        const batch = this.takeLive();
        if (batch) {
          await this.deliver(batch);
          continue;
        }
        // Behind, and the live buffer does not continue where we are: read from disk
        // until the live buffer can take over (or the disk has nothing more).
        for await (const b of this.host.read(this.delivered + 1)) {
          if (this.stopped) break;
          await this.deliver(b);
          this.pruneLive();
          if (this.live.length > 0 && this.live[0]![0]!.position <= this.delivered + 1) break;
        }
      }
      if (!this.isCaughtUp) {
        this.isCaughtUp = true;
        this.caughtUpSignal.reject(new Error('subscription stopped before it caught up'));
      }
    } catch (err) {
      this.stopped = true;
      this.host.remove(this);
      if (!this.isCaughtUp) {
        this.isCaughtUp = true;
        this.caughtUpSignal.reject(err as Error);
      }
      throw err;
    }
  }

  private async deliver(batch: ChangeEvent[]): Promise<void> {
    this.inCallback = true;
    try {
      await this.onBatch(batch);
    } finally {
      this.inCallback = false;
    }
    this.delivered = batch[batch.length - 1]!.position;
    this.checkCaughtUp();
  }

  /** Drops buffered batches that were already delivered (e.g. read from disk meanwhile). */
  private pruneLive(): void {
    let drop = 0;
    while (drop < this.live.length && this.live[drop]!.at(-1)!.position <= this.delivered) drop++;
    if (drop > 0) this.live.splice(0, drop);
  }

  /** The next buffered batch continuing `delivered` (its tail if it straddles), or null on a gap. */
  private takeLive(): ChangeEvent[] | null {
    this.pruneLive();
    const batch = this.live[0];
    if (batch === undefined) return null;
    const first = batch[0]!.position;
    if (first > this.delivered + 1) return null;
    this.live.shift();
    return first === this.delivered + 1 ? batch : batch.slice(this.delivered + 1 - first);
  }
}

/** Parses a CRC-valid payload and checks that its positions continue at `expected`. */
function parseBatch(payload: Buffer, expected: number, offset: number, file: string): ChangeEvent[] {
  let batch: unknown;
  try {
    batch = JSON.parse(payload.toString('utf8'));
  } catch (err) {
    throw new EventLogCorruptError(`${file}: frame at offset ${offset} is not valid JSON: ${(err as Error).message}`);
  }
  if (!Array.isArray(batch) || batch.length === 0) {
    throw new EventLogCorruptError(`${file}: frame at offset ${offset} is not a non-empty array of events`);
  }
  for (let i = 0; i < batch.length; i++) {
    const event = batch[i] as { position?: unknown } | null;
    if (event === null || typeof event !== 'object' || event.position !== expected + i) {
      throw new EventLogCorruptError(
        `${file}: frame at offset ${offset}: expected position ${expected + i}, found ${String(event?.position)} (positions must be dense)`,
      );
    }
  }
  return batch as ChangeEvent[];
}

async function writeFully(fh: LogFileHandle, buf: Buffer, position: number): Promise<void> {
  let done = 0;
  while (done < buf.length) {
    const { bytesWritten } = await fh.write(buf, done, buf.length - done, position + done);
    if (bytesWritten <= 0) throw new Error('event log write made no progress');
    done += bytesWritten;
  }
}
