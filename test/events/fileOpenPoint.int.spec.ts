import * as fs from 'node:fs';
import * as path from 'node:path';

import type { ChangeEvent } from '../../src/events/ChangeEvent.js';
import { EventLogCorruptError, FileEventLog } from '../../src/events/file/FileEventLog.js';
import { FramePositionsError } from '../../src/events/file/FramePositions.js';
import { OPEN_POINT_PART } from '../../src/events/file/openPoint.js';
import { listSnapshots } from '../../src/snapshots/SnapshotFile.js';
import { eventLogContract, readAll, reopenable } from '../support/eventLog.contract.js';
import { makeBatch } from '../support/makeEvent.js';
import { tempDir, withTempDir as withDir } from '../support/tempDirs.js';

interface Opened {
  log: FileEventLog;
  warnings: string[];
}

async function openLog(dir: string, options: { everyEvents?: number; verifyAll?: boolean } = {}): Promise<Opened> {
  const warnings: string[] = [];
  const log = new FileEventLog({
    dir,
    logger: (entry) => warnings.push(String(entry.msg)),
    openPoints: {
      dir: path.join(dir, 'snapshots'),
      everyEvents: options.everyEvents ?? 10,
      keep: 3,
      verifyAll: options.verifyAll,
    },
  });
  await log.open();
  return { log, warnings };
}

/** `count` batches of 1–3 events from position 1. */
function batches(count: number): ChangeEvent[][] {
  const out: ChangeEvent[][] = [];
  let position = 1;
  for (let i = 0; i < count; i++) {
    const size = (i % 3) + 1;
    out.push(makeBatch(position, size));
    position += size;
  }
  return out;
}

/** A log of `written` batches whose open points were persisted as it grew; returns the newest point's position. */
async function logWithPoints(dir: string, written: ChangeEvent[][]): Promise<number> {
  const { log } = await openLog(dir);
  for (const batch of written) await log.append(batch);
  await log.close();
  const points = await listSnapshots(path.join(dir, 'snapshots'), OPEN_POINT_PART);
  if (points.length === 0) throw new Error('no open point was persisted');
  return points[0]!.position;
}

// The port's whole contract holds when opens start from persisted points (one every 3 events here).
eventLogContract('FileEventLog with open points', async () => {
  const dir = tempDir();
  return reopenable(
    async () => (await openLog(dir, { everyEvents: 3 })).log,
    async () => fs.rmSync(dir, { recursive: true, force: true }),
  );
});

withDir('open after a persisted point reads only the frames after it, and serves the whole log', async (t, dir) => {
  const written = batches(30);
  const point = await logWithPoints(dir, written);
  const head = written.flat().length;
  t.true(point > 1 && point <= head);
  const framesAfter = written.filter((b) => b[0]!.position > point).length;

  const { log, warnings } = await openLog(dir, { everyEvents: 1000 });
  t.deepEqual(warnings, []);
  t.is(log.head(), head);
  t.like(log.openStats, { fromPosition: point + 1, framesScanned: framesAfter });
  t.true(log.openStats!.framesScanned < written.length);
  // Everything before the point is still served: in order, and by position (the frame table came from the point).
  t.deepEqual(await readAll(log, 1), written);
  const positions = [1, 2, point, head, Math.floor(point / 2)];
  t.deepEqual(
    (await log.readPositions(positions)).map((e) => e.position),
    positions,
  );
  const more = makeBatch(head + 1, 2);
  await log.append(more);
  t.is(log.head(), head + 2);
  await log.close();

  const full = await openLog(dir, { everyEvents: 1000, verifyAll: true });
  t.like(
    full.log.openStats,
    { fromOffset: 0, fromPosition: 1, framesScanned: written.length + 1 },
    'VERIFY: the whole file is read',
  );
  await full.log.close();
});

withDir('a torn tail after the persisted point is still cut', async (t, dir) => {
  const written = batches(20);
  const point = await logWithPoints(dir, written);
  const file = path.join(dir, 'events.log');
  const goodSize = fs.statSync(file).size;
  const partial = Buffer.alloc(18, 0x61);
  partial.writeUInt32LE(100, 0);
  partial.writeUInt32LE(12345, 4);
  fs.appendFileSync(file, partial);

  const { log, warnings } = await openLog(dir, { everyEvents: 1000 });
  t.true(log.openStats!.fromPosition > 1, `opened from position ${log.openStats!.fromPosition}, point ${point}`);
  t.is(log.head(), written.flat().length);
  t.is(fs.statSync(file).size, goodSize);
  t.is(log.stats.truncatedBytes, 18);
  t.regex(warnings.join('\n'), /cut 18 bytes/);
  t.deepEqual(await readAll(log, 1), written);
  await log.close();
});

