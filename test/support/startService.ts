import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { type Config, loadConfig } from '../../src/config.js';
import { type Running, start, type StartOptions } from '../../src/main.js';
import type { WebhookWorker } from '../../src/webhooks/WebhookWorker.js';
import { eventLogEnv } from './testEventLog.js';

export const ADMIN_TOKEN = '0123456789abcdef0123456789abcdef01234567';

export interface TestService extends Omit<Running, 'webhooks'> {
  /** The writer's webhook worker (tests start writers here; read replicas run as separate processes). */
  webhooks: WebhookWorker;
  dataDir: string;
  /** fetch against the service with the admin token and JSON content type. */
  api(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<ApiResponse>;
  close(): Promise<void>;
}

export interface ApiResponse {
  status: number;
  headers: Headers;
  body: any;
}

/**
 * A real service on an ephemeral port with its own data directory and admin token, on this
 * run's event log (testEventLog.ts: the file log, or a Kafka topic of the directory's own);
 * `env` may name another.
 */
export async function startService(
  env: Record<string, string> = {},
  dataDir?: string,
  options: { logger?: (entry: Record<string, unknown>) => void; start?: StartOptions } = {},
): Promise<TestService> {
  const dir = dataDir ?? mkdtempSync(path.join(os.tmpdir(), 'netledger-test-'));
  const config: Config = loadConfig({
    DATA_DIR: dir,
    PORT: '0',
    HOST: '127.0.0.1',
    SUPERUSER_NAME: 'admin',
    SUPERUSER_PASSWORD: 'admin-password',
    SUPERUSER_API_TOKEN: ADMIN_TOKEN,
    SECRET_KEY: 'test-secret-key',
    // The server closing an idle keep-alive connection just as fetch reuses it resets
    // the request; on a loaded machine two requests can be more than the 5 s default apart.
    KEEPALIVE_TIMEOUT: '60',
    ...eventLogEnv(dir),
    ...env,
  });
  const running = await start(config, options.logger ?? (() => {}), options.start);
  const api = async (method: string, route: string, body?: unknown, headers: Record<string, string> = {}) => {
    const response = await fetch(running.url + route, {
      method,
      redirect: 'manual',
      headers: {
        Authorization: `Token ${ADMIN_TOKEN}`,
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        ...headers,
      },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      // not JSON: keep the text
    }
    return { status: response.status, headers: response.headers, body: parsed };
  };
  // The admin token's first use records its last_used time (an event of its own); do
  // it now so tests that compare the log before and after a request see only theirs.
  await api('GET', '/api/');
  return {
    ...running,
    webhooks: running.webhooks!,
    dataDir: dir,
    api,
    async close() {
      await running.stop();
      if (!dataDir) rmSync(dir, { recursive: true, force: true });
    },
  };
}
