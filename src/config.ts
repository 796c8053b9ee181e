import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import path from 'node:path';

/**
 * Configuration from the environment, using NetBox's parameter names where they
 * exist and netbox-docker's for the first superuser.
 */
export interface Config {
  host: string;
  port: number;
  dataDir: string;
  kafkaBrokers: string[] | null;
  kafkaTopic: string;
  /**
   * The writer's transactional id. Kafka knows one such id per cluster, not per topic: two
   * deployments writing different topics of one cluster need different ids, or each start
   * of one fences the other's writer.
   */
  kafkaTransactionalId: string;
  /** Replication factor and min.insync.replicas given to the topic when it is created. */
  kafkaReplicationFactor: number;
  kafkaMinInsyncReplicas: number;
  /** TLS to the brokers. */
  kafkaSsl: boolean;
  /** SASL authentication with the brokers, or null. The password is never logged. */
  /** Start as the Kafka writer even while another one is live (it is fenced). */
  kafkaTakeover: boolean;
  kafkaSasl: { mechanism: 'plain' | 'scram-sha-256' | 'scram-sha-512'; username: string; password: string } | null;
  /** Time limit of one look-up of the log's last event (at open, after a failed transaction, a replica's refresh). */
  kafkaHeadReadTimeoutMs: number;
  /** How long a read of past events may receive nothing from the broker before it fails (the API answers 503). */
  kafkaReadStallTimeoutMs: number;
  mongodbUrl: string | null;
  /** Accept a standalone MongoDB (no transactions: a request's changes become visible one document at a time). */
  mongodbAllowStandalone: boolean;
  /** Time limit of every read-model query on MongoDB (503 past it). */
  mongodbQueryTimeoutMs: number;
  /** How long the projector retries transient MongoDB failures before it stops. */
  mongodbRetryBudgetMs: number;
  /** How long a deleted object's tombstone is kept (it only has to outlast a rolling deploy's older projector). */
  mongodbTombstoneRetentionMs: number;
  paginateCount: number;
  /** 0 removes the maximum: then limit=0 returns every match. */
  maxPageSize: number;
  /** Bytes of rendered objects kept as JSON text for reads; 0 renders every read. */
  renderCacheBytes: number;
  /** Bytes of whole answers to plain GETs kept ready to send again while the read models stay put; 0: none. */
  answerCacheBytes: number;
  /** /graphql/: the deepest selection, the most aliases and the largest estimated object count a query may ask for. */
  graphql: { maxDepth: number; maxAliases: number; maxCost: number; listEstimate: number };
  loginRequired: boolean;
  /** '<app>.<model>' names (or '*') readable without a token. */
  exemptViewPermissions: string[];
  allowTokenRetrieval: boolean;
  maintenanceMode: boolean;
  /** No duplicate prefixes or IP addresses in the global table (VRFs have their own flag). */
  enforceGlobalUnique: boolean;
  /** NetBox's DEFAULT_PERMISSIONS: '<app>.<action>_<model>' → constraints, held by every authenticated user. */
  defaultPermissions: Record<string, unknown>;
  /** Peers (CIDRs, or '*') whose X-Real-IP / X-Forwarded-For name the client; others are the client. */
  trustedProxies: string[];
  /** A trusted proxy's X-Forwarded-Host names the origin links are built on (it sets the header itself). */
  useForwardedHost: boolean;
  /** NetBox's LOGIN_TIMEOUT: seconds a browser session lasts. */
  loginTimeout: number;
  /** NetBox's CSRF_TRUSTED_ORIGINS: origins besides the service's own allowed to send cookie-authenticated writes. */
  csrfTrustedOrigins: string[];
  secretKey: string;
  superuser: { name: string; email: string; password: string | null; apiToken: string | null };
  maxBodyBytes: number;
  /** Most items a list body (a bulk create, update or delete) may hold; more are refused (400) unread. 0: no cap. */
  maxBulkItems: number;
  /** Time a client has to send a request body once its headers are in (408 after); 0: no limit. */
  bodyTimeoutMs: number;
  /** Time a client has to send the request line and headers (Node answers 408 and closes); 0: no limit. */
  headersTimeoutMs: number;
  /** Time a client has to send a whole request, headers and body (Node answers 408 and closes); 0: no limit. */
  requestTimeoutMs: number;
  /** How long an idle keep-alive connection is kept open between requests. */
  keepAliveTimeoutMs: number;
  /** Open connections accepted at once; more are closed at once. 0: no cap. */
  maxConnections: number;
  /**
   * Webhook delivery: retry delays double from the base up to the cap (ms), for at most maxAttempts tries (0: no
   * limit); timeoutMs is the deadline of a whole attempt (connect, send, the whole answer); changes requested by
   * webhook deliveries at maxDepth or deeper fire no webhook.
   */
  webhooks: { retryBaseMs: number; retryMaxMs: number; maxAttempts: number; timeoutMs: number; maxDepth: number };
  /** User-written templates (exports, webhooks): each render's time, heap and output, renderer processes, jobs waiting. */
  templates: { timeoutMs: number; memoryMb: number; outputMb: number; workers: number; queue: number };
  apiVersion: string;
  /** writer: takes the data directory's lock and appends; reader: a read replica following the writer's log (no lock, no writes of its own). */
  role: 'writer' | 'reader';
  /** Where a reader forwards writes (null: it answers them 503 with a pointer to the writer). */
  writerUrl: string | null;
  /** How long a reader waits for the writer's answer to a forwarded write (then 504). */
  writerTimeoutMs: number;
  /** How long a read carrying X-Netledger-Position waits for the read models to reach it (then 503). */
  positionWaitMs: number;
  /** /readyz stays ready while the read models are at most this many events behind the log's head ... */
  readyMaxLagEvents: number;
  /** ... and no event has waited longer than this to be applied. */
  readyMaxLagMs: number;
  /** A reader of the embedded file log looks at the file at least this often (besides the file watch). */
  followPollMs: number;
  /** Derived state (read models, audit indexes) is snapshotted after this many events (0: never). */
  snapshotEveryEvents: number;
  /** Snapshots kept per part (older ones are removed); `?as_of=` starts from the nearest. */
  snapshotKeep: number;
  /** The embedded log's open reads every frame, ignoring the persisted open points. */
  verifyLogOnOpen: boolean;
}

