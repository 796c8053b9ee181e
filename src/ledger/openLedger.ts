/**
 * The one place that wires the ledger together from its configuration: which event log
 * (file or Kafka) and which read store (memory or MongoDB), the projector, the single
 * writer, the auth and audit services, and the data directory's lock. The service
 * (src/main.ts) and the manage CLI's writing commands open it with `openLedger`; the
 * read-only tools (rebuild, export) take only the parts that never write:
 * `openLogReader` and `readStoreFor`.
 */
import path from 'node:path';

import { AuditService } from '../audit/AuditService.js';
import type { AuditSnapshotSettings } from '../audit/AuditSnapshots.js';
import { AuthService } from '../auth/AuthService.js';
import { SecretKeeper } from '../auth/secrets.js';
import { Branches } from '../branches/Branches.js';
import { BRANCH } from '../branches/branchRecord.js';
import { systemClock } from '../commands/clock.js';
import type { CommandEnvironment } from '../commands/decideObject.js';
import { runFollowUps } from '../commands/followUps.js';
import { WriteCoordinator, type WriterRetry } from '../commands/WriteCoordinator.js';
import type { Config } from '../config.js';
import { DataDirLock } from '../events/DataDirLock.js';
import type { EventLog } from '../events/EventLog.js';
import { FileEventLog } from '../events/file/FileEventLog.js';
import { FileLogFollower } from '../events/file/FileLogFollower.js';
import type { LogFileSystem } from '../events/file/logFileSystem.js';
import { refuseDamagedLog } from '../events/file/logScan.js';
import { KafkaEventLog } from '../events/kafka/KafkaEventLog.js';
import { kafkaSettingsFrom } from '../events/kafka/kafkaSettingsFrom.js';
import { type ModelRegistry, registry } from '../models/registry.js';
import { BoundedPatternChecker } from '../models/values/patternChecks.js';
import { MemoryReadStore } from '../projections/memory/MemoryReadStore.js';
import type { ReadModelSnapshots } from '../projections/memory/snapshots/ReadModelSnapshots.js';
import { readModelSnapshotsFor } from '../projections/memory/snapshots/readModelSnapshotsFor.js';
import { MongoReadStore } from '../projections/mongo/MongoReadStore.js';
import { caseInsensitiveFields } from '../projections/mongo/shadowKeys.js';
import { Projector } from '../projections/Projector.js';
import { readModelIndexes } from '../projections/readModelIndexes.js';
import type { ReadStore } from '../projections/ReadStore.js';
import { followerHeadRefreshMs } from '../replicas/headRefreshMs.js';
import { ReplicaWriter } from '../replicas/ReplicaWriter.js';
import { type EventSource, openEventSource } from './eventSource.js';
import { FatalSignal } from './FatalSignal.js';
import { memoryPastStores } from './pastStores.js';

/**
 * Snapshots kept of the parts that only ever resume from their newest (the audit index,
 * the file log's open point): that one and a fallback. Unlike the read models', older
 * ones serve no `?as_of=`, and the audit index's are large (about 100 bytes per event).
 */
const RESUME_ONLY_KEEP = 2;

export type LedgerLogger = (entry: Record<string, unknown>) => void;

export interface LedgerOptions {
  /** Who takes the data directory's lock, as a second process is told ('service', 'manage create-token'). */
  holder: string;
  logger?: LedgerLogger;
  /** The embedded log's file system (tests inject a full disk). */
  logFileSystem?: LogFileSystem;
  /** The writer's retry back-off after an outage (tests shorten it). */
  writerRetry?: WriterRetry;
  /** Build the audit side (its indexes are rebuilt from the whole log at open): the service needs it, the CLI does not. */
  audit?: boolean;
}

/** An open ledger: every part the service and the writing commands work with. */
export interface Ledger {
  config: Config;
  registry: ModelRegistry;
  /** The data directory's lock: held by the writer, null in a read replica (which writes nothing). */
  lock: DataDirLock | null;
  log: EventLog;
  store: ReadStore;
  projector: Projector;
  coordinator: WriteCoordinator;
  secrets: SecretKeeper;
  commands: CommandEnvironment;
  auth: AuthService;
  audit: AuditService | null;
  /** The open branches' views (README: Branches), kept in step by the projector. */
  branches: Branches;
  /** Raised once by a failure after which the process must restart (see FatalSignal). */
  fatal: FatalSignal;
  /** Snapshots of the memory read models (null with MongoDB or SNAPSHOT_EVERY_EVENTS=0). */
  snapshots: ReadModelSnapshots | null;
  /** Resolves when the read models (and audit indexes) have first caught up with the log: at once for the writer, which opens only then. */
  caughtUp: Promise<void>;
  /** Stops the writer, auth and audit, closes the log and the store, releases the lock (once). */
  close(): Promise<void>;
}

