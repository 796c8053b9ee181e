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
  const probe = spawnSync(
    PYTHON,
    ['-c', 'import pynetbox, sys; sys.stdout.write(getattr(pynetbox, "__version__", "installed"))'],
    { encoding: 'utf8' },
  );
  return probe.status === 0 ? probe.stdout.trim() : null;
}

export function pynetboxSkipReason(): string {
  return `pynetbox is not importable by ${PYTHON}; apt-get install -y python3-pynetbox`;
}

/** Runs the script (no proxy, a minimal environment); asserts it exits 0 and returns its last JSON line. */
export async function runPynetbox(t: ExecutionContext, script: string, service: TestService): Promise<any> {
  const child = spawn(PYTHON, ['-c', script, service.url, ADMIN_TOKEN], {
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', NO_PROXY: '*', no_proxy: '*' },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  t.is(code, 0, stderr);
  return JSON.parse(stdout.trim().split('\n').pop()!);
}

/**
 * The start of a pynetbox script that uploads images: the client on argv's URL and token,
 * an `out` dict to print as JSON, and `png`, a valid 4x3 PNG built in place.
 */
export const PNG_SCRIPT_PRELUDE = String.raw`import json, struct, sys, zlib
import pynetbox

url, token = sys.argv[1], sys.argv[2]
nb = pynetbox.api(url, token=token)
out = {}

def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
png = (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 4, 3, 8, 0, 0, 0, 0))
       + chunk(b"IDAT", zlib.compress(b"\x00\x80\x80\x80\x80" * 3)) + chunk(b"IEND", b""))
`;
