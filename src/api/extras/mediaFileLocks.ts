/**
 * One stored file's operations, one at a time: storing it and claiming it for a write
 * (an upload offered to the write side) on one hand, deciding that nothing names it and
 * deleting it on the other. Files are named by their digest, so two uploads of the same
 * bytes share one file: without this, an upload could find the file present just before
 * a deletion it then outlives.
 */
const queues = new Map<string, Promise<unknown>>();

export async function withMediaFileLock<T>(directory: string, file: string, work: () => Promise<T>): Promise<T> {
  const key = `${directory}/${file}`;
  const previous = queues.get(key) ?? Promise.resolve();
  const run = previous.then(work, work);
  const settled = run.catch(() => undefined);
  queues.set(key, settled);
  try {
    return await run;
  } finally {
    if (queues.get(key) === settled) queues.delete(key);
  }
}
