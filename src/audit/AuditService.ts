import type { WriteContext, WriteCoordinator } from '../commands/WriteCoordinator.js';
import { ValidationError } from '../errors/requestErrors.js';
import type { ChangeEvent } from '../events/ChangeEvent.js';
import type { EventLog } from '../events/EventLog.js';
import { ContentTypes } from '../models/contentTypes.js';
import type { ModelDefinition } from '../models/modelDefinition.js';
import type { ModelRegistry } from '../models/registry.js';
import type { Query, ReadStore } from '../projections/ReadStore.js';
import { AuditLog } from './AuditLog.js';
import { type AuditSnapshotSettings, AuditSnapshotWriter, loadAuditIndexes } from './AuditSnapshots.js';
import { canonicalUuid } from './changeQuery.js';
import type { ChangeTest } from './changeScope.js';
import type { IdempotentRequest } from './IdempotencyIndex.js';
import { OverlayGate } from './OverlayGate.js';
import { type PastStateLimits, PastStates, type PastStoreFactory } from './PastStates.js';
import { PastView } from './PastView.js';
import { ChangeRenderer } from './renderChanges.js';
import { revertRequest } from './revert.js';
import { parseTimeMicros } from './time.js';

export interface AuditServiceOptions {
  /** Where past states (`?as_of=`) are replayed into: chosen by the wiring (src/ledger/pastStores.ts). */
  pastStores: PastStoreFactory;
  /**
   * The live read models: past states are then read as these overlaid with the past
   * versions of what changed since (PastView), not replayed. None: every past state is replayed.
   */
  liveStore?: ReadStore;
  /** Bounds of the past states (`?as_of=`): kept count and bytes, queued builds. */
  pastStates?: Partial<PastStateLimits>;
  /** Where the indexes' snapshots are loaded from (and written to, every so many events); none: rebuilt from the log. */
  snapshots?: AuditSnapshotSettings;
  /**
   * Object types kept in main's read models without a registry definition that a revert
   * restores as they were (branches: reverting a merge reopens its branch).
   */
  revertsUnregistered?: readonly string[];
}

/** Past views kept between requests (each holds the past versions of what changed since its position). */
const KEPT_VIEWS = 4;
/** Past versions the kept views may hold together (about 1 KB each as documents). */
const KEPT_VIEW_OBJECTS = 300_000;

/**
 * The audit side of netledger, answered from the event log (never from the read
 * models): object changes, `?created_by_request=`, `?as_of=` time travel, object
 * history, the live change feed and revert. Composed of the AuditLog (indexes and
 * event bodies fed by the log), PastStates (replayed past read models) and the
 * ChangeRenderer (NetBox's object-change shape).
 */
export class AuditService {
  readonly log: AuditLog;
  readonly contentTypes: ContentTypes;
  readonly renderer: ChangeRenderer;
  readonly past: PastStates;
  /**
   * How `?as_of=` is read: 'overlay' (PastView over the live read models, when the wiring
   * gave them) or 'replay' (PastStates: a copy rebuilt from the log, the reference the
   * overlay is tested against).
   */
  pastReads: 'overlay' | 'replay';
  /** Past views recently read, by position, least recently used first (each follows the live store by itself). */
  private readonly views = new Map<number, PastView>();
  /** Large past-view overlays take turns (OverlayGate). */
  private readonly overlayGate = new OverlayGate();
  private readonly streams = new Set<() => void>();
  private snapshotWriter: AuditSnapshotWriter | null = null;
  /** The position of the snapshot the indexes were loaded from at open (0: built from the whole log). */
  loadedFrom = 0;

  constructor(
    private readonly eventLog: EventLog,
    readonly registry: ModelRegistry,
    private readonly options: AuditServiceOptions,
  ) {
    this.log = new AuditLog(eventLog, registry);
    this.contentTypes = new ContentTypes(registry);
    this.renderer = new ChangeRenderer(registry, this.contentTypes, this.log);
    this.past = new PastStates(this.log, registry, options.pastStores, options.pastStates);
    this.pastReads = options.liveStore ? 'overlay' : 'replay';
  }

  /**
   * Loads the newest snapshot of the indexes that matches the log (if snapshots are
   * configured), indexes the rest of the log, then follows it and writes snapshots.
   */
  async open(): Promise<void> {
    const settings = this.options.snapshots;
    let start = 0;
    if (settings) {
      const loaded = await loadAuditIndexes(settings.dir, this.eventLog, this.registry, settings.logger);
      if (loaded) {
        this.log.adopt(loaded.index, loaded.idempotency, loaded.resume);
        start = this.loadedFrom = loaded.position;
      }
    }
    await this.log.open();
    if (settings) {
      this.snapshotWriter = new AuditSnapshotWriter(this.log, this.eventLog, settings, start);
      this.snapshotWriter.start();
    }
  }