/** The event log the configuration names: Kafka when KAFKA_BROKERS is set, else the embedded file log. */
export function eventLogFor(
  config: Config,
  options: { logger?: LedgerLogger; logFileSystem?: LogFileSystem } = {},
): EventLog {
  if (config.kafkaBrokers)
    return new KafkaEventLog({ ...kafkaSettingsFrom(config), writerLease: { takeover: config.kafkaTakeover } });
  return new FileEventLog({
    dir: config.dataDir,
    fs: options.logFileSystem,
    logger: options.logger,
    openPoints: {
      dir: path.join(config.dataDir, 'snapshots'),
      everyEvents: config.snapshotEveryEvents,
      keep: Math.min(config.snapshotKeep, RESUME_ONLY_KEEP),
      verifyAll: config.verifyLogOnOpen,
    },
  });
}

/** The read store the configuration names: MongoDB when MONGODB_URL is set (and memory is not asked for), else memory. */
export function readStoreFor(config: Config, options: { memory?: boolean; logger?: LedgerLogger } = {}): ReadStore {
  if (config.mongodbUrl && !options.memory) return mongoReadStoreFor(config, config.mongodbUrl, options.logger);
  return new MemoryReadStore();
}

function mongoReadStoreFor(config: Config, url: string, logger?: LedgerLogger): MongoReadStore {
  return new MongoReadStore({
    url,
    dbName: 'netledger',
    allowStandalone: config.mongodbAllowStandalone,
    caseInsensitiveFields: caseInsensitiveFields(registry),
    maxTimeMS: config.mongodbQueryTimeoutMs,
    retry: { budgetMs: config.mongodbRetryBudgetMs },
    tombstoneRetentionMs: config.mongodbTombstoneRetentionMs,
    onRebuild: (message) => logger?.({ level: 'warn', msg: message }),
    onRetry: ({ attempt, delayMs, error }) =>
      logger?.({
        level: 'warn',
        msg: `read models cannot be written (attempt ${attempt}), retrying in ${delayMs} ms: ${(error as Error)?.message ?? String(error)}`,
      }),
  });
}

/**
 * The whole log, read-only, for offline tools: takes no lock, never truncates the file
 * or fences a Kafka writer, so it is safe next to a running service. A damaged file
 * log is refused (reading it only up to the damage would look like a complete one).
 */
export async function openLogReader(config: Config): Promise<EventSource> {
  if (!config.kafkaBrokers) await refuseDamagedLog(path.join(config.dataDir, 'events.log'));
  return openEventSource(config);
}

/**
 * Takes the data directory's lock (a DataDirLockedError if another process holds it),
 * then opens the log and the read models, replays the log into them and starts the
 * writer, auth and (unless `audit: false`) audit services. The lock is held from before
 * the log is opened until it is closed.
 */
