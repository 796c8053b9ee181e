import { constants as fsConstants } from 'node:fs';

import { keepTailAside, type KeptAside } from './keepAside.js';
import { type LogFileSystem, nodeFileSystem } from './logFileSystem.js';
import { type LogScan, scanLog } from './logScan.js';

export interface RepairResult {
  readonly scan: LogScan;
  /** What was moved aside; null when the log had no damage. */
  readonly kept: KeptAside | null;
}

/**
 * The explicit repair of a damaged log (`npm run manage -- repair-log`): everything from
 * the first damaged frame to the end is moved into a side file (see keepTailAside), so
 * the log ends with its last intact frame before the damage and the service can start.
 * Intact frames after the damage go with it: their positions no longer continue the log.
 *
 * The caller must hold the data directory's lock (no service may be writing).
 */
export async function repairLog(
  file: string,
  fs: LogFileSystem = nodeFileSystem,
  now = new Date(),
): Promise<RepairResult> {
  const scan = await scanLog(file, fs);
  if (!scan.firstDamage) return { scan, kept: null };
  const handle = await fs.open(file, fsConstants.O_RDWR);
  try {
    if ((await handle.stat()).size !== scan.size)
      throw new Error(`${file} changed while it was being checked: is a service writing it?`);
    return { scan, kept: await keepTailAside(fs, handle, file, scan.firstDamage.offset, 'damaged', now) };
  } finally {
    await handle.close();
  }
}
