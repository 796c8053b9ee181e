import { existsSync } from 'node:fs';
import path from 'node:path';

import type { ExecutionContext } from 'ava';

import { adminSocketPath } from '../../src/ledger/AdminSocket.js';
import type { CanaryTargets } from './injectionCorpus.js';
import type { TestService } from './startService.js';

/**
 * What the tests of each rendering door (export templates, a webhook's body, headers, URL
 * and conditions) share: the canaries an escape would touch, and the measure of the
 * service's liveness while an attack runs.
 */

/** An environment variable of the service's process (tests run the service in theirs). */
export const CANARY_ENV = 'NETLEDGER_DOOR_CANARY';
export const CANARY_VALUE = 'canary-value-that-no-template-may-read';
process.env[CANARY_ENV] = CANARY_VALUE;

/** What an answer, a delivery or an error would show had a payload escaped. */
export const LEAK = /ESCAPED|canary-value|\[native code\]|uid=\d+|SUPERUSER_/;

/** The functional bound: `/livez/` answers within this while an attack runs. */
export const LIVENESS_BOUND_MS = 100;

export class Canaries {
  /** Admin commands the service received (its log): an escape through the socket shows here. */
  readonly adminCommands: string[] = [];
  readonly file: string;

  constructor(dir: string) {
    this.file = path.join(dir, 'canary');
  }

  /** For startService's `logger`. */
  readonly logger = (entry: Record<string, unknown>) => {
    if (entry.msg === 'admin command from manage') this.adminCommands.push(String(entry.command));
  };

  targets(service: TestService): CanaryTargets {
    return { file: this.file, adminSocket: adminSocketPath(service.dataDir) };
  }

  /** The tokens there are (an escape through the admin socket would mint one). */
  static async tokens(service: TestService): Promise<number> {
    return (await service.api('GET', '/api/users/tokens/?limit=1')).body.count;
  }

  /** No canary touched: the file absent, the admin socket asked nothing, no token minted. */
  assertUntouched(t: ExecutionContext, tokensBefore: number, tokensAfter: number, label = ''): void {
    t.false(existsSync(this.file), `${label} the canary file is untouched`);
    t.deepEqual(this.adminCommands, [], `${label} the admin socket was asked nothing`);
    t.is(tokensAfter, tokensBefore, `${label} no token was minted`);
  }
}

/**
 * Probes `/livez/` one after another while `running()` holds (at least `minProbes` times).
 * The attack must still be running when the probes end, or they say nothing about it.
 */
export async function probeLiveness(
  service: TestService,
  running: () => boolean,
  minProbes = 10,
): Promise<{ latencies: number[]; duringAttack: number }> {
  const latencies: number[] = [];
  let duringAttack = 0;
  while (running() || latencies.length < minProbes) {
    const wasRunning = running();
    const started = performance.now();
    const answer = await fetch(`${service.url}/livez/`);
    await answer.arrayBuffer();
    if (answer.status !== 200) throw new Error(`/livez/ answered ${answer.status}`);
    latencies.push(performance.now() - started);
    if (wasRunning && running()) duringAttack += 1;
    if (latencies.length >= 200) break;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return { latencies, duringAttack };
}

/**
 * The bound, judged robustly on a loaded, shared machine: the median of the probes taken
 * during the attack is under LIVENESS_BOUND_MS (a single probe may be late because the
 * machine, not the service, was busy: other test processes, the renderers themselves). A
 * service whose event loop an attack held would fail every probe, not one.
 */
export function assertLive(t: ExecutionContext, probes: { latencies: number[]; duringAttack: number }): void {
  const sorted = [...probes.latencies].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)]!;
  t.true(probes.duringAttack >= 5, `at least 5 probes answered while the attack ran (${probes.duringAttack})`);
  t.true(median < LIVENESS_BOUND_MS, `median /livez/ latency ${median.toFixed(1)} ms < ${LIVENESS_BOUND_MS} ms`);
  t.log(
    `/livez/ during the attack: ${sorted.length} probes (${probes.duringAttack} while it ran), ` +
      `median ${median.toFixed(1)} ms, p90 ${sorted[Math.floor(sorted.length * 0.9)]!.toFixed(1)} ms, ` +
      `max ${sorted.at(-1)!.toFixed(1)} ms`,
  );
}
