/**
 * netledger as a separate process (writer or read replica) for the replica tests: the
 * same entry point an operator starts, on an ephemeral port, found from its log line.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

import { ADMIN_TOKEN } from './startService.js';
import { eventLogEnv } from './testEventLog.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface ServiceProcess {
  url: string;
  child: ChildProcess;
  /** Every JSON line the process wrote so far. */
  lines: Array<Record<string, unknown>>;
  /** Resolves with the first line whose msg matches, now or later. */
  line(pattern: RegExp): Promise<Record<string, unknown>>;
  /** Resolves with the exit code once the process has ended. */
  exited: Promise<number | null>;
  api(
    method: string,
    route: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<{ status: number; headers: Headers; body: any }>;
  /** SIGTERM, then waits for the exit. */
  stop(): Promise<void>;
}

export async function startProcess(env: Record<string, string>): Promise<ServiceProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      SECRET_KEY: 'replica-secret-key',
      SUPERUSER_NAME: 'admin',
      SUPERUSER_PASSWORD: 'admin-password',
      SUPERUSER_API_TOKEN: ADMIN_TOKEN,
      KEEPALIVE_TIMEOUT: '60',
      ...(env.DATA_DIR ? eventLogEnv(env.DATA_DIR) : {}),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: Array<Record<string, unknown>> = [];
  const watchers = new Set<{ pattern: RegExp; resolve: (line: Record<string, unknown>) => void }>();
  let text = '';
  const take = (chunk: Buffer) => {
    text += chunk.toString('utf8');
    let end: number;
    while ((end = text.indexOf('\n')) >= 0) {
      const raw = text.slice(0, end);
      text = text.slice(end + 1);
      let entry: Record<string, unknown>;
      try {
        entry = JSON.parse(raw) as Record<string, unknown>;
      } catch {
        entry = { msg: raw };
      }
      lines.push(entry);
      for (const w of [...watchers]) {
        if (w.pattern.test(String(entry.msg))) {
          watchers.delete(w);
          w.resolve(entry);
        }
      }
    }
  };
  child.stdout!.on('data', take);
  child.stderr!.on('data', take);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const line = (pattern: RegExp) => {
    const found = lines.find((entry) => pattern.test(String(entry.msg)));
    if (found) return Promise.resolve(found);
    return new Promise<Record<string, unknown>>((resolve, reject) => {
      watchers.add({ pattern, resolve });
      void exited.then((code) =>
        reject(new Error(`process exited (${code}) before logging ${pattern}: ${JSON.stringify(lines.slice(-5))}`)),
      );
    });
  };
  const listening = await line(/^netledger listening on /);
  const url = String(listening.msg).replace(/^netledger listening on /, '');
  const api = async (method: string, route: string, body?: unknown, headers: Record<string, string> = {}) => {
    const response = await fetch(url + route, {
      method,
      redirect: 'manual',
      headers: {
        Authorization: `Token ${ADMIN_TOKEN}`,
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const raw = await response.text();
    let parsed: unknown = raw;
    try {
      parsed = raw ? JSON.parse(raw) : null;
    } catch {
      // not JSON
    }
    return { status: response.status, headers: response.headers, body: parsed as any };
  };
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  return { url, child, lines, line, exited, api, stop };
}
