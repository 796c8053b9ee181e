import { createServer, type Server } from 'node:http';
import path from 'node:path';
import { createApp } from './api/app.js';
import { ListQueryCompiler } from './api/query/ListQueryCompiler.js';
import { Serializer } from './api/Serializer.js';
import type { Logger, Services } from './api/Services.js';
import { AuditService } from './audit/AuditService.js';
import { bootstrapSuperuser } from './auth/bootstrapSuperuser.js';
import { SecretKeeper } from './auth/secrets.js';
import { systemClock } from './commands/clock.js';
import { WriteCoordinator } from './commands/WriteCoordinator.js';
import { loadConfig, type Config } from './config.js';
import type { EventLog } from './events/EventLog.js';
import { FileEventLog } from './events/FileEventLog.js';
import { KafkaEventLog } from './events/KafkaEventLog.js';
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

function eventLogFor(config: Config): EventLog {
  if (config.kafkaBrokers) return new KafkaEventLog({ brokers: config.kafkaBrokers, topic: config.kafkaTopic });
  return new FileEventLog({ dir: config.dataDir });
}

function readStoreFor(config: Config): ReadStore {
  if (config.mongodbUrl) return new MongoReadStore({ url: config.mongodbUrl, dbName: 'netledger' });
  return new MemoryReadStore();
}

const jsonLogger: Logger = (entry) => process.stdout.write(JSON.stringify({ time: new Date().toISOString(), ...entry }) + '\n');

/** Composition root: config → adapters → projector → writer → HTTP server. */
export async function start(config: Config = loadConfig(), logger: Logger = jsonLogger): Promise<Running> {
  registry.validate();
  const log = eventLogFor(config);
  const store = readStoreFor(config);
  await log.open();
  await store.open();
  for (const [collection, fields] of readModelIndexes(registry)) await store.ensureIndexes(collection, fields);
  const projector = new Projector(log, store, registry);
  await projector.start();
  const coordinator = new WriteCoordinator(log, store, projector, registry, systemClock);
  await coordinator.init();
  const audit = new AuditService(log, registry, { dir: path.join(config.dataDir, 'audit') });
  await audit.open(); // rebuilds the audit indexes (request, object, time) from the log, then follows it
  const secrets = new SecretKeeper(config.secretKey, config.allowTokenRetrieval);
  const commands = { registry, secrets, settings: { enforceGlobalUnique: config.enforceGlobalUnique } };
  const serializer = new Serializer(registry, store, secrets);
  const queries = new ListQueryCompiler();
  const services: Services = { config, registry, log, store, projector, coordinator, serializer, queries, commands, logger, audit };
  queries.register('created_by_request', audit.createdByRequest);
  queries.register('as_of', async () => null); // served by the audit API's middleware (past read models)
  coordinator.onFatal = (error) => logger({ level: 'fatal', msg: `event log failed, writes stopped: ${error.message}` });

  await bootstrapSuperuser(config, store, coordinator, commands, (message) => logger({ level: 'warn', msg: message }));

  const app = createApp(services);
  const server = createServer(app.callback());
  await new Promise<void>((resolve) => server.listen(config.port, config.host, resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
  logger({ level: 'info', msg: `netledger listening on ${url}`, eventLog: log.constructor.name, readStore: store.constructor.name, position: log.head() });

  let stopping: Promise<void> | null = null;
  const stop = () =>
    (stopping ??= (async () => {
      await audit.close(); // ends live change streams, which would keep the server open
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await projector.stop();
      await log.close();
      await store.close();
    })());
  return { services, server, url, stop };
}

const isEntryPoint = import.meta.url === `file://${process.argv[1]}`;
if (isEntryPoint) {
  const running = await start();
  const shutdown = (signal: string) => {
    running.services.logger({ level: 'info', msg: `${signal}: finishing in-flight requests` });
    running.stop().then(() => process.exit(0), () => process.exit(1));
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}
