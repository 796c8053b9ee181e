/**
 * The fair measurement of issue 34: the service (this process, every thread of it) on one
 * core and the load generator on the other, so a throughput is the service's own on one
 * core and its CPU time per request is not shared with the client's. Linux `taskset`;
 * PIN=0 turns it off (then figures are what the shared machine gives).
 */
import { execFileSync } from 'node:child_process';
import os from 'node:os';

export const SERVICE_CPU = 0;
export const LOAD_CPU = 1;

let pinned: boolean | null = null;

function tasksetWorks(): boolean {
  try {
    execFileSync('taskset', ['-p', String(process.pid)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/**
 * Pins this process's threads to SERVICE_CPU, once; threads started later inherit it.
 * Returns whether the service runs pinned (false on a one-core machine, without taskset, or with PIN=0).
 */
export function pinService(): boolean {
  if (pinned !== null) return pinned;
  pinned = process.env.PIN !== '0' && os.cpus().length > LOAD_CPU && tasksetWorks();
  if (pinned) execFileSync('taskset', ['-a', '-cp', String(SERVICE_CPU), String(process.pid)], { stdio: 'ignore' });
  return pinned;
}

/** How a child process is started on LOAD_CPU: the program and arguments placed before node's own. */
export function loadGeneratorPrefix(): { execPath: string; execArgv: string[] } {
  if (!pinService()) return { execPath: process.execPath, execArgv: [] };
  return { execPath: 'taskset', execArgv: ['-c', String(LOAD_CPU), process.execPath] };
}

/** The method line benchmarks print beside their figures. */
export function pinningMethod(): string {
  return pinService()
    ? `service pinned to CPU ${SERVICE_CPU}, load generator to CPU ${LOAD_CPU} (taskset): req/s are per core`
    : 'not pinned (PIN=0, one core or no taskset): req/s share the machine with the load generator';
}
