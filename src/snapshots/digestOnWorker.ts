/**
 * The SHA-256 of a byte range of an open file, computed on a worker thread: a loader
 * decodes the body on the main thread meanwhile (start-up, bench/startup.bench.ts: the
 * hash is ~10% of a read-model snapshot's load) and adopts what it decoded only once
 * the digest came back equal to the header's.
 *
 * The worker reads the same file descriptor as the loader (threads share the process's
 * descriptors), so both see the same file even if a newer snapshot is renamed over its
 * name meanwhile. It is plain CommonJS evaluated as is (`execArgv: []`: no TypeScript
 * loader to start in it), reading with synchronous calls, so `stop` ends it between two
 * reads and the descriptor can then be closed safely.
 */
import { Worker } from 'node:worker_threads';

const SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { createHash } = require('node:crypto');
const { readSync } = require('node:fs');
const { fd, start, bytes } = workerData;
try {
  const hash = createHash('sha256');
  const buffer = Buffer.allocUnsafe(1 << 20);
  let done = 0;
  while (done < bytes) {
    const n = readSync(fd, buffer, 0, Math.min(buffer.length, bytes - done), start + done);
    if (n <= 0) break;
    hash.update(buffer.subarray(0, n));
    done += n;
  }
  parentPort.postMessage({ bytes: done, sha256: hash.digest('hex') });
} catch (error) {
  parentPort.postMessage({ error: String((error && error.message) || error) });
}
`;

export interface RangeDigest {
  /** Bytes hashed (fewer than asked when the file ends sooner). */
  bytes: number;
  sha256: string;
}

export interface DigestOnWorker {
  digest: Promise<RangeDigest>;
  /** Ends the worker (whether or not it finished); after it, `fd` may be closed. */
  stop(): Promise<void>;
}

/** Starts hashing `bytes` bytes of `fd` from `start`. */
export function digestOnWorker(fd: number, start: number, bytes: number): DigestOnWorker {
  const worker = new Worker(SOURCE, { eval: true, execArgv: [], workerData: { fd, start, bytes } });
  const digest = new Promise<RangeDigest>((resolve, reject) => {
    worker.once('message', (message: RangeDigest | { error: string }) => {
      if ('error' in message) reject(new Error(`hashing the snapshot body failed: ${message.error}`));
      else resolve(message);
    });
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the hashing worker stopped (exit code ${code})`)));
  });
  // Whoever awaits `digest` sees its failure; a loader that stopped early never awaits it.
  digest.catch(() => undefined);
  return {
    digest,
    stop: async () => {
      await worker.terminate();
    },
  };
}