function role(value: string | undefined): 'writer' | 'reader' {
  if (value === undefined || value === '' || value === 'writer') return 'writer';
  if (value === 'reader') return 'reader';
  throw new Error(`ROLE must be writer or reader, not ${value}`);
}

function writerUrl(value: string | undefined): string | null {
  if (!value) return null;
  const url = new URL(value); // throws on a malformed URL: a reader must not start pointing nowhere
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new Error(`WRITER_URL must be an http(s) URL, not ${value}`);
  return url.origin;
}

function flag(value: string | undefined, fallback: boolean): boolean {
  if (value === undefined || value === '') return fallback;
  return /^(1|true|yes|on)$/i.test(value);
}

function integer(value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`not a non-negative integer: ${value}`);
  return n;
}

function positive(value: string | undefined, fallback: number, name: string): number {
  const n = integer(value, fallback);
  if (n < 1) throw new Error(`${name} must be at least 1`);
  return n;
}

/** A duration given in seconds (fractions allowed), in milliseconds. */
function seconds(value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback * 1000;
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0) throw new Error(`not a non-negative number of seconds: ${value}`);
  return Math.round(n * 1000);
}

/** seconds(), but more than 0: a time limit of 0 would fail every read at once, and there is no "no limit" here. */
function positiveSeconds(value: string | undefined, fallback: number, name: string): number {
  const ms = seconds(value, fallback);
  if (ms <= 0) throw new Error(`${name} must be more than 0 seconds`);
  return ms;
}

/** MONGODB_TOMBSTONE_RETENTION (default 7 days), within what a TTL index takes: 0 would remove tombstones at once. */
function tombstoneRetention(value: string | undefined): number {
  const ms = seconds(value, 7 * 24 * 3600);
  if (ms < 1000 || ms > 2_147_483_647_000)
    throw new Error(`MONGODB_TOMBSTONE_RETENTION must be between 1 and 2147483647 seconds, not ${value}`);
  return ms;
}

const SASL_MECHANISMS = ['plain', 'scram-sha-256', 'scram-sha-512'] as const;

/** KAFKA_SASL_MECHANISM with its username and password; the error never repeats the password. */
function kafkaSasl(env: NodeJS.ProcessEnv): Config['kafkaSasl'] {
  const mechanism = env.KAFKA_SASL_MECHANISM?.trim().toLowerCase();
  if (!mechanism) return null;
  if (!(SASL_MECHANISMS as readonly string[]).includes(mechanism)) {
    throw new Error(`KAFKA_SASL_MECHANISM must be one of ${SASL_MECHANISMS.join(', ')}`);
  }
  if (!env.KAFKA_SASL_USERNAME || !env.KAFKA_SASL_PASSWORD)
    throw new Error('KAFKA_SASL_MECHANISM needs KAFKA_SASL_USERNAME and KAFKA_SASL_PASSWORD');
  return {
    mechanism: mechanism as (typeof SASL_MECHANISMS)[number],
    username: env.KAFKA_SASL_USERNAME,
    password: env.KAFKA_SASL_PASSWORD,
  };
}

