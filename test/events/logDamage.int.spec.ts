/**
 * A damaged log is never cut silently: only a torn tail (an interrupted last write) is
 * cut, logged and kept aside; damage anywhere else stops open() with the file, offset
 * and position, verify-log reports every damaged frame, and repair-log moves the
 * damaged part aside into a file instead of deleting it.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import test, { type ExecutionContext } from 'ava';

import { main } from '../../src/cli/manage.js';
import type { ChangeEvent } from '../../src/events/ChangeEvent.js';
import { EventLogCorruptError, FileEventLog } from '../../src/events/file/FileEventLog.js';
import { encodeFrame } from '../../src/events/file/frames.js';
import { scanLog } from '../../src/events/file/logScan.js';
import { repairLog } from '../../src/events/file/repairLog.js';
import { readAll } from '../support/eventLog.contract.js';
import { makeBatch } from '../support/makeEvent.js';

function tempDir(t: ExecutionContext): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nl-damage-'));
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A frame as FileEventLog writes it, for crafting files by hand. */
function frame(events: ChangeEvent[]): Buffer {
  return encodeFrame(JSON.stringify(events));
}

interface Written {
  file: string;
  batches: ChangeEvent[][];
  /** Byte offset of each batch's frame. */
  offsets: number[];
}

/** A log of `count` batches of 1-4 events, written by the log itself. */
async function writeLog(dir: string, count: number): Promise<Written> {
  const log = new FileEventLog({ dir, logger: () => {} });
  await log.open();
  const batches: ChangeEvent[][] = [];
  const offsets: number[] = [];
  let next = 1;
  let offset = 0;
  for (let i = 0; i < count; i++) {
    const batch = makeBatch(next, (i % 4) + 1);
    batches.push(batch);
    offsets.push(offset);
    offset += frame(batch).length;
    next += batch.length;
  }
  await Promise.all(batches.map((b) => log.append(b)));
  await log.close();
  return { file: log.file, batches, offsets };
}

function flipByte(file: string, at: number): void {
  const fd = fs.openSync(file, 'r+');
  const byte = Buffer.alloc(1);
  fs.readSync(fd, byte, 0, 1, at);
  byte[0] = byte[0]! ^ 0x20;
  fs.writeSync(fd, byte, 0, 1, at);
  fs.closeSync(fd);
}

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return {
    io: { out: (s: string) => void out.push(s), err: (s: string) => void err.push(s) },
    out: () => out.join(''),
    err: () => err.join(''),
  };
}

/** Files beside the log whose name says why bytes were cut. */
function sideFiles(dir: string, kind: string): string[] {
  return fs
    .readdirSync(dir)
    .filter((name) => name.startsWith(`events.log.${kind}-`))
    .map((name) => path.join(dir, name));
}

test('one flipped byte in the middle of the log stops open() with file, offset and position, and cuts nothing', async (t) => {
  const dir = tempDir(t);
  const { file, batches, offsets } = await writeLog(dir, 3000);
  const middle = 1500;
  flipByte(file, offsets[middle]! + 8 + 30); // inside the payload of the middle frame
  const before = fs.readFileSync(file);
  const position = batches[middle]![0]!.position;

  const err = await t.throwsAsync(new FileEventLog({ dir, logger: () => {} }).open(), {
    instanceOf: EventLogCorruptError,
  });
  t.true(
    err!.message.startsWith(
      `${file}: bad frame at byte offset ${offsets[middle]}, where position ${position} should start`,
    ),
    err!.message,
  );
  t.regex(err!.message, /npm run manage -- verify-log/);
  t.regex(err!.message, /npm run manage -- repair-log/);
  t.true(fs.readFileSync(file).equals(before), 'not one byte cut');
  t.deepEqual(sideFiles(dir, 'torn'), []);
});

