/**
 * Running a Python script that drives pynetbox (Debian's python3-pynetbox under
 * /usr/bin/python3, or PYNETBOX_PYTHON) against a test service. The script gets the
 * service URL and the admin token as argv[1] and argv[2] and prints its findings as one
 * JSON line last.
 */
import { spawn, spawnSync } from 'node:child_process';
import type { ExecutionContext } from 'ava';
import { ADMIN_TOKEN, type TestService } from './startService.js';

export const PYTHON = process.env.PYNETBOX_PYTHON ?? '/usr/bin/python3';

/** pynetbox's version, or null where the interpreter cannot import it. */
export function pynetboxVersion(): string | null {
  const probe = spawnSync(PYTHON, ['-c', 'import pynetbox, sys; sys.stdout.write(getattr(pynetbox, "__version__", "installed"))'], { encoding: 'utf8' });
  return probe.status === 0 ? probe.stdout.trim() : null;
}

export function pynetboxSkipReason(): string {
  return `pynetbox is not importable by ${PYTHON}; apt-get install -y python3-pynetbox`;
}

/** Runs the script (no proxy, a minimal environment); asserts it exits 0 and returns its last JSON line. */
export async function runPynetbox(t: ExecutionContext, script: string, service: TestService): Promise<any> {
  const child = spawn(PYTHON, ['-c', script, service.url, ADMIN_TOKEN], { env: { PATH: process.env.PATH ?? '/usr/bin:/bin', NO_PROXY: '*', no_proxy: '*' } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  t.is(code, 0, stderr);
  return JSON.parse(stdout.trim().split('\n').pop()!);
}
