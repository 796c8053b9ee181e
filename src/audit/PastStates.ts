import { onMain } from '../events/ChangeEvent.js';
import type { ModelRegistry } from '../models/registry.js';
import { evolve } from '../projections/evolve.js';
import { withProjectedColumns } from '../projections/projectedColumns.js';
import type { ReadStore } from '../projections/ReadStore.js';
import type { AuditLog } from './AuditLog.js';
import { approximateStoreBytes } from './storeSize.js';

export interface PastStateLimits {
  /** Past states kept once built. Default 3. */
  maxEntries: number;
  /** Approximate bytes the kept past states may hold together. Default 512 MiB. */
  maxBytes: number;
  /** Builds of other positions that may wait while one runs; more are refused. Default 4. */
  maxQueued: number;
}

/**
 * What happens to a build: queued, started, abandoned (its last reader left while it
 * runs), then built, cancelled or failed.
 */
export type PastStateEvent = 'queued' | 'started' | 'abandoned' | 'built' | 'cancelled' | 'failed';

/** Points a test or a monitor can hook into. */
export interface PastStateHooks {
  /** Awaited between chunks of a replay (the build's yield point). Default: one turn of the event loop. */
  yieldPoint?: (position: number) => Promise<void>;
  on?: (event: PastStateEvent, position: number) => void;
}

/**
 * Where past states are replayed into. The wiring (src/ledger/pastStores.ts) chooses the
 * read-store adapter and the saved read models a replay may start from; this side knows neither.
 */
export interface PastStoreFactory {
  /**
   * A fresh store with the read models' indexes declared, holding the newest saved state at
   * or before `position` when there is one; `position` is the log position it holds (0: empty).
   */
  startAt(position: number): Promise<{ store: ReadStore; position: number }>;
}

/** Too many past states are being built: come back later. */
export class PastStatesBusyError extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super('Too many past states are being built; retry later.');
  }
}

/** The caller stopped waiting (its client went away) or the service is closing. */
export class PastStateCancelledError extends Error {
  constructor() {
    super('The past state is no longer wanted.');
  }
}

interface Build {
  readonly position: number;
  readonly promise: Promise<ReadStore>;
  resolve(store: ReadStore): void;
  reject(error: Error): void;
  waiters: number;
  /** Nobody waits any more: the replay stops at its next yield point. */
  cancelled: boolean;
}

interface Kept {
  readonly store: ReadStore;
  readonly bytes: number;
}

const DEFAULT_LIMITS: PastStateLimits = { maxEntries: 3, maxBytes: 512 << 20, maxQueued: 4 };
/** Retry-After when no build has finished yet to estimate from. */
const FIRST_BUILD_SECONDS = 5;

/**
 * The registry as it was at a log position (`?as_of=`): a read store (`stores`, in memory)
 * rebuilt by replaying the log up to that position with the projector's own `evolve`, so a
 * past state is exactly what the read models held then. The replay starts from the nearest
 * read-model snapshot at or before the position when the store factory has one.
 *
 * A replay costs seconds of CPU and a full copy of the registry, so:
 * - one past state is built at a time; readers of the position being built (or queued)
 *   share that build; builds of other positions wait in a bounded queue, beyond which
 *   they are refused (PastStatesBusyError, with a retry time estimated from the last build);
 * - a caller passes an AbortSignal (its client went away): when every caller of a build
 *   has left, a queued build is dropped and a running one stops at its next yield point;
 * - built states are kept, most recently used first, bounded by count and by their
 *   approximate size; a state larger than the whole bound is handed to its callers and
 *   not kept.
 */
export class PastStates {
  readonly limits: PastStateLimits;
  hooks: PastStateHooks = {};
  /** Replays started (for tests and monitoring). */
  builds = 0;
  /** Replays stopped because nobody waited for them any more. */
  cancelled = 0;
  /** Events replayed by all builds (a build from a snapshot replays only those after it). */
  replayedEvents = 0;
  private readonly kept = new Map<number, Kept>();
  private keptBytes = 0;
  /** Queued or running builds by position. */
  private readonly pending = new Map<number, Build>();
  private readonly queue: Build[] = [];
  private running: Build | null = null;
  private lastBuildMs = 0;

  constructor(
    private readonly audit: AuditLog,
    private readonly registry: ModelRegistry,
    private readonly stores: PastStoreFactory,
    limits: Partial<PastStateLimits> = {},
  ) {
    this.limits = { ...DEFAULT_LIMITS, ...limits };
  }

  /** Approximate bytes held by the kept past states. */
  get cachedBytes(): number {
    return this.keptBytes;
  }

  /** Positions kept, least recently used first. */
  get cachedPositions(): number[] {
    return [...this.kept.keys()];
  }

  /** The read models at `position`. Rejects with PastStatesBusyError, PastStateCancelledError or RangeError. */
  at(position: number, signal?: AbortSignal): Promise<ReadStore> {
    if (!Number.isInteger(position) || position < 0 || position > this.audit.head) {
      return Promise.reject(new RangeError(`no log position ${position}`));
    }
    const kept = this.kept.get(position);
    if (kept) {
      this.kept.delete(position); // most recently used goes last
      this.kept.set(position, kept);
      return Promise.resolve(kept.store);
    }
    if (signal?.aborted) return Promise.reject(new PastStateCancelledError());
    let build = this.pending.get(position);
    if (build) {
      build.cancelled = false; // wanted again before its replay noticed
    } else {
      if (this.running && this.queue.length >= this.limits.maxQueued) {
        return Promise.reject(new PastStatesBusyError(this.retryAfterSeconds()));
      }
      build = this.newBuild(position);
      this.pending.set(position, build);
      this.queue.push(build);
      this.hooks.on?.('queued', position);
      this.pump();
    }
    return this.wait(build, signal);
  }

