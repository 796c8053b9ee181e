import type { Server } from 'node:http';
import { createApp } from './api/app.js';
import { createHttpServer } from './api/httpServer.js';
import { ListQueryCompiler } from './api/query/ListQueryCompiler.js';
import { Serializer } from './api/Serializer.js';
import type { Logger, Services } from './api/Services.js';
import { AuditService } from './audit/AuditService.js';
import { bootstrapSuperuser } from './auth/bootstrapSuperuser.js';
import { SecretKeeper } from './auth/secrets.js';
import { systemClock } from './commands/clock.js';
import { WriterUnavailableError } from './commands/errors.js';
import { WriteCoordinator, type WriterRetry } from './commands/WriteCoordinator.js';
import { loadConfig, type Config } from './config.js';
import { DataDirLock } from './events/DataDirLock.js';
import type { EventLog } from './events/EventLog.js';
import { FileEventLog } from './events/FileEventLog.js';
import { KafkaEventLog } from './events/KafkaEventLog.js';
import type { LogFileSystem } from './events/logFileSystem.js';
import { registry } from './models/registry.js';
import { MemoryReadStore } from './projections/memory/MemoryReadStore.js';
import { MongoReadStore } from './projections/MongoReadStore.js';
import { Projector } from './projections/Projector.js';
import { readModelIndexes } from './projections/readModelIndexes.js';
import type { ReadStore } from './projections/ReadStore.js';

export interface Running {
  services: Services;
  server: Server;
  url: string;
  stop(): Promise<void>;
}

/** Seams for tests: the embedded log's file system (to inject a full disk) and the writer's retry back-off. */
export interface StartOptions {
  logFileSystem?: LogFileSystem;
  writerRetry?: WriterRetry;
}

function eventLogFor(config: Config, logger: Logger, options: StartOptions): EventLog {
  if (config.kafkaBrokers) return new KafkaEventLog({ brokers: config.kafkaBrokers, topic: config.kafkaTopic });
  return new FileEventLog({ dir: config.dataDir, fs: options.logFileSystem, logger });
}

function readStoreFor(config: Config): ReadStore {
  if (config.mongodbUrl) return new MongoReadStore({ url: config.mongodbUrl, dbName: 'netledger' });
  return new MemoryReadStore();
}

const jsonLogger: Logger = (entry) => process.stdout.write(JSON.stringify({ time: new Date().toISOString(), ...entry }) + '\n');

/**
 * Composition root: config → adapters → projector → writer → HTTP server. The process
 * holds the data directory's lock from before the log is opened until it is closed.
 */
export async function start(config: Config = loadConfig(), logger: Logger = jsonLogger, options: StartOptions = {}): Promise<Running> {
  registry.validate();
  const lock = await DataDirLock.acquire(config.dataDir, 'service');
  const log = eventLogFor(config, logger, options);
  const store = readStoreFor(config);
  let projector: Projector | null = null;
  try {
    await log.open();
    await store.open();
    for (const [collection, fields] of readModelIndexes(registry)) await store.ensureIndexes(collection, fields);
    projector = new Projector(log, store, registry);
    await projector.start();
    return await serve(config, logger, options, lock, log, store, projector);
  } catch (error) {
    await projector?.stop().catch(() => undefined);
    await log.close().catch(() => undefined);
    await store.close().catch(() => undefined);
    await lock.release();
    throw error;
  }
}

async function serve(config: Config, logger: Logger, options: StartOptions, lock: DataDirLock, log: EventLog, store: ReadStore, projector: Projector): Promise<Running> {
  const coordinator = new WriteCoordinator(log, store, projector, registry, systemClock, { retry: options.writerRetry });
  coordinator.onFatal = (error) => logger({ level: 'fatal', msg: `event log failed, writes stopped until a restart: ${error.message}` });
  coordinator.onOutage = (error) =>
    logger({ level: 'error', msg: `event log cannot be written, writes answer 503 until it can (retrying by itself): ${error.message}` });
  coordinator.onRecovered = (outage) =>
    logger({ level: 'info', msg: `event log writable again, writes resumed (unavailable since ${outage.since}, ${outage.attempts} attempt(s))` });
  await coordinator.init();
  const audit = new AuditService(log, registry);
  await audit.open(); // rebuilds the audit indexes (request, object, time) from the log, then follows it
  try {
    return await listen({ config, logger, lock, log, store, projector, coordinator, audit });
  } catch (error) {
    coordinator.close();
    await audit.close().catch(() => undefined);
    throw error;
  }
}

interface Parts {
  config: Config;
  logger: Logger;
  lock: DataDirLock;
  log: EventLog;
  store: ReadStore;
  projector: Projector;
  coordinator: WriteCoordinator;
  audit: AuditService;
}

async function listen({ config, logger, lock, log, store, projector, coordinator, audit }: Parts): Promise<Running> {
  const secrets = new SecretKeeper(config.secretKey, config.allowTokenRetrieval);
  const commands = { registry, secrets, settings: { enforceGlobalUnique: config.enforceGlobalUnique } };
  const serializer = new Serializer(registry, store, secrets);
  const queries = new ListQueryCompiler();
  const services: Services = { config, registry, log, store, projector, coordinator, serializer, queries, commands, logger, audit };
  queries.register('created_by_request', audit.createdByRequest);
  queries.register('as_of', async () => null); // served by the audit API's middleware (past read models)

  try {
    await bootstrapSuperuser(config, store, coordinator, commands, (message) => logger({ level: 'warn', msg: message }));
  } catch (error) {
    // A full disk must not keep the registry from being read; the next start creates the superuser.
    if (!(error instanceof WriterUnavailableError)) throw error;
    logger({ level: 'warn', msg: `superuser not created (the writer is unavailable): ${error.message}` });
  }

  const app = createApp(services);
  const server = createHttpServer(config, app.callback()); // timeouts and the connection cap
  await new Promise<void>((resolve) => server.listen(config.port, config.host, resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
  logger({ level: 'info', msg: `netledger listening on ${url}`, eventLog: log.constructor.name, readStore: store.constructor.name, position: log.head(), writer: coordinator.health().state });

  let stopping: Promise<void> | null = null;
  const stop = () =>
    (stopping ??= (async () => {
      coordinator.close();
      await audit.close(); // ends live change streams, which would keep the server open
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await projector.stop();
      await log.close();
      await store.close();
      await lock.release();
    })());
  return { services, server, url, stop };
}

const isEntryPoint = import.meta.url === `file://${process.argv[1]}`;
if (isEntryPoint) {
  let running: Running;
  try {
    running = await start();
  } catch (error) {
    // One readable line (the data directory is locked, the log is damaged ...), no stack trace.
    jsonLogger({ level: 'fatal', msg: `netledger did not start: ${(error as Error).message}` });
    process.exit(1);
  }
  const shutdown = (signal: string) => {
    running.services.logger({ level: 'info', msg: `${signal}: finishing in-flight requests` });
    running.stop().then(() => process.exit(0), () => process.exit(1));
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}