test('verify-log reports every damaged frame, changes nothing, and exits 1 for a corrupt log', async (t) => {
  const dir = tempDir(t);
  const { file, batches, offsets } = await writeLog(dir, 400);
  flipByte(file, offsets[100]! + 2); // the length field: the frame boundary is lost
  flipByte(file, offsets[300]! + 8 + 50); // a payload byte: CRC mismatch
  const before = fs.readFileSync(file);

  const scan = await scanLog(file);
  t.is(scan.verdict, 'corrupt');
  const damaged = scan.segments.filter((s) => s.kind === 'damaged');
  t.deepEqual(
    damaged.map((d) => [d.offset, d.end]),
    [
      [offsets[100], offsets[101]],
      [offsets[300], offsets[301]],
    ],
  );
  t.is(scan.head, batches[99]!.at(-1)!.position);
  const intact = scan.segments.filter((s) => s.kind === 'intact');
  t.deepEqual(
    intact.map((s) => s.kind === 'intact' && [s.firstPosition, s.lastPosition]),
    [
      [1, batches[99]!.at(-1)!.position],
      [batches[101]![0]!.position, batches[299]!.at(-1)!.position],
      [batches[301]![0]!.position, batches[399]!.at(-1)!.position],
    ],
  );

  const cli = capture();
  t.is(await main(['verify-log'], { DATA_DIR: dir }, cli.io), 1);
  const n = (v: number) => String(v);
  t.regex(cli.out(), new RegExp(`bytes ${n(offsets[100]!)}\\.\\.${n(offsets[101]!)}: BAD`));
  t.regex(
    cli.out(),
    new RegExp(`bytes ${n(offsets[300]!)}\\.\\.${n(offsets[301]!)}: BAD \\(\\d+ bytes\\): frame CRC mismatch`),
  );
  t.regex(cli.out(), /CORRUPT/);
  t.true(fs.readFileSync(file).equals(before), 'verify-log changes nothing');

  const clean = tempDir(t);
  await writeLog(clean, 10);
  const ok = capture();
  t.is(await main(['verify-log'], { DATA_DIR: clean }, ok.io), 0);
  t.regex(ok.out(), /OK: no damage/);
});

test('repair-log moves the damaged tail into a side file (asking first), then the log opens with the events before it', async (t) => {
  const dir = tempDir(t);
  const { file, batches, offsets } = await writeLog(dir, 600);
  flipByte(file, offsets[400]! + 8 + 10);
  const original = fs.readFileSync(file);

  const dry = capture();
  t.is(await main(['repair-log'], { DATA_DIR: dir }, dry.io), 1);
  t.regex(dry.out(), /repair-log --yes/);
  t.true(fs.readFileSync(file).equals(original), 'without --yes nothing changes');

  const run = capture();
  t.is(await main(['repair-log', '--yes'], { DATA_DIR: dir }, run.io), 0, run.err());
  const [kept] = sideFiles(dir, 'damaged');
  t.truthy(kept);
  t.regex(path.basename(kept!), new RegExp(`^events\\.log\\.damaged-\\d{8}T\\d{9}Z-at-${offsets[400]}$`));
  t.true(fs.readFileSync(kept!).equals(original.subarray(offsets[400]!)), 'the side file holds exactly the bytes cut');
  t.true(
    fs.readFileSync(file).equals(original.subarray(0, offsets[400]!)),
    'the log keeps everything before the damage',
  );
  const logged = JSON.parse(run.err().trim().split('\n').at(-1)!);
  t.like(logged, {
    level: 'warn',
    offset: offsets[400],
    bytes: original.length - offsets[400]!,
    position: batches[400]![0]!.position,
    keptIn: kept,
  });

  const log = new FileEventLog({ dir, logger: () => {} });
  await log.open();
  t.teardown(() => log.close());
  t.is(log.head(), batches[399]!.at(-1)!.position);
  t.deepEqual(await readAll(log, 1), batches.slice(0, 400));
  t.is((await scanLog(file)).verdict, 'clean');
});