function list(value: string | undefined): string[] {
  if (!value) return [];
  const trimmed = value.trim();
  if (trimmed.startsWith('[')) return (JSON.parse(trimmed) as unknown[]).map(String);
  return trimmed
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/** NetBox's default: every user may view, create, change and delete their own API tokens. */
export const NETBOX_DEFAULT_PERMISSIONS: Record<string, unknown> = {
  'users.view_token': [{ user: '$user' }],
  'users.add_token': [{ user: '$user' }],
  'users.change_token': [{ user: '$user' }],
  'users.delete_token': [{ user: '$user' }],
};

/** DEFAULT_PERMISSIONS as a JSON object; `{}` takes every default permission away. */
function defaultPermissions(value: string | undefined): Record<string, unknown> {
  if (value === undefined || value.trim() === '') return NETBOX_DEFAULT_PERMISSIONS;
  const parsed: unknown = JSON.parse(value);
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
    throw new Error('DEFAULT_PERMISSIONS must be a JSON object');
  return parsed as Record<string, unknown>;
}

/** SECRET_KEY from the environment, else one generated once and kept beside the data. */
function secretKey(env: NodeJS.ProcessEnv, dataDir: string): string {
  if (env.SECRET_KEY) return env.SECRET_KEY;
  const file = path.join(dataDir, 'secret_key');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const key = randomBytes(48).toString('base64url');
  // Written whole or not at all: a torn key file would invalidate every token digest.
  const temporary = `${file}.${process.pid}.tmp`;
  const fd = openSync(temporary, 'w', 0o600);
  writeSync(fd, key + '\n');
  fsyncSync(fd);
  closeSync(fd);
  renameSync(temporary, file);
  const dirFd = openSync(dataDir, 'r');
  fsyncSync(dirFd);
  closeSync(dirFd);
  return key;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const dataDir = path.resolve(env.DATA_DIR ?? './data');
  const headersTimeoutMs = seconds(env.HEADERS_TIMEOUT, 30);
  const requestTimeoutMs = seconds(env.REQUEST_TIMEOUT, 60);
  // Node refuses a header deadline later than the whole request's.
  if (requestTimeoutMs > 0 && headersTimeoutMs > requestTimeoutMs)
    throw new Error('HEADERS_TIMEOUT must not exceed REQUEST_TIMEOUT');
  return {
    host: env.HOST ?? '127.0.0.1',
    port: integer(env.PORT, 8000),
    dataDir,
    kafkaBrokers: env.KAFKA_BROKERS ? list(env.KAFKA_BROKERS) : null,
    kafkaTopic: env.KAFKA_TOPIC ?? 'netledger.changes',
    kafkaTransactionalId: env.KAFKA_TRANSACTIONAL_ID || 'netledger-writer',
    kafkaReplicationFactor: positive(env.KAFKA_REPLICATION_FACTOR, 3, 'KAFKA_REPLICATION_FACTOR'),
    kafkaMinInsyncReplicas: positive(
      env.KAFKA_MIN_INSYNC_REPLICAS,
      Math.min(2, positive(env.KAFKA_REPLICATION_FACTOR, 3, 'KAFKA_REPLICATION_FACTOR')),
      'KAFKA_MIN_INSYNC_REPLICAS',
    ),
    kafkaSsl: flag(env.KAFKA_SSL, false),
    kafkaTakeover: flag(env.KAFKA_TAKEOVER, false),
    kafkaSasl: kafkaSasl(env),
    kafkaHeadReadTimeoutMs: positiveSeconds(env.KAFKA_HEAD_READ_TIMEOUT, 10, 'KAFKA_HEAD_READ_TIMEOUT'),
    kafkaReadStallTimeoutMs: positiveSeconds(env.KAFKA_READ_STALL_TIMEOUT, 10, 'KAFKA_READ_STALL_TIMEOUT'),
    mongodbUrl: env.MONGODB_URL || null,
    mongodbAllowStandalone: flag(env.MONGODB_ALLOW_STANDALONE, false),
    mongodbQueryTimeoutMs: seconds(env.MONGODB_QUERY_TIMEOUT, 10),
    mongodbRetryBudgetMs: seconds(env.MONGODB_RETRY_BUDGET, 60),
    mongodbTombstoneRetentionMs: tombstoneRetention(env.MONGODB_TOMBSTONE_RETENTION),
    paginateCount: integer(env.PAGINATE_COUNT, 50),
    maxPageSize: integer(env.MAX_PAGE_SIZE, 1000),
    renderCacheBytes: integer(env.RENDER_CACHE_MB, 256) * 1024 * 1024,
    answerCacheBytes: integer(env.ANSWER_CACHE_MB, 64) * 1024 * 1024,
    graphql: {
      maxDepth: positive(env.GRAPHQL_MAX_DEPTH, 10, 'GRAPHQL_MAX_DEPTH'),
      maxAliases: integer(env.GRAPHQL_MAX_ALIASES, 30),
      maxCost: positive(env.GRAPHQL_MAX_COST, 1_000_000, 'GRAPHQL_MAX_COST'),
      listEstimate: positive(env.GRAPHQL_LIST_ESTIMATE, 20, 'GRAPHQL_LIST_ESTIMATE'),
    },
    loginRequired: flag(env.LOGIN_REQUIRED, false),
    exemptViewPermissions: list(env.EXEMPT_VIEW_PERMISSIONS),
    allowTokenRetrieval: flag(env.ALLOW_TOKEN_RETRIEVAL, true),
    maintenanceMode: flag(env.MAINTENANCE_MODE, false),
    enforceGlobalUnique: flag(env.ENFORCE_GLOBAL_UNIQUE, false),
    defaultPermissions: defaultPermissions(env.DEFAULT_PERMISSIONS),
    trustedProxies: list(env.TRUSTED_PROXIES),
    useForwardedHost: flag(env.USE_X_FORWARDED_HOST, false),
    loginTimeout: integer(env.LOGIN_TIMEOUT, 14 * 24 * 3600),
    csrfTrustedOrigins: list(env.CSRF_TRUSTED_ORIGINS),
    secretKey: secretKey(env, dataDir),
    superuser: {
      name: env.SUPERUSER_NAME ?? 'admin',
      email: env.SUPERUSER_EMAIL ?? '',
      password: env.SUPERUSER_PASSWORD ?? null,
      apiToken: env.SUPERUSER_API_TOKEN ?? null,
    },
    maxBodyBytes: integer(env.MAX_BODY_BYTES, 10 * 1024 * 1024),
    maxBulkItems: integer(env.MAX_BULK_ITEMS, 1000),
    bodyTimeoutMs: seconds(env.BODY_TIMEOUT, 30),
    headersTimeoutMs,
    requestTimeoutMs,
    keepAliveTimeoutMs: seconds(env.KEEPALIVE_TIMEOUT, 5),
    maxConnections: integer(env.MAX_CONNECTIONS, 1000),
    webhooks: {
      retryBaseMs: seconds(env.WEBHOOK_RETRY_BASE, 1),
      retryMaxMs: seconds(env.WEBHOOK_RETRY_MAX, 300),
      maxAttempts: integer(env.WEBHOOK_MAX_ATTEMPTS, 20),
      timeoutMs: seconds(env.WEBHOOK_TIMEOUT, 10),
      maxDepth: positive(env.WEBHOOK_MAX_DEPTH, 2, 'WEBHOOK_MAX_DEPTH'),
    },
    templates: {
      timeoutMs: positiveSeconds(env.TEMPLATE_TIMEOUT, 10, 'TEMPLATE_TIMEOUT'),
      memoryMb: Math.max(16, positive(env.TEMPLATE_MEMORY_MB, 256, 'TEMPLATE_MEMORY_MB')),
      outputMb: positive(env.TEMPLATE_MAX_OUTPUT_MB, 64, 'TEMPLATE_MAX_OUTPUT_MB'),
      workers: positive(env.TEMPLATE_WORKERS, 2, 'TEMPLATE_WORKERS'),
      queue: integer(env.TEMPLATE_QUEUE, 64),
    },
    apiVersion: '3.4',
    role: role(env.ROLE),
    writerUrl: writerUrl(env.WRITER_URL),
    writerTimeoutMs: positiveSeconds(env.WRITER_TIMEOUT, 120, 'WRITER_TIMEOUT'),
    positionWaitMs: seconds(env.POSITION_WAIT_TIMEOUT, 5),
    readyMaxLagEvents: integer(env.READY_MAX_LAG_EVENTS, 10_000),
    readyMaxLagMs: seconds(env.READY_MAX_LAG_SECONDS, 10),
    followPollMs: seconds(env.FOLLOW_POLL_INTERVAL, 0.5),
    snapshotEveryEvents: integer(env.SNAPSHOT_EVERY_EVENTS, 100_000),
    snapshotKeep: Math.max(1, integer(env.SNAPSHOT_KEEP, 10)),
    verifyLogOnOpen: flag(env.VERIFY_LOG_ON_OPEN, false),
  };
}
