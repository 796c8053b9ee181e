import { constants as fsConstants } from 'node:fs';

import type { ChangeEvent } from '../ChangeEvent.js';
import { assertValidEvents } from '../validateEvents.js';
import { encodeFrame, HEADER_BYTES, MAX_GROUP_BYTES, MAX_PAYLOAD_BYTES } from './frames.js';
import { EventLogFailedError, EventLogUnavailableError } from './logErrors.js';
import { isStorageFailure, type LogFileHandle, type LogFileSystem } from './logFileSystem.js';
import { FAILED_APPEND, makeWritable, writeFully } from './makeWritable.js';
import type { TailCut } from './scanOnOpen.js';

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

/** A frame that is durable now, as the log file holds it. */
export interface CommittedFrame {
  readonly firstPosition: number;
  readonly offset: number;
  /** Header and payload, as written. */
  readonly frame: Buffer;
}

export interface GroupCommitWriterOptions {
  readonly fs: LogFileSystem;
  readonly file: string;
  readonly logger: (entry: Record<string, unknown>) => void;
  /** The log file, opened read-write; the writer owns it from now on. */
  readonly fh: LogFileHandle;
  /** Last position and end of the intact frames found at open. */
  readonly head: number;
  readonly committedBytes: number;
  /** A torn tail found at open, cut by start(). */
  readonly tornTail: TailCut | null;
  /** Hears every committed frame, in log order, right after its appends were resolved. */
  readonly onCommitted: (frames: readonly CommittedFrame[]) => void;
}

interface PendingAppend {
  readonly events: ChangeEvent[];
  readonly frame: Buffer;
  readonly resolve: () => void;
  readonly reject: (err: Error) => void;
}

/**
 * The write side of the file log: appends are queued in call order and committed by a
 * group commit (one write and one fdatasync for everything queued meanwhile), and are
 * acknowledged only once durable.
 *
 * A full disk (ENOSPC, EDQUOT) or an I/O error while appending does not stop the log for
 * good: appends are refused (EventLogUnavailableError) until recover() has moved the
 * failed append's partial bytes aside and a probe write succeeds. Other write errors are
 * fail-stop (EventLogFailedError until the process restarts). start() probes writability
 * too, so a log on a full disk opens for reading with appends refused.
 */
export class GroupCommitWriter {
  private fh: LogFileHandle;
  /** Set when a write or fsync failed with a logic error: every later append is refused. */
  private failure: Error | null = null;
  /** Set while the storage refuses writes (full disk, I/O error): appends are refused until recover(). */
  private storageFailure: NodeJS.ErrnoException | null = null;
  /** How bytes found after the committed end are described when they are cut. */
  private pendingCut: TailCut;

  /** Last durable (fsynced) position. */
  private committedHead: number;
  /** Last position accepted by append(), including batches still queued or in flight. */
  private acceptedHead: number;
  /** File length covered by durable frames; readers never read past it. */
  private committedBytes: number;

  private queue: PendingAppend[] = [];
  private flushing: Promise<void> | null = null;
  private readonly counters = { appends: 0, syncs: 0, bytesWritten: 0, truncatedBytes: 0 };

  constructor(private readonly options: GroupCommitWriterOptions) {
    this.fh = options.fh;
    this.committedHead = this.acceptedHead = options.head;
    this.committedBytes = options.committedBytes;
    this.pendingCut = options.tornTail ?? FAILED_APPEND;
  }

  /** Cuts a torn tail (kept aside) and probes the storage; a full disk leaves appends refused, not the log closed. */
  async start(): Promise<void> {
    try {
      await this.makeWritable();
    } catch (err) {
      if (!isStorageFailure(err)) throw err;
      this.storageFailure = err;
    }
  }

  /** Last durable position. */
  get head(): number {
    return this.committedHead;
  }

  /** File length covered by durable frames. */
  get durableBytes(): number {
    return this.committedBytes;
  }

  /** The log file's current handle (recover() replaces it). */
  get handle(): LogFileHandle {
    return this.fh;
  }

  get stats(): FileEventLogStats {
    return { ...this.counters };
  }

  /** Why appends are refused for now (full disk, I/O error), or null. recover() may end it. */
  unavailable(): Error | null {
    return this.storageFailure ? this.unavailableError() : null;
  }

