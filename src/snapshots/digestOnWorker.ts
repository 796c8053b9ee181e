/**
 * The SHA-256 of a byte range of an open file, computed on a worker thread (a range under
 * 1 MiB: here, at once, as a worker costs more to start than that takes): a loader
 * decodes the body on the main thread meanwhile (start-up, bench/startup.bench.ts: the
 * hash is ~10% of a read-model snapshot's load) and adopts what it decoded only once
 * the digest came back equal to the header's.
 *
 * The worker reads the same file descriptor as the loader (threads share the process's
 * descriptors), so both read the same file even if a newer snapshot is renamed over its
 * name meanwhile; a snapshot file is never written again once renamed into place
 * (writeSnapshot), so the two reads see the same bytes.
 *
 * It is plain CommonJS evaluated as is (`execArgv: []`: no TypeScript
 * loader to start in it), reading with synchronous calls, so `stop` ends it between two
 * reads and the descriptor can then be closed safely.
 */
import { createHash } from 'node:crypto';
import { readSync } from 'node:fs';
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

/** Below this many bytes a worker's start costs more than the hashing it takes off: hashed here. */
const WORKER_FROM_BYTES = 1 << 20;

/** Starts hashing `bytes` bytes of `fd` from `start`. */
export function digestOnWorker(fd: number, start: number, bytes: number): DigestOnWorker {
  if (bytes < WORKER_FROM_BYTES) {
    const buffer = Buffer.allocUnsafe(bytes);
    let done = 0;
    for (let n = 1; done < bytes && n > 0; done += n) n = readSync(fd, buffer, done, bytes - done, start + done);
    const sha256 = createHash('sha256').update(buffer.subarray(0, done)).digest('hex');
    return { digest: Promise.resolve({ bytes: done, sha256 }), stop: async () => {} };
  }
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