test('a CRC-valid frame whose positions do not continue the log is damage too; repair cuts from it', async (t) => {
  const dir = tempDir(t);
  const file = path.join(dir, 'events.log');
  const bytes = Buffer.concat([frame(makeBatch(1, 2)), frame(makeBatch(4, 1)), frame(makeBatch(5, 1))]);
  fs.writeFileSync(file, bytes);
  const scan = await scanLog(file);
  t.is(scan.verdict, 'corrupt');
  t.like(scan.firstDamage, { offset: frame(makeBatch(1, 2)).length, reason: 'positions jump from 2 to 4' });
  const { kept } = await repairLog(file);
  t.is(kept!.offset, scan.firstDamage!.offset);
  t.is(fs.statSync(file).size, scan.firstDamage!.offset);
});

test('a torn tail is cut on open, logged with its byte count and position, and kept in a side file', async (t) => {
  const dir = tempDir(t);
  const { file, batches } = await writeLog(dir, 20);
  const size = fs.statSync(file).size;
  const next = batches.at(-1)!.at(-1)!.position + 1;
  const half = frame(makeBatch(next, 3));
  const torn = half.subarray(0, Math.floor(half.length / 2));
  fs.appendFileSync(file, torn);
  t.is((await scanLog(file)).verdict, 'torn-tail');

  const logged: Record<string, unknown>[] = [];
  const log = new FileEventLog({ dir, logger: (entry) => logged.push(entry) });
  await log.open();
  t.teardown(() => log.close());
  t.is(log.head(), next - 1);
  t.is(fs.statSync(file).size, size);
  t.is(log.stats.truncatedBytes, torn.length);
  const [kept] = sideFiles(dir, 'torn');
  t.true(fs.readFileSync(kept!).equals(torn));
  t.is(logged.length, 1);
  t.like(logged[0], { level: 'warn', file, offset: size, bytes: torn.length, position: next, keptIn: kept });
  t.regex(String(logged[0]!.msg), new RegExp(`cut ${torn.length} bytes at byte offset ${size} \\(torn tail`));
  t.deepEqual(await readAll(log, 1), batches);
});

test('damage followed by a frame larger than the search window is still found (not taken for a torn tail)', async (t) => {
  const dir = tempDir(t);
  const file = path.join(dir, 'events.log');
  const first = frame(makeBatch(1, 1));
  const bad = frame(makeBatch(2, 1));
  bad.writeUInt32LE(0xffffffff, 0); // an impossible length: the boundary to the next frame is lost
  const big = makeBatch(3, 1);
  big[0]!.postchange = { ...big[0]!.postchange, comments: 'x'.repeat(6 * 1024 * 1024) };
  // Padding so that the big frame's header straddles the 4 MiB search window.
  const pad = Buffer.alloc(4 * 1024 * 1024 - first.length - bad.length - 4, 0x41);
  fs.writeFileSync(file, Buffer.concat([first, bad, pad, frame(big)]));
  const scan = await scanLog(file);
  t.is(scan.verdict, 'corrupt');
  t.deepEqual(
    scan.segments.map((s) => [s.kind, s.offset]),
    [
      ['intact', 0],
      ['damaged', first.length],
      ['intact', first.length + bad.length + pad.length],
    ],
  );
  await t.throwsAsync(new FileEventLog({ dir, logger: () => {} }).open(), {
    instanceOf: EventLogCorruptError,
    message: /followed by an intact frame/,
  });
});

test('export and rebuild refuse a damaged log instead of reading it only up to the damage', async (t) => {
  const dir = tempDir(t);
  const { file, offsets } = await writeLog(dir, 50);
  flipByte(file, offsets[20]! + 8 + 10);
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dir, SECRET_KEY: 'damage-secret' };
  delete env.KAFKA_BROKERS;
  delete env.MONGODB_URL;
  for (const command of ['export', 'rebuild']) {
    const cli = capture();
    t.is(await main([command], env, cli.io), 1, command);
    t.regex(cli.err(), /the event log is damaged; it would be read only up to position \d+/, command);
    t.regex(cli.err(), /CORRUPT: damage at byte/, command);
    t.is(cli.out(), '', `${command} wrote nothing`);
  }
});
