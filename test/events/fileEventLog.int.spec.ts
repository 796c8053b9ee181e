import * as fs from 'node:fs';
import * as path from 'node:path';

import test from 'ava';

import type { ChangeEvent } from '../../src/events/ChangeEvent.js';
import { crc32, crc32Js } from '../../src/events/crc32.js';
import { EventLogCorruptError, FileEventLog } from '../../src/events/file/FileEventLog.js';
import { encodeFrame } from '../../src/events/file/frames.js';
import { eventLogContract, readAll, reopenable, waitFor } from '../support/eventLog.contract.js';
import { makeBatch, makeEvent } from '../support/makeEvent.js';
import { removeDir, tempDir, withTempDir as withDir } from '../support/tempDirs.js';

async function openLog(dir: string): Promise<FileEventLog> {
  const log = new FileEventLog({ dir });
  await log.open();
  return log;
}

/** A frame as FileEventLog writes it, for crafting files by hand. */
function frame(events: ChangeEvent[]): Buffer {
  return encodeFrame(JSON.stringify(events));
}

eventLogContract('FileEventLog', async () => {
  const dir = tempDir();
  return reopenable(
    () => openLog(dir),
    async () => removeDir(dir),
  );
});

test('crc32 matches the IEEE check value, natively and in JS', (t) => {
  const check = Buffer.from('123456789');
  t.is(crc32(check), 0xcbf43926);
  t.is(crc32Js(check), 0xcbf43926);
  t.is(crc32Js(new Uint8Array(0)), 0);
  const random = Buffer.alloc(10_007);
  for (let i = 0; i < random.length; i++) random[i] = (i * 7919 + 13) & 0xff;
  t.is(crc32Js(random), crc32(random));
  t.is(crc32Js(random.subarray(5000), crc32Js(random.subarray(0, 5000))), crc32(random));
});

withDir('the log lives in <dir>/events.log with length+CRC framed JSON batches', async (t, dir) => {
  const nested = path.join(dir, 'a', 'b');
  const log = await openLog(nested);
  const b1 = makeBatch(1, 2);
  const b2 = makeBatch(3, 1);
  await log.append(b1);
  await log.append(b2);
  await log.close();
  t.deepEqual(fs.readFileSync(path.join(nested, 'events.log')), Buffer.concat([frame(b1), frame(b2)]));
});

withDir(
  'torn tail: garbage after the last complete frame is cut off on open and appending continues',
  async (t, dir) => {
    let log = await openLog(dir);
    const batches = [makeBatch(1, 2), makeBatch(3, 3), makeBatch(6, 1)];
    for (const b of batches) await log.append(b);
    await log.close();
    const file = path.join(dir, 'events.log');
    const goodSize = fs.statSync(file).size;
    // A frame header promising 100 bytes followed by only 10 of them.
    const partial = Buffer.alloc(18, 0x61);
    partial.writeUInt32LE(100, 0);
    partial.writeUInt32LE(12345, 4);
    fs.appendFileSync(file, partial);

    log = await openLog(dir);
    t.is(log.head(), 6);
    t.is(fs.statSync(file).size, goodSize);
    t.is(log.stats.truncatedBytes, 18);
    t.deepEqual(await readAll(log, 1), batches);
    const more = makeBatch(7, 2);
    await log.append(more);
    await log.close();

    log = await openLog(dir);
    t.is(log.head(), 8);
    t.deepEqual(await readAll(log, 1), [...batches, more]);
    t.is(log.stats.truncatedBytes, 0);
    await log.close();
  },
);

