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
/**
 * No probe at all may take this long. A loaded, shared machine delays a probe now and then
 * (up to ~500 ms seen at load 15 on 2 cores); an attack that holds the event loop holds it
 * for its whole run (the findings: 7.4 s, 9.1 s, 19.8 s), caught by the one probe waiting.
 */
export const LIVENESS_CEILING_MS = 2_000;

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
 * Probes `/livez/` one after another, 25 ms apart, from before the attack until `running()`
 * says it is over (and at least `minProbes` times; for `maxMs` at most): whatever the
 * attack holds, one probe waits through it.
 */
export async function probeLiveness(
  service: TestService,
  running: () => boolean,
  minProbes = 10,
  maxMs = 90_000,
): Promise<{ latencies: number[]; duringAttack: number }> {
  const latencies: number[] = [];
  let duringAttack = 0;
  const end = performance.now() + maxMs;
  while ((running() || latencies.length < minProbes) && performance.now() < end) {
    const wasRunning = running();
    const started = performance.now();
    const answer = await fetch(`${service.url}/livez/`);
    await answer.arrayBuffer();
    if (answer.status !== 200) throw new Error(`/livez/ answered ${answer.status}`);
    latencies.push(performance.now() - started);
    if (wasRunning && running()) duringAttack += 1;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return { latencies, duringAttack };
}

/**
 * The bound, judged robustly on a loaded, shared machine: the median probe is under
 * LIVENESS_BOUND_MS (a single probe may be late because the machine, not the service, was
 * busy: other test processes, the renderers themselves), and none reaches
 * LIVENESS_CEILING_MS (an event loop held by the attack shows as one probe that long).
 */
export function assertLive(t: ExecutionContext, probes: { latencies: number[]; duringAttack: number }): void {
  const sorted = [...probes.latencies].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)]!;
  t.true(probes.duringAttack >= 5, `at least 5 probes answered while the attack ran (${probes.duringAttack})`);
  t.true(median < LIVENESS_BOUND_MS, `median /livez/ latency ${median.toFixed(1)} ms < ${LIVENESS_BOUND_MS} ms`);
  t.true(
    sorted.at(-1)! < LIVENESS_CEILING_MS,
    `slowest /livez/ ${sorted.at(-1)!.toFixed(0)} ms < ${LIVENESS_CEILING_MS} ms`,
  );
  t.log(
    `/livez/ during the attack: ${sorted.length} probes (${probes.duringAttack} while it ran), ` +
      `median ${median.toFixed(1)} ms, p90 ${sorted[Math.floor(sorted.length * 0.9)]!.toFixed(1)} ms, ` +
      `max ${sorted.at(-1)!.toFixed(1)} ms`,
  );
}