  /** The writer of the indexes' snapshots (null without snapshots or before open). */
  get snapshots(): AuditSnapshotWriter | null {
    return this.snapshotWriter;
  }

  /** Ends live streams (so an HTTP server can close), then stops following the log. */
  async close(): Promise<void> {
    for (const end of [...this.streams]) end();
    this.streams.clear();
    this.past.clear();
    this.views.clear();
    await this.snapshotWriter?.stop();
    await this.log.close();
  }

  /** Registers a live stream's terminator; returns the unregister function. */
  trackStream(end: () => void): () => void {
    this.streams.add(end);
    return () => this.streams.delete(end);
  }

  /**
   * `?created_by_request=<uuid>` (repeatable, OR) on every list: the objects of the
   * listed model that the request created or updated, by id from the request index;
   * with `readable`, only from the change records it selects (a caller's permission).
   */
  async createdByRequest(
    values: string[],
    definition: ModelDefinition,
    readable: ChangeTest | null = null,
  ): Promise<Query | null> {
    const ids = values.map(canonicalUuid);
    if (ids.some((id) => id === null)) throw new ValidationError({ created_by_request: ['Enter a valid UUID.'] });
    await this.log.sync();
    const index = this.log.index;
    const objectIds = new Set<number>();
    for (const requestId of ids) {
      for (const p of index.requestPositions(requestId!)) {
        if (index.actionCodeAt(p) === 2 || index.typeAt(p) !== definition.key) continue;
        if (!readable || readable(p)) objectIds.add(index.objectIdAt(p));
      }
    }
    return { id: { $in: [...objectIds].sort((a, b) => a - b) } };
  }

  /**
   * The log position an `as_of` value names: a position (an integer) or an ISO 8601
   * time (the state after every event at or before it). Throws a 400 for bad input.
   */
  async asOfPosition(value: string): Promise<number> {
    await this.log.sync();
    const head = this.log.head;
    const text = value.trim();
    if (/^\d+$/.test(text)) {
      const position = Number(text);
      if (!Number.isSafeInteger(position) || position > head) {
        throw new ValidationError({ as_of: [`Position ${text} is beyond the end of the change log (${head}).`] });
      }
      return position;
    }
    const micros = parseTimeMicros(text);
    if (micros === null) throw new ValidationError({ as_of: ['Enter a valid date/time or a log position.'] });
    return this.log.index.positionAtTime(micros);
  }

  /** The request an earlier use of this Idempotency-Key by this caller made, if it is in the log. */
  async idempotentRequest(userId: number | null, key: string): Promise<IdempotentRequest | null> {
    await this.log.sync();
    return this.log.idempotency.lookup(userId, key);
  }

  /** Every event a request caused, in log order. */
  async requestEvents(requestId: string): Promise<ChangeEvent[]> {
    await this.log.sync();
    return this.log.events(this.log.index.requestPositions(requestId));
  }

  /**
   * The read models as they were at a log position. `signal` tells that the caller no
   * longer waits (its client went away): a build nobody waits for is cancelled.
   */
  pastStore(position: number, signal?: AbortSignal): Promise<ReadStore> {
    const live = this.options.liveStore;
    if (this.pastReads === 'replay' || !live) return this.past.at(position, signal);
    return Promise.resolve(this.pastView(position, live));
  }

  /** The past view of a position: kept for the next reads of it (they share its overlay). */
  private pastView(position: number, live: ReadStore): PastView {
    let view = this.views.get(position);
    if (view) this.views.delete(position);
    else view = new PastView(this.registry, this.log, live, position, this.overlayGate);
    this.views.set(position, view);
    // Bounded by count and by the past versions they hold (a view of the middle of a long
    // history holds one per object changed since): the oldest go first, the newest stays.
    let held = 0;
    for (const kept of this.views.values()) held += kept.overlaidObjects;
    for (const [oldest, kept] of this.views) {
      if (this.views.size <= 1 || (this.views.size <= KEPT_VIEWS && held <= KEPT_VIEW_OBJECTS)) break;
      this.views.delete(oldest);
      held -= kept.overlaidObjects;
    }
    return view;
  }

  /** Reverts a request as a new atomic request; returns the new events. */
  revert(coordinator: WriteCoordinator, target: string, context: WriteContext): Promise<ChangeEvent[]> {
    const unregistered = new Set(this.options.revertsUnregistered ?? []);
    return revertRequest({ registry: this.registry, coordinator, audit: this.log, unregistered }, target, context);
  }
}