withDir('torn tail: a file cut in the middle of the last frame loses only that batch', async (t, dir) => {
  let log = await openLog(dir);
  const batches = [makeBatch(1, 2), makeBatch(3, 3), makeBatch(6, 4)];
  await log.append(batches[0]!);
  await log.append(batches[1]!);
  const sizeAfterTwo = fs.statSync(log.file).size;
  await log.append(batches[2]!);
  await log.close();
  const file = path.join(dir, 'events.log');
  for (const cut of [fs.statSync(file).size - 5, sizeAfterTwo + 3]) {
    fs.truncateSync(file, cut);
    log = await openLog(dir);
    t.is(log.head(), 5);
    t.is(fs.statSync(file).size, sizeAfterTwo);
    t.deepEqual(await readAll(log, 1), batches.slice(0, 2));
    await log.append(batches[2]!);
    t.is(log.head(), 9);
    await log.close();
  }
});

withDir('a CRC mismatch in the last frame truncates it', async (t, dir) => {
  let log = await openLog(dir);
  const batches = [makeBatch(1, 2), makeBatch(3, 3), makeBatch(6, 2)];
  await log.append(batches[0]!);
  await log.append(batches[1]!);
  const sizeAfterTwo = fs.statSync(log.file).size;
  await log.append(batches[2]!);
  await log.close();
  const file = path.join(dir, 'events.log');
  const bytes = fs.readFileSync(file);
  const at = sizeAfterTwo + 8 + 40; // inside the last payload
  bytes[at] = bytes[at]! ^ 0x01;
  fs.writeFileSync(file, bytes);

  log = await openLog(dir);
  t.is(log.head(), 5);
  t.is(fs.statSync(file).size, sizeAfterTwo);
  t.deepEqual(await readAll(log, 1), batches.slice(0, 2));
  await log.close();
});

withDir('a zero-filled tail (extended file, data never written) is truncated', async (t, dir) => {
  let log = await openLog(dir);
  await log.append(makeBatch(1, 3));
  await log.close();
  const file = path.join(dir, 'events.log');
  const size = fs.statSync(file).size;
  fs.appendFileSync(file, Buffer.alloc(4096));
  log = await openLog(dir);
  t.is(log.head(), 3);
  t.is(fs.statSync(file).size, size);
  await log.close();
});

withDir(
  'a bad frame followed by an intact one is damage, not a torn tail: open refuses and cuts nothing',
  async (t, dir) => {
    const file = path.join(dir, 'events.log');
    const good = frame(makeBatch(1, 2));
    const bad = frame(makeBatch(3, 1));
    bad[20] = bad[20]! ^ 0xff;
    const bytes = Buffer.concat([good, bad, frame(makeBatch(4, 1))]);
    fs.writeFileSync(file, bytes);
    const err = await t.throwsAsync(new FileEventLog({ dir }).open(), { instanceOf: EventLogCorruptError });
    t.true(
      err!.message.startsWith(
        `${file}: bad frame at byte offset ${good.length}, where position 3 should start (frame CRC mismatch)`,
      ),
      err!.message,
    );
    t.regex(err!.message, new RegExp(`followed by an intact frame at byte offset ${good.length + bad.length}`));
    t.regex(err!.message, /npm run manage -- verify-log/);
    t.regex(err!.message, /npm run manage -- repair-log/);
    t.deepEqual(fs.readFileSync(file), bytes);
  },
);

withDir('a bad frame further from the end than any torn write could be is refused, not truncated', async (t, dir) => {
  const file = path.join(dir, 'events.log');
  const good = frame(makeBatch(1, 2));
  fs.writeFileSync(file, good);
  fs.truncateSync(file, good.length + 300 * 1024 * 1024); // sparse: 300 MiB of zeros
  const size = fs.statSync(file).size;
  await t.throwsAsync(new FileEventLog({ dir }).open(), {
    instanceOf: EventLogCorruptError,
    message: /more than an interrupted write can leave/,
  });
  t.is(fs.statSync(file).size, size);
});

withDir('a position gap between CRC-valid frames is corruption: open throws and truncates nothing', async (t, dir) => {
  const file = path.join(dir, 'events.log');
  const bytes = Buffer.concat([frame(makeBatch(1, 2)), frame(makeBatch(4, 1)), frame(makeBatch(5, 1))]);
  fs.writeFileSync(file, bytes);
  const log = new FileEventLog({ dir });
  const err = await t.throwsAsync(log.open(), { instanceOf: EventLogCorruptError });
  t.regex(err!.message, /expected position 3, found 4/);
  t.deepEqual(fs.readFileSync(file), bytes);
  await t.throwsAsync(log.append([makeEvent(3)]));
});

