/**
 * A child process for the lock tests: takes the data directory's lock on argv[2], says
 * so on stdout (one JSON line with its PID), then waits until it is killed.
 */
import { DataDirLock } from '../../src/events/DataDirLock.js';

const dir = process.argv[2];
if (!dir) throw new Error('usage: holdDataDirLock.ts <dir>');
await DataDirLock.acquire(dir, 'test holder');
process.stdout.write(JSON.stringify({ pid: process.pid }) + '\n');
setInterval(() => {}, 1 << 30); // stay alive (the lock's socket does not keep the process alive by itself)
