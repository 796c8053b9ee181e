import { createHash } from 'node:crypto';
import { mkdirSync, realpathSync, unlinkSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/**
 * The exclusive lock on a data directory: one process at a time may write it (the
 * service, or a writing command of the manage CLI). Held for the life of the process.
 *
 * Why a socket and not a lock file: Node.js has no flock/fcntl; a plain lock file
 * outlives a process killed with -9 (a stale lock, or a guess based on PIDs that may
 * have been reused); and the npm packages that wrap flock are native addons, built with
 * node-gyp at install (fs-ext) or shipped as prebuilt binaries with a runtime layer of
 * their own (fd-lock). Binding a listening Unix socket is atomic, only
 * one process can hold a name, and the kernel releases it when the process dies,
 * however it dies. On Linux the socket lives in the abstract namespace (no file at
 * all), named by a hash of the directory's real path; the holder answers each
 * connection with its PID, so a second process can say who holds the directory.
 *
 * Scope: abstract sockets belong to a network namespace, so the lock separates the
 * processes of one host (or one container). Two containers that mount the same data
 * directory each with a network namespace of their own do not see each other's lock:
 * run one container per data directory. On Windows the name is a named pipe (released
 * with its process too); on other systems a socket file in the temporary directory,
 * whose leftover after a crash is recognised by a refused connection and replaced.
 */

export interface LockHolder {
  pid: number;
  /** What holds it: "service", "manage create-token", ... */
  role: string;
  since: string;
  dir: string;
}

/** The data directory is locked by another process (or by another instance in this one). */
export class DataDirLockedError extends Error {
  constructor(
    readonly dir: string,
    readonly holder: LockHolder | null,
  ) {
    const who = holder
      ? `process ${holder.pid} (${holder.role}, since ${holder.since})`
      : 'another process (it did not say which; it may be busy or stopped)';
    super(`The data directory ${dir} is in use by ${who}: only one process may write it at a time.`);
  }
}

const ANSWER_TIMEOUT_MS = 2_000;

export class DataDirLock {
  private constructor(
    readonly dir: string,
    private readonly server: net.Server,
    private readonly socketFile: string | null,
  ) {}

  /** Takes the lock on `dir` (created if missing), or throws DataDirLockedError naming the holder. */
  static async acquire(dir: string, role: string): Promise<DataDirLock> {
    mkdirSync(dir, { recursive: true, mode: 0o700 }); // owner only, like everything in it
    const real = realpathSync(dir);
    const address = lockAddress(real);
    const holder: LockHolder = { pid: process.pid, role, since: new Date().toISOString(), dir: real };
    const server = net.createServer((socket) => {
      socket.on('error', () => undefined);
      socket.end(JSON.stringify(holder) + '\n');
    });
    // The lock must not keep a process alive that has nothing else to do.
    server.unref();
    for (let attempt = 0; ; attempt++) {
      const error = await listen(server, address);
      if (!error)
        return new DataDirLock(real, server, address.startsWith('\0') || process.platform === 'win32' ? null : address);
      if (error.code !== 'EADDRINUSE') throw error;
      const answer = await ask(address);
      if (answer === 'refused' && attempt === 0 && !address.startsWith('\0') && process.platform !== 'win32') {
        // A socket file left by a process that died: nobody listens on it any more.
        try {
          unlinkSync(address);
        } catch {
          // gone already
        }
        continue;
      }
      throw new DataDirLockedError(real, typeof answer === 'object' ? answer : null);
    }
  }

  /** Who holds the lock on `dir`, or null if nobody does (without taking it). */
  static async holder(dir: string): Promise<LockHolder | null | 'unknown'> {
    let real: string;
    try {
      real = realpathSync(dir);
    } catch {
      return null;
    }
    const answer = await ask(lockAddress(real));
    return answer === 'refused' ? null : answer === 'silent' ? 'unknown' : answer;
  }

  private released = false;

  /** Calls `listener` if the lock's socket closes or fails while it is held (never after release()). */
  onLost(listener: (error: Error) => void): void {
    let told = false;
    const lost = (error: Error) => {
      if (this.released || told) return;
      told = true;
      listener(error);
    };
    this.server.on('error', lost);
    this.server.on('close', () => lost(new Error(`the lock on ${this.dir} closed while it was held`)));
  }

  /** Gives the lock up (idempotent). */
  async release(): Promise<void> {
    this.released = true;
    if (!this.server.listening) return;
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    if (this.socketFile) {
      try {
        unlinkSync(this.socketFile);
      } catch {
        // gone already
      }
    }
  }
}

function lockAddress(realDir: string): string {
  const hash = createHash('sha256').update(realDir).digest('hex').slice(0, 32);
  if (process.platform === 'linux') return `\0netledger-data-dir-${hash}`;
  if (process.platform === 'win32') return `\\\\.\\pipe\\netledger-data-dir-${hash}`;
  return path.join(os.tmpdir(), `netledger-data-dir-${hash}.sock`);
}

function listen(server: net.Server, address: string): Promise<NodeJS.ErrnoException | null> {
  return new Promise((resolve) => {
    const onError = (error: NodeJS.ErrnoException) => resolve(error);
    server.once('error', onError);
    server.listen(address, () => {
      server.off('error', onError);
      resolve(null);
    });
  });
}

/** Connects to a lock's address: the holder's answer, 'refused' (nobody listens) or 'silent'. */
function ask(address: string): Promise<LockHolder | 'refused' | 'silent'> {
  return new Promise((resolve) => {
    let text = '';
    let settled = false;
    const done = (value: LockHolder | 'refused' | 'silent') => {
      if (settled) return;
      settled = true;
      socket.destroy();
      resolve(value);
    };
    const socket = net.connect(address);
    socket.setTimeout(ANSWER_TIMEOUT_MS, () => done('silent'));
    socket.on('data', (chunk) => {
      text += chunk.toString('utf8');
    });
    socket.on('end', () => {
      try {
        const holder = JSON.parse(text) as LockHolder;
        done(typeof holder?.pid === 'number' ? holder : 'silent');
      } catch {
        done('silent');
      }
    });
    socket.on('error', (error: NodeJS.ErrnoException) =>
      done(error.code === 'ECONNREFUSED' || error.code === 'ENOENT' ? 'refused' : 'silent'),
    );
  });
}