export async function openLedger(config: Config, options: LedgerOptions): Promise<Ledger> {
  registry.validate();
  // Without a logger the file log reports a cut torn tail on stderr (its own default); the writer's outages go nowhere.
  const logger = options.logger ?? (() => {});
  const lock = await DataDirLock.acquire(config.dataDir, options.holder);
  const fatal = new FatalSignal();
  lock.onLost((error) => fatal.raise('the data directory lock was lost: another process may now write the log', error));
  const log = eventLogFor(config, { logger: options.logger, logFileSystem: options.logFileSystem });
  const store = readStoreFor(config, { logger: options.logger });
  const snapshots = readModelSnapshotsFor(config, store, log, { write: true, logger });
  let projector: Projector | null = null;
  let coordinator: WriteCoordinator | null = null;
  let auth: AuthService | null = null;
  let audit: AuditService | null = null;
  try {
    if (options.audit !== false) {
      audit = new AuditService(log, registry, {
        pastStores: memoryPastStores(registry, snapshots),
        liveStore: store,
        snapshots: auditSnapshotSettings(config, logger, true),
        revertsUnregistered: [BRANCH],
      });
    }
    // The audit indexes load (the newest matching snapshot, then the rest of the log) while the
    // read models do: their file reads and checksums wait on the disk and a worker, not this thread.
    const opening = audit;
    const readSide = await openReadSide(log, store, fatal, snapshots, opening && (() => opening.open()));
    projector = readSide.projector;
    const branches = readSide.branches;
    await projector.start();
    coordinator = new WriteCoordinator(log, store, projector, registry, systemClock, {
      retry: options.writerRetry,
      branches,
    });
    coordinator.onFatal = (error) => {
      logger({ level: 'fatal', msg: `event log failed, writes stopped until a restart: ${error.message}` });
      fatal.raise('the writer stopped for good (event log failed or another writer fenced it)', error);
    };
    coordinator.onOutage = (error) =>
      logger({
        level: 'error',
        msg: `event log cannot be written, writes answer 503 until it can (retrying by itself): ${error.message}`,
      });
    coordinator.onRecovered = (outage) =>
      logger({
        level: 'info',
        msg: `event log writable again, writes resumed (unavailable since ${outage.since}, ${outage.attempts} attempt(s))`,
      });
    await coordinator.init();
    const { secrets, commands } = commandParts(config);
    auth = new AuthService({ config, registry, log, store, coordinator, secrets, logger });
    const parts = {
      config,
      registry,
      lock,
      log,
      store,
      projector,
      coordinator,
      secrets,
      commands,
      auth,
      audit,
      branches,
      fatal,
      snapshots,
      caughtUp: Promise.resolve(),
    };
    snapshots?.buildIndexesInBackground(); // what a snapshot load left to the first reads
    let closing: Promise<void> | null = null;
    return { ...parts, close: () => (closing ??= closeParts(parts)) };
  } catch (error) {
    await closeParts({ lock, log, store, projector, coordinator, auth, audit }).catch(() => undefined);
    throw error;
  }
}

/**
 * A read replica's ledger: no lock, no writer. It follows the log another process
 * writes (the embedded file read-only, or Kafka as a follower, which registers no
 * transactional id and so fences no one) into read models of its own in memory, and builds auth and audit
 * over it. It returns before the first catch-up is done (`caughtUp`), so the service can
 * answer its health checks while it catches up.
 */
export async function openReader(
  config: Config,
  options: Omit<LedgerOptions, 'holder' | 'writerRetry'> = {},
): Promise<Ledger> {
  registry.validate();
  const logger = options.logger ?? (() => {});
  const fatal = new FatalSignal();
  const log: EventLog = config.kafkaBrokers
    ? new KafkaEventLog({
        ...kafkaSettingsFrom(config),
        clientId: 'netledger-reader',
        follower: { headRefreshMs: followerHeadRefreshMs(config.readyMaxLagMs) },
      })
    : new FileLogFollower({
        dir: config.dataDir,
        fs: options.logFileSystem,
        pollMs: config.followPollMs,
        onFailed: (error) => fatal.raise('the event log can no longer be followed', error),
      });
  // Memory, even with MONGODB_URL: the writer's database is the writer's to project into.
  const store = new MemoryReadStore();
  // A replica starts from the writer's snapshots (when it shares its data directory) but writes none.
  const snapshots = readModelSnapshotsFor(config, store, log, { write: false, logger });
  let projector: Projector | null = null;
  let coordinator: WriteCoordinator | null = null;
  let auth: AuthService | null = null;
  let audit: AuditService | null = null;
  try {
    const readSide = await openReadSide(log, store, fatal, snapshots);
    projector = readSide.projector;
    const branches = readSide.branches;
    const projected = projector.start();
    coordinator = new ReplicaWriter(log, store, projector, registry, systemClock);
    if (options.audit !== false)
      audit = new AuditService(log, registry, {
        pastStores: memoryPastStores(registry, snapshots),
        liveStore: store,
        snapshots: auditSnapshotSettings(config, logger, false),
        revertsUnregistered: [BRANCH],
      });
    const indexed = audit ? audit.open() : Promise.resolve();
    const caughtUp = Promise.all([projected, indexed]).then(() => undefined);
    caughtUp.catch((error: unknown) => fatal.raise('the first catch-up with the event log failed', error));
    const { secrets, commands } = commandParts(config);
    // A token's use time is a write: a replica does not record it (as under MAINTENANCE_MODE).
    auth = new AuthService({
      config: { ...config, maintenanceMode: true },
      registry,
      log,
      store,
      coordinator,
      secrets,
      logger,
    });
    const parts = {
      config,
      registry,
      lock: null,
      log,
      store,
      projector,
      coordinator,
      secrets,
      commands,
      auth,
      audit,
      branches,
      fatal,
      snapshots,
      caughtUp,
    };
    snapshots?.buildIndexesInBackground(); // what a snapshot load left to the first reads
    let closing: Promise<void> | null = null;
    return { ...parts, close: () => (closing ??= closeParts(parts)) };
  } catch (error) {
    await closeParts({ lock: null, log, store, projector, coordinator, auth, audit }).catch(() => undefined);
    throw error;
  }
}