withDir('a log that does not start at position 1 is corruption', async (t, dir) => {
  fs.writeFileSync(path.join(dir, 'events.log'), frame(makeBatch(2, 2)));
  await t.throwsAsync(new FileEventLog({ dir }).open(), { instanceOf: EventLogCorruptError });
});

withDir('group commit: 200 concurrent appends need far fewer fsyncs and all resolve in call order', async (t, dir) => {
  const log = await openLog(dir);
  const resolved: number[] = [];
  const calls: Promise<void>[] = [];
  for (let i = 1; i <= 200; i++) calls.push(log.append([makeEvent(i)]).then(() => void resolved.push(i)));
  t.is(log.head(), 0, 'nothing is visible before the fsync');
  await Promise.all(calls);
  t.deepEqual(
    resolved,
    Array.from({ length: 200 }, (_, i) => i + 1),
  );
  t.is(log.head(), 200);
  t.is(log.stats.appends, 200);
  t.true(log.stats.syncs <= 10, `syncs: ${log.stats.syncs}`);

  // Appends arriving (over many ticks) while a write+fsync is in flight are queued and
  // committed together by the next round: hold the first fdatasync open to make sure.
  const fh = (log as unknown as { fh: { datasync: () => Promise<void> } }).fh;
  const datasync = fh.datasync.bind(fh);
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let inFlight = false;
  fh.datasync = async () => {
    if (!inFlight) {
      inFlight = true;
      await gate;
    }
    return datasync();
  };
  const before = log.stats.syncs;
  const trickle: Promise<void>[] = [log.append([makeEvent(201)])];
  await waitFor(() => inFlight);
  for (let i = 202; i <= 300; i++) {
    await new Promise((resolve) => setImmediate(resolve));
    trickle.push(log.append([makeEvent(i)]));
  }
  t.is(log.head(), 200, 'nothing is acknowledged while the fsync is in flight');
  release();
  await Promise.all(trickle);
  t.is(log.stats.syncs - before, 2, 'one round for 201, one for the 99 that queued behind it');
  t.is(log.head(), 300);
  await log.close();
  const again = await openLog(dir);
  t.is(again.head(), 300);
  t.is((await readAll(again, 1)).length, 300);
  await again.close();
});

withDir('a rejected append (bad position) leaves the file untouched', async (t, dir) => {
  const log = await openLog(dir);
  await log.append(makeBatch(1, 3));
  const before = fs.readFileSync(log.file);
  await t.throwsAsync(log.append([makeEvent(5)]), { message: /expected 4, got 5/ });
  await t.throwsAsync(log.append([{ ...makeEvent(4), objectId: -1 }]));
  await new Promise((resolve) => setTimeout(resolve, 20));
  t.deepEqual(fs.readFileSync(log.file), before);
  t.is(log.stats.syncs, 1);
  await log.close();
});

withDir('positions continue from queued (not yet durable) appends', async (t, dir) => {
  const log = await openLog(dir);
  const a = log.append(makeBatch(1, 2));
  const b = log.append(makeBatch(3, 2)); // head() is still 0 here, but 3 continues the queue
  await t.throwsAsync(log.append(makeBatch(1, 1)));
  await Promise.all([a, b]);
  t.is(log.head(), 4);
  await log.close();
});

