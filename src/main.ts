import type { Server } from 'node:http';

import { AnswerCache } from './api/answerCache/AnswerCache.js';
import { leanReads } from './api/answerCache/leanReads.js';
import { createApp } from './api/app.js';
import { createdByRequestFilter } from './api/audit/changePermission.js';
import { mediaFileReleaser } from './api/extras/releaseMediaFiles.js';
import { closeHttpServer, createHttpServer } from './api/httpServer.js';
import { ListQueryCompiler } from './api/query/ListQueryCompiler.js';
import { RenderCache } from './api/renderCache/RenderCache.js';
import { Serializer } from './api/Serializer.js';
import type { Logger, Services } from './api/Services.js';
import { bootstrapSuperuser } from './auth/bootstrapSuperuser.js';
import type { WriterRetry } from './commands/WriteCoordinator.js';
import { type Config, loadConfig } from './config.js';
import { WriterUnavailableError } from './errors/requestErrors.js';
import type { LogFileSystem } from './events/file/logFileSystem.js';
import { listenAdminSocket } from './ledger/AdminSocket.js';
import type { Fatal } from './ledger/FatalSignal.js';
import { type Ledger, openLedger, openReader } from './ledger/openLedger.js';
import { WEBHOOK_DELIVERIES_SOURCE } from './models/extras/webhookDeliveriesView.js';
import { Readiness } from './replicas/Readiness.js';
import { TemplatePool } from './templates/TemplatePool.js';
import { startWebhookWorker } from './webhooks/startWebhookWorker.js';
import type { WebhookWorker } from './webhooks/WebhookWorker.js';

export interface Running {
  services: Services;
  server: Server;
  url: string;
  /** Delivers webhooks from the event log, beside the projector (the writer's; a read replica delivers none). */
  webhooks: WebhookWorker | null;
  /** Resolves with the first failure after which the process must restart (the entry point then exits non-zero). */
  fatal: Promise<Fatal>;
  /** Resolves once the read models first caught up with the log (a read replica serves /readyz before). */
  caughtUp: Promise<void>;
  stop(): Promise<void>;
}

/** Seams for tests: the embedded log's file system (to inject a full disk) and the writer's retry back-off. */
export interface StartOptions {
  logFileSystem?: LogFileSystem;
  writerRetry?: WriterRetry;
}

const jsonLogger: Logger = (entry) =>
  process.stdout.write(JSON.stringify({ time: new Date().toISOString(), ...entry }) + '\n');

/**
 * Composition root: the ledger (lock, log, read models, writer, auth, audit; see
 * src/ledger/openLedger.ts), then the first superuser, then the HTTP server. With
 * ROLE=reader, a read replica's ledger instead (no lock, no writer), serving as soon as
 * it listens while its read models catch up.
 */
export async function start(
  config: Config = loadConfig(),
  logger: Logger = jsonLogger,
  options: StartOptions = {},
): Promise<Running> {
  const ledger =
    config.role === 'reader'
      ? await openReader(config, { logger, logFileSystem: options.logFileSystem })
      : await openLedger(config, {
          holder: 'service',
          logger,
          logFileSystem: options.logFileSystem,
          writerRetry: options.writerRetry,
        });
  try {
    return await serve(ledger, logger);
  } catch (error) {
    await ledger.close().catch(() => undefined);
    throw error;
  }
}

