import { type LogFileHandle, type LogFileSystem, nodeFileSystem } from '../../src/events/file/logFileSystem.js';

/** An error as node:fs raises it for a failed system call. */
export function errnoError(code: 'ENOSPC' | 'EIO' | 'EDQUOT' | 'EBADF', syscall: string): NodeJS.ErrnoException {
  const text = {
    ENOSPC: 'no space left on device',
    EIO: 'i/o error',
    EDQUOT: 'disk quota exceeded',
    EBADF: 'bad file descriptor',
  }[code];
  return Object.assign(new Error(`${code}: ${text}, ${syscall}`), { code, syscall, errno: -1 });
}

/**
 * The real file system with a disk that can fill up: while `free` is a number, writes
 * (to any file: the log, a side file, the probe) take at most that many more bytes in
 * all, as a full disk does (a short write, then ENOSPC), and `syncError` makes fsyncs
 * fail. `free = null` and `syncError = null` are a healthy disk again.
 */
export class FaultyFileSystem implements LogFileSystem {
  free: number | null = null;
  syncError: 'EIO' | 'ENOSPC' | 'EBADF' | null = null;
  /** Failed write and fsync calls so far. */
  failures = 0;

  async open(path: string, flags: string | number, mode?: number): Promise<LogFileHandle> {
    const handle = await nodeFileSystem.open(path, flags, mode);
    const fs = this;
    return {
      read: (buffer, offset, length, position) => handle.read(buffer, offset, length, position),
      async write(buffer, offset, length, position) {
        if (fs.free !== null) {
          if (fs.free === 0) {
            fs.failures++;
            throw errnoError('ENOSPC', 'write');
          }
          length = Math.min(length, fs.free);
          fs.free -= length;
        }
        return handle.write(buffer, offset, length, position);
      },
      async datasync() {
        if (fs.syncError) {
          fs.failures++;
          throw errnoError(fs.syncError, 'fdatasync');
        }
        return handle.datasync();
      },
      async sync() {
        if (fs.syncError) {
          fs.failures++;
          throw errnoError(fs.syncError, 'fsync');
        }
        return handle.sync();
      },
      truncate: (length) => handle.truncate(length),
      stat: () => handle.stat(),
      close: () => handle.close(),
    };
  }

  mkdir(path: string): Promise<void> {
    return nodeFileSystem.mkdir(path);
  }

  unlink(path: string): Promise<void> {
    return nodeFileSystem.unlink(path);
  }
}
