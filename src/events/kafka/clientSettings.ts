import type { KafkaConfig, LogEntry, logLevel as KafkaLogLevel, RetryOptions, SASLOptions } from 'kafkajs';

/** TLS and SASL for the broker connections. */
export interface KafkaSecurity {
  /** Connect with TLS (the system's trusted CAs). */
  ssl?: boolean;
  sasl?: { mechanism: 'plain' | 'scram-sha-256' | 'scram-sha-512'; username: string; password: string };
}

/**
 * How long a transaction may stay open before the broker aborts it (and bumps the
 * producer's epoch). The writer needs the same figure to tell that abort from fencing.
 */
export const TRANSACTION_TIMEOUT_MS = 60_000;

/**
 * Retries of the client's own requests. The library's first back-off is 300 ms; a
 * transaction begun right after the previous commit gets CONCURRENT_TRANSACTIONS while the
 * broker writes the commit markers (a few ms), so back-to-back writes would each wait
 * ~300 ms. A short first back-off that doubles keeps that wait short and still gives up
 * after some seconds of outage, so a request is answered instead of waiting forever.
 */
const CLIENT_RETRY: RetryOptions = {
  initialRetryTime: 10,
  maxRetryTime: 2_000,
  retries: 10,
  factor: 0.2,
  multiplier: 2,
};

/**
 * The producer's retries. The library retries an idempotent producer's sends forever by
 * default; a bounded count lets a partition outage fail the transaction, which the writer
 * then settles by registering its transactional id again and reading the log.
 */
export const producerRetry: RetryOptions = { ...CLIENT_RETRY };

/**
 * How long the TCP connection to a broker may take. The library's default, 1 s, is passed on a
 * busy machine (tests on 2 loaded cores saw 10-20 a run); the library then ends that socket
 * while its first request (ApiVersions) is under way, logs its late answer as "Response
 * without match", and such runs left connections to the broker open after every client had
 * disconnected (the process did not exit until the broker closed them as idle, 10 min later).
 * A refused connection (a broker down) still fails at once; the read and append time limits
 * bound what a caller waits for a broker that does not answer.
 */
export const CONNECTION_TIMEOUT_MS = 5_000;

export function clientSettings(options: {
  clientId: string;
  brokers: string[];
  logLevel: KafkaLogLevel;
  security: KafkaSecurity;
}): KafkaConfig {
  const { ssl, sasl } = options.security;
  return {
    clientId: options.clientId,
    brokers: options.brokers,
    logLevel: options.logLevel,
    logCreator: quietLogCreator,
    retry: CLIENT_RETRY,
    connectionTimeout: CONNECTION_TIMEOUT_MS,
    ...(ssl ? { ssl: true } : {}),
    ...(sasl ? { sasl: { ...sasl } as SASLOptions } : {}),
  };
}

/**
 * The library's log lines on stderr, one line each, without the warning it gives for a
 * bounded retry count on an idempotent producer: here a failed transaction is aborted and
 * checked against the log, so the bound does not weaken what an append promises.
 */
function quietLogCreator(): (entry: LogEntry) => void {
  return ({ namespace, label, log }) => {
    const { message, timestamp: _timestamp, ...extra } = log;
    if (message.startsWith('Limiting retries for the idempotent producer')) return;
    const detail = Object.keys(extra).length > 0 ? ` ${JSON.stringify(extra)}` : '';
    console.error(`kafkajs ${label} [${namespace}] ${message}${detail}`);
  };
}