async function serve(ledger: Ledger, logger: Logger): Promise<Running> {
  const { config, registry, log, store, projector, coordinator, commands, auth, branches } = ledger;
  const audit = ledger.audit!;
  const serializer = new Serializer(registry, store, ledger.secrets);
  const queries = new ListQueryCompiler(registry);
  const sources = new Map<string, unknown>();
  const reader = config.role === 'reader';
  // A Kafka follower's head is only as fresh as its last successful look-up: readiness weighs that too.
  const readiness = new Readiness(
    () => projector.position,
    () => log.head(),
    { maxLagEvents: config.readyMaxLagEvents, maxLagMs: config.readyMaxLagMs },
    Date.now,
    () => log.headConfirmedAgoMs?.() ?? 0,
  );
  void ledger.caughtUp.then(
    () => readiness.markCaughtUp(),
    () => undefined,
  );
  const renderCache = new RenderCache(projector, config.renderCacheBytes);
  // A replica's answers also say how far behind the writer it is, which moves without its read models: none kept.
  const answers = new AnswerCache(reader ? 0 : config.answerCacheBytes);
  // Export templates and webhook templates share one pool of sandboxed renderers.
  const templates = new TemplatePool(config.templates);
  const services: Services = {
    config,
    registry,
    log,
    store,
    projector,
    coordinator,
    serializer,
    renderCache,
    answers,
    queries,
    templates,
    commands,
    logger,
    auth,
    audit,
    sources,
    readiness,
    branches,
  };
  queries.register('created_by_request', createdByRequestFilter(audit));
  queries.register('as_of', async () => null); // served by the audit API's middleware (past read models)

  // Uploaded files nothing names any more go once the change that released them is committed.
  if (!reader) coordinator.onCommitted = mediaFileReleaser({ dataDir: config.dataDir, registry, store, logger });

  // The writer creates the first superuser; a replica finds it in the log.
  if (!reader) {
    try {
      await bootstrapSuperuser(config, store, coordinator, commands, (message) =>
        logger({ level: 'warn', msg: message }),
      );
    } catch (error) {
      // A full disk must not keep the registry from being read; the next start creates the superuser.
      if (!(error instanceof WriterUnavailableError)) throw error;
      logger({ level: 'warn', msg: `superuser not created (the writer is unavailable): ${error.message}` });
    }
  }

  // The manage CLI's writing commands come to the live writer instead of competing with it.
  const adminSocket = reader ? null : await listenAdminSocket(config.dataDir, ledger, logger);

  const app = createApp(services);
  // timeouts and the connection cap; plain reads the answer cache holds are sent without the chain
  const server = createHttpServer(config, leanReads(services, answers, app.callback()));
  await new Promise<void>((resolve) => server.listen(config.port, config.host, resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
  // PORT=0 picks the port only now: webhooks are refused this address from here on.
  services.commands.settings.listen = { host: config.host, port };
  // Follows the log on its own: a slow or unreachable receiver never holds up a write.
  // The writer's alone: replicas delivering too would send every change several times.
  let webhooks: WebhookWorker | null = null;
  if (!reader) {
    try {
      webhooks = await startWebhookWorker({
        config,
        registry,
        log,
        store,
        projector,
        secrets: ledger.secrets,
        serializer,
        templates,
        baseUrl: url,
        logger,
        // Like the projector's: a process that no longer follows its log, or whose read store
        // stayed down past the retry budget, restarts (from the saved position). A payload that
        // fails to render for any other reason is recorded as a failed delivery instead: the
        // same change would fail again at every start, keeping the writer's API in a crash loop.
        onFailed: (error) =>
          ledger.fatal.raise(
            'webhook deliveries stopped: the event log can no longer be followed, or the read store is down',
            error,
          ),
      });
    } catch (error) {
      await closeHttpServer(server);
      await adminSocket?.close();
      await templates.close();
      throw error;
    }
  }
  if (webhooks) sources.set(WEBHOOK_DELIVERIES_SOURCE, webhooks);
  logger({
    level: 'info',
    msg: `netledger listening on ${url}`,
    role: config.role,
    eventLog: log.constructor.name,
    readStore: store.constructor.name,
    position: log.head(),
    ...(reader ? { writerUrl: config.writerUrl } : { writer: coordinator.health().state }),
  });
  if (reader)
    void ledger.caughtUp.then(
      () => logger({ level: 'info', msg: 'caught up with the change log: ready', position: projector.position }),
      () => undefined,
    );

  let stopping: Promise<void> | null = null;
  const stop = () =>
    (stopping ??= (async () => {
      coordinator.close();
      // At once: each ends a subscription to the log (on Kafka, up to 500 ms for its fetch in flight).
      // audit.close() ends live change streams, which would keep the server open.
      await Promise.all([webhooks?.stop(), audit.close()]);
      await closeHttpServer(server);
      await adminSocket?.close();
      await templates.close();
      await ledger.close();
    })());
  return { services, server, url, webhooks, fatal: ledger.fatal.raised, caughtUp: ledger.caughtUp, stop };
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
    running.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
  // A process that cannot go on serving exits non-zero, so its supervisor restarts it
  // (which rebuilds the read models from the log); a stop that hangs does not keep it up.
  void running.fatal.then(({ reason, error }) => {
    jsonLogger({
      level: 'fatal',
      msg: `${reason}: ${error.message}. Exiting so that a supervisor restarts the service.`,
    });
    setTimeout(() => process.exit(1), 5_000).unref();
    running.stop().then(
      () => process.exit(1),
      () => process.exit(1),
    );
  });
}