  /** Why every append is refused (a failed write, or the storage refusing for now), or null. */
  refusal(): Error | null {
    return this.failedError() ?? this.unavailable();
  }

  /** Set for good once a write failed with a logic error. */
  failedError(): EventLogFailedError | null {
    if (!this.failure) return null;
    return new EventLogFailedError(
      `event log refuses appends after a failed write (restart the process): ${this.failure.message}`,
      { cause: this.failure },
    );
  }

  /**
   * Validates and queues the batch synchronously (so call order = log order), then
   * commits it with the group commit. Takes ownership of `events`.
   */
  append(events: ChangeEvent[]): Promise<void> {
    try {
      const refusal = this.refusal();
      if (refusal) throw refusal;
      if (!Array.isArray(events) || events.length === 0)
        throw new Error('FileEventLog.append(): a batch needs at least one event');
      assertValidEvents(events);
      const first = this.acceptedHead + 1;
      for (let i = 0; i < events.length; i++) {
        if (events[i]!.position !== first + i) {
          throw new Error(
            `FileEventLog.append(): positions must continue the log: expected ${first + i}, got ${events[i]!.position}`,
          );
        }
      }
      // Measured on the frame: the UTF-8 length of a bulk request's JSON costs as much as writing it.
      const frame = encodeFrame(JSON.stringify(events));
      const length = frame.length - HEADER_BYTES;
      if (length > MAX_PAYLOAD_BYTES) throw new Error(`FileEventLog.append(): batch too large (${length} bytes)`);

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
   * After a storage failure: re-opens the file, moves whatever a failed append left after
   * the committed frames into a side file, and probes the storage. On success appends are
   * accepted again; if the storage still refuses, throws EventLogUnavailableError and the
   * writer stays as it was. Any other error is fail-stop.
   */
  async recover(): Promise<void> {
    const failed = this.failedError();
    if (failed) throw failed;
    if (!this.storageFailure) return;
    await this.settle();
    try {
      // A fresh descriptor: the old one may keep reporting the error that stopped us.
      const fh = await this.options.fs.open(this.options.file, fsConstants.O_RDWR);
      const old = this.fh;
      this.fh = fh;
      await old.close().catch(() => undefined);
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

  /** Resolves once no group commit is running (queued appends are committed or rejected). */
  async settle(): Promise<void> {
    while (this.flushing) await this.flushing;
  }

  /** Closes the file; call after settle(). */
  async closeFile(): Promise<void> {
    await this.fh.close();
  }

  private makeWritable(): Promise<void> {
    const { fs, file, logger } = this.options;
    return makeWritable(
      { fs, fh: this.fh, file, logger, committedBytes: this.committedBytes, nextPosition: this.committedHead + 1 },
      this.pendingCut,
      (bytes) => {
        this.counters.truncatedBytes += bytes;
        this.pendingCut = FAILED_APPEND;
      },
    );
  }

  private unavailableError(): EventLogUnavailableError {
    const cause = this.storageFailure!;
    return new EventLogUnavailableError(
      `event log ${this.options.file} cannot be written (${cause.message}); appends are refused until it can`,
      { cause },
    );
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
        const buf =
          group.length === 1
            ? group[0]!.frame
            : Buffer.concat(
                group.map((p) => p.frame),
                bytes,
              );
        const offset = this.committedBytes;
        try {
          await writeFully(this.fh, buf, offset);
          await this.fh.datasync();
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
        const committed: CommittedFrame[] = [];
        let frameOffset = offset;
        for (const p of group) {
          committed.push({ firstPosition: p.events[0]!.position, offset: frameOffset, frame: p.frame });
          frameOffset += p.frame.length;
        }
        this.committedBytes += buf.length;
        this.committedHead = group[group.length - 1]!.events.at(-1)!.position;
        this.counters.syncs++;
        this.counters.appends += group.length;
        this.counters.bytesWritten += buf.length;
        for (const p of group) p.resolve();
        this.options.onCommitted(committed);
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
      p.reject(
        new EventLogFailedError(
          `event log write failed; the log refuses further appends (restart the process): ${cause.message}`,
          { cause },
        ),
      );
    }
  }
}
