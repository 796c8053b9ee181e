import { mkdir, open, unlink } from 'node:fs/promises';

/**
 * The file-system calls the embedded event log makes, as a port: production uses
 * node:fs; tests put a wrapper in between that fails a write with ENOSPC or EIO
 * (part-way, as a full disk does) to prove the log and the writer recover from it.
 */
export interface LogFileHandle {
  read(buffer: Buffer, offset: number, length: number, position: number): Promise<{ bytesRead: number }>;
  write(buffer: Buffer, offset: number, length: number, position: number): Promise<{ bytesWritten: number }>;
  datasync(): Promise<void>;
  sync(): Promise<void>;
  truncate(length: number): Promise<void>;
  stat(): Promise<{ size: number }>;
  close(): Promise<void>;
}

export interface LogFileSystem {
  open(path: string, flags: string | number, mode?: number): Promise<LogFileHandle>;
  mkdir(path: string): Promise<void>;
  unlink(path: string): Promise<void>;
}

export const nodeFileSystem: LogFileSystem = {
  open: (path, flags, mode) => open(path, flags, mode),
  mkdir: async (path) => {
    await mkdir(path, { recursive: true, mode: 0o700 });
  },
  unlink: (path) => unlink(path),
};

/**
 * Errors that say the storage cannot take more data for now (full disk or quota) or
 * failed an I/O: the log stays consistent (it cuts its own failed append) and writing
 * can resume once an operator frees space or the device recovers. Anything else
 * (a bad descriptor, a permission taken away mid-run) is treated as a bug: fail-stop.
 */
const STORAGE_FAILURE_CODES = new Set(['ENOSPC', 'EDQUOT', 'EIO']);

export function isStorageFailure(error: unknown): error is NodeJS.ErrnoException {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return typeof code === 'string' && STORAGE_FAILURE_CODES.has(code);
}

/** Makes a new or renamed directory entry durable (a no-op where directories cannot be fsynced). */
export async function syncDir(fs: LogFileSystem, dir: string): Promise<void> {
  let handle: LogFileHandle | null = null;
  try {
    handle = await fs.open(dir, 'r');
    await handle.sync();
  } catch {
    // Not supported everywhere (e.g. Windows); the files' data is still fsynced.
  } finally {
    await handle?.close().catch(() => undefined);
  }
}