withDir('fail-stop: a failed fsync rejects the affected appends and every later one', async (t, dir) => {
  const log = await openLog(dir);
  await log.append(makeBatch(1, 1));
  const fh = (log as unknown as { fh: { datasync: () => Promise<void> } }).fh;
  fh.datasync = async () => {
    throw new Error('EIO: simulated');
  };
  const first = log.append(makeBatch(2, 1));
  const queued = log.append(makeBatch(3, 1));
  await t.throwsAsync(first, { message: /EIO: simulated/ });
  await t.throwsAsync(queued, { message: /EIO: simulated/ });
  t.is(log.head(), 1);
  await t.throwsAsync(log.append(makeBatch(2, 1)), { message: /refuses/ });
  await log.close();

  // The restart recovers: the unacknowledged frame may or may not be there.
  const again = await openLog(dir);
  t.true(again.head() >= 1 && again.head() <= 3);
  await again.append(makeBatch(again.head() + 1, 1));
  await again.close();
});

withDir(
  'read streams a multi-MiB log in chunks, with frames larger than a chunk, from any position',
  async (t, dir) => {
    const log = await openLog(dir);
    const big = makeBatch(1, 1)[0]!;
    big.postchange = { ...big.postchange, comments: 'x'.repeat(3 * 1024 * 1024) };
    await log.append([big]);
    let next = 2;
    const sizes: number[] = [];
    for (let i = 0; i < 1500; i++) {
      const size = (i % 7) + 1;
      sizes.push(size);
      await log.append(makeBatch(next, size));
      next += size;
    }
    const head = next - 1;
    t.is(log.head(), head);
    t.true(fs.statSync(log.file).size > 6 * 1024 * 1024);

    const all = await readAll(log, 1);
    t.is(all.length, 1501);
    t.deepEqual(all[0], [big]);
    t.deepEqual(
      all.flat().map((e) => e.position),
      Array.from({ length: head }, (_, i) => i + 1),
    );

    for (const from of [2, 3, 1000, 2500, head - 1, head]) {
      const got = (await readAll(log, from)).flat().map((e) => e.position);
      t.is(got[0], from);
      t.is(got.length, head - from + 1);
    }
    await log.close();
    const again = await openLog(dir);
    t.is(again.head(), head);
    t.is((await readAll(again, 2500)).flat()[0]!.position, 2500);
    await again.close();
  },
);

withDir('a slow subscriber overflowing its live buffer still gets every batch once, in order', async (t, dir) => {
  const log = await openLog(dir);
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const seen: number[] = [];
  const sub = log.subscribe(1, async (b) => {
    await gate;
    for (const e of b) seen.push(e.position);
  });
  await sub.caughtUp;
  for (let i = 1; i <= 1500; i++) await log.append([makeEvent(i)]);
  release();
  await waitFor(() => seen.length >= 1500, 20_000);
  await sub.stop();
  t.deepEqual(
    seen,
    Array.from({ length: 1500 }, (_, i) => i + 1),
  );
  await log.close();
});

withDir('a throwing onBatch ends the subscription: caughtUp and done reject', async (t, dir) => {
  const log = await openLog(dir);
  await log.append(makeBatch(1, 2));
  const sub = log.subscribe(1, async () => {
    throw new Error('projection bug');
  });
  await t.throwsAsync(sub.caughtUp, { message: 'projection bug' });
  await t.throwsAsync(sub.done, { message: 'projection bug' });
  await log.append(makeBatch(3, 1)); // the log itself is unaffected
  t.is(log.head(), 3);
  await log.close();
});

withDir('stop() from inside onBatch does not deadlock; close() stops subscriptions', async (t, dir) => {
  const log = await openLog(dir);
  await log.append(makeBatch(1, 1));
  let calls = 0;
  const sub = log.subscribe(1, async () => {
    calls++;
    await sub.stop();
  });
  await waitFor(() => calls === 1);
  await sub.done;
  await log.append(makeBatch(2, 1));
  const other = log.subscribe(1, async () => undefined);
  await other.caughtUp;
  await log.close();
  await other.done;
  t.is(calls, 1);
});

withDir('appends after close are refused; close waits for in-flight appends', async (t, dir) => {
  const log = await openLog(dir);
  const pending = log.append(makeBatch(1, 5));
  await log.close();
  await pending;
  await t.throwsAsync(log.append(makeBatch(6, 1)));
  const again = await openLog(dir);
  t.is(again.head(), 5);
  await again.close();
});