  /** Drops every kept state and stops every build (the service is closing). */
  clear(): void {
    for (const build of this.queue.splice(0)) {
      this.pending.delete(build.position);
      build.reject(new PastStateCancelledError());
    }
    if (this.running) this.running.cancelled = true;
    this.kept.clear();
    this.keptBytes = 0;
  }

  private newBuild(position: number): Build {
    let resolve!: (store: ReadStore) => void;
    let reject!: (error: Error) => void;
    const promise = new Promise<ReadStore>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    promise.catch(() => undefined); // every waiter handles it; none may be left
    return { position, promise, resolve, reject, waiters: 0, cancelled: false };
  }

  /** One caller's wait for a build: leaving (abort) rejects this caller only. */
  private wait(build: Build, signal: AbortSignal | undefined): Promise<ReadStore> {
    build.waiters++;
    return new Promise<ReadStore>((resolve, reject) => {
      let waiting = true;
      const leave = () => {
        if (!waiting) return;
        waiting = false;
        reject(new PastStateCancelledError());
        this.left(build);
      };
      signal?.addEventListener('abort', leave, { once: true });
      build.promise.then(
        (store) => {
          if (!waiting) return;
          waiting = false;
          signal?.removeEventListener('abort', leave);
          build.waiters--;
          resolve(store);
        },
        (error: Error) => {
          if (!waiting) return;
          waiting = false;
          signal?.removeEventListener('abort', leave);
          build.waiters--;
          reject(error);
        },
      );
    });
  }

  private left(build: Build): void {
    build.waiters--;
    if (build.waiters > 0 || this.pending.get(build.position) !== build) return;
    const queued = this.queue.indexOf(build);
    if (queued >= 0) {
      this.queue.splice(queued, 1);
      this.pending.delete(build.position);
      this.cancelled++;
      build.reject(new PastStateCancelledError());
      this.hooks.on?.('cancelled', build.position);
    } else {
      build.cancelled = true; // running: stops at its next yield point
      this.hooks.on?.('abandoned', build.position);
    }
  }

  private pump(): void {
    if (this.running) return;
    const build = this.queue.shift();
    if (!build) return;
    this.running = build;
    void this.run(build).finally(() => {
      this.running = null;
      this.pump();
    });
  }

  private async run(build: Build): Promise<void> {
    this.builds++;
    this.hooks.on?.('started', build.position);
    const started = performance.now();
    try {
      const store = await this.replay(build);
      if (store === null) {
        this.cancelled++;
        build.reject(new PastStateCancelledError());
        this.hooks.on?.('cancelled', build.position);
        return;
      }
      this.lastBuildMs = performance.now() - started;
      this.keep(build.position, store, await approximateStoreBytes(store, this.registry));
      this.pending.delete(build.position);
      build.resolve(store);
      this.hooks.on?.('built', build.position);
    } catch (error) {
      this.pending.delete(build.position);
      build.reject(error as Error);
      this.hooks.on?.('failed', build.position);
    }
  }

  /** The replay, or null when it was cancelled (checked at every yield point). */
  private async replay(build: Build): Promise<ReadStore | null> {
    const stop = () => {
      if (!build.cancelled) return false;
      // Forgotten at once, so that a new caller starts a new build instead of joining this one.
      this.pending.delete(build.position);
      return true;
    };
    const yieldPoint = this.hooks.yieldPoint ?? nextTurn;
    const { store, position: started } = await this.stores.startAt(build.position);
    if (stop()) return null;
    const from = started + 1;
    if (from <= build.position) {
      for await (const chunk of this.audit.range(from, build.position)) {
        const changes = chunk.filter(onMain).map((event) => evolve(this.registry, event));
        await store.apply(await withProjectedColumns(this.registry, store, changes), chunk[chunk.length - 1]!.position);
        this.replayedEvents += chunk.length;
        await yieldPoint(build.position);
        if (stop()) return null; // leaving the loop releases the log reader
      }
    }
    return stop() ? null : store;
  }

  private keep(position: number, store: ReadStore, bytes: number): void {
    if (bytes > this.limits.maxBytes || this.limits.maxEntries < 1) return; // handed to its callers, not kept
    this.kept.set(position, { store, bytes });
    this.keptBytes += bytes;
    // Evicted states are only forgotten, not closed: a request may still be reading one.
    for (const [oldest, entry] of this.kept) {
      if (this.kept.size <= this.limits.maxEntries && this.keptBytes <= this.limits.maxBytes) break;
      this.kept.delete(oldest);
      this.keptBytes -= entry.bytes;
    }
  }

  private retryAfterSeconds(): number {
    const perBuild = this.lastBuildMs > 0 ? this.lastBuildMs / 1000 : FIRST_BUILD_SECONDS;
    return Math.max(1, Math.ceil(perBuild * (this.queue.length + 1)));
  }
}

function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
