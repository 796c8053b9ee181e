import { type FSWatcher, watch } from 'node:fs';
import * as path from 'node:path';

import type { ChangeEvent } from '../ChangeEvent.js';
import type { EventLog } from '../EventLog.js';
import { CheckpointIndex } from './CheckpointIndex.js';
import { type FileSubscription, subscribeTo } from './FileSubscription.js';
import { FramePositions } from './FramePositions.js';
import { FrameTail } from './FrameTail.js';
import { type LogFileSystem, nodeFileSystem } from './logFileSystem.js';
import { readCommitted } from './readCommitted.js';

/** Appends sent to a follower: it only reads a log another process writes. */
export class ReadOnlyLogError extends Error {}

export interface FileLogFollowerOptions {
  /** Directory holding the `events.log` another process (the writer) appends to. */
  dir: string;
  /** The file system the frames are read through (tests slow reads down here). Default: node:fs. */
  fs?: LogFileSystem;
  /** Interval of the fallback poll, for changes the file watcher does not report (network file systems, a replaced file). */
  pollMs?: number;
  /** Called once if the log can no longer be followed (cut below what was taken in, damaged): the follower stops. */
  onFailed?: (error: Error) => void;
}

const DEFAULT_POLL_MS = 500;

/**
 * The embedded event log as a read replica sees it: the file another process writes,
 * followed read-only. It never truncates, repairs or locks anything: a torn tail is
 * left for the writer to cut and a damaged log is reported, not changed.
 *
 * New frames are noticed by a watch on the data directory, with a poll as a fallback;
 * each notice reads the frames appended since the last (FrameTail) and hands their
 * batches to subscribers, in order, only once complete and checksummed. head() is the
 * last position of those frames: what the writer has written, as far as this process
 * can tell.
 */
export class FileLogFollower implements EventLog {
  readonly file: string;
  private readonly tail: FrameTail;
  private readonly index = new CheckpointIndex();
  private readonly frames: FramePositions;
  private readonly subscriptions = new Set<FileSubscription>();
  private readonly fs: LogFileSystem;
  private watcher: FSWatcher | null = null;
  private timer: NodeJS.Timeout | null = null;
  private polling: Promise<void> | null = null;
  private again = false;
  private failure: Error | null = null;
  private state: 'new' | 'open' | 'closed' = 'new';
  private readonly listeners = new Set<() => void>();

  constructor(private readonly options: FileLogFollowerOptions) {
    this.file = path.join(options.dir, 'events.log');
    this.fs = options.fs ?? nodeFileSystem;
    this.tail = new FrameTail(this.file, this.fs);
    this.frames = new FramePositions(this.file);
  }

  /** Reads every complete frame there is now, then starts watching for more. */
  async open(): Promise<void> {
    if (this.state !== 'new') throw new Error(`FileLogFollower.open(): follower is ${this.state}`);
    await this.pollOnce();
    this.state = 'open';
    try {
      // The directory, not the file: the writer may create or replace the file later.
      // Persistent, like a consumer's socket: a process following the log stays up until close().
      this.watcher = watch(this.options.dir, { persistent: true }, (_event, name) => {
        if (name === null || name === 'events.log') this.wake();
      });
      this.watcher.on('error', () => undefined); // the poll carries on
    } catch {
      this.watcher = null; // no watch here: the poll alone
    }
    this.timer = setInterval(() => this.wake(), this.options.pollMs ?? DEFAULT_POLL_MS);
    this.timer.unref();
  }

  head(): number {
    return this.tail.head;
  }

  /** Bytes after the last complete frame: a write under way, or a torn tail the writer will cut. */
  get pendingBytes(): number {
    return this.tail.pendingBytes;
  }

  /** Why the log can no longer be followed, or null. */
  get failed(): Error | null {
    return this.failure;
  }

  /** Called after every poll that took in new frames (tests and readiness wait on it). */
  onAdvance(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  append(_events: ChangeEvent[]): Promise<void> {
    return Promise.reject(
      new ReadOnlyLogError('this process follows the event log read-only; the writer appends to it'),
    );
  }

  readPositions(positions: readonly number[]): Promise<ChangeEvent[]> {
    if (this.state !== 'open')
      return Promise.reject(new Error(`FileLogFollower.readPositions(): follower is ${this.state}`));
    return this.frames.read(positions, this.tail.head, this.tail.endOffset);
  }

  read(from: number): AsyncIterable<ChangeEvent[]> {
    return this.readFrom(Math.max(1, Math.floor(from)));
  }

  private async *readFrom(from: number): AsyncGenerator<ChangeEvent[]> {
    if (this.state === 'new') throw new Error('FileLogFollower.read(): follower is not open');
    if (from > this.tail.head) return;
    const tail = this.tail;
    yield* readCommitted(this.fs, this.file, this.index.seek(from), from, () => tail.endOffset);
  }

  subscribe(from: number, onBatch: (events: ChangeEvent[]) => Promise<void>): FileSubscription {
    if (this.state !== 'open') throw new Error(`FileLogFollower.subscribe(): follower is ${this.state}`);
    return subscribeTo(
      { head: () => this.head(), readFrom: (pos) => this.readFrom(pos), subscriptions: this.subscriptions },
      from,
      onBatch,
    );
  }

  /** Looks at the file now (the watcher and the poll call it; tests may too). Resolves once that look is done. */
  wake(): Promise<void> {
    if (this.state !== 'open' || this.failure) return Promise.resolve();
    if (this.polling) {
      this.again = true;
      return this.polling;
    }
    this.polling = (async () => {
      try {
        do {
          this.again = false;
          await this.pollOnce();
        } while (this.again && this.state === 'open');
      } catch (error) {
        this.fail(error as Error);
      } finally {
        this.polling = null;
      }
    })();
    return this.polling;
  }

  private async pollOnce(): Promise<void> {
    let advanced = false;
    for await (const batch of this.tail.poll()) {
      this.frames.note(batch.firstPosition, batch.offset);
      this.index.note(batch.firstPosition, batch.offset);
      for (const sub of this.subscriptions) sub.push(batch.events);
      advanced = true;
    }
    if (advanced) for (const listener of this.listeners) listener();
  }

  private fail(error: Error): void {
    if (this.failure) return;
    this.failure = error;
    this.stopWatching();
    this.options.onFailed?.(error);
  }

  private stopWatching(): void {
    this.watcher?.close();
    this.watcher = null;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  async close(): Promise<void> {
    if (this.state === 'closed') return;
    this.state = 'closed';
    this.stopWatching();
    await this.polling;
    await Promise.all([...this.subscriptions].map((s) => s.stop()));
    await this.frames.close();
  }
}
