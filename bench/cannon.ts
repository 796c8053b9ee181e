/**
 * Runs one autocannon load in a child process of its own (bench/autocannonProcess.mjs),
 * so the load generator shares neither the service's event loop nor its CPU accounting.
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';

import { loadGeneratorPrefix } from './cpuPinning.js';

export type CannonScenario =
  | { kind: 'get'; path: string }
  | { kind: 'createTag'; path: string; prefix: string }
  | { kind: 'post'; path: string; body: unknown }
  | { kind: 'send'; method: 'POST' | 'PATCH'; path: string; body: unknown };

/** The parts of autocannon's result the benchmarks read. */
export interface CannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p97_5: number; p99: number; average: number; max: number };
  throughput: { average: number };
  non2xx: number;
  errors: number;
  timeouts: number;
  duration: number;
  sent: number;
  '2xx': number;
}

export interface CannonLoad {
  url: string;
  connections: number;
  /** Seconds. */
  duration: number;
  headers: Record<string, string>;
  scenario: CannonScenario;
}

export function cannon(load: CannonLoad): Promise<CannonResult> {
  return new Promise((resolve, reject) => {
    // On the other core than the service's (bench/cpuPinning.ts), where the machine has one.
    const { execPath, execArgv } = loadGeneratorPrefix();
    const child = fork(fileURLToPath(new URL('./autocannonProcess.mjs', import.meta.url)), [], {
      stdio: 'inherit',
      execPath,
      execArgv,
    });
    let result: CannonResult | null = null;
    child.on('message', (m: { netledgerResult?: CannonResult }) => {
      if (m && m.netledgerResult) result = m.netledgerResult;
    });
    child.once('error', reject);
    child.once('exit', (code) =>
      result ? resolve(result) : reject(new Error(`autocannon process exited with ${code}`)),
    );
    child.send(load);
  });
}