/**
 * Opens the log and the read models (with the indexes the registry asks for) and a
 * projector over them, not yet started, that raises the fatal signal if it stops.
 * `beside` starts once the log is open and is waited for with the read models' load.
 */
async function openReadSide(
  log: EventLog,
  store: ReadStore,
  fatal: FatalSignal,
  snapshots: ReadModelSnapshots | null,
  beside: (() => Promise<void>) | null = null,
): Promise<{ projector: Projector; branches: Branches }> {
  await log.open();
  const alongside = beside?.();
  const loadReadModels = async () => {
    await store.open();
    for (const [collection, fields] of readModelIndexes(registry)) await store.ensureIndexes(collection, fields);
    // The projector then resumes after the snapshot's position: only the tail is replayed.
    await snapshots?.loadNewest(log.head());
  };
  await allOrFirstFailure([loadReadModels(), alongside]);
  const projector = new Projector(log, store, registry);
  // The open branches' views, built up to the read models' position; then kept in step by each projector step.
  const branches = new Branches(registry, store, log);
  await branches.load();
  projector.beforeApply = (events, changes) => branches.observe(events, changes);
  projector.onFailed = (error) => {
    snapshots?.stopWriting(); // a failed apply may have left the store half-changed
    fatal.raise('the read models could not be written: projection stopped', error);
  };
  if (snapshots) projector.onApplied = (position) => snapshots.applied(position);
  return { projector, branches };
}

/** The audit indexes' snapshots: under `<DATA_DIR>/snapshots/`, written by the writer only (a replica loads the writer's). */
function auditSnapshotSettings(config: Config, logger: LedgerLogger, write: boolean): AuditSnapshotSettings {
  return {
    dir: path.join(config.dataDir, 'snapshots'),
    everyEvents: config.snapshotEveryEvents,
    keep: Math.min(config.snapshotKeep, RESUME_ONLY_KEEP),
    write,
    logger,
  };
}

/** The secret keeper and what the write side's decisions are given, from the configuration. */
function commandParts(config: Config): { secrets: SecretKeeper; commands: CommandEnvironment } {
  const secrets = new SecretKeeper(config.secretKey, config.allowTokenRetrieval);
  const listen = { host: config.host, port: config.port };
  const settings = { enforceGlobalUnique: config.enforceGlobalUnique, listen };
  // Custom fields' validation_regex checks too costly for the event loop run within the templates' limits.
  const patterns = new BoundedPatternChecker(config.templates);
  return { secrets, commands: { registry, secrets, settings, followUps: runFollowUps, patterns } };
}

interface OpenParts {
  lock: DataDirLock | null;
  log: EventLog;
  store: ReadStore;
  projector: Projector | null;
  coordinator: WriteCoordinator | null;
  auth: AuthService | null;
  audit: AuditService | null;
  /** Left out when opening failed: a snapshot is written at a clean close only. */
  snapshots?: ReadModelSnapshots | null;
}

/** In the reverse order of opening, each step tried even if one before failed (the first error is thrown); the lock goes last. */
async function closeParts({
  lock,
  log,
  store,
  projector,
  coordinator,
  auth,
  audit,
  snapshots,
}: OpenParts): Promise<void> {
  const steps: Array<() => unknown> = [
    () => coordinator?.close(),
    // The log's followers, each ending a subscription of its own, at once: on Kafka each
    // subscription's consumer waits for its fetch in flight (up to 500 ms) before it leaves.
    () => allOrFirstFailure([auth?.stop(), audit?.close(), projector?.stop()]),
    () => snapshots?.close(),
    () => log.close(),
    () => store.close(),
    () => lock?.release(),
  ];
  let failure: unknown = null;
  for (const step of steps) {
    try {
      await step();
    } catch (error) {
      failure ??= error;
    }
  }
  if (failure !== null) throw failure;
}

/** Waits for every one of `steps`, then throws the first failure among them, if any. */
async function allOrFirstFailure(steps: Array<Promise<unknown> | undefined>): Promise<void> {
  const failed = (await Promise.allSettled(steps)).find((result) => result.status === 'rejected');
  if (failed) throw failed.reason;
}
