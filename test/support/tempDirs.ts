import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import test, { type ExecutionContext } from 'ava';

/** A fresh directory under the system's temp dir; the caller removes it. */
export function tempDir(prefix = 'nl-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

export function removeDir(dir: string): void {
  fs.rmSync(dir, { recursive: true, force: true });
}

/** A test whose `body` gets a fresh temp dir, removed afterwards whatever happens. */
export function withTempDir(
  title: string,
  body: (t: ExecutionContext, dir: string) => Promise<void>,
  prefix?: string,
): void {
  test(title, async (t) => {
    const dir = tempDir(prefix);
    try {
      await body(t, dir);
    } finally {
      removeDir(dir);
    }
  });
}