withDir(
  'a bad frame after the persisted point followed by an intact one is still refused as damage',
  async (t, dir) => {
    const written = batches(20);
    await logWithPoints(dir, written);
    const file = path.join(dir, 'events.log');
    const { log } = await openLog(dir, { everyEvents: 1000 });
    const fromOffset = log.openStats!.fromOffset;
    await log.append(makeBatch(log.head() + 1, 1));
    await log.append(makeBatch(log.head() + 1, 1));
    await log.close();
    const bytes = fs.readFileSync(file);
    bytes[fromOffset + 20] ^= 0xff; // inside the first frame after the point
    fs.writeFileSync(file, bytes);
    const error = await t.throwsAsync(openLog(dir, { everyEvents: 1000 }), { instanceOf: EventLogCorruptError });
    t.regex(error!.message, /followed by an intact frame/);
  },
);

withDir('damage before the persisted point is not read at open but found when the frame is read', async (t, dir) => {
  const written = batches(20);
  const point = await logWithPoints(dir, written);
  const file = path.join(dir, 'events.log');
  const bytes = fs.readFileSync(file);
  bytes[20] ^= 0xff; // inside the first frame (positions 1..1)
  fs.writeFileSync(file, bytes);

  const { log } = await openLog(dir, { everyEvents: 1000 });
  t.is(log.openStats!.fromPosition, point + 1);
  await t.throwsAsync(log.readPositions([1]), { instanceOf: FramePositionsError, message: /CRC/ });
  await t.throwsAsync(readAll(log, 1), { instanceOf: EventLogCorruptError });
  await log.close();
  await t.throwsAsync(
    openLog(dir, { verifyAll: true }),
    { instanceOf: EventLogCorruptError },
    'a full scan finds it at open',
  );
});

withDir('a persisted point that does not match the file is ignored: log replaced, log truncated', async (t, dir) => {
  const written = batches(30);
  await logWithPoints(dir, written);
  const file = path.join(dir, 'events.log');
  const original = fs.readFileSync(file);

  // Replaced by another log of the same shape: the event ids at the point differ.
  const otherDir = tempDir();
  t.teardown(() => fs.rmSync(otherDir, { recursive: true, force: true }));
  const other = new FileEventLog({ dir: otherDir, logger: () => {} });
  await other.open();
  const otherBatches = written.map((b) => makeBatch(b[0]!.position, b.length));
  for (const batch of otherBatches) await other.append(batch);
  await other.close();
  fs.copyFileSync(path.join(otherDir, 'events.log'), file);
  let opened = await openLog(dir, { everyEvents: 1000 });
  t.like(opened.log.openStats, { fromOffset: 0, framesScanned: written.length });
  t.regex(opened.warnings.join('\n'), /not the one recorded/);
  t.deepEqual(await readAll(opened.log, 1), otherBatches);
  await opened.log.close();

  // Truncated at a frame boundary before the points (as repair-log or a restore from an older backup leaves it).
  fs.writeFileSync(file, original);
  const firstFrames = written.slice(0, 3);
  const cut = firstFrames.reduce((bytes, b) => bytes + 8 + Buffer.byteLength(JSON.stringify(b)), 0);
  fs.truncateSync(file, cut);
  opened = await openLog(dir, { everyEvents: 1000 });
  t.like(opened.log.openStats, { fromOffset: 0, framesScanned: 3 });
  t.regex(opened.warnings.join('\n'), /shorter than/);
  t.is(opened.log.head(), firstFrames.flat().length);
  t.deepEqual(await readAll(opened.log, 1), firstFrames);
  await opened.log.close();

  // A damaged point file: skipped as well.
  fs.writeFileSync(file, original);
  const points = await listSnapshots(path.join(dir, 'snapshots'), OPEN_POINT_PART);
  for (const { file: snapshot } of points) {
    const body = fs.readFileSync(snapshot);
    body[body.length - 1] ^= 0xff;
    fs.writeFileSync(snapshot, body);
  }
  opened = await openLog(dir, { everyEvents: 1000 });
  t.like(opened.log.openStats, { fromOffset: 0, framesScanned: written.length });
  t.regex(opened.warnings.join('\n'), /checksum/);
  await opened.log.close();
});
